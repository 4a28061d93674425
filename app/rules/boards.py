"""Where things are: the Searchboard and Battleboard grids, and each unit's hex (2c)."""

from __future__ import annotations

from functools import cache

from app.data import catalog
from app.rules.grid import HexGrid
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
    spec = catalog().searchboard
    return HexGrid(spec.columns, spec.rows)


@cache
def battleboard() -> HexGrid:
    spec = catalog().battleboard
    return HexGrid(spec.columns, spec.rows)


@cache
def area_hexes(area: str) -> tuple[str, ...]:
    """The Searchboard hexes of a setup or entry area (7a2.2), in board order."""
    hexes = catalog().searchboard.areas[area]
    return tuple(h for h in searchboard().hexes() if h in hexes)


def base_hex() -> str:
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
