"""7a3, issue 17: the running tally of everything (both sides' losses, as every seat of a
two-player game knows them, 2c) is made once for the same Unit objects. Along random
games it equals a tally made afresh at every state, and a state whose units are the very
objects of the state before (an action that moved no unit) gives the very same tally."""

from __future__ import annotations

import random

import pytest

from app import rules
from app.rules.base.score import _tally, _tally_all, known_score
from app.rules.modes.seats import acting
from tools.fuzz import choose


@pytest.mark.parametrize(("scenario", "options"), [("one", ()), ("two", ("12a", "15a"))])
def test_7a3_the_tally_of_everything_is_made_once_for_the_same_units(
    scenario: str, options: tuple[str, ...]
) -> None:
    rng = random.Random(4)
    state = rules.new_game(scenario, frozenset(options), 4)
    before = None
    shared = 0
    for _ in range(300):
        if state.status == "finished":
            break
        tally = _tally_all(state)
        assert tally == _tally(state, lambda u: u, "all")
        assert known_score(state, "usa") == tally  # 2c: open cards, every unit known
        units = [id(u) for side in ("japan", "usa") for u in state.units[side].values()]
        if before is not None and before[0] == units:
            assert tally is before[1]
            shared += 1
        before = (units, tally, state)  # the old state kept: its ids stay its own
        seat = rng.choice(acting(state))
        state, _ = rules.apply(state, seat, choose(state, seat, rng))
    assert shared > 0
