"""The rules engine: a pure library (no I/O, no clock, no global randomness).

new_game(scenario, options, seed) -> State
legal_actions(state, seat) -> list[Action]
apply(state, seat, action) -> (State, list[Event])
view(state, seat) -> dict
can_take_back(state, seat) -> TakeBack   (how many of its last actions, and why no more)
views(state, seats) -> {seat: dict}   (view for several seats, sharing the public parts)
snapshot(state) -> dict               (the state as a versioned JSON document)
restore(doc) -> State                 (its inverse; SnapshotError, a ValueError, if it cannot)
"""

from __future__ import annotations

from typing import Any

from app.rules.actions import Action
from app.rules.errors import ActionParseError, IllegalAction
from app.rules.events import Event, events_for, visible_to
from app.rules.flow import SEATS, apply, legal_actions, replay
from app.rules.setup import MODES, OPTIONS, new_game, playable
from app.rules.snapshot import SnapshotError, restore, snapshot
from app.rules.state import State, TakeBack
from app.rules.takeback import of as can_take_back
from app.rules.view import view, views


def describe_scenarios() -> list[dict[str, Any]]:
    from app.data import catalog

    return [
        {
            "id": s.id,
            "name": s.name,
            "rule": s.rule,
            "first_turn": s.first_turn,
            "last_turn": s.last_turn,
            "playable": playable(s),
            "options": sorted(OPTIONS),
            "modes": list(MODES),
        }
        for s in catalog().scenarios.values()
    ]


__all__ = [
    "SEATS",
    "Action",
    "ActionParseError",
    "Event",
    "IllegalAction",
    "SnapshotError",
    "State",
    "TakeBack",
    "apply",
    "can_take_back",
    "describe_scenarios",
    "events_for",
    "legal_actions",
    "new_game",
    "replay",
    "restore",
    "snapshot",
    "view",
    "views",
    "visible_to",
]
