"""1a: the boards' grids - the hexes of the Searchboards and the Battleboard, and the square
zones of the theatre map of "Pacific Theatre Via Midway".

The hex boards are flat-topped hexes in lettered columns and numbered rows, columns B, D,
F, ... sitting half a hex lower ("odd-q", RULES-NOTES.md). The theatre map is a grid of
square zones with eight neighbours each, named area-and-zone ("F4F": area F4, zone F;
RULES-NOTES.md, "Pacific Theatre Via Midway"). Rule code reaches a Searchboard only through
`Board`: names, neighbours, distance, within, edges and directions, whichever grid it is.
The Battleboard's straight lines and facings (`HexGrid.line`, `HexGrid.direction`) are hex
geometry of its own.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from app.data.records import theatre_zones

# The six hexside directions of a flat-topped hex, clockwise from north (4a2 facing).
DIRECTIONS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
# The eight directions of a square zone, clockwise from north.
SQUARE_DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
EDGES: tuple[str, ...] = ("north", "east", "south", "west")

# (dcol, drow) for each direction, for even-index columns (A, C, ...) and odd (B, D, ...).
_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
# (dx, dy) of each square direction.
_SQUARE = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


class Board(Protocol):
    """What rule code may ask of a Searchboard, hex or square."""

    @property
    def directions(self) -> tuple[str, ...]: ...
    def hexes(self) -> tuple[str, ...]: ...
    def contains(self, name: str) -> bool: ...
    def neighbours(self, name: str) -> tuple[str, ...]: ...
    def distance(self, a: str, b: str) -> int: ...
    def within(self, centre: str, radius: int) -> tuple[str, ...]: ...
    def edges(self, name: str) -> frozenset[str]: ...
    def on_edge(self, name: str) -> bool: ...
    def step(self, name: str, direction: int) -> str | None: ...


class _Cells(ABC):
    """What both grids share: the names in board order, their neighbour table, edges and the
    memo of `within`. A subclass fills `_index` (name -> coordinates) and says how to step."""

    _index: dict[str, tuple[int, int]]
    _within: dict[tuple[str, int], tuple[str, ...]]

    @property
    @abstractmethod
    def directions(self) -> tuple[str, ...]: ...

    @abstractmethod
    def step(self, name: str, direction: int) -> str | None: ...

    @abstractmethod
    def distance(self, a: str, b: str) -> int: ...

    @abstractmethod
    def _edges_of(self, name: str) -> frozenset[str]: ...

    @cached_property
    def _hexes(self) -> tuple[str, ...]:
        return tuple(self._index)

    def hexes(self) -> tuple[str, ...]:
        """Every hex or zone, in board order."""
        return self._hexes

    def contains(self, name: str) -> bool:
        return name in self._index

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        n = len(self.directions)
        return {
            h: tuple(s for d in range(n) if (s := self.step(h, d)) is not None) for h in self._index
        }

    def neighbours(self, name: str) -> tuple[str, ...]:
        return self._neighbours[name]

    def within(self, centre: str, radius: int) -> tuple[str, ...]:
        """Every cell at most `radius` steps from `centre`, the centre included (board order)."""
        key = (centre, radius)
        if key not in self._within:
            # Both grids' coordinates differ by at most the distance in columns, and by at
            # most twice it and one in rows: only the cells in that box are measured.
            cx, cy = self._index[centre]
            self._within[key] = tuple(
                h
                for h, (x, y) in self._index.items()
                if abs(x - cx) <= radius
                and abs(y - cy) <= 2 * radius + 1
                and self.distance(centre, h) <= radius
            )
        return self._within[key]

    @cached_property
    def _edges(self) -> dict[str, frozenset[str]]:
        return {h: self._edges_of(h) for h in self._index}

    def edges(self, name: str) -> frozenset[str]:
        """The board edges ("north", "east", "south", "west") the cell lies on."""
        return self._edges[name]

    def on_edge(self, name: str) -> bool:
        return bool(self._edges[name])


@dataclass(frozen=True)
class HexGrid(_Cells):
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

    @property
    def directions(self) -> tuple[str, ...]:
        return DIRECTIONS

    def name(self, col: int, row: int) -> str | None:
        if 0 <= col < len(self.columns) and 1 <= row <= self.rows:
            return f"{self.columns[col]}{row}"
        return None

    def step(self, name: str, direction: int) -> str | None:
        """The neighbour of `name` across hexside `direction` (index into DIRECTIONS)."""
        col, row = self._index[name]
        dc, dr = (_ODD if col % 2 else _EVEN)[direction % 6]
        return self.name(col + dc, row + dr)

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

    def _edges_of(self, name: str) -> frozenset[str]:
        """A hex is on an edge where it lacks a neighbour: row 1, the last row, the first or
        last column."""
        col, row = self._index[name]
        marks = (row == 1, col == len(self.columns) - 1, row == self.rows, col == 0)
        return frozenset(e for e, on in zip(EDGES, marks, strict=True) if on)

    def column(self, name: str) -> str:
        return name[0]


@dataclass(frozen=True)
class SquareGrid(_Cells):
    """The theatre map: `columns` area letters by `rows` area numbers, each area 3 x 3 square
    zones; a zone has eight neighbours and a diagonal step costs one, as an orthogonal one."""

    columns: str
    rows: int
    _index: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    _at: dict[tuple[int, int], str] = field(default_factory=dict, compare=False, repr=False)
    _within: dict[tuple[str, int], tuple[str, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        for name, xy in theatre_zones(self.columns, self.rows).items():
            self._index[name] = xy
            self._at[xy] = name

    @property
    def width(self) -> int:
        return 3 * len(self.columns)

    @property
    def height(self) -> int:
        return 3 * self.rows

    @property
    def directions(self) -> tuple[str, ...]:
        return SQUARE_DIRECTIONS

    def xy(self, name: str) -> tuple[int, int]:
        return self._index[name]

    def at(self, x: int, y: int) -> str | None:
        return self._at.get((x, y))

    def step(self, name: str, direction: int) -> str | None:
        """The neighbour of `name` in `direction` (index into SQUARE_DIRECTIONS)."""
        x, y = self._index[name]
        dx, dy = _SQUARE[direction % 8]
        return self._at.get((x + dx, y + dy))

    def distance(self, a: str, b: str) -> int:
        """Steps between two zones, diagonals counting one (RULES-NOTES.md)."""
        (ax, ay), (bx, by) = self._index[a], self._index[b]
        return max(abs(ax - bx), abs(ay - by))

    def _edges_of(self, name: str) -> frozenset[str]:
        x, y = self._index[name]
        marks = (y == 0, x == self.width - 1, y == self.height - 1, x == 0)
        return frozenset(e for e, on in zip(EDGES, marks, strict=True) if on)

    def area(self, name: str) -> str:
        """The area of a zone ("F4F" -> "F4")."""
        return name[:-1]
