"""The points where an expansion changes the base game: named hooks with the base game's
answers as their defaults.

A game family (the scenario's board) selects its hooks: `of(state)` is the registered
family's `Hooks`, or the base game's. The base modules ask these hooks and name no
expansion; an expansion subclasses `Hooks`, overrides what it changes and registers itself
(`register`), from the facade (app/rules/__init__.py) - so no base module imports it.

The hooks, by the part of the rules they change:

1. new Turn ............ `set_up`, `new_turn`, `turn_record`
2. take-off refusal .... `take_off_refusal`, `readying_refusal`, `readied`
3. launch limit ........ `launches_all`
4. air-movement actions  `air_actions`, `sorties`, `flight_refusal`, `take_off`, `air_why`,
                         `search_area`, `after_number_report`, `landed`
5. unit size and room .. `holds_planes`, `room`, `takes`, `basing_refusal`, `card_entry`,
                         `base_today`
6. air range ........... `always_unequal_legs`
7. battle targets ...... `split_waves`, `strike_order`, `bombing_category`, `bomber_target`,
                         `outside_4c`, `outside_why`, `may_peel`, `breakers`,
                         `base_aa_apart`, `on_base`, `ship_bombers`, `bombing_factor`,
                         `before_bombing`, `base_strikes`, `destroyers_fired`,
                         `destroyers_refused`
8. staging and repair .. `may_stage`, `repairs_aboard`, `ships_held`, `leave_board`
9. score and victory ... `counts_planes`, `tally`, `victory_points`, `base_reports`
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.data import catalog
from app.rules.base.units import capacity, load, ship_record, size
from app.rules.engine.actions import Action
from app.rules.engine.events import Event
from app.rules.engine.state import Battle, Side, State, Unit, UnitKey

Refusal = tuple[str, str]  # a rule and the words of why not
DESTROYERS = "Destroyers"  # the Destroyers action's rule (a scenario's destroyer AA bonus)


def destroyer_bonus(state: State) -> tuple[Side, int] | None:
    """Destroyers: the side that may add AA factors once a Turn, and how many (scenario data)."""
    spec = catalog().scenarios[state.scenario].special.get("destroyer_aa_bonus")
    if not isinstance(spec, Mapping):
        return None
    side, aa = spec.get("side"), spec.get("aa")
    if side not in ("japan", "usa") or not isinstance(aa, int):
        return None
    return ("japan" if side == "japan" else "usa"), aa


class Hooks:
    """The base game's answers (Midway, the 1991 rules): each hook leaves the rules as the
    base modules play them."""

    # 1. new Turn (and the game's setup)
    def set_up(self, state: State) -> None:
        """A new game's state, after the base game's setup (7a)."""

    def new_turn(self, state: State) -> None:
        """At the start of each Turn, after the base game's own (2b)."""

    def turn_record(self, state: State, out: list[Event], before_repairs: bool) -> None:
        """The Turn Record Phase (6): before 11d repairs, and after them."""

    # 2. take-off refusal
    def take_off_refusal(self, state: State, u: Unit) -> Refusal | None:
        """Why `u` may not take off from where it is now (None: 3a decides)."""
        return None

    def readying_refusal(self, state: State, u: Unit) -> Refusal | None:
        """Why `u` in an Arming box may not be readied now (None: 3b decides)."""
        return None

    def readied(self, state: State, key: UnitKey) -> None:
        """After a unit is readied or armed (3b)."""

    # 3. launch limit
    def launches_all(self, state: State, carrier: Unit) -> bool:
        """Whether `carrier` launches all it holds, with no launch number (3a4)."""
        return False

    # 4. air-movement actions
    def air_actions(self, state: State, side: Side, acts: list[Action]) -> list[Action]:
        """The Air Movement and Search Step's actions, given the base game's (3d)."""
        return acts

    def sorties(self, state: State, side: Side, night: bool) -> list[Action]:
        """Take-offs in the Air Movement Step besides 7c4.4's scout O."""
        return []

    def flight_refusal(self, state: State, units: list[Unit], to: str) -> Refusal | None:
        """Why the air units may not fly into `to` whatever their movement (3d1 decides)."""
        return None

    def take_off(self, state: State, side: Side, uid: str, square: str, out: list[Event]) -> int:
        """The hexes a "sortie" into `square` has already flown (7c4.4's scout O: none)."""
        return 0

    def air_why(self, state: State, side: Side, action: Action) -> Refusal | None:
        """Why an air-movement action of the expansion's own kinds is not legal now."""
        return None

    def search_area(self, state: State, side: Side, area: str, out: list[Event]) -> None:
        """An area search (the base game has none: no such action is legal)."""
        raise AssertionError("no area search in the base game")

    def after_number_report(self, state: State, out: list[Event]) -> None:
        """After a 15a1.2 number is stated: what the search it interrupted still does."""

    def landed(self, state: State, u: Unit, out: list[Event]) -> None:
        """After `u` lands aboard a carrier or base (5)."""

    # 5. unit size and landing room
    def holds_planes(self, state: State, c: Unit) -> bool:
        """Whether air units can be aboard `c`, a ship or base in play (2c4)."""
        return bool(ship_record(c).capacity)

    def room(self, state: State, c: Unit) -> float:
        """5a3: what is left of the capacity."""
        return capacity(c) - load(state, c)

    def takes(self, state: State, u: Unit) -> float:
        """What an air unit uses of a capacity: 12b1's count."""
        return size(state, u)

    def basing_refusal(self, state: State, u: Unit, c: Unit) -> str | None:
        """The rule by which `u` may not come down on `c`, after 5a1, 11c2 and 18a."""
        return None

    def card_entry(self, state: State, c: Unit) -> dict[str, object]:
        """What the Operations Card shows of a carrier or base besides 2c's."""
        return {}

    def base_today(self, state: State, base: Unit) -> dict[str, object]:
        """What the Operations Card shows of a base's day besides 2c's."""
        return {}

    # 6. air range
    def always_unequal_legs(self, state: State) -> bool:
        """Whether 12c1's unequal legs are in force whatever the options."""
        return False

    # 7. battle targets
    def split_waves(
        self, state: State, b: Battle, waves: list[list[str]] | None
    ) -> list[list[str]] | None:
        """13b: the waves of the air strike (None: it attacks as one)."""
        return waves

    def strike_order(self, state: State, b: Battle) -> bool:
        """Whether the attacker chooses the order of the waves before the battle's set-up."""
        return False

    def bombing_category(self, state: State, b: Battle, uid: str) -> str | None:
        """4d1: a bombing category other than the unit's own (None: its own)."""
        return None

    def bomber_target(self, state: State, b: Battle, u: Unit) -> str | None:
        """4a3: the one ship `u` must attack, if any."""
        return None

    def outside_4c(self, state: State, b: Battle, uid: str) -> bool:
        """Whether the attacking air unit is out of 4c AA fire and 14e breakthroughs."""
        return False

    def outside_why(self, state: State, b: Battle, uid: str, what: str) -> Refusal | None:
        """Why `what` may not be at `uid` (None: it may)."""
        return None

    def may_peel(self, state: State, b: Battle) -> bool:
        """Whether excess CAP fighters may peel off onto other attackers."""
        return False

    def breakers(self, state: State, b: Battle, free: list[str]) -> list[str]:
        """14e: the free CAP units that break through."""
        return free

    def base_aa_apart(self, state: State, side: Side, ship: str) -> bool:
        """Whether a base's AA fires apart from 4c's combined fire."""
        return False

    def on_base(self, state: State, b: Battle, uid: str) -> bool:
        """Whether `uid` attacks a base by a strike of its own instead of 4d."""
        return False

    def ship_bombers(self, state: State, b: Battle, units: list[str]) -> list[str]:
        """Of the units bombing a ship, those whose factors count together (4d3)."""
        return []

    def bombing_factor(self, state: State, side: Side, bombers: list[str]) -> int:
        """The combined bombing factor of `ship_bombers`."""
        return 0

    def before_bombing(self, state: State, b: Battle, cover: list[str], out: list[Event]) -> None:
        """Before 4d's bombing combats."""

    def base_strikes(self, state: State, b: Battle, cover: list[str], out: list[Event]) -> None:
        """After 4d's bombing combats, before the battle ends (4e)."""

    def destroyers_fired(self, state: State) -> None:
        """After the destroyers' AA was added to an AA combat (once a Turn)."""

    def destroyers_refused(self, state: State, b: Battle) -> str | None:
        """Why the destroyers' AA may not be added to the AA combat being formed."""
        bonus = destroyer_bonus(state)
        who = bonus[0] if bonus else "japan"
        return f"{DESTROYERS}: only {who} adds destroyer AA, in the expansion's scenarios"

    # 8. staging and repair
    def may_stage(self, state: State, u: Unit) -> bool:
        """12c2: whether `u` may stage at all."""
        return True

    def repairs_aboard(self, state: State) -> bool:
        """11d: whether an air unit aboard a carrier repairs only aboard the same one."""
        return True

    def ships_held(self, state: State, side: Side, marker: str) -> Refusal | None:
        """Why the task force may not move this Turn (None: 3c decides)."""
        return None

    def leave_board(self, state: State, side: Side, marker: str, out: list[Event]) -> bool:
        """2e: a task force leaving the board; True when the hook dealt with it."""
        return False

    # 9. score and victory
    def counts_planes(self, state: State) -> bool:
        """Whether the cards and the tally count planes from more of the state than the
        units (so are made anew each time)."""
        return False

    def tally(
        self, state: State, known: Callable[[Unit], Unit | None], basis: str
    ) -> dict[str, Any] | None:
        """The points so far (None: 7a3's)."""
        return None

    def victory_points(self, state: State) -> dict[str, object] | None:
        """The victory points at the end (None: 7a3's and the scenario's)."""
        return None

    def base_reports(self, state: State) -> bool:
        """Whether the umpire makes reports of hits on bases (18)."""
        return False


BASE_GAME = Hooks()
_FAMILIES: dict[str, Hooks] = {}


def register(board: str, hooks: Hooks) -> None:
    """The game family played on `board` (a scenario's `board`) uses `hooks`."""
    _FAMILIES[board] = hooks


def of(state: State) -> Hooks:
    """The hooks of the game's family: its scenario's board's, or the base game's."""
    return _FAMILIES.get(catalog().scenarios[state.scenario].board, BASE_GAME)


__all__ = ["BASE_GAME", "DESTROYERS", "Hooks", "Refusal", "destroyer_bonus", "of", "register"]
