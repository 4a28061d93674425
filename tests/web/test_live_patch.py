"""A seat page's socket that is sent a patch whose document this process does not hold
(another process committed the action: DESIGN.md, Realtime) applies it to the view it
has, as the view's JSON says it is (app.web.live.patched). The engine's documents share
objects between their parts (one list for Midway's Normal Strike box, 3a, under two keys),
and a patch that adds a unit to that box names both: applied to a deep copy, which keeps
the list shared, the unit went in twice."""

from __future__ import annotations

import json

from app import rules
from app.games.diff import make_patch
from app.web.live import patched
from tests.web.games import KINDS, played


def test_3a_a_patch_adds_once_to_a_list_the_view_holds_under_two_keys() -> None:
    box = ["C"]
    view = {"midway_strike": box, "base_strikes": {"Midway": box}}
    patch = [
        {"op": "add", "path": "/midway_strike/0", "value": "1BG11"},
        {"op": "add", "path": "/base_strikes/Midway/0", "value": "1BG11"},
    ]
    assert patched(view, patch) == {
        "midway_strike": ["1BG11", "C"],
        "base_strikes": {"Midway": ["1BG11", "C"]},
    }
    assert box == ["C"], "the service's document is left as it was"


def test_17_every_patch_of_random_games_leads_a_page_to_the_next_view() -> None:
    """Along random games of every kind of seat, each seat's view patched from the last
    is the next, as its JSON (the engine's documents, their shared parts and all)."""
    applied = 0
    for kind in KINDS:
        for seed in (1,):
            before: dict[str, dict[str, object]] = {}
            for _step, state, _logs in played(kind, seed, seed, 120):
                seats = tuple(s.id for s in rules.seats(state))
                views = rules.views(state, seats)
                for seat in seats:
                    old, new = before.get(seat), views[seat]
                    if old is not None:
                        got = patched(old, make_patch(old, new))
                        assert got == json.loads(json.dumps(new)), (kind, seed, seat)
                        applied += 1
                    before[seat] = new
    assert applied > 600
