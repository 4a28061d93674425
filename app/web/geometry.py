"""1a: where a hex is drawn. Flat-topped hexes in lettered columns and numbered rows,
columns B, D, F, ... (odd index) half a hex lower ("odd-q", scenarios/searchboard.toml);
and where a zone of the theatre map of "Pacific Theatre Via Midway" is drawn (27 x 21
square zones, areas A-I by 1-7 of 3 x 3 zones each, `SquareLayout`).

Only drawing lives here: the rules' own grid stays in app/rules. Distances are counted
the same way (cube coordinates on hexes, eight neighbours on squares) so the page can
shade the cells an air unit can reach. Both layouts give each cell `coords`, numbers whose
largest difference between two cells is their distance, and `position`, its column and row
as drawn (for the arrow keys): the page's script needs nothing else about the grid.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from app.data.records import theatre_zones

ROOT3 = math.sqrt(3)


@dataclass(frozen=True)
class Layout:
    """A board of `columns` x `rows` hexes of circumradius `size` (SVG user units)."""

    columns: str
    rows: int
    size: float
    margin: float = 4.0
    kind = "hex"

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

    def coords(self, name: str) -> tuple[int, ...]:
        """The cube coordinates: the distance is their largest difference."""
        return self.cube(name)

    def position(self, name: str) -> tuple[int, int]:
        """Column index and row number, as drawn (the arrow keys step by them)."""
        return self._index[name]

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


@dataclass(frozen=True)
class SquareLayout:
    """The theatre map: `columns` area letters by `rows` area numbers of 3 x 3 square zones
    of side `size` ("F4F": area F4, zone F; RULES-NOTES.md), with room round the map
    (`pad`: north, east, south, west) for the off-board bases' boxes (Off-Board Bases 1)."""

    columns: str
    rows: int
    size: float
    pad: tuple[float, float, float, float] = (4.0, 4.0, 4.0, 4.0)
    kind = "square"

    @cached_property
    def _index(self) -> dict[str, tuple[int, int]]:
        return theatre_zones(self.columns, self.rows)

    def hexes(self) -> list[str]:
        """Board order: row by row from the north-west (the rules' own order)."""
        return list(self._index)

    def contains(self, name: str) -> bool:
        return name in self._index

    @property
    def zones_wide(self) -> int:
        return 3 * len(self.columns)

    @property
    def zones_high(self) -> int:
        return 3 * self.rows

    @property
    def left(self) -> float:
        """The map's west edge (x)."""
        return self.pad[3]

    @property
    def top(self) -> float:
        """The map's north edge (y)."""
        return self.pad[0]

    @property
    def right(self) -> float:
        return round(self.left + self.size * self.zones_wide, 1)

    @property
    def bottom(self) -> float:
        return round(self.top + self.size * self.zones_high, 1)

    @property
    def width(self) -> float:
        return round(self.right + self.pad[1], 1)

    @property
    def height(self) -> float:
        return round(self.bottom + self.pad[2], 1)

    def centre(self, name: str) -> tuple[float, float]:
        x, y = self._index[name]
        return (
            round(self.left + self.size * (x + 0.5), 1),
            round(self.top + self.size * (y + 0.5), 1),
        )

    def corners(self, cx: float = 0.0, cy: float = 0.0) -> list[tuple[float, float]]:
        """The four corners, clockwise from the north-east one."""
        h = self.size / 2
        offsets = [(h, -h), (h, h), (-h, h), (-h, -h)]
        return [(round(cx + dx, 1), round(cy + dy, 1)) for dx, dy in offsets]

    def points(self) -> str:
        """The square of a zone centred on the origin (used once, as an SVG symbol)."""
        return " ".join(f"{x},{y}" for x, y in self.corners())

    def distance(self, a: str, b: str) -> int:
        """Steps between two zones, a diagonal step counting one (RULES-NOTES.md)."""
        (ax, ay), (bx, by) = self._index[a], self._index[b]
        return max(abs(ax - bx), abs(ay - by))

    def coords(self, name: str) -> tuple[int, ...]:
        return self._index[name]

    def position(self, name: str) -> tuple[int, int]:
        return self._index[name]

    def areas(self) -> list[tuple[str, float, float]]:
        """Every area's name and centre ("F4"), row by row from the north-west."""
        out = []
        for r in range(self.rows):
            for c, letter in enumerate(self.columns):
                x = self.left + self.size * (3 * c + 1.5)
                y = self.top + self.size * (3 * r + 1.5)
                out.append((f"{letter}{r + 1}", round(x, 1), round(y, 1)))
        return out

    def area_lines(self) -> str:
        """An SVG path along the lines between areas, inside the map's frame."""
        step = 3 * self.size
        parts = [
            f"M{round(self.left + step * c, 1)},{self.top}V{self.bottom}"
            for c in range(1, len(self.columns))
        ]
        parts += [
            f"M{self.left},{round(self.top + step * r, 1)}H{self.right}"
            for r in range(1, self.rows)
        ]
        return "".join(parts)


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
