"""Bases 3 and issue 35: building a view, the legal actions or the warning of units lost
if Done (issue 13) leaves the state as it found it. A check of a base's damage today used
to record a fresh, empty record on the way (theatre.today's setdefault), so a seat's next
view - and a twin state cloned after it - showed `damage_today` where the first did not."""

from __future__ import annotations

import random

from app.rules import legal_actions, new_game, view
from app.rules.modes.seats import acting, seats
from tools.fuzz import choose


def test_bases_3_views_and_offers_leave_the_theatre_state_unchanged() -> None:
    for mode in ("two-player", "double-blind"):
        state = new_game("coral-sea", frozenset(), 1000, mode)
        rng = random.Random(1000)
        for _ in range(400):
            if state.status == "finished":
                break
            before = state.clone()
            for s in seats(state):
                view(state, s.id)
                legal_actions(state, s.id)
            assert state == before, f"{mode}: Turn {state.turn} {state.step}"
            now = acting(state)
            seat = now[0] if len(now) == 1 else rng.choice(now)
            from app.rules import apply

            state, _ = apply(state, seat, choose(state, seat, rng))
