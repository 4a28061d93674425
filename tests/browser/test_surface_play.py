"""Issue 6, Done when: "A browser test plays a Surface Turn of Scenario Four by clicking."

Two players, two browsers (the American one on a phone-sized screen), one Scenario Four
game (7e): the Americans choose their setup line and both sides set up in formation (16c);
then one whole Surface Turn by clicks on the Battleboard - a ship advances into the hex
ahead of it (16e1), a torpedo marker is placed beside a ship (16f), a selected ship shows
its gun range and half range and fires at an enemy ship (16g), the torpedo combat is
resolved (16h) - through to the start of Surface Turn 2. Each page shows both sides' ships
(16a: after contact the combat is public) and the log's combat lines.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app import rules
from app.rules.engine.actions import Action
from app.web import choices, render
from app.web.render import Seat
from browser.conftest import Server
from browser.games import HTTP
from browser.pages import TIMEOUT_MS, SeatPage

pytestmark = pytest.mark.browser

# With this seed the Americans are Surface Side A in Surface Turn 1 (7 against 5), so the
# Japanese (Side B) move, indicate torpedo fire and fire their guns first (16d1).
SEED = 10
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1440, "height": 900}
SHIPS = {
    "usa": ("Minneapolis", "NewOrleans", "Northampton", "Pensacola", "Vincennes", "DD3"),
    "japan": ("Kumano", "Mikuma", "Mogami", "Suzuya", "DD10"),
}
ROLL = r"\d+ vs \d+: (one hit|no damage|flipped|eliminated)"
GUNNERY = re.compile(r"Gunnery \(16g\): Japan Kumano at Minneapolis, range 3: " + ROLL)
TORPEDO = re.compile(r"Torpedo combat \(16h\): Japan Kumano on [\w ]+: " + ROLL)


# -- without a browser: what the clicks rely on ---------------------------------------------


def four_at_movement() -> Any:
    state = rules.new_game("four", frozenset(), SEED)
    for seat, text in (("usa", "line I N"), ("usa", "formation"), ("japan", "formation")):
        state, _ = rules.apply(state, seat, Action.from_text(text))
    return state


def test_each_advance_lights_the_hex_the_ship_moves_into() -> None:
    """16e1: "advance" is picked by the hex ahead; it is the hex the rules move the ship to."""
    state = four_at_movement()
    view = rules.view(state, "japan")
    advances = [
        c
        for c in choices.choices(view, choices.Namer(view, "japan"))
        if c.action["kind"] == "advance"
    ]
    assert advances
    for c in advances:
        action = Action.from_text(f"advance {c.action['ship']}")
        _, events = rules.apply(state, "japan", action)
        moved = next(e for e in events if e.kind == "surface-advance")
        assert c.target == f"bb:{moved.data['hex']}", (c, moved.data)
        assert c.subject == f"u:japan:{c.action['ship']}"


def test_the_surface_battleboard_region_carries_every_ships_reach() -> None:
    """Both seats see both sides' ships (16a); each ship's gun range holds its half range."""
    state = four_at_movement()
    for seat in ("japan", "usa"):
        html = render.regions(rules.view(state, seat), [], Seat("0" * 16, seat), ("battle",))
        found = re.search(r'data-surface="([^"]+)"', html["battle"])
        assert found, html["battle"][:500]
        reach = json.loads(found.group(1).replace("&#34;", '"').replace("&quot;", '"'))
        assert sorted(reach) == sorted(f"u:{s}:{u}" for s, ids in SHIPS.items() for u in ids)
        for key, r in reach.items():
            assert set(r["half"]) <= set(r["gun"]) and r["front"] and r["rear"], key
        assert reach["u:japan:Kumano"]["torpedo"]  # Japanese cruisers carry torpedoes


# -- in two browsers ---------------------------------------------------------------------------


def create_four(server: Server) -> dict[str, str]:
    r = HTTP.post(f"{server.url}/api/games", json={"scenario": "four", "seed": SEED})
    assert r.status_code == 201, r.text
    body = r.json()
    return {
        s["seat"]: f"{server.url}/games/{body['id']}/seat/{s['seat']}#token={s['token']}"
        for s in body["seats"]
    }


def ship(side: str, uid: str) -> str:
    return f'#r-battle svg [data-key="u:{side}:{uid}"]'


def hexes(page: SeatPage, cls: str) -> list[str]:
    found: list[str] = page.page.eval_on_selector_all(
        f"#r-battle svg .hex.{cls}", "els => els.map(e => e.getAttribute('data-hex'))"
    )
    return found


def selected(page: SeatPage, selector: str) -> None:
    """Have the ship selected (a ship stays selected after an action: no second click)."""
    if not page.page.locator(f"{selector}.selected").count():
        page.pick(selector)


def test_two_browsers_play_a_surface_turn_of_scenario_four(
    browser: Any, server: Server, artifacts: Path
) -> None:
    links = create_four(server)
    jp_ctx, us_ctx = browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)
    try:
        jp = SeatPage(jp_ctx.new_page(), links["japan"], artifacts).open()
        us = SeatPage(us_ctx.new_page(), links["usa"], artifacts).open()
        try:
            set_up(jp, us)
            movement(jp, us)
            torpedo_fire(jp, us)
            gunnery(jp, us)
            next_surface_turn(jp, us)
        except Exception:
            jp.shot("FAILED")
            us.shot("FAILED")
            raise
    finally:
        jp_ctx.close()
        us_ctx.close()


def set_up(jp: SeatPage, us: SeatPage) -> None:
    """7e, 16c: the Americans (Side B of the setup) choose line I facing north, then both
    sides set up in formation."""
    view = us.synced()
    assert view["step"] == "surface setup"
    assert us.page.is_visible("#r-battle svg.board.surface")
    assert "Surface Turn 1 of 10" in us.text("#r-battle h2")
    tray = us.text("#r-battle .tray")
    assert "Minneapolis" in tray and "Kumano" in tray  # every ship still to set up
    us.shot("setup")
    us.choose("Set up on line I, facing N")
    us.choose("Place the remaining ships in formation")
    jp.synced()
    jp.choose("Place the remaining ships in formation")
    for page in (jp, us):
        page.synced()
        keys = page.keys("#r-battle svg .piece.ship")
        assert sorted(keys) == sorted(f"u:{s}:{u}" for s, ids in SHIPS.items() for u in ids)
        texts = page.page.locator("#r-battle svg .piece.ship text").all_text_contents()
        labels = [t.split()[0] for t in texts if t.split()]  # "US CA": the side, the type
        assert labels.count("US") == 6 and labels.count("IJN") == 5  # not colour only
        assert "Surface Side A: United States" in page.text("#r-battle")
        assert not page.page.is_visible("#r-searchboard svg")  # 7e: no Searchboards
    jp.shot("set-up")


def movement(jp: SeatPage, us: SeatPage) -> None:
    """16e1: Kumano advances L11 -> L10 and Minneapolis I11 -> I10, by clicking the ship
    and then the hex ahead of it."""
    view = jp.synced()
    assert view["step"] == "surface movement"
    jp.pick(ship("japan", "Kumano"))
    assert hexes(jp, "target") == ["L10"]  # only the hex straight ahead
    info = jp.text('#r-battle [data-info="u:japan:Kumano"]')
    assert "facing N" in info and "guns b: range 5, half range 2" in info, info
    jp.target('#r-battle [data-tkey="bb:L10"]')
    assert jp.page.get_attribute(ship("japan", "Kumano"), "data-at") == "bb:L10"
    jp.done()
    us.synced()
    by_keyboard(us, ship("usa", "Minneapolis"), "bb:I10")
    us.shot("moved")
    us.done()
    jp.synced()
    assert jp.page.get_attribute(ship("usa", "Minneapolis"), "data-at") == "bb:I10"
    assert "Minneapolis advances to I10 (16e1)" in jp.text("#r-log")


def by_keyboard(page: SeatPage, counter: str, target: str) -> None:
    """The same as pick-then-target, with keys only: Enter on the ship, Enter on "on the
    board" (focus goes to the first lit hex), Enter on that hex."""
    before = page.version()
    page.page.focus(counter)
    page.page.keyboard.press("Enter")
    page.page.wait_for_selector(f"{counter}.selected", timeout=TIMEOUT_MS)
    page.page.focus("#act .to-board")
    page.page.keyboard.press("Enter")
    focused = page.page.evaluate("document.activeElement.getAttribute('data-tkey')")
    assert focused == target, focused
    page.page.keyboard.press("Enter")
    page.page.wait_for_function(
        "v => Number(document.getElementById('r-prompt').dataset.v) > v",
        arg=before,
        timeout=TIMEOUT_MS,
    )
    page.synced()


def torpedo_fire(jp: SeatPage, us: SeatPage) -> None:
    """16f: Kumano's torpedo marker beside it in K11, its line running at the enemy."""
    view = jp.synced()
    assert view["step"] == "torpedo fire"
    selected(jp, ship("japan", "Kumano"))
    assert "K11" in hexes(jp, "torpedo-line") and "K11" in hexes(jp, "target")
    jp.target('#r-battle [data-tkey="bb:K11"]')
    for page in (jp, us):
        page.synced()
        marker = page.page.locator("#r-battle svg .torpedo.japan")
        assert marker.count() == 1
        label = marker.get_attribute("aria-label") or ""
        assert "Kumano in K11" in label and "IJN T" in (marker.text_content() or "")
    jp.shot("torpedo-marker")
    jp.done()


def gunnery(jp: SeatPage, us: SeatPage) -> None:
    """16g: the selected Kumano lights its gun range (5) and half range (2); it fires at
    Minneapolis, three hexes away. Then the Americans pass and the torpedo combat of
    Kumano's marker is resolved (16h)."""
    view = jp.synced()
    assert view["step"] == "gunnery"
    selected(jp, ship("japan", "Kumano"))
    gun, half = set(hexes(jp, "gun-range")), set(hexes(jp, "half-range"))
    assert half and half < gun
    assert {"I10", "L5", "L15"} <= gun and "I10" not in half and "L8" in half
    assert "L4" not in gun and "L10" not in gun  # 6 hexes away; its own hex
    assert jp.page.text_content('#r-battle [data-hex="L8"] .hl') == "F½"  # front sector
    jp.shot("gun-range")
    jp.target(ship("usa", "Minneapolis"))
    for page in (jp, us):
        page.synced()
        assert GUNNERY.search(page.text("#r-log")), page.text("#r-log")
        dice = page.text("#r-dice")
        assert "Gunnery (16g): Japan Kumano at Minneapolis" in dice and re.search(ROLL, dice)
    jp.done()
    us.synced()
    us.done()


def next_surface_turn(jp: SeatPage, us: SeatPage) -> None:
    """16d: Surface Turn 1 ends, the sides roll again, Surface Turn 2 begins."""
    for page in (jp, us):
        page.synced()
        page.page.wait_for_function(
            "() => document.querySelector('#r-battle h2').textContent"
            ".includes('Surface Turn 2 of 10')",
            timeout=TIMEOUT_MS,
        )
        log = page.text("#r-log")
        assert TORPEDO.search(log), log
        assert "Surface Turn 1 ends (16d)" in log
        assert page.page.locator("#r-battle svg .torpedo").count() == 0  # resolved, removed
    assert us.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    jp.shot("surface-turn-2")
    us.shot("surface-turn-2")
    assert jp.errors == [] and us.errors == []
