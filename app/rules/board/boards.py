"""Where things are: the Searchboard and Battleboard grids, and each unit's hex (2c).

A scenario names the board its Searchboards are (`Scenario.board`): the hex Searchboard of
Midway or the square-zone theatre map of "Pacific Theatre Via Midway". Rule code asks
`searchboard_of(state)` and uses it through `grid.Board`, whichever grid it is.
"""

from __future__ import annotations

from functools import cache

from app.data import catalog
from app.rules.base.units import BASE_ID
from app.rules.board.grid import Board, HexGrid, SquareGrid
from app.rules.engine.state import (
    ARMING,
    BASE,
    FLYING,
    HIGH_CAP,
    LOW_CAP,
    MAX_STRIKE,
    READY,
    SHIPS,
    STRIKE,
    Side,
    State,
    Unit,
)


@cache
def searchboard() -> HexGrid:
    """Midway's Searchboard (1a)."""
    spec = catalog().searchboard
    return HexGrid(spec.columns, spec.rows)


@cache
def battleboard() -> HexGrid:
    spec = catalog().battleboard
    return HexGrid(spec.columns, spec.rows)


@cache
def theatre() -> SquareGrid:
    """The theatre map of "Pacific Theatre Via Midway" (RULES-NOTES.md)."""
    spec = catalog().theatre
    assert spec is not None, "scenarios/theatre.toml is not loaded"
    return SquareGrid(spec.columns, spec.rows)


def _theatre_of(scenario: str) -> bool:
    return catalog().scenarios[scenario].board == "theatre"


@cache
def board_of(scenario: str) -> Board:
    return theatre() if _theatre_of(scenario) else searchboard()


def searchboard_of(state: State) -> Board:
    """The Searchboard the game's scenario is played on."""
    return board_of(state.scenario)


@cache
def area_hexes_of(scenario: str, area: str) -> tuple[str, ...]:
    spec = catalog().theatre if _theatre_of(scenario) else None
    hexes = (spec or catalog().searchboard).areas[area]
    return tuple(h for h in board_of(scenario).hexes() if h in hexes)


def area_hexes(state: State, area: str) -> tuple[str, ...]:
    """The hexes (or zones) of a setup or entry area (7a2.2) of the game's board, in board
    order."""
    return area_hexes_of(state.scenario, area)


@cache
def _land_of(scenario: str) -> frozenset[str]:
    spec = catalog().theatre if _theatre_of(scenario) else None
    if spec is None:
        return catalog().searchboard.land
    # RULES? 15a1.1's "land or reef" hex on the theatre map: a land, mountain or reef zone.
    return frozenset(spec.terrain)


def land_hexes(state: State) -> frozenset[str]:
    """15a1.1: the hexes (zones) of the game's board holding land or reef."""
    return _land_of(state.scenario)


NO_SHIPS = ("land", "mountain")  # the theatre map's terrain no task force is in, unless coastal


@cache
def _landlocked_of(scenario: str) -> frozenset[str]:
    spec = catalog().theatre if _theatre_of(scenario) else None
    if spec is None:
        return frozenset()
    return frozenset(z for z, t in spec.terrain.items() if t in NO_SHIPS and z not in spec.coastal)


def landlocked(state: State) -> frozenset[str]:
    """The zones of the game's board no task force may be in: on the theatre map, the land
    and mountain zones that the map data does not call coastal (scenarios/theatre.toml: land
    of a large island with sea, where bases and landings are). Midway's Searchboard: none.

    # RULES? The expansion prints no rule for ships and land; ships are kept off the map's
    # land and mountain zones as a printed map's land would keep them, the coastal zones
    # excepted (every base zone is coastal land: forces set up and land troops there).
    """
    return _landlocked_of(state.scenario)


@cache
def sea_area_hexes_of(scenario: str, area: str) -> tuple[str, ...]:
    """The hexes (zones) of a setup or entry area a task force may be placed on."""
    bad = _landlocked_of(scenario)
    return tuple(h for h in area_hexes_of(scenario, area) if h not in bad)


@cache
def _sea_within(scenario: str, start: str, reach: int) -> tuple[str, ...]:
    bad = _landlocked_of(scenario)
    grid = board_of(scenario)
    seen, frontier = {start}, [start]
    for _ in range(reach):
        frontier = [
            n for h in frontier for n in grid.neighbours(h) if n not in bad and n not in seen
        ]
        seen.update(frontier)
    return tuple(h for h in grid.within(start, reach) if h in seen)


def sea_within(state: State, start: str, reach: int) -> tuple[str, ...]:
    """3c (12a): the hexes (zones) a task force in `start` may move to with `reach` - on the
    theatre map through zones that are not land (`landlocked`), step by step; on Midway's
    Searchboard every hex within `reach`."""
    if not _landlocked_of(state.scenario):
        return searchboard_of(state).within(start, reach)
    return _sea_within(state.scenario, start, reach)


def midway_hex() -> str:
    """The hex of Midway's base unit (2c2, 4a1): the rules of Midway itself (its control,
    7c4.3; its bombardment, 16j; searching over it, 15a1.1) ask for it."""
    return catalog().searchboard.bases[BASE_ID]


@cache
def _base_zones(scenario: str) -> dict[str, str | None]:
    """Every base unit of a scenario by id, and its hex or zone: Midway's hex on the
    Searchboard; a theatre base's zone (Bases 1), None for an off-board base."""
    spec = catalog().scenarios[scenario]
    theatre_spec = catalog().theatre if spec.board == "theatre" else None
    out: dict[str, str | None] = {}
    for force in spec.forces:
        if force.area != "base":
            continue
        for uid in force.ships:
            if theatre_spec is None:
                out[uid] = catalog().searchboard.bases[uid]
            else:
                out[uid] = theatre_spec.bases.get(catalog().ship(force.side, uid).name)
    return out


def base_zone(state: State, base: Unit) -> str | None:
    """Where a base unit is (2c2): its hex or zone, None for an off-board base
    (Off-Board Bases 1)."""
    return _base_zones(state.scenario).get(base.id)


def is_base(state: State, side: Side, uid: str) -> bool:
    """Whether `uid` is one of the side's base units (Midway's, or a theatre base)."""
    u = state.units[side].get(uid)
    return u is not None and u.ship and uid in _base_zones(state.scenario)


def bases_of(state: State, side: Side) -> list[Unit]:
    """The side's base units in play (2c2)."""
    return [u for u in state.units[side].values() if u.box == BASE]


def base_at(state: State, side: Side, hex_: str) -> Unit | None:
    """The side's base unit in play in a hex or zone, if any (one base a zone)."""
    zones = _base_zones(state.scenario)
    return next((u for u in bases_of(state, side) if zones.get(u.id) == hex_), None)


def force_hex(state: State, side: Side, marker: str) -> str | None:
    return state.boards[side].forces.get(marker)


def carrier_hex(state: State, carrier: Unit) -> str | None:
    """2c2, 2c3: a carrier is where its task force is; a base where it stands (None off the
    board)."""
    if carrier.box == BASE:
        return base_zone(state, carrier)
    if carrier.box == SHIPS:
        return force_hex(state, carrier.side, carrier.area)
    return None


def unit_hex(state: State, u: Unit) -> str | None:
    """The Searchboard hex of any live unit, on its owner's board."""
    if u.ship:
        return carrier_hex(state, u)
    if u.box in (READY, ARMING):
        return carrier_hex(state, state.units[u.side][u.area])
    if u.box in (STRIKE, MAX_STRIKE, HIGH_CAP, LOW_CAP):
        base = state.units[u.side].get(u.area)
        if base is not None and base.box == BASE:
            return base_zone(state, base)
        return force_hex(state, u.side, u.area)
    if u.box == FLYING:
        return state.boards[u.side].flights[u.id].hex
    return None


def ships_in(state: State, side: Side, marker: str) -> list[Unit]:
    return [u for u in state.units[side].values() if u.ship and u.box == SHIPS and u.area == marker]


def forces_at(state: State, side: Side, hex_: str) -> list[str]:
    """Task force markers of `side` in a hex (with ships in their Ships boxes)."""
    return [
        m for m, h in state.boards[side].forces.items() if h == hex_ and ships_in(state, side, m)
    ]
