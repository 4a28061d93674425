"""Typed, frozen records for the game's data: units, charts, boards and scenarios.

Built once by `app.data.loader` from the TOML files in `scenarios/`. Every record that holds
values not printed in the rulebook carries a `provenance` string saying where they come from
(shared/CATALOG.md, shared/RULES-NOTES.md or the rule that prints them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

Side = Literal["japan", "usa"]
SIDES: tuple[Side, Side] = ("japan", "usa")

SHIP_TYPES: tuple[str, ...] = ("CV", "CVL", "AV", "BB", "CA", "CL", "DD", "AP", "base")
AIR_TYPES: tuple[str, ...] = ("D", "F", "H", "M", "S", "T")
BASINGS: tuple[str, ...] = ("white", "green", "yellow")
LETTERS: str = "abcd"
AIR_BACK_LABELS: tuple[str, ...] = ("reduced", "ELIM", "PATROL", "blank")


@dataclass(frozen=True, slots=True)
class ShipFace:
    """One side of a ship or base counter (1b1: defense, surface, movement, torpedo, AA)."""

    defense: int
    armour: str  # armour letter a-d (the "3c" -> 'c')
    surface: int | None  # None where the counter shows "-"
    gun: str | None  # gun letter a-d
    movement: int | None  # None for the base
    torpedo: int | None
    aa: int
    launch: int | None  # launch number of this face (None if the unit carries no aircraft)


@dataclass(frozen=True, slots=True)
class ShipUnit:
    """A ship unit or the Midway base unit.

    `ships` is the number of ships a DD or AP unit represents (11e3.2); 1 for a named ship,
    0 for the base (the catalogue prints "-").
    """

    side: Side
    id: str
    name: str
    type: str
    front: ShipFace
    back: ShipFace | None  # None means ELIM on the back
    capacity: int | None
    ships: int
    provenance: str

    @property
    def is_base(self) -> bool:
        return self.type == "base"

    @property
    def elim_back(self) -> bool:
        """7a3.2: the back shows "ELIM"."""
        return self.back is None


@dataclass(frozen=True, slots=True)
class AirFace:
    """One side of an air unit (1b1: defense, air combat, movement, bombing)."""

    defense: int | None
    air_combat: int | None
    movement: int
    bombing: int | None


@dataclass(frozen=True, slots=True)
class AirUnit:
    """A combat or scout air unit (type "S" is a scout)."""

    side: Side
    id: str
    type: str
    basing: str
    aircraft: str
    front: AirFace
    back: AirFace | None  # None: ELIM, PATROL or blank back (see back_label)
    back_label: str  # "reduced" | "ELIM" | "PATROL" | "blank"
    provenance: str
    # the expansion's plane factors the unit stands for (1-6); None for the Midway units
    planes: int | None = None

    @property
    def ptvm_type(self) -> str | None:
        """The expansion's plane type (F, B, D, T) of this 1991 type, None for a scout."""
        return ptvm_type(self.type)

    @property
    def is_scout(self) -> bool:
        return self.type == "S"

    @property
    def patrol(self) -> bool:
        """12d: "PATROL" on the back (an asterisk on the front)."""
        return self.back_label == "PATROL"

    @property
    def elim_back(self) -> bool:
        """7a3.2 and 12b1: "ELIM" on the back."""
        return self.back_label == "ELIM"


@dataclass(frozen=True, slots=True)
class VictoryPointsChart:
    """7a3: points to the other side per unit eliminated / flipped at the game's end."""

    eliminated: Mapping[str, int]
    flipped: Mapping[str, int]
    provenance: str


@dataclass(frozen=True, slots=True)
class TurnBox:
    """One box of the TIME RECORD TRACK (3a1 night shading, 12a2 triangle, 12a3 dot)."""

    turn: int
    date: str
    time: str
    night: bool
    triangle: bool
    dot: bool


@dataclass(frozen=True, slots=True)
class TimeRecordTrack:
    turns: tuple[TurnBox, ...]
    provenance: str = ""

    def box(self, turn: int) -> TurnBox:
        for b in self.turns:
            if b.turn == turn:
                return b
        raise KeyError(f"no Turn {turn} on the TIME RECORD TRACK (1-{len(self.turns)})")


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """A hex board: lettered columns, numbered rows (RULES-NOTES.md, "The Searchboard").

    `layout` names the hex orientation: flat-topped hexes, columns B, D, F, ... (odd index,
    counting A as 0) half a hex lower ("odd-q").
    """

    name: str
    columns: str
    rows: int
    land: frozenset[str]
    areas: Mapping[str, frozenset[str]]
    bases: Mapping[str, str]
    provenance: str
    layout: str = "odd-q"
    # an area's name in the rulebook's words, where it has one ("east of the
    # International Dateline"); else it goes by its key ("II")
    area_names: Mapping[str, str] = field(default_factory=dict)

    def hexes(self) -> frozenset[str]:
        return frozenset(f"{c}{r}" for c in self.columns for r in range(1, self.rows + 1))

    def contains(self, hex_id: str) -> bool:
        col, row = hex_id[:1], hex_id[1:]
        return col != "" and col in self.columns and row.isdigit() and 1 <= int(row) <= self.rows


ZONE_LETTERS = "ABCDEFGHI"  # a zone's letter within its area: A B C / D E F / G H I


def theatre_zones(columns: str, rows: int) -> dict[str, tuple[int, int]]:
    """The theatre map's zone names and their (x, y), row by row from the north-west: area
    column x // 3, area row y // 3 + 1 and letter (y % 3) * 3 + x % 3 (RULES-NOTES.md: x =
    3*col + k%3, y = 3*(row-1) + k//3). "F4F" is (17, 10)."""
    out: dict[str, tuple[int, int]] = {}
    for y in range(3 * rows):
        for x in range(3 * len(columns)):
            out[f"{columns[x // 3]}{y // 3 + 1}{ZONE_LETTERS[(y % 3) * 3 + x % 3]}"] = (x, y)
    return out


TERRAINS: tuple[str, ...] = ("sea", "land", "mountain", "reef")
# The expansion's plane types (F, B, D, T): "B" are land-based level bombers, the 1991 H and M
# units (RULES-NOTES.md, "Pacific Theatre Via Midway", Aircraft).
PTVM_TYPES: dict[str, tuple[str, ...]] = {"F": ("F",), "B": ("H", "M"), "D": ("D",), "T": ("T",)}


def ptvm_type(air_type: str) -> str | None:
    """The expansion's plane type (F, B, D, T) of a 1991 air unit type; None for a scout."""
    for kind, types in PTVM_TYPES.items():
        if air_type in types:
            return kind
    return None


@dataclass(frozen=True, slots=True)
class OffBoardBase:
    """Off-Board Bases 1: a base off the map edge, reached through marked edge squares; each
    square's number is the zones a plane needs between the base and that square."""

    name: str
    edge: str
    squares: Mapping[str, int]
    provenance: str


@dataclass(frozen=True, slots=True)
class TheatreSpec:
    """The theatre map of "Pacific Theatre Via Midway": areas `columns` x 1-`rows`, each 3 x 3
    square zones ("F4F"). `terrain` holds every zone that is not sea; `blocked` the sea steps
    that would cross land; `areas` the zones a scenario names (RULES-NOTES.md, MAP)."""

    name: str
    columns: str
    rows: int
    terrain: Mapping[str, str]
    coastal: frozenset[str]
    zone_provenance: Mapping[str, str]
    bases: Mapping[str, str]
    printed_bases: frozenset[str]
    base_provenance: Mapping[str, str]
    offboard: Mapping[str, OffBoardBase]
    blocked: frozenset[frozenset[str]]
    areas: Mapping[str, frozenset[str]]
    provenance: str

    def terrain_of(self, zone: str) -> str:
        return self.terrain.get(zone, "sea")


@dataclass(frozen=True, slots=True)
class BaseSpec:
    """Bases 2-3: one base as a scenario lists it. `capacity` None is unlimited; `prohibited`
    holds the expansion's plane types (F, B, D, T) it may not accept; `aa` is its AA strength
    (0: none printed); `bomber_readying` the Turns a bomber needs to ready there (None where
    bombers may not ready there); `knockout_hits` the printed knockout number (1964 hits) and
    `knockout` the same in damage points; both None for an off-board base, which may not be
    attacked (Off-Board Bases 4)."""

    name: str
    zone: str | None  # None: off the board
    capacity: int | None
    prohibited: frozenset[str]
    aa: int
    bomber_readying: int | None
    bombers_take_off: bool
    fly_again: bool  # Off-Board Bases 3: False at Truk, where planes land never to fly again
    knockout_hits: int | None
    knockout: int | None
    provenance: str

    def accepts(self, air_type: str) -> bool:
        """Bombers 2, Bases 2: whether a 1991 air unit type may land here."""
        return not any(air_type in PTVM_TYPES[kind] for kind in self.prohibited)


@dataclass(frozen=True, slots=True)
class TheatreBases:
    """Bases 2-4 and Base Knockout Numbers: each scenario's bases, and the AA table
    (`aa_table[die - 1][strength - 1]` hits)."""

    scenarios: Mapping[str, Mapping[str, BaseSpec]]
    aa_table: tuple[tuple[int, ...], ...]
    hits_per_point: int
    provenance: str


@dataclass(frozen=True, slots=True)
class ForceSetup:
    """One task force (or the base force) of a scenario's Setup Information."""

    side: Side
    marker: str
    label: str
    area: str  # Searchboard area key, "base" for the base force, "battleboard" in 7e
    entry_turn: int | None  # None: placed at the game's start
    optional: bool  # 7c4.2
    ships: tuple[str, ...]
    air: tuple[tuple[str, tuple[str, ...]], ...]  # (carrier/AV/base id, air unit ids on it)
    back: frozenset[str]  # units listed "(back)"
    one_hit: frozenset[str]  # units listed "(1 hit)"

    def air_ids(self) -> tuple[str, ...]:
        return tuple(a for _, ids in self.air for a in ids)


@dataclass(frozen=True, slots=True)
class Command:
    """17a: what one player of a side commands in a team game: task forces (and the base
    force) with their units as set up, and other units named alone (an off-board scout)."""

    side: Side
    id: str  # the seat is "<side>-<id>" (DESIGN.md: seat ids begin with their side)
    label: str
    forces: tuple[str, ...]  # task force markers, and "Midway" for the base force
    units: tuple[str, ...]  # units in no force (7c4.4 scout O)
    overall: bool  # 17c1: the overall commander until the side names one
    provenance: str


@dataclass(frozen=True, slots=True)
class Teams:
    """17a: two players a side. `chosen` are forces the side gives to either of its players
    at setup (Task Force 1: "it may be assigned to either player")."""

    rule: str
    commands: tuple[Command, ...]
    chosen: Mapping[Side, tuple[str, ...]]
    provenance: str

    def of(self, side: Side) -> tuple[Command, ...]:
        return tuple(c for c in self.commands if c.side == side)


@dataclass(frozen=True, slots=True)
class CarrierPlanes:
    """Carrier Capacity (the expansion's scenarios): a carrier's maximum capacity in planes
    (None where none is printed), the plane types (F, B, D, T) it may not accept, and the
    planes it starts with per type. Bombers never land on carriers (Bombers 2)."""

    side: Side
    carrier: str  # ship unit id
    planes: int | None
    refuses: frozenset[str]
    complement: Mapping[str, int]  # plane type -> plane factors, as printed

    def accepts(self, kind: str) -> bool:
        """Whether planes of the expansion's type `kind` may land on the carrier."""
        return kind != "B" and kind not in self.refuses


@dataclass(frozen=True, slots=True)
class Reinforcement:
    """Land-Based Planes: planes available at an off-board base (`at`, a base unit id) once the
    enemy's ships are sighted in the theatre area `sighted`; `planes` the printed totals."""

    side: Side
    at: str
    sighted: str
    planes: Mapping[str, int]  # plane type -> plane factors, as printed
    air: tuple[str, ...]  # air unit ids


@dataclass(frozen=True, slots=True)
class Landing:
    """Victory Points: `points` to `side` for landing a unit matching `units` (a glob, "AP*")
    in `area` (a theatre area, or a base's zone), once it has stayed `stay_turns` Turns after
    arriving. More than one landing at a place yields no more points."""

    side: Side
    units: str
    area: str  # a theatre.toml area id or a base's printed name
    zones: frozenset[str]
    points: int
    stay_turns: int


BONUS_CONDITIONS: tuple[str, ...] = ("no-landing", "all-destroyed-before-landing")


@dataclass(frozen=True, slots=True)
class Bonus:
    """Victory Points: `points` to `side` at the game's end if `condition` holds: "no-landing"
    (no landing at `area`), "all-destroyed-before-landing" (every unit matching `units` was
    destroyed before it landed)."""

    side: Side
    points: int
    condition: str
    area: str | None
    units: str | None


@dataclass(frozen=True, slots=True)
class TheatreRules:
    """What a "Pacific Theatre Via Midway" scenario prints beyond the Midway format."""

    carriers: Mapping[str, CarrierPlanes]  # by carrier id
    land_based: Mapping[Side, Mapping[str, int]]  # printed planes from the start, per type
    reinforcements: tuple[Reinforcement, ...]
    points: Mapping[tuple[Side, str], int]  # points per ship unit sunk
    points_after_landing: Mapping[tuple[Side, str], int]  # APs once landed
    planes_per_point: int  # one point for every so many enemy planes destroyed
    landings: tuple[Landing, ...]
    bonuses: tuple[Bonus, ...]
    minimum_points: int | None  # Santa Cruz: no winner without at least this many
    ap_moves_from_turn: int | None  # Coral Sea: APs may not move before this Turn


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    rule: str
    name: str
    first_turn: int
    last_turn: int
    forces: tuple[ForceSetup, ...]
    option14_fighters: tuple[tuple[str, tuple[str, ...]], ...]
    spare_markers: Mapping[Side, tuple[str, ...]]
    japan_wins_margin: int
    usa_wins_margin: int
    free_roll: Side | None
    control_of_midway_points: int
    special: Mapping[str, object]
    provenance: str
    teams: Teams | None = None  # 17: None where teams are not offered
    board: str = "searchboard"  # the Searchboard it is played on: "searchboard" or "theatre"
    time_record: TimeRecordTrack | None = None  # the scenario's own track; None: the Midway track
    theatre: TheatreRules | None = None  # the expansion's scenarios only

    def forces_of(self, side: Side) -> tuple[ForceSetup, ...]:
        return tuple(f for f in self.forces if f.side == side)

    def option14_fighters_of(self, side: Side) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """7b4.2 fighters of one side (their carrier or base is set up by that side)."""
        own = {ship for force in self.forces_of(side) for ship in force.ships}
        return tuple(entry for entry in self.option14_fighters if entry[0] in own)


@dataclass(frozen=True, slots=True)
class Catalog:
    ships: Mapping[tuple[Side, str], ShipUnit]
    air: Mapping[tuple[Side, str], AirUnit]
    victory_points: VictoryPointsChart
    time_record: TimeRecordTrack
    searchboard: BoardSpec
    battleboard: BoardSpec
    scenarios: Mapping[str, Scenario]
    # 15c2: side -> parent combat air unit type -> scout ids it may create
    scout_creation: Mapping[Side, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    theatre: TheatreSpec | None = None  # the expansion's map
    theatre_bases: TheatreBases | None = None  # the expansion's bases, per scenario

    def ship(self, side: Side, id: str) -> ShipUnit:
        try:
            return self.ships[(side, id)]
        except KeyError:
            raise KeyError(f"no {side} ship or base unit {id!r}") from None

    def airunit(self, side: Side, id: str) -> AirUnit:
        try:
            return self.air[(side, id)]
        except KeyError:
            raise KeyError(f"no {side} air unit {id!r}") from None
