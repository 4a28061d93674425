"""DESIGN.md, Hidden information, in the HTML: the score line, the rule links and the
names are rendered from the seat's view alone, so two umpired games that differ only in
damage a side was not told of (18c2) give that side the same page regions, byte for
byte; in the two-player game, where the Operations Cards are open (2c), they differ."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from app import rules
from app.rules.engine.state import ELIMINATED, GONE, State
from app.web import render
from app.web.render import Seat

pytestmark = pytest.mark.browser


def game(mode: str, sunk: bool) -> State:
    state = rules.new_game("one", frozenset(), 3, mode)
    if sunk:  # Yorktown lost where Japan saw nothing and was told nothing
        york = state.units["usa"]["Yorktown"]
        york = state.put(replace(york, damage=ELIMINATED, box=GONE))
    return state


def page(state: State, seat: str, number: int) -> str:
    """The seat's regions, for a game of its own id (a rendered view is kept by game,
    seat and version), the id masked."""
    game_id = f"{number:016x}"
    view = json.loads(json.dumps(rules.view(state, seat)))
    view.update(id=game_id, version=1, seat=seat)
    parts = render.regions(view, [], Seat(game_id, seat), replay=False)
    return "".join(parts[n] for n in render.REGIONS).replace(game_id, "GAME")


@pytest.mark.parametrize("mode", ["umpired", "double-blind"])
def test_18c2_japans_page_is_the_same_whatever_it_was_not_told(mode: str) -> None:
    told, untold = page(game(mode, False), "japan", 0xF1), page(game(mode, True), "japan", 0xF2)
    assert told == untold
    assert "Score so far (" in told and "Japan 0, United States 0" in told
    american = page(game(mode, True), "usa", 0xF3)
    assert "Japan 25, United States 0" in american, "the Americans know their own loss"


def test_2c_in_the_two_player_game_the_open_cards_tell_both_sides() -> None:
    assert "Japan 25, United States 0" in page(game("two-player", True), "japan", 0xF4)
