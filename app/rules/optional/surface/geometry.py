"""16c, 16f, 16g: Battleboard geometry - setup lines, gun sectors, torpedo lines, ranges.

RULES-NOTES.md ("The Battleboard"): night setup lines are columns I and L (X hexes I11
and L11), day setup lines H and M (H11, M11); a battleline is a column of ships facing
north or south, and later battlelines are two columns further back. Gun sectors: the
front sector is the 60 degree wedge centred on the ship's facing, the rear sector the
opposite wedge, and hexes on a wedge's edge line belong to the side sector. A torpedo
marker goes in one of the four neighbours of its ship that are neither ahead nor astern,
and runs in that straight hex line from the ship.
"""

from __future__ import annotations

from functools import cache

from app.rules.board.boards import battleboard

# 16c1: setup lines (columns) and the X hexes' row.
NIGHT_LINES = ("I", "L")
DAY_LINES = ("H", "M")
X_ROW = 11
MAX_BATTLELINES = 4  # 16c2.3
SMALL_SIDE = 5  # 16c2.3: five ships or fewer all go in the first battleline
MIN_BATTLELINE = 3  # 16c2.3: each battleline at least three ships when there are more
NORTH, SOUTH = 0, 3

# 16g1: gun range and half range by the surface factor's letter.
GUN_RANGE = {"a": 6, "b": 5, "c": 4, "d": 3}
GUN_HALF_RANGE = {"a": 3, "b": 2, "c": 2, "d": 1}
# 16f2, 16h1.3: torpedo range and half range by nationality.
TORPEDO_RANGE = {"japan": 5, "usa": 2}
TORPEDO_HALF_RANGE = {"japan": 2, "usa": 1}
# 16j2: ship units with a "-" surface factor are set seven hexes from the base.
NO_GUN_RANGE = 7

# The four hexsides a torpedo marker may lie beyond, relative to the ship's facing (16f2):
# starboard bow, starboard quarter, port quarter, port bow.
TORPEDO_SIDES = (1, 2, 4, 5)
AHEAD, STARBOARD_BOW, ASTERN, PORT_BOW = 0, 1, 3, 5


def setup_lines(night: bool) -> tuple[str, str]:
    """16c1: the two setup lines, west first."""
    return NIGHT_LINES if night else DAY_LINES


def battleline_columns(line: str, night: bool) -> list[str]:
    """16c2.3: the columns of up to four battlelines, each two back from the enemy."""
    west = setup_lines(night)[0]
    columns = battleboard().columns
    step = -2 if line == west else 2
    start = columns.index(line)
    return [columns[start + k * step] for k in range(MAX_BATTLELINES)]


def other_line(line: str, night: bool) -> str:
    west, east = setup_lines(night)
    return east if line == west else west


def cube(hex_: str) -> tuple[int, int, int]:
    """Cube coordinates of a Battleboard hex (odd-q layout, as grid.HexGrid)."""
    col = battleboard().columns.index(hex_[0])
    row = int(hex_[1:])
    z = row - (col - (col & 1)) // 2
    return col, -col - z, z


def _rotate(v: tuple[int, int, int], steps: int) -> tuple[int, int, int]:
    """Turn a cube vector `steps` hexsides clockwise."""
    x, y, z = v
    for _ in range(steps % 6):
        x, y, z = -z, -x, -y
    return x, y, z


def _in_front_wedge(v: tuple[int, int, int]) -> bool:
    """Strictly within 30 degrees of north (a flat-topped hex's north hexside)."""
    q, r = v[0], v[2]
    return 3 * abs(q) < -(2 * r + q)


def sector(ship: str, facing: int, target: str) -> str:
    """16g2: "front", "rear" or "side" - where `target` lies for a ship at `ship`."""
    a, b = cube(ship), cube(target)
    v = _rotate((b[0] - a[0], b[1] - a[1], b[2] - a[2]), -facing)
    if v == (0, 0, 0):
        return "side"
    if _in_front_wedge(v):
        return "front"
    if _in_front_wedge((-v[0], -v[1], -v[2])):
        return "rear"
    return "side"


@cache
def sector_hexes(ship: str, facing: int, reach: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """16g2: the hexes within `reach` in a ship's front sector, and in its rear sector."""
    near = [h for h in battleboard().within(ship, reach) if h != ship]
    front = tuple(h for h in near if sector(ship, facing, h) == "front")
    rear = tuple(h for h in near if sector(ship, facing, h) == "rear")
    return front, rear


def distance(a: str, b: str) -> int:
    return battleboard().distance(a, b)


def ahead(hex_: str, facing: int) -> str | None:
    return battleboard().step(hex_, facing)


def torpedo_hexes(ship: str, facing: int) -> list[tuple[str, int]]:
    """16f2: the (marker hex, running direction) pairs beside a ship, on the Battleboard."""
    out = []
    for rel in TORPEDO_SIDES:
        d = (facing + rel) % 6
        h = battleboard().step(ship, d)
        if h is not None:
            out.append((h, d))
    return out


def torpedo_line(origin: str, direction: int, length: int) -> tuple[str, ...]:
    """16f2, 16h2: the hexes a torpedo runs through from its ship, out to its range."""
    return battleboard().line(origin, direction, length)


def coming_from(target_facing: int, direction: int) -> int:
    """16h1.2: the target's side a torpedo running in `direction` comes in on (0 = ahead)."""
    return (direction + 3 - target_facing) % 6
