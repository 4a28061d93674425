"""What the rules of "Pacific Theatre Via Midway" share: whether a game is played on the
theatre map, an air unit's planes and its expansion type, a base's printed values and what it
has suffered today.

The expansion counts planes (plane factors): a base's capacity, two bombers to a hit on a base,
a plane destroyed on the ground, one point per three planes destroyed. An air unit stands for
its `planes` (scenarios/theatre-units.toml, RULES-NOTES.md: units of up to six plane factors a
type). A damage point on an air unit is one of its planes lost: six points eliminate a unit of
six planes (4b5), so a unit has `planes * (6 - damage) / 6` planes left, rounded up.
"""

from __future__ import annotations

from math import ceil

from app.data import catalog
from app.data.records import PTVM_TYPES, BaseSpec
from app.rules.base.units import air_record, ship_record
from app.rules.engine.state import ELIMINATED, GONE, State, Unit
from app.rules.expansions.ptvm.bases import BaseDamage, base
from app.rules.expansions.ptvm.record import record

FULL_UNIT = 6  # RULES-NOTES.md: an air unit of the expansion is up to six plane factors


def is_theatre(state: State) -> bool:
    """Whether the game is one of the expansion's scenarios (played on the theatre map)."""
    return catalog().scenarios[state.scenario].board == "theatre"


def ptvm_type(u: Unit) -> str:
    """The expansion's plane type of an air unit: F, B (the 1991 H and M units), D or T."""
    kind = air_record(u).type
    return next((t for t, types in PTVM_TYPES.items() if kind in types), kind)


def is_land_bomber(u: Unit) -> bool:
    """Bombers 1-8: a land-based level bomber ("B": the 1991 H and M units)."""
    return not u.ship and ptvm_type(u) == "B"


def printed_planes(u: Unit) -> int:
    """The plane factors an air unit stands for when whole (a Midway unit: six)."""
    return air_record(u).planes or FULL_UNIT


def planes(u: Unit) -> int:
    """The planes an air unit has left: one lost per damage point, rounded up (module doc)."""
    if u.box == GONE:
        return 0
    whole = printed_planes(u)
    return ceil(whole * (ELIMINATED - u.damage) / ELIMINATED)


def base_spec(state: State, unit: Unit) -> BaseSpec:
    """Bases 2: a base unit's printed values in the game's scenario."""
    return base(state.scenario, ship_record(unit).name)


def today(state: State, unit: Unit) -> BaseDamage:
    """Bases 3: what the base has suffered today, kept to be added to (a fresh record
    until it is hit). Only a strike's hits call this: a look at the record is `seen`."""
    return record(state).base_damage.setdefault(unit.id, BaseDamage())


def seen(state: State, unit: Unit) -> BaseDamage:
    """Bases 3: what the base has suffered today, looked at without keeping a record of
    nothing (a record kept by a look showed in the views as "no damage today", so a view
    depended on what was asked of the state before it: issue 31)."""
    return record(state).base_damage.get(unit.id) or BaseDamage()


def knocked_out(state: State, unit: Unit) -> bool:
    """Bases 3: whether the base is knocked out till 0700."""
    damage = record(state).base_damage.get(unit.id)
    return damage is not None and damage.knocked_out
