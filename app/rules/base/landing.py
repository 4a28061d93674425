"""Where an air unit may come down: 5a (basing colours, reach, capacity), 11c2, and in the
expansion's scenarios Carrier Capacity (in planes, and the types a carrier refuses), Bases
2-3 (a base's capacity in planes, its prohibited types, no landing while knocked out),
Bombers 2 and Off-Board Bases 1-3 (reached through the marked edge squares).

Air return (5), staging (12c2) and unequal legs (12c1) all ask this module, so a place
refused here is refused everywhere.
"""

from __future__ import annotations

from app.data import catalog
from app.rules import hooks
from app.rules.base.units import basing_allows, ship_record
from app.rules.board.boards import base_zone, carrier_hex, searchboard_of
from app.rules.engine.state import BASE, GONE, State, Unit
from app.rules.modes.command_copies import within_command
from app.rules.optional.ship_movement import dead_in_the_water

# Why a place refuses a landing, by rule: the words a refusal says.
REFUSALS = {
    "5a1": "its basing colour does not allow landing there",
    "5a2": "the landing hex is beyond its movement factor",
    "5a3": "that ship or base is at capacity",
    "11c2": "that ship is dead in the water",
    "18a": "that ship is not in your command's sight",
}  # and an expansion's own (app/rules/expansions/ptvm/hooks.py adds its rules')


def holds_planes(state: State, c: Unit) -> bool:
    """Whether air units can be aboard `c` at all: a carrier, AV or base (2c4)."""
    if not c.ship or c.box == GONE:
        return False
    return hooks.of(state).holds_planes(state, c)


def room(state: State, c: Unit) -> float:
    """5a3: what is left of the capacity (the game family's count: `hooks.Hooks.room`)."""
    return hooks.of(state).room(state, c)


def takes(state: State, u: Unit) -> float:
    """What an air unit uses of a capacity: 12b1's count, or its family's (`hooks`)."""
    return hooks.of(state).takes(state, u)


def basing_refusal(state: State, u: Unit, c: Unit) -> str | None:
    """The rule by which `u` may not come down on `c` whatever its reach, or None."""
    if not within_command(state, u, c):
        return "18a"
    if not basing_allows(u, c):
        return "5a1"  # Bombers 2: land bombers are green, so never on a carrier
    if dead_in_the_water(state, c):
        return "11c2"
    return hooks.of(state).basing_refusal(state, u, c)


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
