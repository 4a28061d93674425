"""Read the TOML files of `scenarios/`, validate them and build the frozen records.

Every problem is a `ValueError` whose message starts with the file and the key path, e.g.
``scenarios/units.toml: ship[0] (Yorktown).defense: expected a number and a letter a-d``.
"""

from __future__ import annotations

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
    SHIP_TYPES,
    SIDES,
    AirFace,
    AirUnit,
    BoardSpec,
    Catalog,
    Command,
    ForceSetup,
    Scenario,
    ShipFace,
    ShipUnit,
    Side,
    Teams,
    TimeRecordTrack,
    TurnBox,
    VictoryPointsChart,
)

NONE = "-"  # the counters' "no factor"
ELIM = "ELIM"
START = "start"
VP_KEYS: tuple[str, ...] = (*SHIP_TYPES, "air", "scout")
NON_BOARD_AREAS = ("base", "battleboard")
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
    node.only(("side", "id", "type", "basing", "aircraft", "front", "back", "provenance"))
    node = node.named(node.text("id"))
    kind = node.text("type", AIR_TYPES)
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


def _units(
    path: Path,
) -> tuple[
    Mapping[tuple[Side, str], ShipUnit],
    Mapping[tuple[Side, str], AirUnit],
    Mapping[Side, Mapping[str, tuple[str, ...]]],
]:
    root = _read(path)
    root.only(("ship", "air", "scout_creation"))
    ship_nodes, air_nodes = root.tables("ship"), root.tables("air")
    ships = _unique(ship_nodes, [_ship(n) for n in ship_nodes])
    air = _unique(air_nodes, [_air(n) for n in air_nodes])
    for node, unit in zip(air_nodes, air.values(), strict=True):
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


def _time_record(path: Path) -> TimeRecordTrack:
    root = _read(path)
    root.only(("turn", "provenance"))
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
    return TimeRecordTrack(turns=tuple(boxes), provenance=root.text("provenance"))


def _areas(
    table: _Node, columns: str, rows: int, on_board: _HexCheck
) -> tuple[dict[str, frozenset[str]], list[str]]:
    """Each area is a list of hexes and/or whole columns (all rows)."""
    areas: dict[str, frozenset[str]] = {}
    notes: list[str] = []
    for name in table.data:
        area = table.table(name)
        area.only(("provenance",), ("hexes", "columns"))
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

    areas, notes = _areas(root.table("areas"), columns, rows, on_board)
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


def _command(node: _Node, forces: Mapping[str, ForceSetup], placed: set[tuple[Side, str]]) -> Command:
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
    path: Path, setup: _Setup, searchboard: BoardSpec, track: TimeRecordTrack
) -> Scenario:
    root = _read(path)
    keys = ("id", "rule", "name", "first_turn", "last_turn", "japan_wins_margin", "usa_wins_margin")
    keys2 = ("free_roll", "control_of_midway_points", "provenance", "spare_markers", "force")
    root.only((*keys, *keys2, "special"), ("option14_fighters", "teams"))
    first, last = root.integer("first_turn", 1), root.integer("last_turn", 1)
    if not first <= last <= len(track.turns):
        root.fail("last_turn", f"expected {first} <= last_turn <= {len(track.turns)}")
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
    )


# ---------------------------------------------------------------- the catalogue


def load_catalog(folder: Path) -> Catalog:
    """Load and validate every data file in `folder` (the repository's `scenarios/`)."""
    ships, air, scout_creation = _units(folder / "units.toml")
    searchboard = _board(folder / "searchboard.toml")
    track = _time_record(folder / "time_record.toml")
    scenarios: dict[str, Scenario] = {}
    for path in sorted(folder.glob("scenario-*.toml")):
        scenario = _scenario(path, _Setup(ships, air), searchboard, track)
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
    )
