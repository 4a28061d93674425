"""Where an air unit may come down: 5a (basing colours, reach, capacity), 11c2, and in the
expansion's scenarios Carrier Capacity (in planes, and the types a carrier refuses), Bases
2-3 (a base's capacity in planes, its prohibited types, no landing while knocked out),
Bombers 2 and Off-Board Bases 1-3 (reached through the marked edge squares).

Air return (5), staging (12c2) and unequal legs (12c1) all ask this module, so a place
refused here is refused everywhere.
"""

from __future__ import annotations

from math import inf

from app.data import catalog
from app.data.records import CarrierPlanes
from app.rules import bases
from app.rules.boards import base_zone, carrier_hex, searchboard_of
from app.rules.command_copies import within_command
from app.rules.ship_movement import dead_in_the_water
from app.rules.state import BASE, GONE, State, Unit
from app.rules.theatre import base_spec, is_theatre, planes, ptvm_type, seen
from app.rules.units import aboard, basing_allows, capacity, load, ship_record, size

# Why a place refuses a landing, by rule: the words a refusal says.
REFUSALS = {
    "5a1": "its basing colour does not allow landing there",
    "5a2": "the landing hex is beyond its movement factor",
    "5a3": "that ship or base is at capacity",
    "11c2": "that ship is dead in the water",
    "18a": "that ship is not in your command's sight",
    "Bases 2": "that base may not accept planes of its type",
    "Bases 3": f"that base is knocked out till {bases.RECOVERY_TIME}",
    "Carrier Capacity": "that carrier may not accept planes of its type",
}


def carrier_planes(state: State, carrier: Unit) -> CarrierPlanes | None:
    """Carrier Capacity: the scenario's printed capacity of a carrier, AV or seaplane carrier."""
    rules = catalog().scenarios[state.scenario].theatre
    return None if rules is None else rules.carriers.get(carrier.id)


def holds_planes(state: State, c: Unit) -> bool:
    """Whether air units can be aboard `c` at all: a carrier, AV or base (2c4)."""
    if not c.ship or c.box == GONE:
        return False
    if is_theatre(state):
        return c.box == BASE or carrier_planes(state, c) is not None
    return bool(ship_record(c).capacity)


def room(state: State, c: Unit) -> float:
    """5a3: what is left of the capacity; in the expansion's scenarios in planes (Bases 2,
    Carrier Capacity). # RULES? A carrier with no maximum printed (Kamikawa, Chitose) holds
    the planes it starts with."""
    if not is_theatre(state):
        return capacity(c) - load(state, c)
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


def takes(state: State, u: Unit) -> float:
    """What an air unit uses of a capacity: 12b1's count, or in the expansion its planes."""
    return float(planes(u)) if is_theatre(state) else size(state, u)


def basing_refusal(state: State, u: Unit, c: Unit) -> str | None:
    """The rule by which `u` may not come down on `c` whatever its reach, or None."""
    if not within_command(state, u, c):
        return "18a"
    if not basing_allows(u, c):
        return "5a1"  # Bombers 2: land bombers are green, so never on a carrier
    if dead_in_the_water(state, c):
        return "11c2"
    if not is_theatre(state):
        return None
    if c.box == BASE:
        refused = bases.landing_refused(base_spec(state, c), seen(state, c), _type(u))
        if refused is not None:
            return "Bases 3" if refused.startswith("Bases 3") else "Bases 2"
        return None
    spec = carrier_planes(state, c)
    if spec is not None and not spec.accepts(ptvm_type(u)):
        return "Carrier Capacity"
    return None


def _type(u: Unit) -> str:
    return catalog().airunit(u.side, u.id).type


def distance(state: State, hex_: str, c: Unit) -> int | None:
    """Zones (hexes) from `hex_` down onto `c`; to an off-board base, through the best of its
    marked edge squares and that square's number (Off-Board Bases 1)."""
    grid = searchboard_of(state)
    where = carrier_hex(state, c)
    if where is not None:
        return grid.distance(hex_, where)
    if c.box != BASE or base_zone(state, c) is not None:
        return None
    spec = catalog().theatre
    off = None if spec is None else spec.offboard.get(ship_record(c).name)
    if off is None:
        return None
    return min(grid.distance(hex_, sq) + n for sq, n in off.squares.items())
