"""Issue 13, counters like the die-cut ones (1b1): every unit of Scenarios One and Four is
drawn on the Operations Cards with the factors printed on its side up, read here from
scenarios/units.toml itself (not a copy), the white stripe on a back side, and its hit
markers as a marker; an eliminated unit goes to the "Sunk / destroyed" box."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from app import rules
from app.web import render
from app.web.render import Seat
from browser.conftest import ROOT, Server
from browser.games import ApiGame
from browser.pages import SeatPage

pytestmark = pytest.mark.browser

SCENARIOS = ROOT / "scenarios"
SHIP_KEYS = ("defense", "surface", "movement", "torpedo", "aa")
AIR_KEYS = ("defense", "air_combat", "movement", "bombing")  # the order of "front"/"back"
NOTE = re.compile(r"^(?P<id>.+?)(?: \((?P<note>back|1 hit|2 hits)\))?$")


def printed_faces() -> dict[tuple[str, str], dict[str, dict[str, str]]]:
    """(side, id) -> {"front": {factor: text}, "back": {...}} from units.toml; "-" is "–"
    on the page, as on the counters."""
    data = tomllib.loads((SCENARIOS / "units.toml").read_text())
    out: dict[tuple[str, str], dict[str, dict[str, str]]] = {}
    for ship in data["ship"]:
        faces: dict[str, dict[str, str]] = {"front": {}, "back": {}}
        for key in SHIP_KEYS:
            for face, value in zip(("front", "back"), str(ship[key]).split("/"), strict=False):
                faces[face][key] = value.replace("-", "–")
        out[(ship["side"], ship["id"])] = faces
    for air in data["air"]:
        faces = {}
        for face in ("front", "back"):
            values = str(air[face]).split("/")
            if len(values) == len(AIR_KEYS):
                faces[face] = {
                    k: v.replace("-", "–") for k, v in zip(AIR_KEYS, values, strict=True)
                }
        out[(air["side"], air["id"])] = faces
    return out


def scenario_units(scenario: str) -> list[tuple[str, str, str | None]]:
    """(side, id, setup note) of every unit the scenario file places (7a2.2)."""
    data = tomllib.loads((SCENARIOS / f"scenario-{scenario}.toml").read_text())
    out = []
    for force in data["force"]:
        listed = [*force.get("ships", []), *(u for a in force.get("air", {}).values() for u in a)]
        for entry in listed:
            m = NOTE.match(entry)
            assert m, entry
            out.append((force["side"], m["id"], m["note"]))
    return out


def drawn(page: SeatPage) -> dict[str, dict[str, Any]]:
    """Every counter on the Operations Cards: its factors as the page prints them, whether
    its back is up (the stripe), and its hit marker."""
    found: dict[str, dict[str, Any]] = page.page.eval_on_selector_all(
        "#r-cards button.ctr[data-key]",
        """els => Object.fromEntries(els.map(e => [e.dataset.key, {
            factors: Object.fromEntries([...e.querySelectorAll('[data-f]')]
                .map(t => [t.dataset.f, t.textContent])),
            back: e.classList.contains('back'),
            stripe: !!e.querySelector('.stripe'),
            hit: (e.querySelector('.hit-marker text') || {}).textContent || null,
            width: e.getBoundingClientRect().width,
            height: e.getBoundingClientRect().height,
        }]))""",
    )
    return found


@pytest.mark.parametrize("scenario", ["one", "four"])
def test_counters_show_the_printed_factors_of_every_unit(
    browser: Any, server: Server, artifacts: Path, scenario: str
) -> None:
    """1b1: ships show defense (with its armour letter), surface (with its gun letter),
    movement, torpedo and anti-aircraft; air units defense, air combat, movement and
    bombing; a unit set up "(back)" shows its back with the white stripe, one set up
    "(1 hit)" its front with a hit marker (7a2.2). Counters are square."""
    game = ApiGame.create(server.url, scenario=scenario)
    faces = printed_faces()
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        page.synced()
        page.shot(f"scenario-{scenario}")
        counters = drawn(page)
        units = scenario_units(scenario)
        assert len(units) > 10
        for side, uid, note in units:
            c = counters.get(f"u:{side}:{uid}")
            assert c is not None, f"{side} {uid} is not on the Operations Cards"
            face = "back" if note == "back" else "front"
            assert c["factors"] == faces[(side, uid)][face], (side, uid, face)
            assert c["back"] == c["stripe"] == (note == "back"), (side, uid)
            assert c["hit"] == ("1" if note == "1 hit" else None), (side, uid)
            assert c["width"] == c["height"] == 48, (side, uid)
        assert not page.errors, page.errors
    finally:
        ctx.close()


def test_a_sunk_carrier_is_in_the_sunk_box_not_six_hits() -> None:
    """Issue 13: an eliminated unit leaves its box for the side's "Sunk / destroyed" box,
    greyed, without hit markers; its label says "sunk", never "6 hits". The view is the
    engine's, with Akagi shaped as view() shapes an eliminated unit (in the card's
    `eliminated` list, `eliminated: true`, its hits as they were)."""
    view = json.loads(json.dumps(rules.view(rules.new_game("one", frozenset(), 1), "usa")))
    view.update(id="0123456789abcdef", version=1, seat="usa")
    card = view["operations_cards"]["japan"]
    akagi = {**card["units"].pop("Akagi"), "hits": 6, "eliminated": True}
    card["eliminated"] = [akagi]
    for force in card["forces"]:
        force["ships"] = [s for s in force["ships"] if s != "Akagi"]
    html = render.regions(view, [], Seat("0123456789abcdef", "usa"), ("cards",))["cards"]
    box = html.split(' class="area gone-box"', 1)[1].split("</div></div>", 1)[0]
    assert "Sunk / destroyed" in box
    button = re.search(r'<button[^>]*data-key="u:japan:Akagi"[^>]*>.*?</button>', box, re.S)
    assert button is not None
    assert 'class="ctr japan ship gone"' in button[0]
    assert "hit-marker" not in button[0] and "hits" not in button[0]
    assert "sunk" in button[0]
    assert html.count('data-key="u:japan:Akagi"') == 1  # nowhere else on the card


INSIDE_ITS_HEX = """board => [...board.querySelectorAll('.mark')].flatMap(m => {
    const at = m.dataset.at.split(':')[1];
    const hex = board.querySelector(`[data-hex="${at}"] use`).getBoundingClientRect();
    const box = (m.querySelector('.bg') || m).getBoundingClientRect();  // the counter itself
    const cx = hex.x + hex.width / 2, cy = hex.y + hex.height / 2, size = hex.width / 2;
    const corners = [[box.left, box.top], [box.right, box.top],
                     [box.left, box.bottom], [box.right, box.bottom]];
    const out = corners.filter(([x, y]) => {   // a flat-topped hexagon of radius `size`
        const dx = Math.abs(x - cx), dy = Math.abs(y - cy);
        return dy > hex.height / 2 + 0.5 || dx > size - dy / Math.sqrt(3) + 0.5;
    });
    return out.length ? [`${m.dataset.key || m.dataset.stack} sticks out of ${at}`] : [];
})"""


def test_a_stack_is_one_counter_with_a_count_opened_by_a_click(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """Issue 13: in L2, Task Force 17's marker, O flying and the L2 strike group are one
    counter with the count 3; a click opens them beside the hex, one of them is picked
    from there; no counter on the Searchboard or the Battleboard reaches outside its hex."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        us = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        us.synced()
        board = us.page.locator('#r-searchboard svg[data-board="sb"]')
        stack = board.locator('[data-stack="L2"]')
        assert stack.count() == 1
        assert stack.locator(".count text").text_content() == "3"
        assert board.locator('[data-at="sb:L2"]').count() == 1  # one counter drawn in L2
        assert board.evaluate(INSIDE_ITS_HEX) == []
        pop = us.page.locator('.stack-pop[data-stack-of="L2"]')
        assert pop.is_hidden()
        stack.click()
        assert pop.is_visible() and stack.get_attribute("aria-expanded") == "true"
        keys = pop.locator(".stack-item").evaluate_all("bs => bs.map(b => b.dataset.key)")
        assert sorted(keys) == ["g:usa:L2-strike", "g:usa:O", "tf:usa:TF17"]
        box, hex_box = pop.bounding_box(), board.locator('[data-hex="L2"]').bounding_box()
        assert box and hex_box and box["x"] >= hex_box["x"] + hex_box["width"] - 1  # beside it
        pop.locator('[data-key="g:usa:O"]').click()
        us.page.wait_for_selector('.stack-pop [data-key="g:usa:O"].selected')
        us.shot("stack-open")
        us.page.keyboard.press("Escape")
        assert pop.is_hidden()
        game.to_anti_aircraft()
        us.synced()
        battle = us.page.locator('#r-battle svg[data-board="bb"]')
        assert battle.locator(".piece").count() > 10
        assert battle.evaluate(INSIDE_ITS_HEX) == []  # ships, and the air units beside them
        assert not us.errors, us.errors
    finally:
        ctx.close()
