"""Carrier Capacity and Bases 2: what a carrier or base holds in the expansion's scenarios,
counted in planes (app/rules/expansions/ptvm/theatre.py's `planes`), and the types it refuses.
# RULES? A carrier with no maximum printed (Kamikawa, Chitose) holds the planes it starts
with."""

from __future__ import annotations

from math import inf

from app.data import catalog
from app.data.records import CarrierPlanes
from app.rules.base.units import aboard
from app.rules.engine.state import BASE, State, Unit
from app.rules.expansions.ptvm import bases
from app.rules.expansions.ptvm.theatre import base_spec, planes, ptvm_type, seen


def carrier_planes(state: State, carrier: Unit) -> CarrierPlanes | None:
    """Carrier Capacity: the scenario's printed capacity of a carrier, AV or seaplane carrier."""
    rules = catalog().scenarios[state.scenario].theatre
    return None if rules is None else rules.carriers.get(carrier.id)


def holds_planes(state: State, c: Unit) -> bool:
    """A base, or a carrier with a printed capacity (Carrier Capacity)."""
    return c.box == BASE or carrier_planes(state, c) is not None


def room(state: State, c: Unit) -> float:
    """5a3 in planes (Bases 2, Carrier Capacity)."""
    return capacity_in_planes(state, c) - planes_aboard(state, c)


def capacity_in_planes(state: State, c: Unit) -> float:
    """Bases 2, Carrier Capacity: the planes a base or carrier holds (inf: unlimited)."""
    if c.box == BASE:
        most = base_spec(state, c).capacity
    else:
        spec = carrier_planes(state, c)
        assert spec is not None
        most = spec.planes if spec.planes is not None else sum(spec.complement.values())
    return inf if most is None else most


def planes_aboard(state: State, c: Unit) -> int:
    """The planes of the air units in a carrier's or base's Ready and Arming boxes."""
    return sum(planes(a) for a in aboard(state, c))


def plane_count(state: State, c: Unit) -> dict[str, object]:
    """What the Operations Card shows of a carrier or base in the expansion's scenarios: the
    planes aboard, the capacity in planes (None: unlimited), and no launch number for a base
    (RULES? none is printed, so a base launches all it holds)."""
    most = capacity_in_planes(state, c)
    out: dict[str, object] = {
        "planes": planes_aboard(state, c),
        "planes_capacity": None if most == inf else most,
    }
    if c.box == BASE:
        out["launch"] = None
    return out


def basing_refusal(state: State, u: Unit, c: Unit) -> str | None:
    """Bases 2-3 and Carrier Capacity: the rule by which `u` may not come down on `c`."""
    if c.box == BASE:
        kind = catalog().airunit(u.side, u.id).type
        refused = bases.landing_refused(base_spec(state, c), seen(state, c), kind)
        if refused is not None:
            return "Bases 3" if refused.startswith("Bases 3") else "Bases 2"
        return None
    spec = carrier_planes(state, c)
    if spec is not None and not spec.accepts(ptvm_type(u)):
        return "Carrier Capacity"
    return None
