"""Names players use: task forces by their names, a scout with its ship ("Scout O,
Yorktown"), a strike by where it comes from ("the strike from Yorktown"), as the
scenario's data gives them (7a2.3); a replay, read by anyone, never says "you"; the Dice
panel is in the order it says (latest first)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app import rules
from app.web import render
from app.web.names import Names
from app.web.render import Seat
from browser.conftest import Server
from browser.games import ApiGame
from browser.pages import SeatPage

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}


def test_7a2_3_names_come_from_the_scenarios_setup() -> None:
    names = Names({"scenario": {"id": "one"}})
    assert names.force("MobileForce") == "Mobile Force"
    assert names.force("TF16") == "Task Force 16"
    assert names.marker("TF16") == "TF 16" and names.marker("MobileForce") == "Mobile Force"
    assert names.unit("usa", "M") == "Scout M, Enterprise"
    assert names.unit("japan", "M") == "Scout M, Chikuma"  # both sides have a scout M
    assert names.unit("usa", "B5") == "B5"
    assert names.unit("japan", "Akagi") == "Akagi"
    assert names.strike("japan", ["AD", "KD", "1AT"]) == "the strike from Akagi/Kaga"
    assert names.strike("usa", ["O"]) == "Scout O, Yorktown"


def test_3d2_the_seat_page_names_scouts_and_strikes_by_their_ships(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        us = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        us.synced()
        log = us.text("#r-log")
        assert "United States: Scout O, Yorktown takes off from Yorktown" in log, log
        titles = us.page.eval_on_selector_all(
            "#r-searchboard .mark.flight title, #r-searchboard .stack-item.flight",
            "els => els.map(e => e.textContent || e.title)",
        )
        titles += us.page.eval_on_selector_all(
            "#r-searchboard .stack-item", "els => els.map(e => e.title)"
        )
        joined = " | ".join(titles)
        assert "strike from Yorktown flying in L2" in joined, joined
        choices = us.page.eval_on_selector_all(
            "#r-prompt button, #r-prompt option", "els => els.map(e => e.textContent)"
        )
        picks = us.page.eval_on_selector_all(
            "#r-prompt button.subject",
            "els => els.map(e => e.textContent.trim())",
        )
        assert "Strike from Yorktown (flying)" in picks, picks
        assert "Scout O, Yorktown (flying)" in picks, picks
        flies = [c for c in choices if c and c.strip().startswith("Fly ")]
        assert flies and all(
            re.match(r"Fly (the strike from Yorktown|Scout O, Yorktown) to [A-T]\d+", c.strip())
            for c in flies
        ), flies
        assert not us.errors, us.errors
    finally:
        ctx.close()


def test_3_a_replay_never_says_you(browser: Any, server: Server) -> None:
    game = ApiGame.create(server.url)
    game.set_up()
    game.finish()
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = ctx.new_page()
        for seat in ("usa", "japan", "omniscient"):
            page.goto(f"{server.url}/games/{game.id}/replay?seat={seat}&at=8")
            words = page.inner_text("main") + page.inner_text("#r-status")
            assert not re.search(r"\b(you|your|yours)\b", words, re.I), (seat, words)
    finally:
        ctx.close()


def test_3_the_dice_panel_is_latest_first_as_it_says() -> None:
    """A tie, then the roll that settles it (3): the settling roll comes first, as the
    panel's heading says (latest first)."""
    state = rules.new_game("one", frozenset(), 1)
    view = json.loads(json.dumps(rules.view(state, "usa")))
    rolls = [{"usa": 3, "japan": 3}, {"usa": 5, "japan": 3}]
    events = [
        {"kind": "sides-roll", "audience": "all", "turn": view["turn"], "step": "sides", **r}
        for r in rolls
    ]
    html = render.regions(view, events, Seat("", "usa"), ("dice",), replay=True)["dice"]
    assert "latest first" in html
    shown = [
        re.sub(r"<[^>]+>", "", x) for x in re.findall(r'<p class="sides-roll">(.*?)</p>', html)
    ]
    assert shown == [
        "Sides roll (3): United States 5, Japan 3",
        "Sides roll (3): United States 3, Japan 3 - a tie, roll again",
    ], shown
