"""Events: what happened, each with its audience (DESIGN.md, Hidden information).

Audiences: "all" (every seat and spectators), a side ("japan", "usa": every seat of that
side), one seat ("usa-tf16": that player only), "umpire". The game's mode decides each
event's audience (app/rules/modes/audiences.py). A seat's log is the events it may see; after the
game ends, everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ALL = "all"


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    audience: str
    turn: int
    step: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "audience": self.audience,
            "turn": self.turn,
            "step": self.step,
            **self.data,
        }


def visible_to(event: Event, seat: str, finished: bool = False) -> bool:
    """May `seat` (a seat of the game, "spectator", "umpire") see `event`? A seat's id
    begins with its side (`usa-tf16`), so a side's events reach each of its seats."""
    audience = event.audience
    if finished or seat == "umpire" or audience in (ALL, seat):
        return True
    return seat.startswith(audience) and seat[len(audience) : len(audience) + 1] == "-"


def events_for(events: list[Event], seat: str, finished: bool = False) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if visible_to(e, seat, finished)]
