"""Events: what happened, each with its audience (DESIGN.md, Hidden information).

Audiences: "all" (every seat and spectators), a side ("japan", "usa": every seat of that
side), one seat ("usa-tf16": that player only), "umpire". The game's mode decides each
event's audience (app/rules/modes/audiences.py). A seat's log is the events it may see; after the
game ends, everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

ALL = "all"


class EventKind(StrEnum):
    """Every kind of event the rules emit, by its name in the events (the log's `kind`):
    a kind not here fails tests/rules/engine/test_event_kinds.py, rather than reaching the
    umpired modes' policy unknown (app/rules/modes/umpire.py `umpired_audience`, which
    gives an event it does not place to the umpire alone). Some kinds are an action's or
    a combat's own kind (3b "ready"/"arm", 3c "move"/"enter", 4b's combats)."""

    AIR_COMBAT = "air combat"
    AIR_SET_UP = "air-set-up"
    AIRCRAFT_DAMAGE = "aircraft damage"
    ANTI_AIRCRAFT = "anti-aircraft"
    ARM = "arm"
    AUTO_RELEASE = "auto-release"
    BASE_REPORT = "base-report"
    BASE_STRIKE = "base-strike"
    BATTLE = "battle"
    BATTLE_END = "battle-end"
    BOMBARDMENT = "bombardment"
    BOMBARDMENT_CHOICE = "bombardment-choice"
    BOMBARDMENT_END = "bombardment-end"
    BOMBARDMENT_PREVENTED = "bombardment-prevented"
    BOMBARDMENT_SET_UP = "bombardment-set-up"
    BOMBER_LOSSES = "bomber-losses"
    BOMBING = "bombing"
    BREAKOFF = "breakoff"
    BREAKOFF_DESIGNATED = "breakoff-designated"
    DAMAGE_REPORT = "damage-report"
    DICE = "dice"
    ELIMINATED = "eliminated"
    ENTER = "enter"
    EXITED = "exited"
    FLAGSHIP_REVEALED = "flagship-revealed"
    FREE_ROLL = "free-roll"
    GAME_OVER = "game-over"
    GAME_STARTED = "game-started"
    GUNNERY = "gunnery"
    LAND = "land"
    LAUNCH = "launch"
    MOVE = "move"
    PATROL = "patrol"
    RADIO = "radio"
    RADIO_DELIVERED = "radio-delivered"
    READY = "ready"
    REINFORCEMENTS = "reinforcements"
    REPAIR = "repair"
    REPLACEMENT = "replacement"
    REPORT_DRAFT = "report-draft"
    REPORT_EDITED = "report-edited"
    REPORT_HELD = "report-held"
    REPORT_RELEASED = "report-released"
    SCOUT_MEETS_CAP = "scout-meets-cap"
    SCOUTS_CREATED = "scouts-created"
    SEARCH = "search"
    SEARCH_ROLL = "search-roll"
    SETUP_LINE = "setup-line"
    SHADOW = "shadow"
    SHADOWED = "shadowed"
    SHIPS_SET_UP = "ships-set-up"
    SIDES = "sides"
    SIDES_ROLL = "sides-roll"
    STAGE = "stage"
    STEP_SKIPPED = "step-skipped"
    STRIKE_ORDER = "strike-order"
    SUBMARINE_ATTACK = "submarine attack"
    SUBMARINE_ROLL = "submarine-roll"
    SURFACE_ADVANCE = "surface-advance"
    SURFACE_COMBAT = "surface-combat"
    SURFACE_COMBAT_END = "surface-combat-end"
    SURFACE_CONTACT = "surface-contact"
    SURFACE_SET_UP = "surface-set-up"
    SURFACE_SHIFT = "surface-shift"
    SURFACE_SIDES = "surface-sides"
    SURFACE_SIDES_ROLL = "surface-sides-roll"
    SURFACE_TURN = "surface-turn"
    SURFACE_TURN_END = "surface-turn-end"
    SURPRISE = "surprise"
    SURPRISED_MOVE = "surprised-move"
    TORPEDO = "torpedo"
    TORPEDO_MARKER = "torpedo-marker"
    TORPEDO_REMOVED = "torpedo-removed"
    TRANSFER = "transfer"
    TURN = "turn"
    UMPIRE_DIE = "umpire-die"
    UMPIRE_MESSAGE = "umpire-message"
    UMPIRE_NOTE = "umpire-note"
    WAVE = "wave"
    WAVE_ROLL = "wave-roll"


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
