"""The game state: public Operations Cards, and each side's secret Searchboard.

What both players may know in a two-player game (2c: both Operations Cards are open)
lives in `State` itself and its `units`. What only one side may know (where its task
force markers and flying air units are, what it has searched, what it has learned)
lives in that side's `Board`. `view()` reads a side's own Board and nothing of the
other's; the non-interference tests scramble the other Board to prove it.

`apply` works on a copy (`clone`) and never mutates its input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Literal, NamedTuple

from app.rules.engine.copying import copier

if TYPE_CHECKING:  # the slots' types, for the type checker only: they import this module
    from app.rules.expansions.ptvm.record import TheatreRecord
    from app.rules.optional.surface.model import Surface

Side = Literal["japan", "usa"]
SIDES: tuple[Side, Side] = ("japan", "usa")


class UnitKey(NamedTuple):
    """A unit's identity: its side and its id. Both sides have units with the same ids
    (DD1-DD5, scouts A-O), so a record of units from both sides keys them by this."""

    side: Side
    id: str


# 4b5 (RULES-NOTES.md): damage points; a hit adds 1, a flip 3; 6 or more eliminates.
HIT = 1
FLIP = 3
ELIMINATED = 6

# Operations Card boxes (2c).
SHIPS = "ships"  # a task force area's Ships box; area = task force marker
BASE = "base"  # the Midway base unit itself; area = "Midway"
READY = "ready"  # area = carrier, AV or base id
ARMING = "arming"
STRIKE = "strike"  # Normal Strike box; area = task force marker or "Midway"
MAX_STRIKE = "max-strike"  # 12b2.3: maximum launch units; area as for STRIKE
HIGH_CAP = "high-cap"  # 14: combat air patrol boxes; area = task force marker or "Midway"
LOW_CAP = "low-cap"
FLYING = "flying"  # on the Searchboard (where: the owner's Board.flights)
OFF_BOARD = "off-board"  # 7c4.4: a unit based off the Searchboard (Japanese scout O)
GONE = "eliminated"
EXITED = "exited"  # 12a4.3: towed off the Searchboard, out of play, its damage still counted


_SIDE_NAMED: dict[str, Side] = {side: side for side in SIDES}


def side_named(name: object) -> Side:
    """The side a data file names ("japan", "usa"); anything else is a ValueError."""
    side = _SIDE_NAMED.get(str(name))
    if side is None:
        raise ValueError(f"no side {str(name)[:20]!r}; the sides are {', '.join(SIDES)}")
    return side


def other(side: Side) -> Side:
    return "usa" if side == "japan" else "japan"


@dataclass(frozen=True, slots=True)
class Unit:
    """A counter where it stands. Frozen: a change is a new Unit put in its place
    (`State.put`), so a clone of the state shares every unit it did not change."""

    side: Side
    id: str
    ship: bool  # a ship or base unit; else an air unit
    box: str
    area: str
    damage: int = 0
    started_back: bool = False

    @property
    def key(self) -> UnitKey:
        return UnitKey(self.side, self.id)

    @property
    def eliminated(self) -> bool:
        return self.box == GONE

    @property
    def flipped(self) -> bool:
        return FLIP <= self.damage < ELIMINATED

    @property
    def hits(self) -> int:
        """Hit markers on the side showing (4b5)."""
        return self.damage - FLIP if self.flipped else self.damage


@dataclass(slots=True)
class Flight:
    """A flying air unit on its owner's Searchboard (3d)."""

    hex: str
    moved: int = 0
    group: str = ""
    path: list[str] = field(default_factory=list)
    max_strike: bool = False  # 12b3.2: from a Max. Strike box, one movement factor less
    patrol: bool = False  # 12d1: left flying, PATROL side up, until the next Air Return Phase
    shadowing: str | None = None  # 12d2: the enemy task force marker it shadows this Turn


@dataclass(slots=True)
class Spotting:
    """What a search or battle revealed (3d3.2, 3d3.3): enemy task forces in a hex."""

    turn: int
    hex: str
    forces: dict[str, list[str]]  # marker -> ship ids present (exact information only)
    how: str  # "air search", "sea search", "battle"
    level: str = "exact"  # 15a1.2: "nothing", "something", "number", "actual", "exact"
    ships: int | None = None  # the number of ships stated ("number", "actual")
    said: str = ""  # 18d: the umpire's own words, when he edited the report (level "report")


@dataclass(slots=True)
class Report:
    """15a1.2: a search answered with a number of ships, which the owner may state falsely."""

    searcher: Side
    hex: str
    how: str
    actual: int


@dataclass(slots=True)
class Message:
    """17c3: a radio note between the players of a side, by seat id. Its outside (who to
    whom, the Turn written and of delivery) is said at the table; its text is read by
    its sender, and by its addressee once delivered."""

    sender: str
    to: str
    written: int  # the Turn it was written
    delivery: int  # the Turn of its delivery: the next, or two Turns later
    text: str
    status: str = "waiting"  # "delivered"; "lost": 17c2, the addressee's flagship is gone


@dataclass(slots=True)
class Draft:
    """18c: a report the rules produced for a side (a search's answer, a damage report),
    which in the umpired mode waits for the umpire to release it (app/rules/modes/reports.py)."""

    id: str  # "r1", "r2", ... in the order the rules produced them
    kind: str  # "spotting" (3d3, 15a, 18c1), "damage" (18c2)
    side: Side  # the side it is for
    turn: int
    step: str
    # Read-only (Mapping): a clone shares them (app/rules/engine/copying.py)
    data: Mapping[str, object]  # the report as the rules made it: its event's data
    truth: Mapping[str, object]  # what was really there, or really done
    status: str = "waiting"  # "held": kept back by the umpire; "released"
    told: Mapping[str, object] | None = None  # the report as released, edits included
    words: str = ""  # 18d: the umpire's edit, if he made one
    released: int = 0  # the Turn it was released


@dataclass(frozen=True, slots=True)
class UmpireMessage:
    """18c: a message the umpire wrote to everyone ("all"), a side or one player's seat."""

    to: str
    turn: int
    step: str
    text: str


@dataclass(slots=True)
class Board:
    """One side's Searchboard: secret from the other side (1c, 3c).

    A Board belongs to one side (`State.boards[side]`), and the unit ids it records
    (`flights`, `groups`, `night_watch`, `engaged_before`) are that side's own units only,
    so they are bare ids: a Board cannot hold the other side's unit.
    """

    forces: dict[str, str | None] = field(default_factory=dict)  # marker -> hex
    turn_start: dict[str, str] = field(default_factory=dict)  # 3c: hexes before moving
    moved: list[str] = field(default_factory=list)  # markers moved or entered this turn
    flights: dict[str, Flight] = field(default_factory=dict)
    groups: dict[str, list[str]] = field(default_factory=dict)  # 3d2 strikes moving together
    may_search: dict[str, str] = field(default_factory=dict)  # group -> hex just entered
    searched: list[str] = field(default_factory=list)  # hexes air-searched this turn
    sea_searched: list[str] = field(default_factory=list)  # 3d5 this turn
    # 18c1 (umpired modes only, modes/r18_umpired/scout_routes.py): each scout's route handed in,
    # the hexes still to fly, and the scout over a task force waiting for its player's
    # choice of movement factors to spend there (15a1.1)
    routes: dict[str, list[str]] = field(default_factory=dict)
    over: str | None = None
    intel: list[Spotting] = field(default_factory=list)
    committed: list[str] = field(default_factory=list)  # 7c4.2 optional forces noted to enter
    control_turns: int = 0  # 7c4.3: consecutive Turns an AP unit has held M5
    controls_midway: bool = False  # 7c4.3
    report: Report | None = None  # 15a1.2: a number of ships this side must state
    night_watch: dict[str, str] = field(default_factory=dict)  # 11d: where units were last night
    engaged_before: list[str] = field(default_factory=list)  # 11d: in combat the Turn before
    # 17a (team games only, app/rules/modes/commands.py): the command of each unit and task force
    # marker, and the side's overall commander (17c1).
    commands: dict[str, str] = field(default_factory=dict)
    force_commands: dict[str, str] = field(default_factory=dict)
    overall: str = ""
    flagships: dict[str, str] = field(default_factory=dict)  # 17c2: command -> ship
    radio: list[Message] = field(default_factory=list)  # 17c3: the side's notes, in order
    # 18c2 (umpired modes only, app/rules/modes/umpire.py): the damage points the umpire has
    # reported of each ENEMY unit, by its id - the one record here of the other side's units
    told: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Battle:
    """One battle on the Battleboard (4a-4e). Everything here is seen by both players.

    Every bare unit id here belongs to one side, fixed by its role, so two sides' units
    with one id cannot meet in one record: the defender's (`other(attacker)`) in `ships`,
    `positions`, `aa_ships`, `bombed` ("target/category"), `caps`, `low_after`, `peeled`, the
    keys of `facing_cap` and `breakthrough` and the values of `targets` and `joined`; the
    attacker's in `air`, `air_hexes`, `aa_target`, `escorts`, `waves`, `escort_fired` and
    `cap_fired` (both name a combat by its escort), `intercepted` ("cap/id", "back/id"),
    the keys of `targets` and `joined` and the values of `facing_cap` and `breakthrough`.
    `tests/rules/test_unit_identity.py` checks these roles on played games.
    `held` has fighters of both sides, so it keys them by `UnitKey`.
    """

    hex: str
    attacker: Side
    ships: list[str]  # defending ship and base unit ids, in setup order
    air: list[str]  # attacking combat air unit ids, in setup order
    stage: str = "facing"
    facing: int | None = None
    positions: dict[str, str] = field(default_factory=dict)  # defender unit -> Battleboard hex
    targets: dict[str, str] = field(default_factory=dict)  # air unit -> target unit
    air_hexes: dict[str, str] = field(default_factory=dict)  # air unit -> Battleboard hex
    aa_ships: list[str] = field(default_factory=list)  # 4c combat being formed
    aa_target: str | None = None
    bombed: list[str] = field(default_factory=list)  # "target/category" resolved
    # 14: fighters. Escorts are the attacker's F units; CAP the defender's, "high" or "low".
    escorts: list[str] = field(default_factory=list)
    caps: dict[str, str] = field(default_factory=dict)
    facing_cap: dict[str, str] = field(default_factory=dict)  # 14a2.1: CAP unit -> escort
    joined: dict[str, str] = field(default_factory=dict)  # 14a3: excess escort -> CAP unit
    held: list[UnitKey] = field(default_factory=list)  # fighters kept out of combat
    escort_fired: list[str] = field(default_factory=list)  # 14c: combats (by CAP unit) done
    cap_fired: list[str] = field(default_factory=list)
    breakthrough: dict[str, str] = field(default_factory=dict)  # 14e1: CAP unit -> target
    # Bombers 5 (expansion): excess CAP units peeled off onto the bombers (ptvm/strikes.py)
    peeled: list[str] = field(default_factory=list)
    intercepted: list[str] = field(default_factory=list)  # 14e: targets resolved
    low_after: list[str] = field(default_factory=list)  # 14g2: CAP units back to Low CAP
    waves: list[list[str]] = field(default_factory=list)  # 13b: the waves still to come


@dataclass(slots=True)
class PendingCombat:
    """A combat whose dice are rolled and not yet applied: 11a lets the holder re-roll."""

    kind: str  # the event kind: "anti-aircraft", "bombing"
    target_side: Side
    target: str
    attacker_modifier: int
    defender_modifier: int
    attacker_roll: int
    defender_roll: int
    cause: str
    data: dict[str, object]


@dataclass(slots=True)
class Caller:
    """A step that called another as a procedure of its own (`steps.call`): what `steps.end`
    gives back when the called step is over - the caller's step and whom it waited for,
    resumed as they were; or, when `enter` is set, the step `end` enters afresh."""

    step: str  # a step id's words, as `State.step`
    waiting: list[Side] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    simultaneous: bool = False
    enter: bool = False


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Issue 14: a seat's last `actions` may be taken back; `rule` and `why` say why no
    more (app/rules/modes/takeback.py keeps it)."""

    actions: int = 0
    rule: str = ""
    why: str = "nothing of yours to take back"


@dataclass(slots=True, weakref_slot=True)
class State:
    scenario: str
    options: tuple[str, ...]
    mode: str
    seed: int
    rng: int
    turn: int
    teams: bool = False  # 17a: two seats a side, one per command (app/rules/modes/seats.py)
    status: str = "setup"
    step: str = "setup"
    waiting: list[Side] = field(default_factory=list)
    done: list[str] = field(default_factory=list)  # seats of a waiting side done with the step
    simultaneous: bool = False
    side_a: Side | None = None
    units: dict[Side, dict[str, Unit]] = field(default_factory=dict)
    boards: dict[Side, Board] = field(default_factory=dict)
    forced_dice: list[int] = field(default_factory=list)
    launched: dict[UnitKey, float] = field(default_factory=dict)  # 3a4 (12b1: halves)
    shifted: list[UnitKey] = field(default_factory=list)  # 3b: shifted in this Ready Step
    aa_used: list[UnitKey] = field(default_factory=list)  # 4c2: once per Combat Phase
    battles: list[tuple[str, Side]] = field(default_factory=list)  # still to fight
    fought: list[str] = field(default_factory=list)  # 4e1: battle hexes this phase, latest last
    battle: Battle | None = None
    announcements: list[tuple[Side, str, str]] = field(default_factory=list)  # this turn
    victory: dict[str, object] | None = None
    damaged: list[UnitKey] = field(default_factory=list)  # 11b: this Combat Phase
    checks: list[tuple[UnitKey, int]] = field(default_factory=list)  # 11b: still to roll
    submarine: Side | None = None  # 11e1: the side that may make a submarine attack
    engaged: list[UnitKey] = field(default_factory=list)  # 11d: in combat this Turn
    scout_parents: list[UnitKey] = field(default_factory=list)  # 15c1: never repaired
    free_roll: Side | None = None  # 11a: who holds the free roll marker
    surface: Surface | None = None  # 16: the surface combat being fought (app/rules/surface)
    pending: PendingCombat | None = None  # 11a: a combat waiting for the holder's choice
    # issue 14: what each seat may take back (app/rules/modes/takeback.py); only its own view says
    takeback: dict[str, TakeBack] = field(default_factory=dict)  # by seat id
    # 18c (umpired modes, app/rules/modes/reports.py): every report the rules produced for a
    # side, and the kinds of report the umpire lets through as soon as they are made
    drafts: list[Draft] = field(default_factory=list)
    auto_release: list[str] = field(default_factory=list)
    umpire_messages: list[UmpireMessage] = field(default_factory=list)  # 18c, in order
    # A game of "Pacific Theatre Via Midway": the expansion's own slot
    # (app/rules/expansions/ptvm/record.py), None in the base game's scenarios
    ptvm: TheatreRecord | None = None
    # The steps called as procedures and not yet ended, the latest last (`steps.call`, `end`):
    # a free roll (11a) in a combat, a number of ships stated (15a1.2) in a search, a surface
    # combat (16) in the Combat Phase
    calls: list[Caller] = field(default_factory=list)

    def clone(self) -> State:
        """A copy sharing nothing that can change (app/rules/engine/copying.py): the units are
        frozen, so the copy's tables hold the same ones."""
        return _copier()(self)

    def put(self, u: Unit) -> Unit:
        """Put a changed unit in its place (`dataclasses.replace(u, box=...)`); returns it."""
        self.units[u.side][u.id] = u
        return u

    @property
    def side_b(self) -> Side | None:
        return None if self.side_a is None else other(self.side_a)

    def unit(self, side: Side, uid: str) -> Unit:
        return self.units[side][uid]

    def unit_of(self, key: UnitKey) -> Unit:
        return self.units[key.side][key.id]

    def live(self, side: Side) -> list[Unit]:
        return [u for u in self.units[side].values() if u.box != GONE]


# The classes the State's slots hold, named as its annotations name them: each package that
# owns one registers it when imported (16's Surface, the expansion's record), so the engine
# imports none of them. The copier and the codec read them at their first use.
SLOT_TYPES: dict[str, type] = {}


def register_slot(name: str, cls: type) -> None:
    """The class a State annotation names `name` (before the first clone or snapshot)."""
    SLOT_TYPES[name] = cls


@cache
def _copier() -> Callable[[State], State]:
    return copier(State, tuple(SLOT_TYPES.items()))
