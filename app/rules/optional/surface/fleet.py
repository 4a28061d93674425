"""Ships on the Battleboard during a surface combat: who is where, facing which way."""

from __future__ import annotations

from app.rules.base.units import ship_face
from app.rules.board.time_record import turn_box
from app.rules.engine.state import GONE, SIDES, Side, State, other
from app.rules.optional.ship_movement import dead_in_the_water
from app.rules.optional.surface.model import SurfaceCombat


def afloat(state: State, c: SurfaceCombat, side: Side) -> dict[str, str]:
    """The side's ships on the Battleboard (not eliminated, not broken off): id -> hex."""
    units = state.units[side]
    return {uid: h for uid, h in c.hexes[side].items() if units[uid].box != GONE}


def occupant(state: State, c: SurfaceCombat, hex_: str) -> tuple[Side, str] | None:
    for side in SIDES:
        for uid, h in afloat(state, c, side).items():
            if h == hex_:
                return side, uid
    return None


def crowded(state: State, c: SurfaceCombat) -> list[str]:
    """Hexes holding two ships (16e3: allowed only while a ship moves through)."""
    seen: set[str] = set()
    twice: list[str] = []
    for side in SIDES:
        for h in afloat(state, c, side).values():
            if h in seen:
                twice.append(h)
            seen.add(h)
    return twice


def dead(state: State, side: Side, uid: str) -> bool:
    """11c1: a ship dead in the water may not move or break off."""
    return dead_in_the_water(state, state.units[side][uid])


def movement(state: State, side: Side, uid: str) -> int:
    """16e: the movement factor on the side showing (hit markers do not lower it)."""
    return ship_face(state.units[side][uid]).movement or 0


def night_turn(state: State) -> bool:
    return turn_box(state).night


def b_then_a(c: SurfaceCombat) -> list[Side]:
    """16d2-16d6: Surface Side B first, then Surface Side A."""
    assert c.side_a is not None
    return [other(c.side_a), c.side_a]


def key(side: Side, uid: str) -> str:
    """A ship named across both sides, for events and views ("japan/DD3")."""
    return f"{side}/{uid}"
