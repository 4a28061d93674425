"""1a: the hex grids of the Searchboards and the Battleboard.

Both boards are flat-topped hexes in lettered columns and numbered rows, columns B, D,
F, ... sitting half a hex lower ("odd-q", RULES-NOTES.md). Rule code reaches a board only
through `Grid`: names, neighbours, distance, directions. The expansion's square-zone map
will be another implementation of the same protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

# The six hexside directions of a flat-topped hex, clockwise from north (4a2 facing).
DIRECTIONS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")

# (dcol, drow) for each direction, for even-index columns (A, C, ...) and odd (B, D, ...).
_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


class Grid(Protocol):
    def hexes(self) -> tuple[str, ...]: ...
    def contains(self, name: str) -> bool: ...
    def neighbours(self, name: str) -> tuple[str, ...]: ...
    def distance(self, a: str, b: str) -> int: ...
    def on_edge(self, name: str) -> bool: ...
    def line(self, start: str, direction: int, length: int) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class HexGrid:
    """A board of `columns` letters by `rows` numbers ("H4", "K11")."""

    columns: str
    rows: int
    _index: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    _cubes: dict[str, tuple[int, int, int]] = field(default_factory=dict, compare=False, repr=False)
    _within: dict[tuple[str, int], tuple[str, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        for c, letter in enumerate(self.columns):
            for r in range(1, self.rows + 1):
                self._index[f"{letter}{r}"] = (c, r)
        for name in self._index:
            self._cubes[name] = self._cube(name)

    @cached_property
    def _hexes(self) -> tuple[str, ...]:
        return tuple(self._index)

    def hexes(self) -> tuple[str, ...]:
        return self._hexes

    def contains(self, name: str) -> bool:
        return name in self._index

    def name(self, col: int, row: int) -> str | None:
        if 0 <= col < len(self.columns) and 1 <= row <= self.rows:
            return f"{self.columns[col]}{row}"
        return None

    def step(self, name: str, direction: int) -> str | None:
        """The neighbour of `name` across hexside `direction` (index into DIRECTIONS)."""
        col, row = self._index[name]
        dc, dr = (_ODD if col % 2 else _EVEN)[direction % 6]
        return self.name(col + dc, row + dr)

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        table: dict[str, tuple[str, ...]] = {}
        for h in self._index:
            table[h] = tuple(n for d in range(6) if (n := self.step(h, d)) is not None)
        return table

    def neighbours(self, name: str) -> tuple[str, ...]:
        return self._neighbours[name]

    def direction(self, a: str, b: str) -> int | None:
        """The hexside direction from `a` to its neighbour `b`, or None if not adjacent."""
        for d in range(6):
            if self.step(a, d) == b:
                return d
        return None

    def _cube(self, name: str) -> tuple[int, int, int]:
        col, row = self._index[name]
        z = row - (col - (col & 1)) // 2
        return col, -col - z, z

    def distance(self, a: str, b: str) -> int:
        ax, ay, az = self._cubes[a]
        bx, by, bz = self._cubes[b]
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def line(self, start: str, direction: int, length: int) -> tuple[str, ...]:
        """The straight hex line from `start` (not included) across hexside `direction`."""
        out: list[str] = []
        here: str | None = start
        while len(out) < length and here is not None:
            here = self.step(here, direction)
            if here is not None:
                out.append(here)
        return tuple(out)

    def within(self, centre: str, radius: int) -> tuple[str, ...]:
        """Every hex at most `radius` hexes from `centre`, the centre included (board order)."""
        key = (centre, radius)
        if key not in self._within:
            self._within[key] = tuple(h for h in self._index if self.distance(centre, h) <= radius)
        return self._within[key]

    def on_edge(self, name: str) -> bool:
        return len(self.neighbours(name)) < 6

    def column(self, name: str) -> str:
        return name[0]
