"""Where things are: the Searchboard and Battleboard grids, and each unit's hex (2c).

A scenario names the board its Searchboards are (`Scenario.board`): the hex Searchboard of
Midway or the square-zone theatre map of "Pacific Theatre Via Midway". Rule code asks
`searchboard_of(state)` and uses it through `grid.Board`, whichever grid it is.
"""

from __future__ import annotations

from functools import cache

from app.data import catalog
from app.rules.grid import Board, HexGrid, SquareGrid
from app.rules.state import (
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
from app.rules.units import BASE_ID


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
def _board_of(scenario: str) -> Board:
    return theatre() if _theatre_of(scenario) else searchboard()


def searchboard_of(state: State) -> Board:
    """The Searchboard the game's scenario is played on."""
    return _board_of(state.scenario)


@cache
def area_hexes_of(scenario: str, area: str) -> tuple[str, ...]:
    spec = catalog().theatre if _theatre_of(scenario) else None
    hexes = (spec or catalog().searchboard).areas[area]
    return tuple(h for h in _board_of(scenario).hexes() if h in hexes)


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


def base_hex() -> str:
    """The hex of Midway's base unit (2c2); theatre bases are in `catalog().theatre`."""
    return catalog().searchboard.bases[BASE_ID]


def force_hex(state: State, side: Side, marker: str) -> str | None:
    return state.boards[side].forces.get(marker)


def carrier_hex(state: State, carrier: Unit) -> str | None:
    """2c2, 2c3: a carrier is where its task force is; the base is in M5."""
    if carrier.box == BASE:
        return base_hex()
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
        if u.area == BASE_ID:
            return base_hex()
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
