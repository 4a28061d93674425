"""Ship movement options: 12a variable sea movement, 11c dead in the water, 12a4 towing.

3c (Basic Game): every task force marker moves at most one hex a Turn. With 12a the
slowest ship sets the rate: movement 1, one hex; 2, two hexes on triangle Turns (3, 9,
15, 21); 3, two hexes on odd (dot) Turns. With 11c a single ship flipped with 2 hits is
dead in the water: it cannot move unless towed (12a4) - one tower each, never a BB, CV or
CVL - and a towed ship moves as a movement 1 ship; a task force with an untowed one
cannot move. A ship dead in the water may be scuttled at the start of the step (11c3).
"""

from __future__ import annotations

from app.rules.base.units import ship_face, ship_record
from app.rules.board.boards import ships_in
from app.rules.board.time_record import turn_box
from app.rules.engine.options import OptionId
from app.rules.engine.state import Side, State, Unit

SINGLE_SHIPS = ("CV", "CVL", "AV", "BB", "CA", "CL")  # 11c: not DD or AP units
NO_TOWING = ("BB", "CV", "CVL")  # 12a4.1
DIW_HITS = 2  # 11c: flipped, with a 2 hits marker


def dead_in_the_water(state: State, u: Unit) -> bool:
    """11c: an individual ship flipped to its back with a 2 hits marker."""
    return (
        OptionId.DEAD_IN_THE_WATER in state.options
        and u.ship
        and ship_record(u).type in SINGLE_SHIPS
        and u.flipped
        and u.hits == DIW_HITS
    )


def towing(state: State, side: Side, marker: str) -> tuple[int, int]:
    """12a4.1: (ships dead in the water, ships able to tow them) in a task force."""
    ships = ships_in(state, side, marker)
    dead = sum(1 for u in ships if dead_in_the_water(state, u))
    towers = sum(
        1 for u in ships if not dead_in_the_water(state, u) and ship_record(u).type not in NO_TOWING
    )
    return dead, towers


OWN_EDGE = {"usa": "T", "japan": "A"}  # 12a4.3: the US leaves east, Japan west


def tow_outs(state: State, side: Side, marker: str, edge_hex: str) -> list[tuple[Unit, Unit]]:
    """12a4.3: (towed ship, the ship the player picks to tow it, 12a4.1) pairs that may exit
    off their own edge - only they: the rest of the task force stays under its marker."""
    if OptionId.DEAD_IN_THE_WATER not in state.options or edge_hex[0] != OWN_EDGE[side]:
        return []
    ships = ships_in(state, side, marker)
    dead = [u for u in ships if dead_in_the_water(state, u)]
    towers = [u for u in ships if u not in dead and ship_record(u).type not in NO_TOWING]
    return [(d, t) for d in dead for t in towers]


def rate(state: State, side: Side, marker: str) -> int:
    """The hexes a task force marker may move this Turn (3c, 12a, 12a4.2)."""
    dead, towers = towing(state, side, marker)
    if dead > towers:
        return 0  # 12a4.2: an untowed ship dead in the water holds the task force
    if OptionId.VARIABLE_SEA_MOVEMENT not in state.options:
        return 1
    factors = [
        1 if dead_in_the_water(state, u) else (ship_face(u).movement or 1)
        for u in ships_in(state, side, marker)
    ]
    slowest = min(factors, default=1)
    box = turn_box(state)
    fast_turn = (slowest == 2 and box.triangle) or (slowest >= 3 and box.dot)
    return 2 if fast_turn else 1
