"""The theatre map of "Pacific Theatre Via Midway" as the page draws it: its terrain (land,
coastal land, mountain and reef zones), the bases in their zones with their side and the
day's damage (Bases 3), and the off-board bases' boxes beyond the map edge with the numbers
of their marked edge squares (Off-Board Bases 1). The map's data is `catalog().theatre`
(scenarios/theatre.toml); the bases' printed values are scenarios/theatre-bases.toml.

What a base has suffered today comes from the seat's view when the view carries it:
the base unit's `damage_today` and `knocked_out` on its Operations Card (modes/observer.py).
A base's side is the side whose Operations Card holds a base
unit of that name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from app.data import catalog
from app.data.records import TheatreSpec
from app.rules.expansions.ptvm.bases import RECOVERY_TIME
from app.web.counters import SIDE_LABEL, SIDE_TITLE
from app.web.geometry import SquareLayout

ZONE = 32.0  # a zone's side, in SVG user units (a counter is 30)
PAD = (62.0, 8.0, 62.0, 96.0)  # room round the map (N, E, S, W) for the off-board boxes
TERRAIN_WORDS = {
    "land": "land",
    "mountain": "mountain: fighters may not fly through it (Terrain)",
    "reef": "reef",
}


def spec() -> TheatreSpec:
    found = catalog().theatre
    assert found is not None, "scenarios/theatre.toml is not loaded"
    return found


@cache
def layout() -> SquareLayout:
    s = spec()
    return SquareLayout(s.columns, s.rows, size=ZONE, pad=PAD)


def on_theatre(view: dict[str, Any]) -> bool:
    """Whether the view's game is played on the theatre map (its scenario's `board`)."""
    found = catalog().scenarios.get(str((view.get("scenario") or {}).get("id")))
    return found is not None and found.board == "theatre"


def terrain(zone: str) -> tuple[list[str], list[str]]:
    """A zone's classes and words: "land" (and "coastal"), "land mountain", "reef"."""
    s = spec()
    kind = s.terrain_of(zone)
    classes = {"land": ["land"], "mountain": ["land", "mountain"], "reef": ["reef"]}
    out = list(classes.get(kind, []))
    words = [TERRAIN_WORDS[kind]] if kind in TERRAIN_WORDS else []
    if zone in s.coastal:
        out.append("coastal")
        words.append("coastal zone of a large island")
    return out, words


@dataclass
class BaseMark:
    """A base in its zone (Bases 1): its name, its side ("" when the view does not say), and
    its state today (Bases 3), when the view carries it."""

    name: str
    zone: str
    x: float
    y: float
    side: str
    damage: int | None
    knocked_out: bool
    in_game: bool  # listed by the game's scenario (theatre-bases.toml); True when unknown
    printed: bool  # the article prints its zone (Bases 1); else placed by the map's fit

    @property
    def side_label(self) -> str:
        return SIDE_LABEL.get(self.side, "")

    @property
    def state(self) -> str:
        """What the board prints under the base: "KO till 0700", "damage 3", or ""."""
        if self.knocked_out:
            return f"KO till {RECOVERY_TIME}"
        return f"damage {self.damage}" if self.damage else ""

    @property
    def words(self) -> str:
        """The zone's note: name, side, state (Bases 3)."""
        side = SIDE_TITLE.get(self.side, "")
        out = f"{self.name} base" + (f" ({side})" if side else "")
        if not self.in_game:
            return out + ", not in this scenario"
        if self.knocked_out:
            out += f", knocked out till {RECOVERY_TIME} (Bases 3: no take-off or landing)"
        if self.damage is not None:
            out += f", {self.damage} hits today (Bases 3)"
        return out


@dataclass
class EdgeSquare:
    zone: str
    number: int
    x: float
    y: float


@dataclass
class OffBoardBox:
    """An off-board base (Off-Board Bases 1): a box beyond the map edge, its marked edge
    squares with the zones a plane needs between the base and each."""

    name: str
    edge: str
    side: str
    x: float
    y: float
    width: float
    height: float
    squares: list[EdgeSquare] = field(default_factory=list)
    links: list[tuple[float, float, float, float]] = field(default_factory=list)

    @property
    def title(self) -> str:
        numbers = ", ".join(f"{s.zone} {s.number}" for s in self.squares)
        return (
            f"{self.name}: off the {self.edge} edge, reached through the marked squares "
            f"(zones to the base: {numbers}); may not be attacked (Off-Board Bases 1, 4)"
        )


def scenario_id(view: dict[str, Any]) -> str:
    return str((view.get("scenario") or {}).get("id") or "")


def _listed(view: dict[str, Any]) -> frozenset[str] | None:
    """The bases the game's scenario lists (Bases 2), or None if it lists none we know."""
    bases = catalog().theatre_bases
    listed = None if bases is None else bases.scenarios.get(scenario_id(view))
    return None if listed is None else frozenset(listed)


def base_sides(view: dict[str, Any]) -> dict[str, str]:
    """Base name -> side, from the base units on the Operations Cards (a base unit's
    catalog name is the printed base name)."""
    out: dict[str, str] = {}
    for side, card in (view.get("operations_cards") or {}).items():
        for u in ((card or {}).get("units") or {}).values():
            if u.get("type") == "base":
                out[str(u.get("name") or u.get("id"))] = str(side)
    return out


def base_state(view: dict[str, Any], name: str) -> tuple[int | None, bool]:
    """Bases 3: (damage today, knocked out) from the base unit on its Operations Card (the
    view's `damage_today` and `knocked_out`), (None, False) when the view says nothing."""
    return base_states(view).get(name, (None, False))


def base_states(view: dict[str, Any]) -> dict[str, tuple[int | None, bool]]:
    """`base_state` of every base unit on the view's Operations Cards, by name, read in
    one pass over the cards (the first card that holds a name says it)."""
    out: dict[str, tuple[int | None, bool]] = {}
    for card in (view.get("operations_cards") or {}).values():
        for u in ((card or {}).get("units") or {}).values():
            if u.get("type") == "base":
                name = str(u.get("name") or u.get("id"))
                if name not in out:
                    damage = u.get("damage_today")
                    hits = None if damage is None else int(damage)
                    out[name] = hits, bool(u.get("knocked_out"))
    # an enemy base the seat's side attacked today, in the umpired modes: as the umpire's
    # last report of today said (18c2, the view's heard.bases)
    for base, told in ((view.get("heard") or {}).get("bases") or {}).items():
        if base not in out:
            hits = told.get("hits_today")
            out[str(base)] = (None if hits is None else int(hits)), bool(told.get("knocked_out"))
    return out


def bases(view: dict[str, Any]) -> list[BaseMark]:
    """Every base of the map in its zone (Bases 1, theatre.toml), in the map's order."""
    grid, s = layout(), spec()
    listed, sides, states = _listed(view), base_sides(view), base_states(view)
    out = []
    for name, zone in s.bases.items():
        if not grid.contains(zone):
            continue
        x, y = grid.centre(zone)
        damage, knocked_out = states.get(name, (None, False))
        in_game = listed is None or name in listed
        side = sides.get(name, "")
        printed = name in s.printed_bases
        out.append(BaseMark(name, zone, x, y, side, damage, knocked_out, in_game, printed))
    return out


GAP = 10.0  # between the map edge and an off-board box


def _box(edge: str, squares: list[EdgeSquare]) -> tuple[float, float, float, float]:
    """Where an off-board box goes: beyond its edge, centred on its marked squares."""
    grid = layout()
    xs, ys = [q.x for q in squares], [q.y for q in squares]
    if edge in ("north", "south"):
        width = max(max(xs) - min(xs) + grid.size, 150.0)
        x = min(max((min(xs) + max(xs) - width) / 2, 4.0), grid.width - width - 4)
        height = grid.pad[0 if edge == "north" else 2] - GAP - 16
        y = grid.top - GAP - height if edge == "north" else grid.bottom + GAP
        return x, y, width, height
    width = (grid.pad[3] if edge == "west" else grid.pad[1]) - GAP - 4
    height = max(max(ys) - min(ys) + grid.size, 70.0)
    y = min(max((min(ys) + max(ys) - height) / 2, 4.0), grid.height - height - 4)
    x = grid.left - GAP - width if edge == "west" else grid.right + GAP
    return x, y, width, height


def offboard(view: dict[str, Any]) -> list[OffBoardBox]:
    """Off-Board Bases 1: Truk off the north edge, Australia the west, New Caledonia the
    south, each a box joined to its marked squares."""
    grid, sides = layout(), base_sides(view)
    out = []
    for name, base in spec().offboard.items():
        squares = [
            EdgeSquare(z, n, *grid.centre(z)) for z, n in base.squares.items() if grid.contains(z)
        ]
        if not squares:
            continue
        x, y, w, h = _box(base.edge, squares)
        box = OffBoardBox(name, base.edge, sides.get(name, ""), x, y, w, h, squares)
        half = grid.size / 2
        for q in squares:  # from the box's side that faces the map to the square's edge
            if base.edge == "north":
                box.links.append((q.x, y + h, q.x, q.y - half))
            elif base.edge == "south":
                box.links.append((q.x, y, q.x, q.y + half))
            elif base.edge == "west":
                box.links.append((x + w, q.y, q.x - half, q.y))
            else:
                box.links.append((x, q.y, q.x + half, q.y))
        out.append(box)
    return out


def edge_notes() -> dict[str, str]:
    """Zone -> its note as a marked square of an off-board base (Off-Board Bases 1)."""
    out = {}
    for name, base in spec().offboard.items():
        for zone, number in base.squares.items():
            out[zone] = f"marked square of {name}: {number} zones to the base (Off-Board Bases 1)"
    return out


LEGEND = [
    "Zones: hover or focus one for its code (areas A1 to I7, each 3 x 3 zones A B C / D E F "
    "/ G H I: F4F is area F4, zone F)",
    "Off-board bases: boxes beyond the edge; the number in a marked square is the zones a "
    "plane needs between it and the base (Off-Board Bases 1)",
]
