"""The rules engine: a pure library (no I/O, no clock, no global randomness).

new_game(scenario, options, seed, mode, teams) -> State
seats(state) -> tuple[Seat, ...]      (the game's seats: each plays a side, commands all or part)
legal_actions(state, seat) -> list[Action]
apply(state, seat, action) -> (State, list[Event])
view(state, seat) -> View            (a JSON document, typed key by key: modes/view_doc.py)
can_take_back(state, seat) -> TakeBack   (how many of its last actions, and why no more)
views(state, seats) -> {seat: View}   (view for several seats, sharing the public parts)
snapshot(state) -> dict               (the state as a versioned JSON document)
restore(doc) -> State                 (its inverse; SnapshotError, a ValueError, if it cannot)
describe_scenarios() -> list[dict]    (each scenario's options, modes and the seats they give)
why_not(state, seat, click) -> IllegalAction | None   (why a click on the page makes no
                                      legal action: the refusal `apply` gives for it)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rules import game as _game  # noqa: F401  (first: the steps in the order of play)
from app.rules.base.setup import new_game, playable
from app.rules.engine.actions import Action
from app.rules.engine.errors import ActionParseError, IllegalAction
from app.rules.engine.events import Event, events_for, visible_to
from app.rules.engine.play import apply, legal_actions
from app.rules.engine.play import replay as _replay
from app.rules.engine.snapshot import SnapshotError, restore, snapshot
from app.rules.engine.state import State, TakeBack

# The game families beside the base game: each registers its hooks (app/rules/hooks.py).
from app.rules.expansions import ptvm as _ptvm  # noqa: F401  (isort: after the base)
from app.rules.explain import Click
from app.rules.explain import why_not as _why_not
from app.rules.modes.audiences import MODES
from app.rules.modes.observer import view, views
from app.rules.modes.seats import OMNISCIENT, SPECTATOR, Seat, seats, seats_of, teams_offered
from app.rules.modes.takeback import of as can_take_back


def replay(
    scenario: str,
    options: Iterable[str],
    seed: int,
    log: Iterable[tuple[str, Mapping[str, object]]],
    mode: str = "two-player",
    teams: bool = False,
) -> tuple[State, list[Event]]:
    """Rebuild a game from its creation record and action log."""
    return _replay(new_game(scenario, frozenset(options), seed, mode, teams), log)


def why_not(state: State, seat: str, click: Mapping[str, object]) -> IllegalAction | None:
    """A click {"subject", "owner", "hex" | "unit"} that makes no legal action: why not,
    with the rule (ActionParseError for a click that is not well formed)."""
    return _why_not(state, seat, Click.from_json(click))


def describe_scenarios() -> list[dict[str, Any]]:
    """GET /api/scenarios: each scenario, its optional rules, and for each mode the seats
    it gives without teams and, where 17 offers them, with teams (17a)."""
    from app.data import catalog
    from app.data.options import optional_rules

    out = []
    for s in catalog().scenarios.values():
        teams = (False, True) if teams_offered(s) else (False,)
        modes = [
            {
                "mode": m.id,
                "rule": m.rule,
                "name": m.name,
                "seatings": [
                    {"teams": t, "seats": [x.to_json() for x in seats_of(s.id, m.id, t)]}
                    for t in teams
                ],
            }
            for m in MODES.values()
        ]
        out.append(
            {
                "id": s.id,
                "name": s.name,
                "rule": s.rule,
                "first_turn": s.first_turn,
                "last_turn": s.last_turn,
                "playable": playable(s),
                "options": sorted(optional_rules().offered(s.id)),
                "teams": teams_offered(s),
                "modes": modes,
            }
        )
    return out


__all__ = [
    "OMNISCIENT",
    "SPECTATOR",
    "Action",
    "ActionParseError",
    "Event",
    "IllegalAction",
    "Seat",
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
    "seats",
    "snapshot",
    "view",
    "views",
    "visible_to",
    "why_not",
]
