"""1a: where a hex is drawn. Flat-topped hexes in lettered columns and numbered rows,
columns B, D, F, ... (odd index) half a hex lower ("odd-q", scenarios/searchboard.toml).

Only drawing lives here: the rules' own grid stays in app/rules. Distances are counted
the same way (cube coordinates) so the page can shade the hexes an air unit can reach.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

ROOT3 = math.sqrt(3)


@dataclass(frozen=True)
class Layout:
    """A board of `columns` x `rows` hexes of circumradius `size` (SVG user units)."""

    columns: str
    rows: int
    size: float
    margin: float = 4.0

    @property
    def height_of_hex(self) -> float:
        return ROOT3 * self.size

    @cached_property
    def _index(self) -> dict[str, tuple[int, int]]:
        return {
            f"{letter}{row}": (c, row)
            for c, letter in enumerate(self.columns)
            for row in range(1, self.rows + 1)
        }

    def hexes(self) -> list[str]:
        """Board order: column by column, north to south."""
        return list(self._index)

    def contains(self, name: str) -> bool:
        return name in self._index

    def centre(self, name: str) -> tuple[float, float]:
        return self._centres[name]

    @cached_property
    def _centres(self) -> dict[str, tuple[float, float]]:
        """Every hex's centre, worked out once (a Searchboard's page draws each of them)."""
        out = {}
        for name, (col, row) in self._index.items():
            x = self.margin + self.size + 1.5 * self.size * col
            y = self.margin + self.height_of_hex * (row - 0.5 + (0.5 if col % 2 else 0.0))
            out[name] = (round(x, 1), round(y, 1))
        return out

    @property
    def width(self) -> float:
        return round(2 * self.margin + self.size * (2 + 1.5 * (len(self.columns) - 1)), 1)

    @property
    def height(self) -> float:
        return round(2 * self.margin + self.height_of_hex * (self.rows + 0.5), 1)

    def corners(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """The six corners, clockwise from the east one."""
        s, h = self.size, self.height_of_hex / 2
        offsets = [(s, 0.0), (s / 2, h), (-s / 2, h), (-s, 0.0), (-s / 2, -h), (s / 2, -h)]
        return [(round(cx + dx, 1), round(cy + dy, 1)) for dx, dy in offsets]

    def points(self) -> str:
        """The polygon of a hex centred on the origin (used once, as an SVG symbol)."""
        return " ".join(f"{x},{y}" for x, y in self.corners())

    def cube(self, name: str) -> tuple[int, int, int]:
        col, row = self._index[name]
        z = row - (col - (col & 1)) // 2
        return col, -col - z, z

    def distance(self, a: str, b: str) -> int:
        ax, ay, az = self.cube(a)
        bx, by, bz = self.cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def east_edge(self, column: str) -> str:
        """A polyline along the east edges of one column (the Dateline lies there)."""
        if column not in self._east_edges:
            self._east_edges[column] = self._east_edge(column)
        return self._east_edges[column]

    @cached_property
    def _east_edges(self) -> dict[str, str]:
        return {}

    def _east_edge(self, column: str) -> str:
        pts: list[tuple[float, float]] = []
        for row in range(1, self.rows + 1):
            cx, cy = self.centre(f"{column}{row}")
            c = self.corners(cx, cy)
            pts += [c[5], c[0], c[1]]
        return " ".join(f"{x},{y}" for x, y in pts)

    def direction_angle(self, direction: str) -> int:
        """SVG rotation (degrees clockwise from north) of a hexside direction (4a2)."""
        return {"N": 0, "NE": 60, "SE": 120, "S": 180, "SW": 240, "NW": 300}.get(direction, 0)


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def ahead(name: str, direction: str) -> str | None:
    """The neighbour of hex `name` across its `direction` hexside (odd-q columns), or None
    off the letters. The page uses it to light the hex a ship advances into (16e1)."""
    col, row = LETTERS.find(name[:1]), int(name[1:]) if name[1:].isdigit() else 0
    if col < 0 or row < 1:
        return None
    up = 0 if col % 2 else -1  # the row a diagonal neighbour north of it is in, relatively
    steps = {
        "N": (0, -1),
        "S": (0, 1),
        "NE": (1, up),
        "NW": (-1, up),
        "SE": (1, up + 1),
        "SW": (-1, up + 1),
    }
    if direction not in steps:
        return None
    dc, dr = steps[direction]
    c, r = col + dc, row + dr
    if not 0 <= c < len(LETTERS) or r < 1:
        return None
    return f"{LETTERS[c]}{r}"
