"""Distances on the boards a seat's view names: the Searchboard's hexes ("M5", odd-q, 1b)
and the theatre map's square zones ("F4F", Pacific Theatre Via Midway).

Worked out from the names alone: the geometry is printed on the board every player has,
and the bot reads nothing of the engine to learn it.
"""

from __future__ import annotations

from functools import lru_cache

FAR = 99  # between cells of two boards
ZONE_LETTERS = "ABCDEFGHI"  # a zone's letter within its area: A B C / D E F / G H I


@lru_cache(maxsize=4096)
def cell(name: str) -> tuple[str, int, int]:
    """("hex" | "zone", x, y) of a Searchboard hex or a theatre zone."""
    if len(name) >= 3 and name[-1].isalpha() and name[1:-1].isdigit():
        col = ord(name[0]) - ord("A")
        row = int(name[1:-1])
        k = ZONE_LETTERS.index(name[-1])
        return "zone", 3 * col + k % 3, 3 * (row - 1) + k // 3
    if len(name) >= 2 and name[1:].isdigit():
        return "hex", ord(name[0]) - ord("A"), int(name[1:])
    raise ValueError(f"not a hex or zone: {name!r}")


@lru_cache(maxsize=65536)
def distance(a: str, b: str) -> int:
    """Steps between two cells of one board (hexes: cube distance of the odd-q layout;
    zones: diagonals count one); FAR between two boards."""
    ka, ax, ay = cell(a)
    kb, bx, by = cell(b)
    if ka != kb:
        return FAR  # not on one board: as far as can be
    if ka == "zone":
        return max(abs(ax - bx), abs(ay - by))
    az = ay - (ax - (ax & 1)) // 2
    bz = by - (bx - (bx & 1)) // 2
    return max(abs(ax - bx), abs((-ax - az) - (-bx - bz)), abs(az - bz))


def is_cell(name: object) -> bool:
    if not isinstance(name, str):
        return False
    try:
        cell(name)
    except ValueError:
        return False
    return True


def area_centre(area: str) -> str:
    """The middle zone of a theatre area ("F4" -> "F4E")."""
    return f"{area}E"


@lru_cache(maxsize=4)
def _cells(kind: str) -> tuple[str, ...]:
    if kind == "hex":  # the Searchboard: columns A-T, rows 1-11 (1b)
        return tuple(f"{c}{r}" for c in "ABCDEFGHIJKLMNOPQRST" for r in range(1, 12))
    return tuple(  # the theatre map: areas A-I by 1-7, nine zones each
        f"{c}{r}{z}" for c in "ABCDEFGHI" for r in range(1, 8) for z in ZONE_LETTERS
    )


def board_cells(near: str) -> tuple[str, ...]:
    """Every cell of the board `near` is on."""
    return _cells(cell(near)[0])
