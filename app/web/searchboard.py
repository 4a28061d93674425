"""A side's own Searchboard (1a, 1c, 3d) as the page draws it, from the seat's view only.

Drawn: every hex with its code, islands and reefs, the Dateline, the setup or entry areas
while a task force of this side still has to be placed in them, own task force markers,
the enemy markers search answers revealed (3d3.3) with the Turn they were seen, flying air
units and their paths, this Turn's searched hexes (own and announced enemy ones), and the
data the page needs to shade where a selected air unit can reach and still land (5a2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from app.data import catalog
from app.web.choices import Namer
from app.web.counters import SIDE_LABEL, SIDE_TITLE, opponents, sides_of, unit_key
from app.web.geometry import Layout
from app.web.names import Names

AREA_NAMES = {"east-of-dateline": "east of the Dateline"}
WHITE_DECKS = ("CV", "CVL")


@cache
def layout() -> Layout:
    spec = catalog().searchboard
    return Layout(spec.columns, spec.rows, size=30.0)


@dataclass
class Cell:
    name: str
    x: float
    y: float
    classes: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    area_label: str = ""


@dataclass
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


@dataclass
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
    cells: list[Cell]
    dateline: str
    dateline_x: float
    stacks: list[Stack]
    paths: list[str]
    reach: dict[str, Any]
    legend: list[str]
    title: str = ""  # "" for a side's own Searchboard, which the page names by its seat


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
        for h in catalog().searchboard.areas.get(f.area, frozenset()):
            out[h] = f"{f.label}: {when} {name}"
    return out


def _cells(view: dict[str, Any], seat: str) -> list[Cell]:
    grid, spec = layout(), catalog().searchboard
    board: dict[str, Any] = view.get("searchboard") or {}
    searched = set(board.get("searched") or []) | set(board.get("sea_searched") or [])
    enemy = opponents(view).get(seat, seat)
    announced = {a["hex"]: a["how"] for a in view.get("announcements") or [] if a["side"] == enemy}
    areas = _areas(view, seat)
    bases = {h: name for name, h in spec.bases.items()}
    battle_hex = (view.get("battle") or {}).get("hex")
    labelled: set[str] = set()
    cells = []
    for name in grid.hexes():
        x, y = grid.centre(name)
        cell = Cell(name, x, y)
        if name in spec.land:
            cell.classes.append("land")
            cell.notes.append(f"{bases[name]} (island)" if name in bases else "island or reef")
        if name in areas:
            cell.classes.append("area")
            cell.notes.append(areas[name])
            if areas[name] not in labelled:
                labelled.add(areas[name])
                cell.area_label = areas[name].split(": ", 1)[1]
        if name in searched:
            cell.classes.append("searched")
            cell.notes.append("searched this Turn")
        if name in announced:
            cell.classes.append("enemy-searched")
            cell.notes.append(f"{SIDE_TITLE[enemy]} {announced[name]} this Turn")
        if name == battle_hex:
            cell.classes.append("battle-hex")
            cell.notes.append("battle being fought here")
        cells.append(cell)
    return cells


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


def _own_markers(view: dict[str, Any], seat: str, n: Namer) -> list[Mark]:
    grid = layout()
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


def _spotted(view: dict[str, Any], seat: str, n: Namer) -> list[Mark]:
    """3d3.3: an enemy marker where each enemy task force was last seen, with the Turn."""
    grid, enemy = layout(), opponents(view).get(seat, seat)
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
    return marks + _unidentified(view, seat)


VAGUE = {"something": "something", "number": "ships", "actual": "ships"}


def _unidentified(view: dict[str, Any], seat: str) -> list[Mark]:
    """15a1.2: answers that said something is there, or how many ships, but not which
    task force: an enemy marker without a name, at the latest such answer per hex."""
    grid, enemy = layout(), opponents(view).get(seat, seat)
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
        lines = [f"{SIDE_LABEL.get(enemy, enemy)} enemy", f"? {count}", f"seen T{s['turn']}"]
        marks.append(Mark(f"seen:{enemy}:?{h}", h, x, y, "spotted", enemy, lines, title, False))
    return marks


def _flights(view: dict[str, Any], seat: str) -> tuple[list[Mark], list[str]]:
    grid = layout()
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


def _base(view: dict[str, Any]) -> list[Mark]:
    base = view.get("midway")
    if not base or base.get("eliminated") or not layout().contains(str(base.get("hex"))):
        return []
    x, y = layout().centre(base["hex"])
    hits = int(base.get("hits") or 0)
    status = ("back side up, " if base.get("face") == "back" else "") + f"{hits} hit markers"
    title = f"American base unit Midway in {base['hex']} ({status}; on both Searchboards, 4e2)"
    side = str(base.get("side"))
    marker = {0: "", 1: "1 hit"}.get(hits, f"{hits} hits")
    label = [f"{SIDE_LABEL.get(side, side)} BASE", "Midway", marker]
    return [Mark(unit_key(side, "Midway"), base["hex"], x, y, "base", side, label, title, False)]


def landing_sites(view: dict[str, Any], seat: str) -> dict[str, list[str]]:
    """5a1: hexes where each basing colour may land, from this side's own markers."""
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
    return {k: sorted(v) for k, v in sites.items()}


def reach_data(view: dict[str, Any], seat: str) -> dict[str, Any]:
    """What the page needs to shade a selected air unit's reach (3d1) and way home (5a2)."""
    card = (view.get("operations_cards") or {}).get(seat) or {}
    units: dict[str, Any] = card.get("units") or {}
    board: dict[str, Any] = view.get("searchboard") or {}
    forces: dict[str, str] = board.get("forces") or {}
    force_of = {s: f["force"] for f in card.get("forces") or [] for s in f.get("ships") or []}
    base_hex = (view.get("midway") or {}).get("hex")
    out: dict[str, Any] = {}
    for c in card.get("carriers") or []:
        at = base_hex if c["id"] == "Midway" else forces.get(force_of.get(c["id"], ""))
        for uid in [*(c.get("ready") or []), *(c.get("arming") or [])]:
            u = units.get(uid) or {}
            move = int((u.get("factors") or {}).get("movement") or 0)
            if at and move:
                member = {"left": move, "move": move, "basing": u.get("basing", "white")}
                out[unit_key(seat, uid)] = {"from": at, "members": [member]}
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


def searchboard(view: dict[str, Any], seat: str) -> Board | None:
    if "searchboard" not in view:
        return None
    grid, n = layout(), Namer(view, seat)
    flights, paths = _flights(view, seat)
    stacks = _stacks(
        [*_base(view), *_own_markers(view, seat, n), *_spotted(view, seat, n), *flights]
    )
    dateline_x = grid.centre("K1")[0] + grid.size * 0.75
    legend = [
        "Searched this Turn: dotted hexes",
        "Enemy searches announced this Turn: hatched hexes",
        "Enemy markers: last seen position, labelled with the Turn (3d3.3)",
    ]
    return Board(
        width=grid.width,
        height=grid.height,
        hex_points=grid.points(),
        cells=_cells(view, seat),
        dateline=grid.east_edge("K"),
        dateline_x=round(dateline_x, 1),
        stacks=stacks,
        paths=paths,
        reach=reach_data(view, seat),
        legend=legend,
    )


def both_sides(view: dict[str, Any]) -> Board | None:
    """Everything at once (the umpire, 18b; a finished game's replay): both sides' task
    force markers and flying air units on one Searchboard, each in its side's colours,
    with no "seen" markers (every position is the true one)."""
    boards: dict[str, Any] = view.get("searchboards") or {}
    if not boards:
        return None
    grid, marks, paths = layout(), [*_base(view)], []
    for side in sides_of(view):
        own = {**view, "searchboard": boards.get(side) or {}}
        flights, lines = _flights(own, side)
        marks += [*_own_markers(own, side, Namer(own, side)), *flights]
        paths += lines
    return Board(
        width=grid.width,
        height=grid.height,
        hex_points=grid.points(),
        cells=_cells({**view, "searchboard": {}}, ""),
        dateline=grid.east_edge("K"),
        dateline_x=round(grid.centre("K1")[0] + grid.size * 0.75, 1),
        stacks=_stacks(marks),
        paths=sorted(paths),
        reach={"sites": {}, "units": {}},
        legend=["Both sides' task forces and flying air units where they truly are"],
        title="Both sides on one Searchboard",
    )
