"""Replacements of "Pacific Theatre Via Midway", and the expansion's part of the Turn Record
Phase (6).

"Each side receives replacements at the end of the second night turn of each day. One plane of
each type (F, B, T, D) may be returned for every four of each type destroyed that day. Odd
amounts of destroyed planes may be saved till the next night. Only one plane of every three
replacements may be put on carriers. All replacements must ready before flying."

Planes are expansions/ptvm/theatre.py's (`planes`: a damage point is a plane); the planes destroyed
are recorded at each Turn Record Phase (theatre_points.count_losses, in
`TheatreRecord.replacements_owed`), and the remainder of four is kept for the next night.

# RULES? A replacement plane goes to an air unit of its type: first one with planes missing
# (damage taken away until it has one plane more), carriers' units first while the one-in-three
# allows, then bases' units; when none is missing a plane, an eliminated unit of the type comes
# back with one plane at a base of the side (an on-board base that accepts the type and has
# room, else an off-board base other than Truk, whose planes never fly again: Off-Board Bases
# 3). The rules choose for the owner. The unit goes to the Arming box (it must ready first).
# RULES? "One of every three ... on carriers" is a limit of the night's replacements divided
# by three, rounded down: one or two replacements all go to bases.
"""

from __future__ import annotations

import dataclasses

from app.rules.base.landing import room
from app.rules.base.setup import scenario_of
from app.rules.base.units import air_record, elim_back
from app.rules.board.boards import base_zone, bases_of
from app.rules.board.time_record import track_of
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import (
    ARMING,
    BASE,
    ELIMINATED,
    FLIP,
    GONE,
    READY,
    SIDES,
    Side,
    State,
    Unit,
    UnitKey,
)
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.reinforcements import check_sightings
from app.rules.expansions.ptvm.theatre import (
    base_spec,
    is_land_bomber,
    is_theatre,
    knocked_out,
    planes,
    ptvm_type,
)
from app.rules.expansions.ptvm.theatre_points import count_losses, rebase, track_landings

TYPES = ("F", "B", "D", "T")
PER_DESTROYED = 4
CARRIERS_ONE_IN = 3


def _replacement_rules(state: State) -> tuple[int, int, tuple[str, ...]]:
    spec = scenario_of(state).special.get("replacements")
    if not hasattr(spec, "get"):
        return PER_DESTROYED, CARRIERS_ONE_IN, TYPES
    assert spec is not None
    per = spec.get("per_destroyed", PER_DESTROYED)
    one_in = spec.get("carriers_one_in", CARRIERS_ONE_IN)
    types = spec.get("types", TYPES)
    return int(per), int(one_in), tuple(str(t) for t in types)


def second_night(state: State) -> bool:
    """Whether the Turn is a day's second night Turn (2400)."""
    track = track_of(state.scenario)
    return (
        track.box(state.turn).night
        and state.turn > track.turns[0].turn
        and track.box(state.turn - 1).night
    )


def _on_base(state: State, u: Unit) -> bool:
    holder = state.units[u.side].get(u.area)
    return holder is not None and holder.box == BASE


def _missing(state: State, side: Side, kind: str, carriers: bool) -> list[Unit]:
    """Live air units of the type aboard a carrier (or a base) with planes missing, where
    the carrier or base has room for one plane more."""
    return [
        u
        for u in state.units[side].values()
        if not u.ship
        and u.box in (READY, ARMING)
        and u.damage > 0
        and ptvm_type(u) == kind
        and _on_base(state, u) != carriers
        and room(state, state.units[side][u.area]) >= 1  # 5a3, Bases 2, Carrier Capacity
    ]


def _base_for(state: State, u: Unit) -> Unit | None:
    """RULES? (module doc): the base an eliminated unit comes back to."""
    kind = air_record(u).type
    on_board, off_board = [], []
    for base in bases_of(state, u.side):
        spec = base_spec(state, base)
        if not spec.accepts(kind) or knocked_out(state, base):
            continue
        if base_zone(state, base) is None:
            if spec.fly_again:  # Off-Board Bases 3: not Truk
                off_board.append(base)
        elif room(state, base) >= 1:
            on_board.append(base)
    return next(iter(on_board + off_board), None)


def _give_plane(state: State, u: Unit) -> Unit:
    """One plane more: damage points taken away until `planes` counts one more."""
    before = planes(u)
    while u.damage > 0 and planes(u) == before:
        u = state.put(dataclasses.replace(u, damage=u.damage - 1))
    return u


def _bring_back(state: State, u: Unit, base: Unit) -> Unit:
    """An eliminated unit back with one plane (an ELIM-backed unit front up, 4b5)."""
    damage = FLIP - 1 if elim_back(u) else ELIMINATED - 1
    return state.put(dataclasses.replace(u, box=ARMING, area=base.id, damage=damage))


def _to_arming(state: State, u: Unit) -> Unit:
    """Replacements must ready before flying: the unit goes to the Arming box."""
    u = state.put(dataclasses.replace(u, box=ARMING))
    if is_land_bomber(u) and _on_base(state, u):  # Bombers 8
        ready_in = base_spec(state, state.units[u.side][u.area]).bomber_readying
        if ready_in is not None:
            record(state).readying[UnitKey(u.side, u.id)] = state.turn + ready_in
    return u


def replace(state: State, out: list[Event]) -> None:
    """Replacements, for both sides, at the end of the second night Turn."""
    per, one_in, types = _replacement_rules(state)
    for side in SIDES:
        owed = record(state).replacements_owed.setdefault(side, {})
        due = {t: owed.get(t, 0) // per for t in types}
        for t in types:
            owed[t] = owed.get(t, 0) - due[t] * per  # the odd ones kept till the next night
        onto_carriers = sum(due.values()) // one_in
        for kind in types:
            for _ in range(due[kind]):
                placed = _place(state, side, kind, onto_carriers > 0, out)
                if placed == "carrier":
                    onto_carriers -= 1
                elif placed is None:
                    owed[kind] += per  # nowhere to go tonight: kept till the next night


def _place(state: State, side: Side, kind: str, carriers: bool, out: list[Event]) -> str | None:
    missing = _missing(state, side, kind, True) if carriers else []
    where = "carrier"
    if not missing:
        missing, where = _missing(state, side, kind, False), "base"
    if missing:
        u = max(missing, key=lambda a: (a.damage, a.id))
        u = _give_plane(state, u)
    else:
        gone = sorted(
            (a for a in state.units[side].values() if not a.ship and a.box == GONE),
            key=lambda a: a.id,
        )
        gone = [a for a in gone if ptvm_type(a) == kind]
        base = _base_for(state, gone[0]) if gone else None
        if base is None:
            return None
        u, where = _bring_back(state, gone[0], base), "base"
    u = _to_arming(state, u)
    data = {"side": side, "unit": u.id, "type": kind, "planes": planes(u), "to": u.area}
    out.append(Event("replacement", ALL, state.turn, state.step, data))
    return where


def turn_record(state: State, out: list[Event], before_repairs: bool) -> None:
    """The expansion's part of the Turn Record Phase (6): before 11d repairs, the planes
    destroyed are recorded (Victory Points); after them, the replacements of the second night
    Turn, the reinforcements sighted (Land-Based Planes), the APs' landings, and each unit's
    planes for the next count."""
    if not is_theatre(state):
        return
    if before_repairs:
        count_losses(state)
        return
    if second_night(state):
        replace(state, out)
    check_sightings(state, out)
    track_landings(state)
    rebase(state)
