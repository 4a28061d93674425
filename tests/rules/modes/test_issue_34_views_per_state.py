"""Issue 34: a state's views share what several seats see alike, across calls.

Take-back looks at the other seats' views of the state an action made (1c: has anyone seen
it?), then the server builds every seat's view of that same state: the parts an audience
sees alike (7: the scenario; 2b: the Turn and step) are built once for the state, not once
per call. A seat's own parts (its prompt, with its take-back flag, issue 14) are its own in
every call."""

from __future__ import annotations

import gc
import random

from app import rules
from app.rules.engine import memo
from app.rules.modes import observer
from app.rules.modes.seats import acting
from tools.fuzz import choose


def _played(actions: int, seed: int = 5) -> rules.State:
    rng = random.Random(seed)
    state = rules.new_game("one", frozenset(), seed)
    for _ in range(actions):
        seat = rng.choice(acting(state))
        state, _ = rules.apply(state, seat, choose(state, seat, rng))
    return state


def test_7_2b_public_parts_are_built_once_per_state_across_calls() -> None:
    state = _played(30)
    japan = observer.view(state, "japan")
    usa = observer.views(state, ("usa",))["usa"]
    assert japan["scenario"] is usa["scenario"]  # 7: one object, built once for the state
    assert japan["time"] is usa["time"]  # 6, 7a
    assert observer.view(state, "japan")["searchboard"] is japan["searchboard"]  # 1c: a side's
    assert japan["prompt"] is not observer.view(state, "japan")["prompt"]  # a viewer's own


def test_14_the_take_back_flag_is_read_when_the_view_is_asked_for() -> None:
    """Take-back looks at the views of a state before it sets that state's counts: the
    seat's own flag must come from the counts as they are when its view is asked for."""
    rng = random.Random(2)
    state = rules.new_game("one", frozenset(), 2)
    seen = set()
    while state.status != "finished":
        seat = acting(state)[0]
        state, _ = rules.apply(state, seat, choose(state, seat, rng))
        may = rules.can_take_back(state, seat).actions > 0
        assert observer.view(state, seat)["prompt"]["take_back"] is may
        seen.add(may)
    assert seen == {True, False}


def test_34_a_freed_state_takes_its_views_parts_with_it() -> None:
    gc.collect()
    before = memo.held()
    held = [_played(n, seed) for seed in range(3) for n in (5, 10)]
    for s in held:
        observer.views(s, ("japan", "usa"))
    assert memo.held() >= before + len(held)
    del held, s
    gc.collect()
    assert memo.held() <= before
