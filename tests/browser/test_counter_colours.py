"""Issue 30, 1b1: every counter is drawn in its own side's colour whoever looks - American
blue, Japanese red - on the American, the Japanese and the umpire's seat page, on the
Operations Cards and the Battleboard, and in the replay as each side saw it. A seat page's
<body> carries its own side's class: no rule may colour a counter by it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import SETTLED, SeatPage, full_page_shot

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
# the computed fill of each counter's face, by the side of the counter (its own class),
# and each side's colour as the page's custom properties give it
FILLS = """(where) => {
    const colour = (v) => { const d = document.createElement('div'); d.style.color = `var(${v})`;
        document.body.append(d); const c = getComputedStyle(d).color; d.remove(); return c; };
    const fills = (side) => [...document.querySelectorAll(
            `${where} .ctr.${side} > .face .bg, ${where} .piece.${side} > .face .bg`)]
        .map(e => getComputedStyle(e).fill);
    return {usa: colour('--usa'), japan: colour('--ijn'), usaFills: fills('usa'),
        japanFills: fills('japan')};
}"""


def colours_right(page: Any, where: str, name: str) -> None:
    """Both sides' counters are in `where`, each drawn in its own side's colour."""
    found = page.evaluate(FILLS, where)
    assert found["usa"] != found["japan"], found
    assert found["usaFills"] and found["japanFills"], (name, "both sides' counters", found)
    assert set(found["usaFills"]) == {found["usa"]}, (name, "American counters", found)
    assert set(found["japanFills"]) == {found["japan"]}, (name, "Japanese counters", found)


def umpired(base: str, scenario: str) -> ApiGame:
    r = HTTP.post(f"{base}/api/games", json={"scenario": scenario, "mode": "umpired", "seed": 3})
    assert r.status_code == 201, r.text
    body = r.json()
    return ApiGame(base, body["id"], {s["seat"]: s["token"] for s in body["seats"]})


def test_1b1_each_side_s_counters_in_its_own_colour_on_every_seat_s_page(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """Two-player Scenario One (both Operations Cards open, 2c) from the American and the
    Japanese seat; an umpired game from the umpire's, who sees both cards (18b); Scenario
    Four's Battleboard, both sides' ships to set up, from each seat."""
    context = browser.new_context(viewport=LAPTOP)
    one, four = ApiGame.create(server.url), ApiGame.create(server.url, scenario="four")
    pages = [
        (one, "usa", "#r-cards"),
        (one, "japan", "#r-cards"),
        (umpired(server.url, "one"), "umpire", "#r-cards"),
        (four, "usa", "#r-battle"),
        (four, "japan", "#r-battle"),
    ]
    for n, (game, seat, where) in enumerate(pages):
        page = SeatPage(context.new_page(), game.link(seat), artifacts).open()
        page.synced()
        page.page.wait_for_function(SETTLED)
        full_page_shot(page.page, artifacts / f"{n}-{game.id}-{seat}.png")
        colours_right(page.page, where, f"{seat} seat, {where}")
    context.close()


def test_1b1_the_replay_draws_each_side_s_counters_in_its_own_colour(
    browser: Any, server: Server
) -> None:
    """The replay of "what Japan knew" (its page has the Japanese side's class)."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.finish()
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    for seat in ("japan", "usa"):
        page.goto(f"{server.url}/games/{game.id}/replay?seat={seat}&at=0")
        page.wait_for_selector(".replay-nav .autoplay:not([hidden])")
        colours_right(page, "#r-cards", f"replay as {seat}")
    context.close()
