"""What a game of the expansion keeps beyond the base game's state: its slot of the State
(`State.ptvm`, set at setup by the expansion's hooks; None in the base game's scenarios).

Each base's damage today and knockout (Bases 3), by base unit id (base ids are unique across
both sides); the Turn from which each land-based bomber in an Arming box may ready (Bombers
8); the Victory Points' and Replacements' counts (theatre_points.py, replacements.py): each
air unit's planes at the last Turn Record Phase, the planes each side lost by date and type,
those not yet replaced (odd ones carried), each Japanese AP's Turns stationary in a landing
zone (uid -> (zone, Turns)) and the APs landed (uid -> landing area); the reinforcements come
into play ("usa:Australia"); the zones of an area search still to answer after a 15a1.2
report (area_search.py); and the Turn Japan last added its destroyers' two AA factors to an
attack on one ship (Destroyers, strikes.py; 0: not yet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.data import catalog
from app.rules.engine.state import Side, State, UnitKey, register_slot


@dataclass(slots=True)
class BaseDamage:
    """Bases 3: the damage a base has taken today (`day`, the Time Record Track's date), and
    whether it is knocked out, since a Turn of the date `knocked_on`."""

    damage: int = 0
    knocked_out: bool = False
    day: str = ""
    knocked_on: str = ""


@dataclass(slots=True)
class TheatreRecord:
    """The expansion's slot of the State (module doc)."""

    base_damage: dict[str, BaseDamage] = field(default_factory=dict)
    readying: dict[UnitKey, int] = field(default_factory=dict)
    planes_seen: dict[UnitKey, int] = field(default_factory=dict)
    planes_lost: dict[Side, dict[str, dict[str, int]]] = field(default_factory=dict)
    replacements_owed: dict[Side, dict[str, int]] = field(default_factory=dict)
    landing_watch: dict[UnitKey, tuple[str, int]] = field(default_factory=dict)
    landed: dict[UnitKey, str] = field(default_factory=dict)
    reinforced: list[str] = field(default_factory=list)
    area_queue: list[tuple[Side, str]] = field(default_factory=list)
    dd_bonus_used: int = 0


FIELDS = tuple(TheatreRecord.__dataclass_fields__)


def record(state: State) -> TheatreRecord:
    """The expansion's slot of a game of the expansion."""
    rec = state.ptvm
    assert rec is not None, f"{state.scenario} is not one of the expansion's scenarios"
    return rec


def old_form(doc: dict[str, Any]) -> None:
    """A snapshot written while these fields were the State's own (snapshot.py's readers):
    they move into the slot - a game of the expansion's, None in the base game's."""
    if "ptvm" in doc or "base_damage" not in doc:
        return
    fields = {name: doc.pop(name) for name in FIELDS if name in doc}
    theatre = catalog().scenarios.get(str(doc.get("scenario")))
    doc["ptvm"] = fields if theatre is not None and theatre.board == "theatre" else None


register_slot("TheatreRecord", TheatreRecord)

__all__: list[str] = ["BaseDamage", "TheatreRecord", "old_form", "record"]
