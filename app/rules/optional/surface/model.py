"""16: what a surface combat keeps in `State.surface` - plain dataclasses (engine/codec.py).

`Surface` lives for the whole game: the direction each task force marker last moved
(16b1), the ships that have fired their torpedoes (16f4), the surface contacts of this
Combat Phase (16a), and the surface combat (16c-16i) or bombardment (16j) being fought.
Everything in a `SurfaceCombat` and a `Bombardment` is seen by both players; the
headings and the contacts are not shown to anyone (view.py builds the view by hand).

Both sides have ships with the same ids (DD1-DD5), so ship ids are kept per side
(`dict[Side, ...]`) or with their side (`Torpedo.side`, `Salvo.target_side`);
`Contact.broke_off` and `Bombardment.stacks` hold Japanese ships only (16j).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.rules.engine.state import SIDES, Side, State, register_slot


def _per_side_lists() -> dict[Side, list[str]]:
    return {side: [] for side in SIDES}


def _per_side_hexes() -> dict[Side, dict[str, str]]:
    return {side: {} for side in SIDES}


def _per_side_ints() -> dict[Side, dict[str, int]]:
    return {side: {} for side in SIDES}


@dataclass(slots=True)
class Contact:
    """16a: two sides' task forces in one Searchboard hex this Combat Phase."""

    hex: str
    deciders: list[Side]  # the sides with 2X/3X or exact information there
    status: str = "undecided"  # "undecided", "engaged", "declined", "fought"
    us_left: bool = True  # 16j: American ships still on the Battleboard at the end
    broke_off: list[str] = field(default_factory=list)  # 16j: Japanese ships that broke off


@dataclass(slots=True)
class Torpedo:
    """16f: a torpedo marker beside its firing ship, running straight away from it."""

    side: Side
    ship: str
    origin: str  # the firing ship's Battleboard hex
    hex: str  # the marker's hex (a neighbour of `origin`)
    direction: int  # index into grid.DIRECTIONS
    reach: int = 0  # 16h2: distance from `origin` already run past (a miss runs on)


@dataclass(slots=True)
class Salvo:
    """16h: a torpedo combat being rolled: the markers, their target, its damage before."""

    markers: list[int]
    target_side: Side
    target: str
    damage_before: int


@dataclass(slots=True)
class SurfaceCombat:
    """16c-16i: one surface combat on the Battleboard."""

    hex: str  # the Searchboard hex ("" in Scenario Four)
    night: bool
    facing: str  # 16b: "same" or "opposite"
    setup_b: Side  # 16c: Side B of the Turn sets up first
    ships: dict[Side, list[str]] = field(default_factory=_per_side_lists)
    line: str | None = None  # 16c1: Side B's setup line (a column letter)
    heading: int | None = None  # 16c2: Side B's facing (0 north, 3 south)
    hexes: dict[Side, dict[str, str]] = field(default_factory=_per_side_hexes)
    facings: dict[Side, dict[str, int]] = field(default_factory=_per_side_ints)
    lines: dict[Side, list[list[str]]] = field(default_factory=lambda: {s: [] for s in SIDES})
    turn: int = 1  # 16d: Surface Turn 1-10
    side_a: Side | None = None  # 16d1: Surface Side A this Surface Turn
    surprise: str = ""  # 16k: "", "possible", "choose", "attack", "delay", "over"
    surprised_by: Side | None = None
    spent: dict[Side, dict[str, int]] = field(default_factory=_per_side_ints)  # 16e
    shifted: list[Side] = field(default_factory=list)  # 16e4: this Surface Turn
    gunned: dict[Side, list[str]] = field(default_factory=_per_side_lists)  # 16g
    fired: dict[Side, list[str]] = field(default_factory=_per_side_lists)  # 16f4: this combat
    torpedoes: list[Torpedo] = field(default_factory=list)  # 16f
    salvo: Salvo | None = None  # 16h
    designated: dict[Side, list[list[str]]] = field(
        default_factory=lambda: {s: [] for s in SIDES}
    )  # 16i2
    broke_off: dict[Side, list[str]] = field(default_factory=_per_side_lists)  # 16i2.2
    ended: bool = False


@dataclass(slots=True)
class Bombardment:
    """16j: Japanese ships in stacks by gun letter against the Midway base unit."""

    hex: str  # the Searchboard hex (M5)
    stacks: dict[str, list[str]]  # gun letter ("-" for none) -> Japanese ship ids
    positions: dict[str, str]  # "Midway" and each stack letter -> Battleboard hex
    base_fired: bool = False
    fired: list[str] = field(default_factory=list)  # stack letters that have attacked


@dataclass(slots=True)
class Surface:
    """16: everything option 16 keeps for the whole game."""

    headings: dict[Side, dict[str, int]] = field(default_factory=_per_side_ints)  # 16b1
    fired: dict[Side, list[str]] = field(default_factory=_per_side_lists)  # 16f4: this game
    phase: int = 0  # the Turn whose Combat Phase the contacts belong to
    contacts: list[Contact] = field(default_factory=list)
    bombarded: bool = False  # 16j: this Combat Phase
    decided: list[Side] = field(default_factory=list)  # 16a: sides through their decisions
    bombard: bool = False  # 16j: the Japanese chose to bombard, if they still may
    combat: SurfaceCombat | None = None
    bombardment: Bombardment | None = None


def record(state: State) -> Surface:
    """The game's option 16 record, created on first use."""
    if state.surface is None:
        state.surface = Surface()
    return state.surface


def combat(state: State) -> SurfaceCombat:
    c = record(state).combat
    assert c is not None, "no surface combat is being fought"
    return c


def bombardment(state: State) -> Bombardment:
    b = record(state).bombardment
    assert b is not None, "no bombardment is being fought"
    return b


register_slot("Surface", Surface)  # the State's slot for 16 (app/rules/engine/state.py)
