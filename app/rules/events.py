"""Events: what happened, each with its audience (DESIGN.md, Hidden information).

Audiences: "all" (both players and spectators), "japan" or "usa" (that side only),
"umpire". A seat's log is the events it may see; after the game ends, everything.
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
    """May `seat` ("japan", "usa", "spectator", "umpire") see `event`?"""
    if finished or seat == "umpire" or event.audience == ALL:
        return True
    return event.audience == seat


def events_for(events: list[Event], seat: str, finished: bool = False) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if visible_to(e, seat, finished)]
