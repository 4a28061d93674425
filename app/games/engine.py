"""The rules engine as the server sees it: the contract of `app.rules`, loaded by name.

The server never knows a rule; it calls these functions. The module is named by the
`MIDWAY_RULES_MODULE` setting (default `app.rules`) and checked against the contract when
loaded, so a missing function fails at start-up, not on the first action.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

Json = dict[str, Any]
SPECTATOR = "spectator"
OMNISCIENT = "omniscient"  # the engine's view of everything (a finished game's replay)


def side_of(seat: str) -> str:
    """The side of a seat: its id begins with it (DESIGN.md, HTTP API: `usa-tf16` -> `usa`)."""
    return seat.split("-", 1)[0]


@dataclass(frozen=True)
class Engine:
    """The functions of the rules contract (DESIGN.md, app/rules) the server calls."""

    new_game: Callable[..., Any]  # (scenario, options, seed, mode, teams) -> state
    seats_of_state: Callable[[Any], Any]  # state -> the game's seats (app.rules.modes.seats)
    legal_actions: Callable[[Any, str], list[Any]]
    apply: Callable[[Any, str, Any], tuple[Any, list[Any]]]
    view: Callable[[Any, str], Json]
    views: Callable[[Any, tuple[str, ...]], dict[str, Json]]
    events_for: Callable[..., list[Json]]
    describe_scenarios: Callable[[], list[Json]]
    parse_action: Callable[[object], Any]
    # issue 14: what a seat may take back now: `.actions` (how many of its last), and
    # `.rule` and `.why` (why no more)
    takeback: Callable[[Any, str], Any]
    illegal_action: type[Exception]
    parse_error: type[Exception]
    snapshot: Callable[[Any], Json]  # the state as a versioned document of JSON types
    restore: Callable[[Json], Any]  # its inverse; a ValueError for a document it cannot read
    # issue 13: why a click on the page makes no legal action (an IllegalAction), or None
    why_not: Callable[[Any, str, Json], Any]
    stamp: str  # changes whenever the engine's code or data change: snapshots compare it

    def seats(self, state: Any) -> tuple[Json, ...]:
        """The game's seats as the engine declares them: {seat, side, command, label}."""
        return tuple(cast(Json, s.to_json()) for s in self.seats_of_state(state))

    def seat_ids(self, state: Any) -> tuple[str, ...]:
        return tuple(str(s.id) for s in self.seats_of_state(state))

    def action_json(self, action: Any) -> Json:
        return cast(Json, action.to_json())

    def all_events(self, events: list[Any]) -> list[Json]:
        """Every event, whatever its audience (replay of a finished game)."""
        try:
            return self.events_for(events, SPECTATOR, True)
        except TypeError:
            return [cast(Json, e.to_json()) for e in events]


def _stamp(module: Any) -> str:
    """SHA-256 over the engine's source and the scenario data it reads."""
    digest = hashlib.sha256()
    root = Path(module.__file__).resolve().parent
    files = sorted(root.rglob("*.py"))
    scenarios = Path(__file__).resolve().parents[2] / "scenarios"
    if scenarios.is_dir():
        files += sorted(p for p in scenarios.rglob("*") if p.is_file())
    for path in files:
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def load_engine(module_name: str) -> Engine:
    module = importlib.import_module(module_name)
    action_cls = module.Action
    return Engine(
        new_game=module.new_game,
        seats_of_state=module.seats,
        legal_actions=module.legal_actions,
        apply=module.apply,
        view=module.view,
        views=getattr(module, "views", None)
        or (lambda s, seats: {x: module.view(s, x) for x in seats}),
        events_for=module.events_for,
        describe_scenarios=module.describe_scenarios,
        parse_action=action_cls.from_json,
        takeback=module.can_take_back,
        illegal_action=module.IllegalAction,
        parse_error=module.ActionParseError,
        snapshot=module.snapshot,
        restore=module.restore,
        why_not=module.why_not,
        stamp=_stamp(module),
    )
