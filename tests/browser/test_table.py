"""Issue 13, the play page as a wargame table: the consequence shown before the commitment
(a torpedo approach hex shows its 4d3 modifier), and a selection that behaves (an illegal
click says why, with the rule; one's own counter is picked where it stands)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from app import rules
from app.web import render
from app.web.names import in_words
from app.web.render import Seat
from browser.conftest import ROOT, Server
from browser.games import HTTP, ApiGame
from browser.pages import SeatPage
from browser.test_counters import INSIDE_ITS_HEX

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}


def test_4d3_each_torpedo_approach_hex_shows_its_modifier(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """4d3.2: from dead ahead (J10) or dead astern (J12) of Akagi, facing N, threading -2;
    4d3.1: from a bow, half an anvil (+3 once another comes in on the other bow). Shown on
    each lit hex while T3 is picked, before the click that commits it."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    game.to_torpedo_approach()
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        us = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        us.synced()
        notes = us.page.locator("#r-battle .approach-mod.on")
        assert notes.count() == 0  # nothing shown before T3 is picked
        us.pick('#r-battle .tray [data-key="u:usa:T3"]')
        shown = notes.evaluate_all(
            "gs => Object.fromEntries(gs.map(g => [g.dataset.hexOf, "
            "[g.querySelector('text').textContent, g.getAttribute('aria-label')]]))"
        )
        lit = us.page.locator("#r-battle .hex.target").evaluate_all(
            "hs => hs.map(h => h.dataset.hex)"
        )
        assert lit and sorted(shown) == sorted(lit)  # every lit hex says what it does
        ahead, astern = shown["J10"], shown["J12"]
        assert ahead[0].startswith("-2") and "threading" in ahead[1] and "4d3.2" in ahead[1]
        assert astern[0].startswith("-2") and "dead astern" in astern[1]
        bows = [v for v in shown.values() if "bow" in v[1] and "Akagi" not in v[1]]
        assert bows and all("anvil +3" in v[1] and "4d3.1" in v[1] for v in bows)
        us.shot("approach")
        assert not us.errors, us.errors
    finally:
        ctx.close()


def test_an_illegal_click_says_why_with_the_rule(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """Issue 13: with Task Force 17 picked at setup, a click on a hex west of the Dateline,
    where it may not set up, says so with the rule of the scenario's setup (7b2), in the
    words the server's 422 for that placement gives (less the action's syntax, issue 30);
    it moves nothing, and the selection
    stays for the next click."""
    game = ApiGame.create(server.url)
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        us = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        before = us.synced()["version"]
        us.pick('#act .subject[data-key="tf:usa:TF17"]')
        west = us.page.locator('#r-searchboard [data-tkey="sb:C5"]')
        assert "target" not in (west.get_attribute("class") or "")
        box = west.bounding_box()
        assert box is not None
        west.click(position={"x": box["width"] / 2, "y": box["height"] * 0.2})
        flash = us.page.locator("#flash")
        flash.wait_for()
        us.page.wait_for_function(
            "() => document.getElementById('flash').textContent.includes('C5')"
        )
        words = flash.inner_text()
        assert "Task Force 17 sets up in any hex east of the International Dateline" in words, words
        assert "(7b2)" in words and "not in C5" in words, words
        assert us.view()["version"] == before  # nothing was posted
        refused = HTTP.post(
            f"{game.base}/api/games/{game.id}/actions",
            json={"version": before, "action": {"kind": "place", "force": "TF17", "hex": "C5"}},
            headers=game.auth("usa"),
        )
        assert refused.status_code == 422 and refused.json()["rule"] == "7b2", refused.text
        # the server's reason, as the page words it: without the action's syntax in front
        # ("'place TF17 C5' is not legal now: ", issue 30) and each task force by its name
        assert in_words("one", refused.json()["detail"]) in words, (refused.json(), words)
        assert "'place" not in words, words
        assert us.page.locator('#act .subject.selected[data-key="tf:usa:TF17"]').count()
        us.page.screenshot(path=str(artifacts / "why-not-viewport.png"))
    finally:
        ctx.close()


@pytest.mark.parametrize("scenario", ["one", "two", "three", "four"])
def test_7a3_the_victory_condition_is_on_the_page(scenario: str) -> None:
    """7b4.1 (7c4.1, 7d4.1, 7e4.1): the status line says what each side needs, with the
    margins of the scenario's data file (read here from the file itself)."""
    data = tomllib.loads((ROOT / "scenarios" / f"scenario-{scenario}.toml").read_text())
    state = rules.new_game(scenario, frozenset(), 1)
    seat = rules.seats(state)[0].id
    view = json.loads(json.dumps(rules.view(state, seat)))
    game = f"{['one', 'two', 'three', 'four'].index(scenario) + 1:016x}"  # one game each:
    view.update(id=game, version=1, seat=seat)  # a rendered view is kept by game and version
    html = render.regions(view, [], Seat(game, seat), ("status",))["status"]
    goal = re.search(r'<p class="goal">(.*?)<span class="score"', html)
    assert goal is not None
    assert f'data-rule="{data["rule"]}4.1"' in goal[1], "the rule number opens its explanation"
    words = re.sub(r"<[^>]+>", "", goal[1])
    assert f"({data['rule']}4.1)" in words
    for side, enemy, key in (
        ("Japan", "United States", "japan"),
        ("United States", "Japan", "usa"),
    ):
        margin = data[f"{key}_wins_margin"]
        more = "more" if margin == 1 else f"{margin} more"
        assert f"{side} needs {more} victory points than {enemy}" in words, words


@pytest.mark.parametrize("viewport", [LAPTOP, {"width": 390, "height": 844}])
def test_4a3_air_units_on_the_battleboard_stay_inside_their_hex(
    browser: Any, server: Server, artifacts: Path, viewport: dict[str, int]
) -> None:
    """Issue 13: B3 and B5 set up on Akagi (4a3.1) are one counter with a count, beside
    the ship and inside its hex; a click opens the stack beside it; nothing on the
    Battleboard is drawn outside its hex, and the page is no wider than the screen."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    game.to_torpedo_approach()
    game.act("usa", kind="approach", unit="T3", target="Akagi", hex="I11")
    ctx = browser.new_context(viewport=viewport)
    try:
        jp = SeatPage(ctx.new_page(), game.link("japan"), artifacts).open()
        jp.synced()
        p = jp.page
        stack = p.locator('#r-battle svg [data-stack="bb:J11"]')
        assert stack.count() == 1 and stack.locator(".count").text_content() == "2"
        assert p.locator('#r-battle svg .piece[data-key="u:japan:Akagi"]').count() == 1
        assert p.locator('#r-battle svg .piece[data-key="u:usa:T3"]').count() == 1  # alone
        assert p.locator('#r-battle svg[data-board="bb"]').evaluate(INSIDE_ITS_HEX) == []
        stack.scroll_into_view_if_needed()
        stack.click()
        pop = p.locator('.stack-pop[data-stack-of="bb:J11"]')
        assert pop.is_visible()
        assert sorted(
            pop.locator(".stack-item").evaluate_all("bs => bs.map(b => b.dataset.key)")
        ) == ["u:usa:B3", "u:usa:B5"]
        p.screenshot(path=str(artifacts / f"battle-stack-{viewport['width']}.png"))
        assert p.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert not jp.errors, jp.errors
    finally:
        ctx.close()
