"""Unit factors as they stand now, and damage (4b2, 4b5).

4b5 is missing from the transcription; RULES-NOTES.md reconstructs it: a unit carries
0-5 damage points, a hit adds 1, a flip 3, six or more eliminates. 0-2 points: front
up with that many hit markers; 3-5: back up with (points - 3). A unit with ELIM on its
back is eliminated by anything that would turn it over. Each hit marker lowers every
combat factor of the side showing by 1, never below 0; movement, capacity and launch are
those printed on the side showing.
"""

from __future__ import annotations

from dataclasses import replace

from app.data import AirFace, AirUnit, ShipFace, ShipUnit, catalog
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import ARMING, ELIMINATED, FLIP, GONE, READY, State, Unit, UnitKey

BASE_ID = "Midway"


def ship_record(u: Unit) -> ShipUnit:
    return catalog().ship(u.side, u.id)


def air_record(u: Unit) -> AirUnit:
    return catalog().airunit(u.side, u.id)


def ship_face(u: Unit) -> ShipFace:
    rec = ship_record(u)
    return rec.back if (u.flipped and rec.back is not None) else rec.front


def air_face(u: Unit) -> AirFace:
    rec = air_record(u)
    return rec.back if (u.flipped and rec.back is not None) else rec.front


def lowered(value: int | None, hits: int) -> int | None:
    """4b5: a hit marker lowers a combat factor by 1, never below 0."""
    return None if value is None else max(0, value - hits)


def defense(u: Unit) -> int:
    if u.ship:
        return lowered(ship_face(u).defense, u.hits) or 0
    return lowered(air_face(u).defense, u.hits) or 0


def air_combat(u: Unit) -> int:
    """14b: an air unit's air combat factor (a "-" counts 0: 4b2), lowered by hit markers."""
    return lowered(air_face(u).air_combat, u.hits) or 0


def aa_factor(u: Unit) -> int:
    return lowered(ship_face(u).aa, u.hits) or 0


def bombing(u: Unit) -> int:
    return lowered(air_face(u).bombing, u.hits) or 0


def air_movement(u: Unit) -> int:
    return air_face(u).movement


def launch_number(u: Unit) -> int:
    return ship_face(u).launch or 0


def capacity(u: Unit) -> int:
    return ship_record(u).capacity or 0


def is_scout(u: Unit) -> bool:
    return air_record(u).type == "S"


def is_bomber(u: Unit) -> bool:
    """4a: only bomber types D, H, M and T fight in the Basic Game."""
    return air_record(u).type in ("D", "H", "M", "T")


def is_fighter(u: Unit) -> bool:
    return air_record(u).type == "F"


def elim_back(u: Unit) -> bool:
    if u.ship:
        return ship_record(u).back is None
    return air_record(u).back_label == "ELIM"


def aboard(state: State, carrier: Unit) -> list[Unit]:
    """Air units in a carrier's, AV's or the base's Ready and Arming boxes (2c3)."""
    return [
        u
        for u in state.units[carrier.side].values()
        if not u.ship and u.area == carrier.id and u.box in (READY, ARMING)
    ]


BASING = {"green": ("base",), "yellow": ("AV",), "white": ("CV", "CVL", "base")}  # 5a1


def basing_allows(u: Unit, carrier: Unit) -> bool:
    """5a1: green lands only on a base, yellow only on an AV, white on a CV, CVL or base."""
    return carrier.ship and ship_record(carrier).type in BASING[air_record(u).basing]


def size(state: State, u: Unit) -> float:
    """An air unit's count: 12b1 counts scouts, ELIM-back and flipped units as one-half."""
    if OptionId.SMALL_UNITS_HALF in state.options and (is_scout(u) or elim_back(u) or u.flipped):
        return 0.5
    return 1.0


def load(state: State, carrier: Unit) -> float:
    """2c4, 5a3: air units aboard a carrier, AV or base, counted as 12b1 says."""
    return sum(size(state, a) for a in aboard(state, carrier))


def add_damage(state: State, u: Unit, points: int, out: list[Event], cause: str) -> str:
    """4b4/4b5: add damage points; returns "hit", "flip" or "eliminated"."""
    before_flipped = u.flipped
    damage = min(ELIMINATED, u.damage + points)
    if damage >= FLIP and elim_back(u):
        damage = ELIMINATED
    if damage >= ELIMINATED:
        eliminate(state, u, out, cause)
        return "eliminated"
    u = state.put(replace(u, damage=damage))
    if u.ship and u.key not in state.damaged:
        state.damaged.append(u.key)  # 11b: its air units are checked
    return "flip" if u.flipped and not before_flipped else "hit"


def eliminate(state: State, u: Unit, out: list[Event], cause: str) -> None:
    """Remove a unit from play; a ship's or base's air units go with it (4b5, 11b4)."""
    if u.box == GONE:
        return
    state.put(replace(u, box=GONE, damage=ELIMINATED))
    state.boards[u.side].flights.pop(u.id, None)
    out.append(
        Event(
            "eliminated",
            ALL,
            state.turn,
            state.step,
            {"side": u.side, "unit": u.id, "cause": cause},
        )
    )
    if u.ship:
        for a in aboard(state, u):
            eliminate(state, a, out, f"aboard {u.id}")


def engage(state: State, units: list[UnitKey]) -> None:
    """11d: units engaged in combat this Turn - attacked, or attacking or firing."""
    state.engaged += [k for k in dict.fromkeys(units) if k not in state.engaged]
