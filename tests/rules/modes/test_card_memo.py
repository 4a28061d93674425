"""2c, issue 17: an Operations Card is built once for the things it shows. Along random
games of several kinds, each side's card in every state equals one built afresh, and a
card whose units (the same frozen Unit objects), launches (3a4) and bases' damage
(Bases 3) did not change from one state to the next is the very same object, which the
diff and the live page then pass over as one."""

from __future__ import annotations

import dataclasses
import random

import pytest

from app import rules
from app.rules.engine.state import SIDES, State
from app.rules.expansions.ptvm.theatre import is_theatre
from app.rules.modes.observer import CARDS_KEPT, _card, _make_card
from app.rules.modes.seats import acting
from tools.fuzz import choose

CASES = [
    ("one", ()),
    ("two", ("12a", "15a", "11a")),
    ("four", ()),
    ("coral-sea", ()),
]


def inputs(state: State, side: str) -> tuple[list[int], object, object]:
    """What the card is built from, each object by its identity."""
    return (
        [id(u) for u in state.units[side].values()],
        tuple(state.launched.items()),
        tuple((base, id(d)) for base, d in (state.ptvm.base_damage if state.ptvm else {}).items()),
    )


@pytest.mark.parametrize(("scenario", "options"), CASES)
def test_2c_a_card_is_built_once_for_what_it_shows(scenario: str, options: tuple[str, ...]) -> None:
    rng = random.Random(2)
    state = rules.new_game(scenario, frozenset(options), 2)
    before: dict[str, tuple[object, dict[str, object], State]] = {}
    shared = 0
    for _ in range(250):
        for side in SIDES:
            card = _card(state, side)
            assert card == _make_card(state, side)
            now = inputs(state, side)
            if side in before and not is_theatre(state):
                was, old, _alive = before[side]  # the old state kept: its ids stay its own
                if was == now:
                    assert card is old
                    shared += 1
            before[side] = (now, card, state)
        if state.status == "finished":
            break
        seat = rng.choice(acting(state))
        state, _events = rules.apply(state, seat, choose(state, seat, rng))
    if not is_theatre(state):
        assert shared > 0  # the check above was made


def test_2c_a_unit_changed_makes_a_new_card() -> None:
    state = rules.new_game("one", frozenset(), 3)
    card = _card(state, "usa")
    moved = state.clone()
    unit = next(iter(moved.units["usa"].values()))
    moved.put(dataclasses.replace(unit, damage=unit.damage + 1))
    assert _card(moved, "usa") is not card
    assert _card(moved, "usa") == _make_card(moved, "usa")


def test_17_a_card_in_use_outlives_the_cards_built_since() -> None:
    """A live game's unchanged card stays the same object however many cards of other
    games were built after it (CARDS_KEPT of them), as long as it is asked for meanwhile:
    the least recently used go first."""
    games = [rules.new_game("one", frozenset(), seed) for seed in range(3)]
    ours = _card(games[0], "usa")
    others = []
    for i in range(CARDS_KEPT + 10):
        state = games[1 + i % 2].clone()  # fresh unit tables: a card of its own
        unit = next(iter(state.units["japan"].values()))
        state.put(dataclasses.replace(unit, damage=i % 3))
        others.append(state)  # kept alive, as live games keep theirs
        _card(state, "japan")
        if i % 100 == 0:
            assert _card(games[0], "usa") is ours
    assert _card(games[0], "usa") is ours
