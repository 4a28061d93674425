"""Read the TOML files of `scenarios/`, validate them and build the frozen records.

Every problem is a `ValueError` whose message starts with the file and the key path, e.g.
``scenarios/units.toml: ship[0] (Yorktown).defense: expected a number and a letter a-d``.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import NoReturn, TypeVar, cast

from app.data.records import (
    AIR_BACK_LABELS,
    AIR_TYPES,
    BASINGS,
    BONUS_CONDITIONS,
    PTVM_TYPES,
    SHIP_TYPES,
    SIDES,
    TERRAINS,
    AirFace,
    AirUnit,
    BaseSpec,
    BoardSpec,
    Bonus,
    CarrierPlanes,
    Catalog,
    Command,
    ForceSetup,
    Landing,
    OffBoardBase,
    Reinforcement,
    Scenario,
    ShipFace,
    ShipUnit,
    Side,
    Teams,
    TheatreBases,
    TheatreRules,
    TheatreSpec,
    TimeRecordTrack,
    TurnBox,
    VictoryPointsChart,
    theatre_zones,
)

NONE = "-"  # the counters' "no factor"
ELIM = "ELIM"
START = "start"
VP_KEYS: tuple[str, ...] = (*SHIP_TYPES, "air", "scout")
NON_BOARD_AREAS = ("base", "battleboard")
PLANES_PER_UNIT = 6  # RULES-NOTES.md: the expansion's plane factors, up to 6 to an air unit
_LETTERED = re.compile(r"^(\d+)([a-d])$")
_LISTED = re.compile(r"^(\S+)(?: \((back|1 hit)\))?$")
_U = TypeVar("_U", ShipUnit, AirUnit)
_HexCheck = Callable[["_Node", str, Iterable[str]], frozenset[str]]


class _Node:
    """A TOML table with the file and key path it came from, for error messages."""

    def __init__(self, file: str, path: str, data: Mapping[str, object]) -> None:
        self.file, self.path, self.data = file, path, data

    def where(self, key: str = "") -> str:
        path = ".".join(p for p in (self.path, key) if p)
        return f"{self.file}: {path}" if path else self.file

    def fail(self, key: str, message: str) -> NoReturn:
        raise ValueError(f"{self.where(key)}: {message}")

    def only(self, required: Iterable[str], optional: Iterable[str] = ()) -> None:
        req = set(required)
        for key in sorted(req - self.data.keys()):
            self.fail(key, "missing")
        for key in sorted(self.data.keys() - req - set(optional)):
            self.fail(key, "unknown key")

    def get(self, key: str) -> object:
        if key not in self.data:
            self.fail(key, "missing")
        return self.data[key]

    def text(self, key: str, choices: Iterable[str] = ()) -> str:
        value = self.get(key)
        if not isinstance(value, str) or not value:
            self.fail(key, f"expected a non-empty string, got {value!r}")
        allowed = tuple(choices)
        if allowed and value not in allowed:
            self.fail(key, f"expected one of {', '.join(allowed)}, got {value!r}")
        return value

    def integer(self, key: str, minimum: int = 0) -> int:
        value = self.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            self.fail(key, f"expected an integer >= {minimum}, got {value!r}")
        return value

    def flag(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {value!r}")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(key, f"expected a list of strings, got {value!r}")
        return tuple(cast(list[str], value))

    def table(self, key: str) -> _Node:
        value = self.get(key)
        if not isinstance(value, dict):
            self.fail(key, f"expected a table, got {value!r}")
        return _Node(self.file, ".".join(p for p in (self.path, key) if p), value)

    def tables(self, key: str) -> list[_Node]:
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.fail(key, "expected an array of tables ([[" + key + "]])")
        prefix = ".".join(p for p in (self.path, key) if p)
        return [_Node(self.file, f"{prefix}[{i}]", v) for i, v in enumerate(value)]

    def named(self, label: str) -> _Node:
        return _Node(self.file, f"{self.path} ({label})", self.data)


def _read(path: Path) -> _Node:
    name = f"{path.parent.name}/{path.name}"
    try:
        with path.open("rb") as f:
            return _Node(name, "", tomllib.load(f))
    except FileNotFoundError:
        raise ValueError(f"{name}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{name}: not valid TOML: {exc}") from None


def _freeze(value: object) -> object:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


# ---------------------------------------------------------------- units (CATALOG.md 1, 2)


def _number(node: _Node, key: str, text: str, optional: bool) -> int | None:
    if text == NONE and optional:
        return None
    if not text.isdigit():
        node.fail(key, f"expected a number{' or -' if optional else ''}, got {text!r}")
    return int(text)


def _lettered(node: _Node, key: str, text: str, optional: bool) -> tuple[int | None, str | None]:
    if text == NONE and optional:
        return None, None
    match = _LETTERED.match(text)
    if match is None:
        node.fail(key, f"expected a number and a letter a-d (like 3c), got {text!r}")
    return int(match[1]), match[2]


def _ship_face(node: _Node, part: int, count: int) -> ShipFace:
    def text(key: str) -> str:
        parts = node.text(key).split("/")
        if len(parts) != count:
            form = "front/back" if count == 2 else "one value (the back is ELIM)"
            node.fail(key, f"expected {form}, got {node.text(key)!r}")
        return parts[part]

    defense, armour = _lettered(node, "defense", text("defense"), optional=False)
    surface, gun = _lettered(node, "surface", text("surface"), optional=True)
    launch = (
        _number(node, "launch", text("launch"), optional=True)
        if node.get("launch") != NONE
        else None
    )
    return ShipFace(
        defense=cast(int, defense),
        armour=cast(str, armour),
        surface=surface,
        gun=gun,
        movement=_number(node, "movement", text("movement"), optional=True),
        torpedo=_number(node, "torpedo", text("torpedo"), optional=True),
        aa=cast(int, _number(node, "aa", text("aa"), optional=False)),
        launch=launch,
    )


def _ship(node: _Node) -> ShipUnit:
    keys = ("side", "id", "name", "type", "defense", "surface", "movement", "torpedo", "aa")
    node.only((*keys, "capacity", "launch", "ships", "back", "provenance"))
    node = node.named(node.text("id"))
    back_label = node.text("back", ("reduced", ELIM))
    count = 1 if back_label == ELIM else 2
    capacity = None if node.get("capacity") == NONE else node.integer("capacity", 1)
    if (capacity is None) != (node.get("launch") == NONE):
        node.fail("launch", "a unit has both a capacity and a launch factor, or neither")
    return ShipUnit(
        side=cast(Side, node.text("side", SIDES)),
        id=node.text("id"),
        name=node.text("name"),
        type=node.text("type", SHIP_TYPES),
        front=_ship_face(node, 0, count),
        back=None if count == 1 else _ship_face(node, 1, count),
        capacity=capacity,
        ships=node.integer("ships"),
        provenance=node.text("provenance"),
    )


def _air_face(node: _Node, key: str, text: str) -> AirFace:
    parts = text.split("/")
    if len(parts) != 4:
        node.fail(key, f"expected defense/air combat/movement/bombing, got {text!r}")
    return AirFace(
        defense=_number(node, key, parts[0], optional=True),
        air_combat=_number(node, key, parts[1], optional=True),
        movement=cast(int, _number(node, key, parts[2], optional=False)),
        bombing=_number(node, key, parts[3], optional=True),
    )


def _air(node: _Node) -> AirUnit:
    node.only(
        ("side", "id", "type", "basing", "aircraft", "front", "back", "provenance"), ("planes",)
    )
    node = node.named(node.text("id"))
    kind = node.text("type", AIR_TYPES)
    planes = node.integer("planes", 1) if "planes" in node.data else None
    if planes is not None and planes > PLANES_PER_UNIT:
        node.fail("planes", f"an air unit is 1-{PLANES_PER_UNIT} plane factors (RULES-NOTES.md)")
    if planes is not None and kind == "S":
        node.fail("planes", "a scout stands for no plane factors (the expansion has no scouts)")
    back_text = node.text("back")
    label = back_text if back_text in AIR_BACK_LABELS else "reduced"
    if (kind == "S") != (label in ("PATROL", "blank")):
        node.fail("back", "scouts, and only scouts, have a PATROL or blank back (12d)")
    return AirUnit(
        side=cast(Side, node.text("side", SIDES)),
        id=node.text("id"),
        type=kind,
        basing=node.text("basing", BASINGS),
        aircraft=node.text("aircraft"),
        front=_air_face(node, "front", node.text("front")),
        back=_air_face(node, "back", back_text) if label == "reduced" else None,
        back_label=label,
        provenance=node.text("provenance"),
        planes=planes,
    )


def _unique(nodes: list[_Node], units: list[_U]) -> dict[tuple[Side, str], _U]:
    out: dict[tuple[Side, str], _U] = {}
    for node, unit in zip(nodes, units, strict=True):
        if (unit.side, unit.id) in out:
            node.named(unit.id).fail("id", f"duplicate {unit.side} id {unit.id!r}")
        out[(unit.side, unit.id)] = unit
    return out


def _scout_creation(
    root: _Node, air: Mapping[tuple[Side, str], AirUnit]
) -> Mapping[Side, Mapping[str, tuple[str, ...]]]:
    """15c2: which scouts each parent combat air unit type may create."""
    table = root.table("scout_creation")
    table.only(SIDES)
    out: dict[Side, Mapping[str, tuple[str, ...]]] = {}
    for side in SIDES:
        parents = table.table(side)
        per_type: dict[str, tuple[str, ...]] = {}
        for kind in parents.data:
            per_type[kind] = parents.texts(kind)
            if kind not in AIR_TYPES or kind == "S":
                parents.fail(kind, "expected a combat air unit type D, F, H, M or T")
            for scout in per_type[kind]:
                if (side, scout) not in air or not air[(side, scout)].is_scout:
                    parents.fail(kind, f"{scout!r} is no {side} scout air unit")
        out[side] = MappingProxyType(per_type)
    return MappingProxyType(out)


Units = tuple[
    Mapping[tuple[Side, str], ShipUnit],
    Mapping[tuple[Side, str], AirUnit],
    Mapping[Side, Mapping[str, tuple[str, ...]]],
]


def _units_file(
    path: Path, midway: bool
) -> tuple[list[_Node], list[ShipUnit], list[_Node], list[AirUnit], _Node]:
    """One units file's ships and air units. The expansion's file (not `midway`) has no
    scout_creation (it has no scouts), and each of its air units says how many planes it is."""
    root = _read(path)
    root.only(("ship", "air", "scout_creation") if midway else ("ship", "air"))
    ship_nodes, air_nodes = root.tables("ship"), root.tables("air")
    airs = [_air(n) for n in air_nodes]
    for node, unit in zip(air_nodes, airs, strict=True):
        if (unit.planes is None) == (not midway):
            want = "no planes (a Midway unit)" if midway else "its planes (1-6)"
            node.named(unit.id).fail("planes", f"expected {want}")
    return ship_nodes, [_ship(n) for n in ship_nodes], air_nodes, airs, root


def _units(path: Path, theatre_path: Path | None = None) -> Units:
    """units.toml and, where given, theatre-units.toml: one map of ships and one of air units,
    keyed by (side, id); an id may not repeat within a side across the files."""
    ship_nodes, ship_list, air_nodes, air_list, root = _units_file(path, midway=True)
    if theatre_path is not None:
        more = _units_file(theatre_path, midway=False)
        ship_nodes, ship_list = ship_nodes + more[0], ship_list + more[1]
        air_nodes, air_list = air_nodes + more[2], air_list + more[3]
    ships = _unique(ship_nodes, ship_list)
    air = _unique(air_nodes, air_list)
    for node, unit in zip(air_nodes, air_list, strict=True):
        if (unit.side, unit.id) in ships:
            node.named(unit.id).fail("id", f"{unit.id!r} is also a {unit.side} ship id")
    return MappingProxyType(ships), MappingProxyType(air), _scout_creation(root, air)


# ---------------------------------------------------------------- charts and boards


def _victory_points(path: Path) -> VictoryPointsChart:
    root = _read(path)
    root.only(("row",))
    eliminated: dict[str, int] = {}
    flipped: dict[str, int] = {}
    notes: list[str] = []
    for row in root.tables("row"):
        row.only(("type", "eliminated", "flipped", "provenance"))
        kind = row.text("type", VP_KEYS)
        if kind in eliminated:
            row.fail("type", f"duplicate row for {kind!r}")
        eliminated[kind], flipped[kind] = row.integer("eliminated"), row.integer("flipped")
        notes.append(f"{kind}: {row.text('provenance')}")
    for kind in VP_KEYS:
        if kind not in eliminated:
            root.fail("row", f"no row for {kind!r}")
    return VictoryPointsChart(
        eliminated=MappingProxyType(eliminated),
        flipped=MappingProxyType(flipped),
        provenance="; ".join(notes),
    )


def _turn_boxes(root: _Node) -> tuple[TurnBox, ...]:
    boxes: list[TurnBox] = []
    for node in root.tables("turn"):
        node.only(("turn", "date", "time", "night", "triangle", "dot"))
        box = TurnBox(
            turn=node.integer("turn", 1),
            date=node.text("date"),
            time=node.text("time"),
            night=node.flag("night"),
            triangle=node.flag("triangle"),
            dot=node.flag("dot"),
        )
        if box.turn != len(boxes) + 1:
            node.fail("turn", f"expected Turn {len(boxes) + 1} (Turns run 1, 2, 3, ...)")
        boxes.append(box)
    return tuple(boxes)


def _time_record(path: Path) -> TimeRecordTrack:
    root = _read(path)
    root.only(("turn", "provenance"))
    return TimeRecordTrack(turns=_turn_boxes(root), provenance=root.text("provenance"))


def _areas(
    table: _Node, columns: str, rows: int, on_board: _HexCheck, names: dict[str, str]
) -> tuple[dict[str, frozenset[str]], list[str]]:
    """Each area is a list of hexes and/or whole columns (all rows), perhaps with a name."""
    areas: dict[str, frozenset[str]] = {}
    notes: list[str] = []
    for name in table.data:
        area = table.table(name)
        area.only(("provenance",), ("hexes", "columns", "name"))
        if "name" in area.data:
            names[name] = area.text("name")
        cols = area.text("columns") if "columns" in area.data else ""
        if not set(cols) <= set(columns):
            area.fail("columns", f"{cols!r} names a column that is not on the board")
        listed = area.texts("hexes") if "hexes" in area.data else ()
        areas[name] = on_board(area, "hexes", (*listed, *_column_hexes(cols, rows)))
        if not areas[name]:
            area.fail("hexes", "an area needs hexes or columns")
        notes.append(f"area {name}: {area.text('provenance')}")
    return areas, notes


def _column_hexes(columns: str, rows: int) -> list[str]:
    return [f"{c}{r}" for c in columns for r in range(1, rows + 1)]


def _board(path: Path) -> BoardSpec:
    root = _read(path)
    keys = ("name", "columns", "rows", "layout", "land", "land_provenance", "bases", "areas")
    root.only((*keys, "provenance"))
    name, columns, rows = root.text("name"), root.text("columns"), root.integer("rows", 1)
    grid = frozenset(_column_hexes(columns, rows))

    def on_board(node: _Node, key: str, hexes: Iterable[str]) -> frozenset[str]:
        for h in hexes:
            if h not in grid:
                node.fail(key, f"hex {h!r} is not on the {name} (A-{columns[-1]}, 1-{rows})")
        return frozenset(hexes)

    names: dict[str, str] = {}
    areas, notes = _areas(root.table("areas"), columns, rows, on_board, names)
    bases_node = root.table("bases")
    bases = {base: bases_node.text(base) for base in bases_node.data}
    on_board(bases_node, "", bases.values())
    land_note = f"land: {root.text('land_provenance')}"
    return BoardSpec(
        name=name,
        columns=columns,
        rows=rows,
        land=on_board(root, "land", root.texts("land")),
        areas=MappingProxyType(areas),
        bases=MappingProxyType(bases),
        provenance="; ".join([root.text("provenance"), land_note, *notes]),
        layout=root.text("layout", ("odd-q",)),
        area_names=MappingProxyType(names),
    )


# ---------------------------------------------------------------- the theatre map (PTVM)

_ZONE_AREA = ("zones", "edge", "area_columns", "area_rows")


def _edge_lines(width: int, height: int) -> dict[str, tuple[int, int]]:
    """Each map edge as (axis, line): the zones whose x (axis 0) or y (axis 1) is `line`."""
    return {"north": (1, 0), "east": (0, width - 1), "south": (1, height - 1), "west": (0, 0)}


def _theatre_area(
    area: _Node, zones: Mapping[str, tuple[int, int]], columns: str, rows: int
) -> frozenset[str]:
    """Listed zones, plus the zones on an `edge`, in `area_columns` and/or in `area_rows`."""
    area.only(("provenance",), _ZONE_AREA)
    width, height = 3 * len(columns), 3 * rows
    listed = set(area.texts("zones")) if "zones" in area.data else set()
    for z in sorted(listed - zones.keys()):
        area.fail("zones", f"zone {z!r} is not on the theatre map")
    tests: list[Callable[[str, tuple[int, int]], bool]] = []
    if "edge" in area.data:
        edges = _edge_lines(width, height)
        axis, line = edges[area.text("edge", tuple(edges))]
        tests.append(lambda z, xy: xy[axis] == line)
    if "area_columns" in area.data:
        cols = area.text("area_columns")
        if not set(cols) <= set(columns):
            area.fail("area_columns", f"{cols!r} names an area column not on the map")
        tests.append(lambda z, xy: z[0] in cols)
    if "area_rows" in area.data:
        value = area.get("area_rows")
        if not isinstance(value, list) or not all(
            isinstance(r, int) and 1 <= r <= rows for r in value
        ):
            area.fail("area_rows", f"expected a list of area rows 1-{rows}, got {value!r}")
        wanted = set(value)
        tests.append(lambda z, xy: xy[1] // 3 + 1 in wanted)
    if tests:
        listed |= {z for z, xy in zones.items() if all(t(z, xy) for t in tests)}
    if not listed:
        area.fail("", "an area needs zones, or an edge, area_columns or area_rows")
    return frozenset(listed)


def _theatre(path: Path) -> TheatreSpec:
    root = _read(path)
    keys = ("name", "grid", "columns", "rows", "provenance", "sea_provenance", "zones", "bases")
    root.only((*keys, "offboard", "sea_moves", "areas"))
    root.text("grid", ("squares",))
    columns, rows = root.text("columns"), root.integer("rows", 1)
    zones = theatre_zones(columns, rows)
    terrain: dict[str, str] = {}
    coastal: set[str] = set()
    how: dict[str, str] = {}
    table = root.table("zones")
    for z in table.data:
        node = table.table(z)
        node.only(("terrain", "how"), ("coastal",))
        if z not in zones:
            node.fail("", f"zone {z!r} is not on the theatre map (areas A-{columns[-1]}, 1-{rows})")
        terrain[z] = node.text("terrain", TERRAINS[1:])
        if "coastal" in node.data and node.flag("coastal"):
            if terrain[z] == "reef":
                node.fail("coastal", "a coastal zone is land or mountain")
            coastal.add(z)
        how[z] = node.text("how")
    bases: dict[str, str] = {}
    printed: set[str] = set()
    base_how: dict[str, str] = {}
    table = root.table("bases")
    for name in table.data:
        node = table.table(name).named(name)
        node.only(("zone", "printed", "how"))
        zone = node.text("zone")
        if zone not in zones:
            node.fail("zone", f"zone {zone!r} is not on the theatre map")
        if terrain.get(zone) != "land":
            node.fail("zone", f"a base is in a land zone; {zone} is {terrain.get(zone, 'sea')}")
        bases[name], base_how[name] = zone, node.text("how")
        if node.flag("printed"):
            printed.add(name)
    offboard = _offboard(root, zones, 3 * len(columns), 3 * rows) if "offboard" in root.data else {}
    for name in sorted(bases.keys() & offboard.keys()):
        root.fail("offboard", f"{name!r} is both on and off the board")
    blocked: set[frozenset[str]] = set()
    if "sea_moves" in root.data:
        moves = root.table("sea_moves")
        moves.only(("blocked", "provenance"))
        value = moves.get("blocked")
        if not isinstance(value, list):
            moves.fail("blocked", "expected a list of zone pairs")
        for pair in value:
            if not (isinstance(pair, list) and len(pair) == 2 and all(p in zones for p in pair)):
                moves.fail("blocked", f"expected a pair of zones, got {pair!r}")
            (ax, ay), (bx, by) = zones[pair[0]], zones[pair[1]]
            if max(abs(ax - bx), abs(ay - by)) != 1:
                moves.fail("blocked", f"{pair[0]} and {pair[1]} are not neighbours")
            blocked.add(frozenset(pair))
    areas: dict[str, frozenset[str]] = {}
    notes: list[str] = []
    if "areas" in root.data:
        table = root.table("areas")
        for name in table.data:
            area = table.table(name)
            areas[name] = _theatre_area(area, zones, columns, rows)
            notes.append(f"area {name}: {area.text('provenance')}")
    return TheatreSpec(
        name=root.text("name"),
        columns=columns,
        rows=rows,
        terrain=MappingProxyType(terrain),
        coastal=frozenset(coastal),
        zone_provenance=MappingProxyType(how),
        bases=MappingProxyType(bases),
        printed_bases=frozenset(printed),
        base_provenance=MappingProxyType(base_how),
        offboard=MappingProxyType(offboard),
        blocked=frozenset(blocked),
        areas=MappingProxyType(areas),
        provenance="; ".join([root.text("provenance"), root.text("sea_provenance"), *notes]),
    )


def _offboard(
    root: _Node, zones: Mapping[str, tuple[int, int]], width: int, height: int
) -> dict[str, OffBoardBase]:
    """Off-Board Bases 1: each base's edge and its marked squares, on that edge."""
    on = _edge_lines(width, height)
    out: dict[str, OffBoardBase] = {}
    table = root.table("offboard")
    for name in table.data:
        node = table.table(name).named(name)
        node.only(("edge", "squares", "how"))
        edge = node.text("edge", tuple(on))
        axis, line = on[edge]
        squares = node.table("squares")
        numbers: dict[str, int] = {}
        for z in squares.data:
            if z not in zones or zones[z][axis] != line:
                squares.fail(z, f"{z!r} is not a zone on the {edge} edge")
            numbers[z] = squares.integer(z, 1)
        if not numbers:
            node.fail("squares", "an off-board base needs marked edge squares")
        out[name] = OffBoardBase(name, edge, MappingProxyType(numbers), node.text("how"))
    return out


_QUALIFIED = re.compile(r"^(.+?)(?: \(([a-z0-9-]+)\))?$")


def _knockouts(node: _Node, scenarios: Iterable[str]) -> dict[tuple[str, str | None], int]:
    """Base Knockout Numbers: (base, scenario id or None for every other) -> 1964 hits."""
    out: dict[tuple[str, str | None], int] = {}
    for number in node.tables("number"):
        number.only(("hits", "bases"))
        hits = number.integer("hits", 1)
        for text in number.texts("bases"):
            match = cast(re.Match[str], _QUALIFIED.match(text))
            key = (match[1], match[2])
            if match[2] is not None and match[2] not in scenarios:
                number.fail("bases", f"{text!r}: no theatre scenario {match[2]!r}")
            if key in out:
                number.fail("bases", f"{text!r} has two knockout numbers")
            out[key] = hits
    return out


def _theatre_base(
    node: _Node,
    theatre: TheatreSpec,
    knockouts: Mapping[tuple[str, str | None], int],
    scenario: str,
    per_point: int,
) -> BaseSpec:
    node.only(
        ("name", "capacity"),
        ("aa", "bomber_readying", "prohibited", "bombers_take_off", "fly_again", "provenance"),
    )
    name = node.text("name")
    node = node.named(name)
    if name not in theatre.bases and name not in theatre.offboard:
        node.fail("name", f"no base {name!r} on the theatre map (theatre.toml)")
    zone = theatre.bases.get(name)
    capacity = None if node.get("capacity") == "unlimited" else node.integer("capacity", 1)
    prohibited = node.texts("prohibited") if "prohibited" in node.data else ()
    for kind in prohibited:
        if kind not in PTVM_TYPES:
            node.fail("prohibited", f"expected plane types F, B, D or T, got {kind!r}")
    take_off = node.flag("bombers_take_off") if "bombers_take_off" in node.data else True
    fly_again = node.flag("fly_again") if "fly_again" in node.data else True
    readying = node.integer("bomber_readying", 1) if "bomber_readying" in node.data else None
    if (readying is None) != ("B" in prohibited or not take_off or not fly_again):
        node.fail("bomber_readying", "a base that lets bombers fly from it has a readying time")
    aa = node.integer("aa", 1) if "aa" in node.data else 0
    hits = knockouts.get((name, scenario), knockouts.get((name, None)))
    if zone is None and (aa or hits is not None):
        node.fail(
            "aa", "Off-Board Bases 4: an off-board base may not be attacked (no AA, no knockout)"
        )
    if zone is not None and (hits is None or not aa):
        node.fail("name", "a base on the board has an AA strength and a knockout number")
    return BaseSpec(
        name=name,
        zone=zone,
        capacity=capacity,
        prohibited=frozenset(prohibited),
        aa=aa,
        bomber_readying=readying,
        bombers_take_off=take_off,
        fly_again=fly_again,
        knockout_hits=hits,
        knockout=None if hits is None else (2 * hits + per_point) // (2 * per_point),
        provenance=node.text("provenance")
        if "provenance" in node.data
        else f"printed ({scenario}: Bases; Base Knockout Numbers)",
    )


def _theatre_bases(path: Path, theatre: TheatreSpec) -> TheatreBases:
    root = _read(path)
    root.only(("provenance", "aa_table", "knockout", "scenario"))
    aa = root.table("aa_table")
    aa.only(("hits", "provenance"))
    rows = aa.get("hits")
    if not (
        isinstance(rows, list)
        and len(rows) == 6
        and all(
            isinstance(r, list) and len(r) == 4 and all(isinstance(h, int) and h >= 0 for h in r)
            for r in rows
        )
    ):
        aa.fail("hits", "Bases 4: six rows (die 1-6) of four hit counts (AA strength 1-4)")
    ko = root.table("knockout")
    ko.only(("hits_per_point", "provenance", "number"))
    per_point = ko.integer("hits_per_point", 1)
    table = root.table("scenario")
    knockouts = _knockouts(ko, table.data)
    scenarios: dict[str, Mapping[str, BaseSpec]] = {}
    for sid in table.data:
        node = table.table(sid)
        node.only(("name", "base"))
        listed = [_theatre_base(n, theatre, knockouts, sid, per_point) for n in node.tables("base")]
        bases = {b.name: b for b in listed}
        if len(bases) != len(listed):
            node.fail("base", "a base is listed twice")
        scenarios[sid] = MappingProxyType(bases)
    named = {name for name, _ in knockouts}
    for name in sorted(named - theatre.bases.keys()):
        ko.fail("number", f"no base {name!r} on the theatre map")
    notes = [root.text("provenance"), f"AA table: {aa.text('provenance')}"]
    return TheatreBases(
        scenarios=MappingProxyType(scenarios),
        aa_table=tuple(tuple(r) for r in cast(list[list[int]], rows)),
        hits_per_point=per_point,
        provenance="; ".join([*notes, f"knockout: {ko.text('provenance')}"]),
    )


# ---------------------------------------------------------------- scenarios (7b-7e)


class _Setup:
    """What a scenario may refer to, and what it has set up so far."""

    def __init__(
        self, ships: Mapping[tuple[Side, str], ShipUnit], air: Mapping[tuple[Side, str], AirUnit]
    ) -> None:
        self.ships, self.air = ships, air
        self.placed: set[tuple[Side, str]] = set()

    def units(
        self, node: _Node, key: str, side: Side, kind: str, notes: dict[str, set[str]]
    ) -> tuple[str, ...]:
        """Unit ids listed under `key`; a " (back)" or " (1 hit)" suffix goes to `notes`."""
        table: Mapping[tuple[Side, str], object] = self.ships if kind == "ship" else self.air
        ids: list[str] = []
        for text in node.texts(key):
            match = _LISTED.match(text)
            if match is None:
                node.fail(key, f"expected a unit id, with (back) or (1 hit) if set up so: {text!r}")
            unit = match[1]
            if (side, unit) not in table:
                node.fail(key, f"no {side} {kind} unit {unit!r} in units.toml")
            if (side, unit) in self.placed:
                node.fail(key, f"{side} unit {unit!r} is set up twice")
            self.placed.add((side, unit))
            if match[2] is not None:
                notes.setdefault(match[2], set()).add(unit)
            ids.append(unit)
        return tuple(ids)

    def air_lists(
        self, node: _Node, side: Side, notes: dict[str, set[str]]
    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return tuple((c, self.units(node, c, side, "air", notes)) for c in node.data)


def _force(node: _Node, setup: _Setup, areas: Iterable[str], turns: range) -> ForceSetup:
    node.only(("side", "marker", "label", "area", "entry_turn", "optional", "ships"), ("air",))
    node = node.named(node.text("marker"))
    side = cast(Side, node.text("side", SIDES))
    notes: dict[str, set[str]] = {}
    ships = setup.units(node, "ships", side, "ship", notes)
    air = setup.air_lists(node.table("air"), side, notes) if "air" in node.data else ()
    for carrier, _ in air:
        if carrier not in ships or setup.ships[(side, carrier)].capacity is None:
            node.fail(f"air.{carrier}", f"{carrier!r} is no carrier, AV or base of this force")
    entry = None if node.get("entry_turn") == START else node.integer("entry_turn", 1)
    if entry is not None and entry not in turns:
        node.fail("entry_turn", f"Turn {entry} is not in the scenario's {turns[0]}-{turns[-1]}")
    return ForceSetup(
        side=side,
        marker=node.text("marker"),
        label=node.text("label"),
        area=node.text("area", (*areas, *NON_BOARD_AREAS)),
        entry_turn=entry,
        optional=node.flag("optional"),
        ships=ships,
        air=air,
        back=frozenset(notes.get("back", ())),
        one_hit=frozenset(notes.get("1 hit", ())),
    )


def _option14(
    root: _Node, setup: _Setup, forces: tuple[ForceSetup, ...]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """7b4.2: fighters added when option 14 is used, per carrier or base."""
    if "option14_fighters" not in root.data:
        return ()
    table = root.table("option14_fighters")
    table.only((), SIDES)
    out: list[tuple[str, tuple[str, ...]]] = []
    for side in table.data:  # in the printed order
        per_side = table.table(side)
        notes: dict[str, set[str]] = {}
        lists = setup.air_lists(per_side, cast(Side, side), notes)
        if notes:
            per_side.fail("", "7b4.2 fighters are set up undamaged")
        carriers = {c for f in forces if f.side == side for c in f.ships}
        others = {c for f in forces if f.side != side for c in f.ships}
        for carrier, _ in lists:
            if carrier not in carriers or carrier in others:
                per_side.fail(carrier, f"{carrier!r} is not set up (only) by {side} here")
        out.extend(lists)
    return tuple(out)


def _command(
    node: _Node, forces: Mapping[str, ForceSetup], placed: set[tuple[Side, str]]
) -> Command:
    node.only(("side", "id", "label", "forces", "overall", "provenance"), ("units",))
    node = node.named(node.text("id"))
    side = cast(Side, node.text("side", SIDES))
    cid = node.text("id")
    if not re.fullmatch(r"[a-z0-9]{1,12}", cid):
        node.fail("id", f"a command id is 1-12 lower-case letters or digits, got {cid!r}")
    for marker in node.texts("forces"):
        if marker not in forces or forces[marker].side != side:
            node.fail("forces", f"no {side} force {marker!r} in this scenario")
    units = node.texts("units") if "units" in node.data else ()
    for uid in units:
        if (side, uid) not in placed:
            node.fail("units", f"no {side} unit {uid!r} in this scenario")
    return Command(
        side=side,
        id=cid,
        label=node.text("label"),
        forces=node.texts("forces"),
        units=units,
        overall=node.flag("overall"),
        provenance=node.text("provenance"),
    )


def _teams(root: _Node, forces: tuple[ForceSetup, ...], extra: set[tuple[Side, str]]) -> Teams:
    """17a: each side's two commands; every force is in one command or chosen at setup."""
    node = root.table("teams")
    node.only(("rule", "provenance", "command"), ("chosen",))
    by_marker = {f.marker: f for f in forces}
    commands = tuple(_command(n, by_marker, extra) for n in node.tables("command"))
    chosen: dict[Side, tuple[str, ...]] = {side: () for side in SIDES}
    if "chosen" in node.data:
        table = node.table("chosen")
        table.only((), SIDES)
        for side in table.data:
            chosen[cast(Side, side)] = table.texts(side)
    for side in SIDES:
        mine = [c for c in commands if c.side == side]
        if len(mine) != 2 or len({c.id for c in mine}) != 2:
            node.fail("command", f"17a: {side} has two commands with different ids")
        if sum(c.overall for c in mine) != 1:
            node.fail("command", f"17c1: exactly one {side} command is the overall commander")
        listed = [m for c in mine for m in c.forces] + list(chosen[side])
        every = [f.marker for f in forces if f.side == side]
        if sorted(listed) != sorted(every):
            node.fail("command", f"17a: each {side} force is in exactly one command or chosen")
    return Teams(
        rule=node.text("rule"),
        commands=commands,
        chosen=MappingProxyType(chosen),
        provenance=node.text("provenance"),
    )


def _scenario(
    path: Path,
    setup: _Setup,
    boards: Mapping[str, BoardSpec | TheatreSpec],
    track: TimeRecordTrack,
    bases: TheatreBases | None = None,
) -> Scenario:
    root = _read(path)
    board = root.text("board", tuple(boards)) if "board" in root.data else "searchboard"
    searchboard = boards[board]
    # the expansion's own scenario files (named by theatre-bases.toml's ids) bring its keys
    theatre = bases is not None and path.stem in bases.scenarios
    if theatre and not isinstance(searchboard, TheatreSpec):
        root.fail("board", 'an expansion scenario is played on board = "theatre"')
    keys = ("id", "rule", "name", "first_turn", "last_turn", "japan_wins_margin", "usa_wins_margin")
    keys2 = ("free_roll", "control_of_midway_points", "provenance", "spare_markers", "force")
    more = THEATRE_KEYS if theatre else ()
    optional = (*THEATRE_OPTIONAL, *THEATRE_OPTIONAL2) if theatre else ()
    root.only((*keys, *keys2, "special", *more), ("option14_fighters", "teams", "board", *optional))
    own_track = None
    if theatre:  # the expansion's scenarios have their own Time Record
        own_track = TimeRecordTrack(_turn_boxes(root), root.text("time_record_provenance"))
        if not own_track.turns:
            root.fail("turn", "a theatre scenario's Time Record needs its Turns")
    boxes = (own_track or track).turns
    first, last = root.integer("first_turn", 1), root.integer("last_turn", 1)
    if not first <= last <= len(boxes):
        root.fail("last_turn", f"expected {first} <= last_turn <= {len(boxes)}")
    forces = tuple(
        _force(n, setup, searchboard.areas, range(first, last + 1)) for n in root.tables("force")
    )
    spare = root.table("spare_markers")
    spare.only(SIDES)
    spare_markers = {side: spare.texts(side) for side in SIDES}
    markers = [(f.side, f.marker) for f in forces]
    markers += [(side, m) for side in SIDES for m in spare_markers[side]]
    if len(set(markers)) != len(markers):
        root.fail("force", "a task force marker is used twice")
    free_roll = root.text("free_roll", (*SIDES, "none"))
    special = cast(Mapping[str, object], _freeze(root.table("special").data))
    entry = special.get("scout_entry")
    loose: set[tuple[Side, str]] = set()
    if isinstance(entry, Mapping):  # 7c4.4: a unit set up in no force
        loose.add((cast(Side, entry["side"]), str(entry["unit"])))
    rules = None
    if theatre:
        sid = root.text("id")
        listed = cast(TheatreBases, bases).scenarios.get(sid)
        if listed is None:
            root.fail("id", f"no [scenario.{sid}] in theatre-bases.toml for this theatre scenario")
        rules = _theatre_rules(
            root, setup, forces, cast(TheatreSpec, searchboard), listed, range(first, last + 1)
        )
    return Scenario(
        id=root.text("id"),
        rule=root.text("rule"),
        name=root.text("name"),
        first_turn=first,
        last_turn=last,
        forces=forces,
        option14_fighters=_option14(root, setup, forces),
        spare_markers=MappingProxyType(spare_markers),
        japan_wins_margin=root.integer("japan_wins_margin", 1),
        usa_wins_margin=root.integer("usa_wins_margin", 1),
        free_roll=None if free_roll == "none" else cast(Side, free_roll),
        control_of_midway_points=root.integer("control_of_midway_points"),
        special=special,
        provenance=root.text("provenance"),
        teams=_teams(root, forces, loose) if "teams" in root.data else None,
        board=board,
        time_record=own_track,
        theatre=rules,
    )


# ---------------------------------------------------------------- theatre scenarios (PTVM)

THEATRE_KEYS = ("planes_per_point", "time_record_provenance", "turn", "land_based", "carrier")
THEATRE_OPTIONAL = ("points", "reinforcement", "landing", "bonus", "minimum_points")
THEATRE_OPTIONAL2 = ("ap_moves_from_turn",)
CARRIER_TYPES = ("CV", "CVL", "AV")


def _plane_counts(node: _Node, key: str) -> dict[str, int]:
    """A table of the expansion's plane types (F, B, D, T) and their plane factors."""
    table = node.table(key)
    for kind in table.data:
        if kind not in PTVM_TYPES:
            table.fail(kind, "expected plane types F, B, D or T")
        table.integer(kind, 1)
    return {kind: cast(int, table.data[kind]) for kind in table.data}


def _planes_of(
    node: _Node, key: str, setup: _Setup, side: Side, ids: Iterable[str]
) -> dict[str, int]:
    """The expansion's planes per type that these air units stand for."""
    out: dict[str, int] = {}
    for uid in ids:
        unit = setup.air[(side, uid)]
        if unit.planes is None or unit.ptvm_type is None:
            node.fail(key, f"{uid!r} is no air unit of the expansion (it has no planes)")
        out[unit.ptvm_type] = out.get(unit.ptvm_type, 0) + unit.planes
    return out


def _same_planes(node: _Node, key: str, got: Mapping[str, int], want: Mapping[str, int]) -> None:
    if dict(got) != dict(want):

        def show(d: Mapping[str, int]) -> str:
            return ", ".join(f"{k} {d[k]}" for k in sorted(d)) or "none"

        node.fail(key, f"the air units carry {show(got)} planes; printed: {show(want)}")


def _carriers(
    root: _Node, setup: _Setup, forces: tuple[ForceSetup, ...]
) -> dict[str, CarrierPlanes]:
    """Carrier Capacity: every carrier and seaplane tender of the forces has an entry; the air
    units on it carry its printed complement, of types it accepts."""
    table = root.table("carrier")
    holders = {s: f.side for f in forces if f.area != "base" for s in f.ships}
    out: dict[str, CarrierPlanes] = {}
    for cid in table.data:
        node = table.table(cid)
        node.only(("complement",), ("planes", "refuses"))
        if cid not in holders or setup.ships[(holders[cid], cid)].type not in CARRIER_TYPES:
            node.fail("", f"no carrier or seaplane tender {cid!r} in this scenario's forces")
        refuses = node.texts("refuses") if "refuses" in node.data else ()
        for kind in refuses:
            if kind not in PTVM_TYPES:
                node.fail("refuses", f"expected plane types F, B, D or T, got {kind!r}")
        complement = _plane_counts(node, "complement")
        carrier = CarrierPlanes(
            side=holders[cid],
            carrier=cid,
            planes=node.integer("planes", 1) if "planes" in node.data else None,
            refuses=frozenset(refuses),
            complement=MappingProxyType(complement),
        )
        for kind in complement:
            if not carrier.accepts(kind):
                node.fail("complement", f"{cid} may not accept {kind} planes (Bombers 2, refuses)")
        if carrier.planes is not None and sum(complement.values()) > carrier.planes:
            node.fail("complement", f"more planes than {cid}'s maximum capacity {carrier.planes}")
        out[cid] = carrier
    for f in forces:
        for sid in f.ships:
            if setup.ships[(f.side, sid)].type in CARRIER_TYPES and sid not in out:
                table.fail(sid, f"Carrier Capacity: {sid} of force {f.marker} has no entry")
        for holder, ids in f.air:
            if f.area == "base":
                continue
            if holder not in out:
                root.fail(f"force ({f.marker}).air.{holder}", f"{holder} is no carrier")
            got = _planes_of(root, f"force ({f.marker}).air.{holder}", setup, f.side, ids)
            _same_planes(root, f"force ({f.marker}).air.{holder}", got, out[holder].complement)
    return out


def _bases_forces(
    root: _Node,
    setup: _Setup,
    forces: tuple[ForceSetup, ...],
    listed: Mapping[str, BaseSpec],
    land_based: Mapping[Side, Mapping[str, int]],
) -> None:
    """Bases 2: the base forces hold exactly the scenario's bases; the planes on each fit its
    capacity and prohibited types; together they are the printed Land-Based Planes."""
    names: list[str] = []
    totals: dict[Side, dict[str, int]] = {side: {} for side in SIDES}
    for f in forces:
        if f.area != "base":
            continue
        key = f"force ({f.marker})"
        for sid in f.ships:
            unit = setup.ships[(f.side, sid)]
            if not unit.is_base:
                root.fail(f"{key}.ships", f"{sid!r} is no base unit")
            names.append(unit.name)
        for holder, ids in f.air:
            spec = listed.get(setup.ships[(f.side, holder)].name)
            if spec is None:
                root.fail(f"{key}.air.{holder}", f"{holder} is not a base of this scenario")
            got = _planes_of(root, f"{key}.air.{holder}", setup, f.side, ids)
            for uid in ids:
                if not spec.accepts(setup.air[(f.side, uid)].type):
                    root.fail(f"{key}.air.{holder}", f"Bases 2: {spec.name} may not accept {uid!r}")
            count = sum(got.values())
            if spec.capacity is not None and count > spec.capacity:
                root.fail(
                    f"{key}.air.{holder}",
                    f"Bases 2: {count} planes over {spec.name}'s capacity {spec.capacity}",
                )
            for kind, n in got.items():
                totals[f.side][kind] = totals[f.side].get(kind, 0) + n
    if sorted(names) != sorted(listed):
        missing = sorted(set(listed) - set(names)) or "none"
        extra = sorted(set(names) - set(listed)) or "none"
        root.fail(
            "force",
            f"the base forces hold the bases theatre-bases.toml lists (missing {missing}, "
            f"not listed or twice {extra})",
        )
    for side in SIDES:
        _same_planes(root, f"land_based.{side}", totals[side], land_based.get(side, {}))


def _reinforcement(node: _Node, setup: _Setup, spec: TheatreSpec) -> Reinforcement:
    node.only(("side", "at", "sighted", "planes", "air"))
    side = cast(Side, node.text("side", SIDES))
    at = node.text("at")
    unit = setup.ships.get((side, at))
    if unit is None or not unit.is_base or unit.name not in spec.offboard:
        node.fail("at", f"Land-Based Planes: {at!r} is no {side} off-board base unit")
    planes = _plane_counts(node, "planes")
    notes: dict[str, set[str]] = {}
    ids = setup.units(node, "air", side, "air", notes)
    if notes:
        node.fail("air", "reinforcements arrive undamaged")
    _same_planes(node, "air", _planes_of(node, "air", setup, side, ids), planes)
    return Reinforcement(
        side=side,
        at=at,
        sighted=node.text("sighted", tuple(spec.areas)),
        planes=MappingProxyType(planes),
        air=ids,
    )


def _points(
    root: _Node, forces: tuple[ForceSetup, ...], ships: Mapping[tuple[Side, str], ShipUnit]
) -> tuple[dict[tuple[Side, str], int], dict[tuple[Side, str], int]]:
    """Victory Points: the printed points of every ship of the forces (not the bases); an AP
    has `points` before or during landing and `points_after_landing` once landed."""
    table = root.table("points")
    table.only((), SIDES)
    points: dict[tuple[Side, str], int] = {}
    after: dict[tuple[Side, str], int] = {}
    for side in table.data:
        per_side = table.table(side)
        for uid in per_side.data:
            key = (cast(Side, side), uid)
            if isinstance(per_side.data[uid], dict):
                entry = per_side.table(uid)
                entry.only(("points", "points_after_landing"))
                points[key] = entry.integer("points", 1)
                after[key] = entry.integer("points_after_landing")
            else:
                points[key] = per_side.integer(uid, 1)
    placed = {(f.side, s) for f in forces if f.area != "base" for s in f.ships}
    for side, uid in sorted(placed - points.keys()):
        table.fail(side, f"no points for {uid!r} (Victory Points: every ship has its points)")
    for side, uid in sorted(points.keys() - placed):
        table.fail(f"{side}.{uid}", f"no {side} ship {uid!r} in this scenario's forces")
    for side, uid in after:
        if ships[(side, uid)].type != "AP":
            table.fail(f"{side}.{uid}", "only APs have points_after_landing")
    return points, after


def _landing(node: _Node, spec: TheatreSpec, placed: set[tuple[Side, str]]) -> Landing:
    node.only(("side", "units", "area", "points", "stay_turns"))
    side = cast(Side, node.text("side", SIDES))
    units = node.text("units")
    if not any(s == side and fnmatch.fnmatchcase(u, units) for s, u in placed):
        node.fail("units", f"no {side} ship of this scenario matches {units!r}")
    area = node.text("area")
    if area in spec.areas:
        zones = spec.areas[area]
    elif area in spec.bases:
        zones = frozenset({spec.bases[area]})
    else:
        node.fail("area", f"{area!r} is neither a theatre.toml area nor a base on the map")
    return Landing(
        side=side,
        units=units,
        area=area,
        zones=zones,
        points=node.integer("points", 1),
        stay_turns=node.integer("stay_turns", 1),
    )


def _bonus(node: _Node, landings: tuple[Landing, ...]) -> Bonus:
    node.only(("side", "points", "condition"), ("area", "units"))
    condition = node.text("condition", BONUS_CONDITIONS)
    area = node.text("area") if "area" in node.data else None
    units = node.text("units") if "units" in node.data else None
    if condition == "no-landing" and area not in {x.area for x in landings}:
        node.fail("area", f"{condition}: expected the area of one of the scenario's landings")
    if condition == "all-destroyed-before-landing" and units not in {x.units for x in landings}:
        node.fail("units", f"{condition}: expected the units of one of the scenario's landings")
    return Bonus(
        side=cast(Side, node.text("side", SIDES)),
        points=node.integer("points", 1),
        condition=condition,
        area=area,
        units=units,
    )


def _theatre_rules(
    root: _Node,
    setup: _Setup,
    forces: tuple[ForceSetup, ...],
    spec: TheatreSpec,
    listed: Mapping[str, BaseSpec],
    turns: range,
) -> TheatreRules:
    """The expansion's scenario data beyond the Midway format, checked against the forces."""
    lb = root.table("land_based")
    lb.only((), SIDES)
    land_based = {cast(Side, side): MappingProxyType(_plane_counts(lb, side)) for side in lb.data}
    carriers = _carriers(root, setup, forces)
    _bases_forces(root, setup, forces, listed, land_based)
    reinforcements = tuple(
        _reinforcement(n, setup, spec)
        for n in (root.tables("reinforcement") if "reinforcement" in root.data else [])
    )
    points, after = _points(root, forces, setup.ships)
    placed = set(points)
    landings = tuple(
        _landing(n, spec, placed)
        for n in (root.tables("landing") if "landing" in root.data else [])
    )
    bonuses = tuple(
        _bonus(n, landings) for n in (root.tables("bonus") if "bonus" in root.data else [])
    )
    ap_turn = root.integer("ap_moves_from_turn", 1) if "ap_moves_from_turn" in root.data else None
    if ap_turn is not None and ap_turn not in turns:
        root.fail("ap_moves_from_turn", f"Turn {ap_turn} is not in {turns[0]}-{turns[-1]}")
    minimum = root.integer("minimum_points", 1) if "minimum_points" in root.data else None
    return TheatreRules(
        carriers=MappingProxyType(carriers),
        land_based=MappingProxyType(land_based),
        reinforcements=reinforcements,
        points=MappingProxyType(points),
        points_after_landing=MappingProxyType(after),
        planes_per_point=root.integer("planes_per_point", 1),
        landings=landings,
        bonuses=bonuses,
        minimum_points=minimum,
        ap_moves_from_turn=ap_turn,
    )


# ---------------------------------------------------------------- the catalogue


def load_catalog(folder: Path) -> Catalog:
    """Load and validate every data file in `folder` (the repository's `scenarios/`)."""
    ships, air, scout_creation = _units(folder / "units.toml", folder / "theatre-units.toml")
    searchboard = _board(folder / "searchboard.toml")
    track = _time_record(folder / "time_record.toml")
    theatre = _theatre(folder / "theatre.toml")
    theatre_bases = _theatre_bases(folder / "theatre-bases.toml", theatre)
    boards: dict[str, BoardSpec | TheatreSpec] = {"searchboard": searchboard, "theatre": theatre}
    scenarios: dict[str, Scenario] = {}
    # the Midway scenarios, then the expansion's: one file per theatre-bases.toml scenario id
    paths = sorted(folder.glob("scenario-*.toml"))
    paths += [folder / f"{sid}.toml" for sid in theatre_bases.scenarios]
    for path in paths:
        scenario = _scenario(path, _Setup(ships, air), boards, track, theatre_bases)
        if path.stem in theatre_bases.scenarios and scenario.id != path.stem:
            raise ValueError(
                f"{path.parent.name}/{path.name}: id: expected {path.stem!r}, the file's name"
            )
        if scenario.id in scenarios:
            raise ValueError(
                f"{path.parent.name}/{path.name}: id: duplicate scenario id {scenario.id!r}"
            )
        scenarios[scenario.id] = scenario
    ordered = dict(sorted(scenarios.items(), key=lambda item: item[1].rule))
    return Catalog(
        ships=ships,
        air=air,
        victory_points=_victory_points(folder / "victory_points.toml"),
        time_record=track,
        searchboard=searchboard,
        battleboard=_board(folder / "battleboard.toml"),
        scenarios=MappingProxyType(ordered),
        scout_creation=scout_creation,
        theatre=theatre,
        theatre_bases=theatre_bases,
    )
