"""A side's own Searchboard (1a, 1c, 3d) as the page draws it, from the seat's view only.

The board is the scenario's (`Scenario.board`): Midway's hex Searchboard, or the square-zone
theatre map of "Pacific Theatre Via Midway" (app/web/theatre.py: its terrain, bases and
off-board bases). Both are drawn by the same code through a layout (app/web/geometry.py).

Drawn: every hex with its code, islands and reefs, the Dateline, the setup or entry areas
while a task force of this side still has to be placed in them, own task force markers,
the enemy markers search answers revealed (3d3.3) with the Turn they were seen, flying air
units and their paths, this Turn's searched hexes (own and announced enemy ones), and the
data the page needs to shade where a selected air unit can reach and still land (5a2).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from markupsafe import Markup

from app.data import catalog
from app.rules.engine.kept import Kept
from app.web import theatre
from app.web.choices import Namer
from app.web.counters import SIDE_LABEL, SIDE_TITLE, opponents, sides_of, unit_key
from app.web.geometry import Layout, SquareLayout
from app.web.names import Names

Grid = Layout | SquareLayout

# An area by the words of the rules that name it (7b2; the expansion's Starting Positions),
# else "area <its name>" (the Searchboard's I to VI, a row's letter)
AREA_NAMES = {
    "east-of-dateline": "east of the Dateline",
    "north-edge": "on the north edge",
    "east-edge-row-1": "on the east edge of row 1",
    "south-edge-GHI": "on the south edge of G, H or I",
    "row-1-east-or-south-GHI": "on row 1's east edge, or the south edge of G, H or I",
    "north-edge-or-Rabaul": "on the north edge or at Rabaul",
    "rows-1-3": "in rows 1 to 3",
    "rows-5-7": "in rows 5 to 7",
    "Rabaul": "at Rabaul",
    "Guadalcanal": "at Guadalcanal",
    "Port Moresby": "at Port Moresby",
    "Gili-Gili": "at Gili-Gili",
}
WHITE_DECKS = ("CV", "CVL")


@cache
def layout() -> Layout:
    spec = catalog().searchboard
    return Layout(spec.columns, spec.rows, size=30.0)


def layout_of(view: dict[str, Any]) -> Grid:
    """The layout of the board the view's scenario is played on."""
    return theatre.layout() if theatre.on_theatre(view) else layout()


@dataclass(slots=True)
class Cell:
    name: str
    x: float
    y: float
    classes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    area_label: str = ""
    coords: str = ""  # "x,y,z" (hex) or "x,y" (zone): the distance is the largest difference
    position: str = ""  # "column,row" as drawn: the arrow keys step by it
    key: CellKey = ()  # all it is made from (`_cell`): the same key, the same cell


@dataclass(slots=True)
class Mark:
    """A counter or marker on the board."""

    key: str
    hex: str
    x: float
    y: float
    kind: str  # "tf", "spotted", "flight", "base"
    side: str
    lines: list[str]  # what the counter prints: kind, name, and a foot line
    title: str
    selectable: bool = True


@dataclass(slots=True)
class Stack:
    """Issue 13: the counters in one hex, drawn as one counter (the first) with a count,
    opened by a click into a list beside the board; nothing is drawn outside the hex."""

    hex: str
    x: float
    y: float
    marks: list[Mark]

    @property
    def top(self) -> Mark:
        return self.marks[0]

    @property
    def title(self) -> str:
        names = "; ".join(m.title for m in self.marks)
        return f"Stack of {len(self.marks)} in {self.hex} (click to open): {names}"


@dataclass
class Board:
    width: float
    height: float
    hex_points: str
    cells: tuple[Cell, ...]  # shared with every board of the same `cells_key`: read only
    cells_key: CellsKey
    dateline: str
    dateline_x: float
    stacks: list[Stack]
    paths: list[str]
    legend: list[str]
    title: str = ""  # "" for a side's own Searchboard, which the page names by its seat
    grid: str = "hex"  # "hex" or "square" (the theatre map)
    label: str = "columns A to T, rows 1 to 11"
    mark_dy: float = 5.0  # a counter sits this far below the centre (under a hex's code)
    frame: tuple[float, float, float, float] | None = None  # the theatre map's x, y, w, h
    area_lines: str = ""  # the theatre map's lines between areas (an SVG path)
    area_names: list[tuple[str, float, float]] = field(default_factory=list)
    bases: list[theatre.BaseMark] = field(default_factory=list)
    offboard: list[theatre.OffBoardBox] = field(default_factory=list)

    def __getstate__(self) -> dict[str, Any]:
        """Its pickle (what a live page digests to tell whether the board changed): the
        cells by their key alone, which names everything they show."""
        return {k: v for k, v in self.__dict__.items() if k != "cells"}


def _frame(grid: Grid) -> dict[str, Any]:
    """What a Board takes from its layout besides its cells."""
    if isinstance(grid, Layout):
        return {
            "width": grid.width,
            "height": grid.height,
            "hex_points": grid.points(),
            "dateline": grid.east_edge("K"),
            "dateline_x": round(grid.centre("K1")[0] + grid.size * 0.75, 1),
        }
    return {
        "width": grid.width,
        "height": grid.height,
        "hex_points": grid.points(),
        "dateline": "",
        "dateline_x": 0.0,
        "grid": "square",
        "label": f"areas {grid.columns[0]}1 to {grid.columns[-1]}{grid.rows}, 3 by 3 zones each",
        "mark_dy": 0.0,
        "frame": (grid.left, grid.top, grid.right - grid.left, grid.bottom - grid.top),
        "area_lines": grid.area_lines(),
        "area_names": grid.areas(),
    }


def _areas(view: dict[str, Any], seat: str) -> dict[str, str]:
    """Hex -> area label, for areas where a task force of this side is still to be placed."""
    spec = catalog().scenarios.get(str((view.get("scenario") or {}).get("id")))
    if spec is None or view.get("status") == "finished" or seat not in sides_of(view):
        return {}
    placed = (view.get("searchboard") or {}).get("forces") or {}
    turn = int(view.get("turn") or 0)
    out: dict[str, str] = {}
    for f in (f for f in spec.forces if f.side == seat):
        due = f.entry_turn is None or f.entry_turn >= turn
        if f.area in ("base", "battleboard") or f.marker in placed or not due:
            continue
        name = AREA_NAMES.get(f.area, f"area {f.area}")
        when = "setup" if f.entry_turn is None else f"entry on Turn {f.entry_turn}"
        for h in _areas_of(view).get(f.area, frozenset()):
            out[h] = f"{f.label}: {when} {name}"
    return out


def _areas_of(view: dict[str, Any]) -> Mapping[str, frozenset[str]]:
    return theatre.spec().areas if theatre.on_theatre(view) else catalog().searchboard.areas


def _terrain(grid: Grid, name: str, cell: Cell) -> None:
    """Land and reef: the hex Searchboard's islands (1a), the theatre map's terrain."""
    if isinstance(grid, SquareLayout):
        classes, words = theatre.terrain(name)
        cell.classes += classes
        cell.notes += words
    elif name in catalog().searchboard.land:
        bases = _bases_by_hex()
        cell.classes.append("land")
        cell.notes.append(f"{bases[name]} (island)" if name in bases else "island or reef")


@cache
def _bases_by_hex() -> dict[str, str]:
    """The hex Searchboard's bases by their hex."""
    return {h: name for name, h in catalog().searchboard.bases.items()}


CellsKey = tuple[Any, ...]


def _cells(view: dict[str, Any], seat: str, grid: Grid) -> tuple[CellsKey, tuple[Cell, ...]]:
    """The board's cells as the view marks them, with a key of what marks them (the
    same key, the same cells: worked out and drawn once for all pages, `cells_of`)."""
    board: dict[str, Any] = view.get("searchboard") or {}
    searched = set(board.get("searched") or []) | set(board.get("sea_searched") or [])
    enemy = opponents(view).get(seat, seat)
    announced = {a["hex"]: a["how"] for a in view.get("announcements") or [] if a["side"] == enemy}
    # the side's own searches this Turn: the theatre's area searches (Searches 1) are in
    # the announcements, zone by zone, not among the hexes its flights searched
    searched |= {
        a["hex"]
        for a in view.get("announcements") or []
        if a["side"] == seat and a["how"] != "area search"
    }
    theatre_bases: dict[str, str] = {}
    if isinstance(grid, SquareLayout):
        theatre_bases = {b.zone: b.words for b in theatre.bases(view)}
    key = (
        grid.kind,
        SIDE_TITLE.get(enemy, enemy),
        tuple(sorted(searched)),
        tuple(sorted(announced.items())),
        tuple(sorted(_areas(view, seat).items())),
        tuple(sorted(theatre_bases.items())),
        (view.get("battle") or {}).get("hex"),
        tuple(sorted(awaited_hexes(view))),
    )
    return key, cells_of(key, grid)


def awaited_hexes(view: dict[str, Any]) -> set[str]:
    """18c1: the hexes where the side's scouts searched and whose reports the umpire has
    not released yet (the view's `heard`, modes/r18_umpired/heard.py): not "nothing found"."""
    awaited = (view.get("heard") or {}).get("awaited") or []
    return {str(a["hex"]) for a in awaited if a.get("hex")}


CELLS_KEPT = 4096  # boards' cells by key: each a tuple of shared cells (`_cell`), ~2 kB
_CELLS: Kept[CellsKey, tuple[Cell, ...]] = Kept(CELLS_KEPT)


def cells_of(key: CellsKey, grid: Grid) -> tuple[Cell, ...]:
    """The cells for `key` (`_cells`), from a bounded table of those drawn lately."""
    found = _CELLS.get(key)
    if found is None:
        found = _CELLS.put(key, _make_cells(key, grid))
    return found


def _make_cells(key: CellsKey, grid: Grid) -> tuple[Cell, ...]:
    _kind, enemy, searched, announced_items, area_items, base_items, battle_hex, awaited = key
    announced, areas, theatre_bases = dict(announced_items), dict(area_items), dict(base_items)
    edges = theatre.edge_notes() if isinstance(grid, SquareLayout) else {}
    labelled: set[str] = set()
    cells = []
    for name in grid.hexes():
        area = areas.get(name)
        first = area is not None and area not in labelled
        if area is not None:
            labelled.add(area)
        how = announced.get(name)
        cell_key = (
            theatre_bases.get(name),
            edges.get(name),
            area,
            first,
            name in searched,
            how and f"{enemy} {how} this Turn",
            name == battle_hex,
            name in awaited,
        )
        cells.append(_cell(grid, name, cell_key))
    return tuple(cells)


CellKey = tuple[Any, ...]
CELLS_MADE = 8192  # distinct cells kept: a board's few hundred, each in its few states


@lru_cache(maxsize=CELLS_MADE)
def _cell(grid: Grid, name: str, marks: CellKey) -> Cell:
    """One hex (or zone) as `_make_cells` marks it, made once for every board that shows
    it so: boards share their unchanged cells, and each cell is drawn once (cells_svg)."""
    base_words, edge, area, first_of_area, searched, announced, battle, awaited = marks
    x, y = grid.centre(name)
    cell = Cell(name, x, y, coords=",".join(map(str, grid.coords(name))))
    cell.position = ",".join(map(str, grid.position(name)))
    cell.key = (grid.kind, name, *marks)
    _terrain(grid, name, cell)
    if base_words is not None:
        cell.classes.append("base-zone")
        cell.notes.append(base_words)
    if edge is not None:
        cell.classes.append("edge-square")
        cell.notes.append(edge)
    if area is not None:
        cell.classes.append("area")
        cell.notes.append(area)
        if first_of_area:
            cell.area_label = area.split(": ", 1)[1]
    if searched:
        cell.classes.append("searched")
        cell.notes.append("searched this Turn")
    if announced:
        cell.classes.append("enemy-searched")
        cell.notes.append(announced)
    if battle:
        cell.classes.append("battle-hex")
        cell.notes.append("battle being fought here")
    if awaited:
        cell.classes.append("report-awaited")
        cell.notes.append("searched: the report awaits the umpire (18c1)")
    return cell


KIND_ORDER = {"flight": 0, "tf": 1, "base": 2, "spotted": 3}


def _stacks(marks: list[Mark]) -> list[Stack]:
    """Counters sharing a hex (2d) become one stack; what may still move lies on top."""
    by_hex: dict[str, list[Mark]] = {}
    for m in marks:
        by_hex.setdefault(m.hex, []).append(m)
    out = []
    for h, here in by_hex.items():
        here.sort(key=lambda m: (not m.selectable, KIND_ORDER.get(m.kind, 9)))
        out.append(Stack(h, here[0].x, here[0].y, here))
    return out


def _own_markers(view: dict[str, Any], seat: str, n: Namer, grid: Grid) -> list[Mark]:
    forces: dict[str, str] = (view.get("searchboard") or {}).get("forces") or {}
    card = (view.get("operations_cards") or {}).get(seat) or {}
    ships = {f["force"]: len(f.get("ships") or []) for f in card.get("forces") or []}
    marks = []
    for marker, h in forces.items():
        if not grid.contains(h):
            continue
        x, y = grid.centre(h)
        title = f"{SIDE_TITLE.get(seat, seat)} task force {n.force(marker)} in {h}"
        title += f", {ships.get(marker, 0)} ship units"
        lines = [
            f"{SIDE_LABEL.get(seat, seat)} TF",
            n.marker(marker),
            f"{ships.get(marker, 0)} ships",
        ]
        marks.append(Mark(f"tf:{seat}:{marker}", h, x, y, "tf", seat, lines, title))
    return marks


def _spotted(view: dict[str, Any], seat: str, n: Namer, grid: Grid) -> list[Mark]:
    """3d3.3: an enemy marker where each enemy task force was last seen, with the Turn."""
    enemy = opponents(view).get(seat, seat)
    latest: dict[str, tuple[int, str, str, list[str]]] = {}
    for s in (view.get("searchboard") or {}).get("spotted") or []:
        for marker, ships in (s.get("forces") or {}).items():
            latest[marker] = (int(s["turn"]), s["hex"], s["how"], list(ships))
    marks = []
    for marker, (turn, h, how, ships) in latest.items():
        if not grid.contains(h):
            continue
        x, y = grid.centre(h)
        names = ", ".join(n.unit(enemy, u) for u in ships)
        title = (
            f"Enemy ({SIDE_TITLE.get(enemy, enemy)}) task force {n.force(marker)} "
            f"seen in {h} on Turn {turn} by {how}: {names}"
        )
        lines = [f"{SIDE_LABEL.get(enemy, enemy)} enemy", n.marker(marker), f"seen T{turn}"]
        marks.append(Mark(f"seen:{enemy}:{marker}", h, x, y, "spotted", enemy, lines, title))
    return marks + _unidentified(view, seat, grid)


VAGUE = {"something": "something", "number": "ships", "actual": "ships", "report": "report"}


def _unidentified(view: dict[str, Any], seat: str, grid: Grid) -> list[Mark]:
    """15a1.2: answers that said something is there, or how many ships, but not which
    task force: an enemy marker without a name, at the latest such answer per hex."""
    enemy = opponents(view).get(seat, seat)
    latest: dict[str, dict[str, Any]] = {}
    for s in (view.get("searchboard") or {}).get("spotted") or []:
        if not s.get("forces") and s.get("level") in VAGUE and grid.contains(str(s.get("hex"))):
            latest[s["hex"]] = s
    marks = []
    for h, s in latest.items():
        x, y = grid.centre(h)
        count = f"{s['ships']} ships" if s.get("ships") is not None else "something"
        title = (
            f"Enemy ({SIDE_TITLE.get(enemy, enemy)}) {count} reported in {h} on Turn "
            f"{s['turn']} by {s['how']} (15a1.2: the number may be false)"
        )
        if s.get("said"):  # 18d: the umpire's own words
            title = f"{title}: the umpire reports “{s['said']}”"
        lines = [f"{SIDE_LABEL.get(enemy, enemy)} enemy", f"? {count}", f"seen T{s['turn']}"]
        marks.append(Mark(f"seen:{enemy}:?{h}", h, x, y, "spotted", enemy, lines, title, False))
    return marks


def _flights(view: dict[str, Any], seat: str, grid: Grid) -> tuple[list[Mark], list[str]]:
    board: dict[str, Any] = view.get("searchboard") or {}
    flying: dict[str, Any] = board.get("flying") or {}
    groups: dict[str, list[str]] = board.get("groups") or {}
    movable = {u: g for g, members in groups.items() for u in members}
    stacks: dict[tuple[str, str], list[str]] = {}
    paths: set[str] = set()
    for uid, f in flying.items():
        group = movable.get(uid, "")
        stacks.setdefault((f["hex"], group), []).append(uid)
        route = (board.get("routes") or {}).get(uid) or []  # 18c1: handed in, still to fly
        pts = [grid.centre(h) for h in [*(f.get("path") or []), *route] if grid.contains(h)]
        if len(pts) > 1:
            paths.add(" ".join(f"{x},{y}" for x, y in pts))
    marks, names = [], Names(view)
    for (h, group), units in sorted(stacks.items()):
        x, y = grid.centre(h)
        key = f"g:{seat}:{group}" if group else f"air:{seat}:{h}"
        state = "may still move" if group else "movement used up"
        who = SIDE_TITLE.get(seat, seat)
        what = names.strike(seat, units)
        listed = ", ".join(names.unit(seat, u) for u in units)
        title = f"{who} {what} flying in {h}: {listed} ({state})".replace(" the strike", " strike")
        foot = "to move" if group else "moved"
        lines = [f"{SIDE_LABEL.get(seat, seat)} air ×{len(units)}", " ".join(units), foot]
        marks.append(Mark(key, h, x, y, "flight", seat, lines, title, bool(group)))
    return marks, sorted(paths)


def _base(view: dict[str, Any], grid: Grid) -> list[Mark]:
    base = view.get("midway")
    if not base or base.get("eliminated") or not grid.contains(str(base.get("hex"))):
        return []
    x, y = grid.centre(base["hex"])
    hits = int(base.get("hits") or 0)
    status = ("back side up, " if base.get("face") == "back" else "") + f"{hits} hit markers"
    title = f"American base unit Midway in {base['hex']} ({status}; on both Searchboards, 4e2)"
    side = str(base.get("side"))
    marker = {0: "", 1: "1 hit"}.get(hits, f"{hits} hits")
    label = [f"{SIDE_LABEL.get(side, side)} BASE", "Midway", marker]
    return [Mark(unit_key(side, "Midway"), base["hex"], x, y, "base", side, label, title, False)]


Site = str | list[str | int]  # a hex or zone, or [zone, zones beyond it] (an edge square)


def _base_at(view: dict[str, Any], unit: dict[str, Any]) -> list[Site]:
    """Where a base unit of the seat's card is: Midway's hex (2c2); a theatre base's zone;
    an off-board base's marked edge squares, each with its number (Off-Board Bases 1)."""
    if unit.get("id") == "Midway":
        at = (view.get("midway") or {}).get("hex")
        return [str(at)] if at else []
    if not theatre.on_theatre(view):
        return []
    name, spec = str(unit.get("name") or unit.get("id")), theatre.spec()
    if name in spec.bases:
        return [spec.bases[name]]
    off = spec.offboard.get(name)
    return [] if off is None else [[z, n] for z, n in off.squares.items()]


def _own_bases(view: dict[str, Any], seat: str) -> list[list[Site]]:
    """The seat's theatre base units that planes may land at now (Bases 3: not knocked
    out), each as where it is."""
    card = (view.get("operations_cards") or {}).get(seat) or {}
    units: dict[str, Any] = card.get("units") or {}
    out = []
    for c in card.get("carriers") or []:
        u = units.get(c["id"]) or {}
        if c["id"] == "Midway" or u.get("type") != "base" or u.get("eliminated"):
            continue
        if theatre.base_state(view, str(u.get("name") or c["id"]))[1]:
            continue
        out.append(_base_at(view, u))
    return out


def landing_sites(view: dict[str, Any], seat: str) -> dict[str, list[Site]]:
    """5a1: hexes where each basing colour may land, from this side's own markers and
    bases (an off-board base as its marked squares, each [zone, number])."""
    card = (view.get("operations_cards") or {}).get(seat) or {}
    units: dict[str, Any] = card.get("units") or {}
    forces: dict[str, str] = (view.get("searchboard") or {}).get("forces") or {}
    sites: dict[str, set[str]] = {"white": set(), "green": set(), "yellow": set()}
    for f in card.get("forces") or []:
        h = forces.get(f["force"])
        if h is None:
            continue
        for ship in f.get("ships") or []:
            kind = (units.get(ship) or {}).get("type")
            if kind in WHITE_DECKS:
                sites["white"].add(str(h))
            elif kind == "AV":
                sites["yellow"].add(str(h))
    base = view.get("midway")
    if base and base.get("side") == seat and not base.get("eliminated"):
        sites["white"].add(base["hex"])
        sites["green"].add(base["hex"])
    squares: list[Site] = []
    for at in _own_bases(view, seat):
        for site in at:
            if isinstance(site, str):
                sites["white"].add(site)
                sites["green"].add(site)
            else:
                squares.append(site)
    out: dict[str, list[Site]] = {k: [*sorted(v)] for k, v in sites.items()}
    for k in ("white", "green"):
        out[k] += squares
    return out


def reach_data(view: dict[str, Any], seat: str) -> dict[str, Any]:
    """What the page needs to shade a selected air unit's reach (3d1) and way home (5a2):
    where each unit flies from (a hex, or an off-board base's marked squares with their
    numbers; of a unit on a carrier or base, `by` names its task force or base) and the
    landing sites; the page counts distances with each cell's `coords`."""
    card = (view.get("operations_cards") or {}).get(seat) or {}
    units: dict[str, Any] = card.get("units") or {}
    board: dict[str, Any] = view.get("searchboard") or {}
    forces: dict[str, str] = board.get("forces") or {}
    force_of = {s: f["force"] for f in card.get("forces") or [] for s in f.get("ships") or []}
    out: dict[str, Any] = {}
    for c in card.get("carriers") or []:
        by = c["id"]
        if (units.get(c["id"]) or {}).get("type") == "base" or c["id"] == "Midway":
            here = _base_at(view, {"id": c["id"], **(units.get(c["id"]) or {})})
        else:
            tf = forces.get(force_of.get(c["id"], ""))
            here = [tf] if tf else []
            by = f"tf:{force_of.get(c['id'], '')}"
        at: Site | list[Site] | None = None
        if len(here) == 1 and isinstance(here[0], str):
            at = here[0]
        elif here:
            at = here
        for uid in [*(c.get("ready") or []), *(c.get("arming") or [])]:
            u = units.get(uid) or {}
            move = int((u.get("factors") or {}).get("movement") or 0)
            if at and move:
                member = {"left": move, "move": move, "basing": u.get("basing", "white")}
                out[unit_key(seat, uid)] = {"from": at, "by": by, "members": [member]}
    flying: dict[str, Any] = board.get("flying") or {}
    for group, members in (board.get("groups") or {}).items():
        rows = []
        for uid in members:
            u, f = units.get(uid) or {}, flying.get(uid) or {}
            move = int((u.get("factors") or {}).get("movement") or 0)
            rows.append(
                {
                    "left": move - int(f.get("moved") or 0),
                    "move": move,
                    "basing": u.get("basing", "white"),
                }
            )
        if members and flying.get(members[0]):
            out[f"g:{seat}:{group}"] = {"from": flying[members[0]]["hex"], "members": rows}
    return {"sites": landing_sites(view, seat), "units": out}


def _theatre_layers(view: dict[str, Any], grid: Grid) -> dict[str, Any]:
    if not isinstance(grid, SquareLayout):
        return {}
    return {"bases": theatre.bases(view), "offboard": theatre.offboard(view)}


def searchboard(
    view: dict[str, Any], seat: str, grid: Grid | None = None, namer: Namer | None = None
) -> Board | None:
    """The seat's own Searchboard, on the board of its scenario (`grid`: that board's
    layout, found from the view's scenario unless given; `namer`: the seat's names from
    this view, made here unless given)."""
    if "searchboard" not in view:
        return None
    grid = grid or layout_of(view)
    n = namer or Namer(view, seat)
    flights, paths = _flights(view, seat, grid)
    stacks = _stacks(
        [
            *_base(view, grid),
            *_own_markers(view, seat, n, grid),
            *_spotted(view, seat, n, grid),
            *flights,
        ]
    )
    legend = ["Enemy markers: last seen position, labelled with the Turn (3d3.3)"]
    if awaited_hexes(view):
        what = "zones" if grid.kind == "square" else "hexes"
        legend.append(f"Report awaited from the umpire (18c1): {what} marked “awaited”")
    if isinstance(grid, SquareLayout):
        legend += theatre.LEGEND
    cells_key, cells = _cells(view, seat, grid)
    return Board(
        **_frame(grid),
        cells=cells,
        cells_key=cells_key,
        stacks=stacks,
        paths=paths,
        legend=legend,
        **_theatre_layers(view, grid),
    )


def both_sides(view: dict[str, Any], grid: Grid | None = None) -> Board | None:
    """Everything at once (the umpire, 18b; a finished game's replay): both sides' task
    force markers and flying air units on one Searchboard, each in its side's colours,
    with no "seen" markers (every position is the true one)."""
    boards: dict[str, Any] = view.get("searchboards") or {}
    if not boards:
        return None
    grid = grid or layout_of(view)
    marks, paths = [*_base(view, grid)], []
    for side in sides_of(view):
        own = {**view, "searchboard": boards.get(side) or {}}
        flights, lines = _flights(own, side, grid)
        marks += [*_own_markers(own, side, Namer(own, side), grid), *flights]
        paths += lines
    legend = ["Both sides' task forces and flying air units where they truly are"]
    if isinstance(grid, SquareLayout):
        legend += theatre.LEGEND
    cells_key, cells = _cells({**view, "searchboard": {}}, "", grid)
    return Board(
        **_frame(grid),
        cells=cells,
        cells_key=cells_key,
        stacks=_stacks(marks),
        paths=sorted(paths),
        legend=legend,
        title="Both sides on one Searchboard",
        **_theatre_layers(view, grid),
    )


@dataclass(frozen=True)
class ReachParts:
    """The reach data as the page holds it (issue 34: each part an element with an id,
    what changed sent alone): the landing sites; where each task force or base is
    (`froms`, by its id); each unit's members (by its key, in order), with its task force
    or base, or where it flies from."""

    sites: str
    froms: list[tuple[str, str]]
    units: list[tuple[str, str | None, str]]


def reach_parts(reach: dict[str, Any] | None) -> ReachParts:
    reach = reach or {"sites": {}, "units": {}}
    froms: dict[str, str] = {}
    units: list[tuple[str, str | None, str]] = []
    for key, unit in sorted(reach["units"].items()):
        by = unit.get("by")
        if by is None:
            units.append((key, None, attr_json({"from": unit["from"], "members": unit["members"]})))
            continue
        froms.setdefault(str(by), attr_json(unit["from"]))
        units.append((key, str(by), attr_json({"members": unit["members"]})))
    return ReachParts(attr_json(reach["sites"]), list(froms.items()), units)


def attr_json(value: Any) -> str:
    """`value` as compact JSON to put in an attribute quoted with ' (as Jinja's tojson
    escapes it: <, >, & and ' as JSON escapes)."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return Markup(
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("'", "\\u0027")
    )
