"""The game log in words: one line per event this seat may see (GET .../log).

Combat events carry their dice (4b3): each side's roll, total modifier and combat number,
and the result (4b4). They read as the rulebook writes them: "8 vs 7: one hit" (10b1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from app.rules.engine.steps import STEPS, StepId  # app.rules imported: every step is registered
from app.web.choices import CATEGORY
from app.web.console import UmpireLines
from app.web.counters import SIDE_TITLE

OUTCOME = {
    "miss": "no damage",
    "hit": "one hit",
    "flip": "flipped",
    "eliminated": "eliminated",
}
# Each step's rule, as the step declares it (app/rules/engine/steps.py): every registered step.
STEP_RULE: dict[str, str] = {name.value: step.rule for name, step in sorted(STEPS.items())}

FIRST_WAVE = {"bombers": "the land bombers", "dive-torpedo": "the dive and torpedo bombers"}
BIG_SHIPS = frozenset({"CV", "CVL"})  # 1b1: the aircraft carriers
# Issue 13: what a side had none of, when a step is passed for it.
NOTHING_TO_DO: dict[str, str] = {
    StepId.ASSEMBLY: "no air unit to take off",
    StepId.READY: "no air unit to shift between its Arming and Ready boxes",
    StepId.SEA_MOVEMENT: "no task force to move",
    StepId.AIR_MOVEMENT_AND_SEARCH: "no air unit to fly and no hex to search",
    StepId.AIR_RETURN: "no air unit to return",
    StepId.REORGANIZATION: "no ship to shift between task forces",
}


@dataclass(frozen=True)
class Roll:
    """One combat's dice: the firing side first (4b3)."""

    title: str
    attacker: str
    attacker_roll: int
    attacker_modifier: int
    attacker_number: int
    defender: str
    defender_roll: int
    defender_modifier: int
    defender_number: int
    outcome: str
    notes: tuple[str, ...] = ()
    dice: str = ""  # issue 30: dice that are no contest of two numbers (a base raid's), told

    @property
    def summary(self) -> str:
        if self.dice:
            return self.outcome
        return f"{self.attacker_number} vs {self.defender_number}: {self.outcome}"


@dataclass(frozen=True)
class Line:
    n: int
    turn: int
    step: str
    kind: str
    text: str
    roll: Roll | None = None
    big: bool = False  # issue 13: announced on the page (a carrier sunk, Midway, the end)


def _side(side: object) -> str:
    return SIDE_TITLE.get(str(side), str(side))


def _rows(where: object) -> str:
    """Land-Based Planes: where a sighting brings reinforcements in ("rows-5-7", "F5")."""
    text = str(where)
    if text.startswith("rows-"):
        return "rows " + text.removeprefix("rows-").replace("-", " to ")
    return f"area {text}"


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


class Naming(Protocol):
    """What the Narrator asks of app.web.choices.Namer: the names the seat knows."""

    other: dict[str, str]  # each side's enemy
    seats: dict[str, str]  # 17a: a team game's players by their commands

    def force(self, marker: str) -> str: ...

    def kind(self, side: str, uid: str) -> str: ...

    def unit(self, side: str, uid: str) -> str: ...


class Narrator(UmpireLines):
    """Turns events into lines; remembers the battle being fought (who fires AA)."""

    def __init__(self, namer: Naming) -> None:
        self.n = namer
        self.attacker = "usa"

    def unit(self, side: str, uid: object) -> str:
        return self.n.unit(side, str(uid))

    def units(self, side: str, ids: object) -> str:
        return ", ".join(self.unit(side, u) for u in (ids if isinstance(ids, list) else []))

    def line(self, i: int, e: dict[str, Any]) -> Line:
        kind = str(e.get("kind", ""))
        text, roll = self.describe(kind, e)
        turn, step = int(e.get("turn") or 0), str(e.get("step", ""))
        return Line(i, turn, step, kind, text, roll, self.big(kind, e))

    def skip(self, e: dict[str, Any]) -> None:
        """Follow an event not put in words: what the later lines need of it (the
        battle being fought)."""
        if e.get("kind") == "battle":
            self.attacker = str(e.get("attacker", self.attacker))

    def big(self, kind: str, e: dict[str, Any]) -> bool:
        """Issue 13: what both pages announce - the game's end, Midway's base eliminated,
        an aircraft carrier sunk (each to the seats whose log has it)."""
        if kind == "game-over":
            return True
        if kind != "eliminated":
            return False
        unit = str(e.get("unit"))
        return unit == "Midway" or self.n.kind(str(e.get("side")), unit) in BIG_SHIPS

    def describe(self, kind: str, e: dict[str, Any]) -> tuple[str, Roll | None]:
        if kind == "anti-aircraft":
            return self._aa(e)
        if kind == "bombing":
            return self._bombing(e)
        if kind == "dice":
            return self._dice(e)
        if kind == "gunnery":
            return self._gunnery(e)
        if kind == "torpedo":
            return self._torpedo(e)
        if kind in ("aircraft damage", "submarine attack"):
            return self._pending(kind, e)
        if kind == "base-strike":  # issue 30: its dice in the Dice panel too
            return self._base_strike(e), self._base_dice(e)
        method = getattr(self, "_" + kind.replace("-", "_"), None)
        if method is None:
            return self._unknown(kind, e), None
        return str(method(e)), None

    # -- combat -----------------------------------------------------------------------

    def _roll(self, e: dict[str, Any], title: str, firing: str, notes: tuple[str, ...]) -> Roll:
        outcome = str(e.get("outcome") or e.get("result") or "")
        return Roll(
            title=title,
            attacker=_side(firing),
            attacker_roll=int(e.get("attacker_roll") or 0),
            attacker_modifier=int(e.get("attacker_modifier") or 0),
            attacker_number=int(e.get("attacker_number") or 0),
            defender=_side(self.n.other.get(firing, firing)),
            defender_roll=int(e.get("defender_roll") or 0),
            defender_modifier=int(e.get("defender_modifier") or 0),
            defender_number=int(e.get("defender_number") or 0),
            outcome=OUTCOME.get(outcome, outcome),
            notes=notes,
        )

    @property
    def defender(self) -> str:
        return self.n.other.get(self.attacker, self.attacker)

    def _aa(self, e: dict[str, Any]) -> tuple[str, Roll]:
        firing = self.defender
        title = (
            f"Anti-aircraft (4c): {self.units(firing, e.get('ships'))} "
            f"at {self.unit(self.attacker, e.get('target'))}"
        )
        roll = self._roll(e, title, firing, ())
        return f"{title}: {roll.summary}", roll

    def _bombing(self, e: dict[str, Any]) -> tuple[str, Roll]:
        cat = CATEGORY.get(str(e.get("category")), str(e.get("category")))
        title = (
            f"{cat.capitalize()} (4d): {self.units(self.attacker, e.get('units'))} "
            f"on {self.unit(self.defender, e.get('target'))}"
        )
        notes = tuple(str(m) for m in e.get("modifiers") or [])
        roll = self._roll(e, title, self.attacker, notes)
        return f"{title}: {roll.summary}", roll

    def _dice(self, e: dict[str, Any]) -> tuple[str, Roll]:
        combat = str(e.get("combat", "combat"))
        firing = self.defender if combat == "anti-aircraft" else self.attacker
        roll = self._roll(e, f"{combat.capitalize()}: dice rolled", firing, ())
        text = f"{roll.title}: {roll.attacker_number} vs {roll.defender_number} (free roll, 11a)"
        return text, roll

    def _target(self, target: object) -> str:
        """A surface combat's target, "side/ship"."""
        side, _, uid = str(target).partition("/")
        return self.unit(side, uid) if uid else str(target)

    def _gunnery(self, e: dict[str, Any]) -> tuple[str, Roll]:
        firing = str(e.get("attacker"))
        title = (
            f"Gunnery (16g): {_side(firing)} {self.unit(firing, e.get('ship'))} at "
            f"{self._target(e.get('target'))}, range {e.get('range')}"
        )
        roll = self._roll(e, title, firing, tuple(str(m) for m in e.get("modifiers") or []))
        return f"{title}: {roll.summary}", roll

    def _torpedo(self, e: dict[str, Any]) -> tuple[str, Roll]:
        firing = str(e.get("attacker"))
        friendly = " (a friendly ship, 16h3)" if e.get("friendly") else ""
        title = (
            f"Torpedo combat (16h): {_side(firing)} {self.units(firing, e.get('ships'))} on "
            f"{self._target(e.get('target'))}{friendly}"
        )
        roll = self._roll(e, title, firing, tuple(str(m) for m in e.get("modifiers") or []))
        return f"{title}: {roll.summary}", roll

    def _pending(self, kind: str, e: dict[str, Any]) -> tuple[str, Roll]:
        """11b's check of a unit's own planes, 11e's submarine attack: a combat's dice."""
        firing, hit = str(e.get("side")), str(e.get("target_side"))
        target = self.unit(hit, e.get("target"))
        if kind == "aircraft damage":
            title = f"Aircraft damage (11b): {_side(hit)} {target} checked"
        else:
            title = f"Submarine attack (11e): {_side(firing)} submarine on {_side(hit)} {target}"
        roll = self._roll(e, title, firing, ())
        return f"{title}: {roll.summary}", roll

    # -- surface combat (16) -------------------------------------------------------------

    def _setup_line(self, e: dict[str, Any]) -> str:
        side, line = _side(e.get("side")), e.get("line")
        return f"{side} sets up on line {line}, facing {e.get('facing')} (16c1)"

    def _surface_set_up(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        lines = "; ".join(self.units(side, ln) for ln in e.get("battlelines") or [])
        return f"{_side(side)} ships set up on the Battleboard (16c): {lines}"

    def _surface_contact(self, e: dict[str, Any]) -> str:
        choice = "engages" if e.get("engage") else "declines"
        return f"Surface contact in {e.get('hex')}: your side {choice} (16a)"

    def _surface_combat(self, e: dict[str, Any]) -> str:
        ships: dict[str, Any] = e.get("ships") or {}
        sides = "; ".join(f"{_side(s)} {self.units(s, ids)}" for s, ids in ships.items())
        when = "night" if e.get("night") else "day"
        return f"Surface combat in {e.get('hex')} ({when}, 16a): {sides}"

    def _surface_combat_end(self, e: dict[str, Any]) -> str:
        afloat: dict[str, Any] = e.get("afloat") or {}
        broke: dict[str, Any] = e.get("broke_off") or {}
        left = "; ".join(f"{_side(s)} {self.units(s, ids) or 'none'}" for s, ids in afloat.items())
        off = "; ".join(f"{_side(s)} {self.units(s, ids)}" for s, ids in broke.items() if ids)
        return (
            f"The surface combat in {e.get('hex')} ends after Surface Turn "
            f"{e.get('surface_turn')} (16): afloat {left}" + (f"; broke off {off}" if off else "")
        )

    def _breakoff_designated(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        return f"{_side(side)} tries to break off {self.units(side, e.get('group'))} (16i)"

    def _breakoff(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        result = "broken off" if e.get("success") else "still in the combat"
        return (
            f"{_side(side)} break-off (16i2): {self.units(side, e.get('group'))}, "
            f"{e.get('roll')} {_signed(int(e.get('modifier') or 0))} = {e.get('number')} "
            f"against {e.get('opponent_roll')}: {result}"
        )

    def _surface_sides_roll(self, e: dict[str, Any]) -> str:
        n: dict[str, Any] = e.get("numbers") or {}
        return (
            f"Surface Turn {e.get('surface_turn')}, sides roll (16d1): United States "
            f"{n.get('usa')}, Japan {n.get('japan')}"
        )

    def _surface_sides(self, e: dict[str, Any]) -> str:
        return (
            f"Surface Turn {e.get('surface_turn')}: Surface Side A {_side(e.get('A'))}, "
            f"Side B {_side(e.get('B'))} - Side B moves first (16d1)"
        )

    def _surface_advance(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        return f"{_side(side)} {self.unit(side, e.get('ship'))} advances to {e.get('hex')} (16e1)"

    def _surface_turn(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        return (
            f"{_side(side)} {self.unit(side, e.get('ship'))} turns to face {e.get('facing')} (16e2)"
        )

    def _torpedo_marker(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        ship = self.unit(side, e.get("ship"))
        return f"{_side(side)} {ship}: torpedo marker in {e.get('hex')} (16f)"

    def _torpedo_removed(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        return f"{_side(side)} torpedo marker of {self.unit(side, e.get('ship'))} removed (16h)"

    def _surface_turn_end(self, e: dict[str, Any]) -> str:
        return f"Surface Turn {e.get('surface_turn')} ends (16d)"

    # -- everything else ---------------------------------------------------------------

    def _game_started(self, e: dict[str, Any]) -> str:
        return "Both sides have set up: the game begins (2b)"

    def _sides_roll(self, e: dict[str, Any]) -> str:
        usa, japan = e.get("usa"), e.get("japan")
        tie = " - a tie, roll again" if usa == japan else ""
        return f"Sides roll (3): United States {usa}, Japan {japan}{tie}"

    def _sides(self, e: dict[str, Any]) -> str:
        order = (
            "both sides act at once in the Action Phase; Side B moves its air units first (18c1)"
            if e.get("at_once")
            else "Side B goes first (3)"
        )
        return f"Side A: {_side(e.get('A'))}, Side B: {_side(e.get('B'))} - {order}"

    def _step_skipped(self, e: dict[str, Any]) -> str:
        step = str(e.get("step"))
        why = NOTHING_TO_DO.get(step, "nothing to do")
        # the step itself may well be played (the other side's anti-aircraft fire, 4b4):
        # only this side's part of it is passed
        return f"{_side(e.get('side'))} had {why} in the {step} step: passed ({e.get('rule')})"

    def _launch(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        unit, ship = self.unit(side, e.get("unit")), self.unit(side, e.get("from"))
        return f"{_side(side)}: {unit} takes off from {ship}"

    def _ready(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        return f"{_side(side)}: {self.unit(side, e.get('unit'))} shifted to its Ready box (3b)"

    def _arm(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        return f"{_side(side)}: {self.unit(side, e.get('unit'))} shifted to its Arming box (3b)"

    def _move(self, e: dict[str, Any]) -> str:
        return f"{self.n.force(str(e.get('force')))} moves to {e.get('hex')} (3c, secret)"

    def _enter(self, e: dict[str, Any]) -> str:
        return f"{self.n.force(str(e.get('force')))} enters at {e.get('hex')} (3c, secret)"

    def _search(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        found = e.get("found") or []
        enemy = self.n.other.get(side, side)
        if e.get("said"):  # 18d: the umpire's own words
            what = f"the umpire reports “{e['said']}”"
        elif not found:
            what = "nothing there"
        else:
            what = "; ".join(
                f"spotted {self.n.force(str(f.get('force')))}: {self.units(enemy, f.get('ships'))}"
                for f in found
            )
        return f"{_side(side)} {e.get('how', 'search')} of {e.get('hex')}: {what}"

    def _battle(self, e: dict[str, Any]) -> str:
        self.attacker = str(e.get("attacker", self.attacker))
        defender = self.defender
        return (
            f"Battle in {e.get('hex')}: {_side(self.attacker)} "
            f"{self.units(self.attacker, e.get('air'))} against "
            f"{self.units(defender, e.get('ships'))} (4)"
        )

    def _ships_set_up(self, e: dict[str, Any]) -> str:
        return f"Ships set up on the Battleboard, facing {e.get('facing')} (4a2)"

    def _air_set_up(self, e: dict[str, Any]) -> str:
        targets: dict[str, Any] = e.get("targets") or {}
        defender = self.defender
        pairs = ", ".join(f"{a} on {self.unit(defender, t)}" for a, t in targets.items())
        return f"Air units set up (4a3): {pairs}"

    def _eliminated(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        return f"{_side(side)} {self.unit(side, e.get('unit'))} eliminated: {e.get('cause')}"

    def _battle_end(self, e: dict[str, Any]) -> str:
        return f"The battle in {e.get('hex')} ends (4e)"

    def _transfer(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        frm, to = self.n.force(str(e.get("from"))), self.n.force(str(e.get("to")))
        return f"{_side(side)}: {self.unit(side, e.get('ship'))} shifts from {frm} to {to} (4e1)"

    def _land(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        unit, at = self.unit(side, e.get("unit")), self.unit(side, e.get("at"))
        return f"{_side(side)}: {unit} lands on {at} (5a)"

    def _wave(self, e: dict[str, Any]) -> str:
        attacker = self.attacker
        escorts = self.units(attacker, e.get("escorts"))
        with_ = f", escorted by {escorts}" if escorts else ""
        return (
            f"Battle in {e.get('hex')}: the next wave, {self.units(attacker, e.get('air'))}"
            f"{with_} (13b)"
        )

    def _repair(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        hits = int(e.get("hits") or 0)
        return (
            f"{_side(side)}: {self.unit(side, e.get('unit'))} repaired, {hits} "
            f"hit{'s' if hits != 1 else ''} left, {e.get('face')} face up (11d)"
        )

    def _stage(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        unit, at = self.unit(side, e.get("unit")), self.unit(side, e.get("at"))
        return f"{_side(side)}: {unit} stages to {at} (12c2)"

    # -- Pacific Theatre Via Midway ------------------------------------------------------

    def _exited(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        unit = self.unit(side, e.get("unit"))
        if e.get("step") == StepId.AIR_RETURN:  # Truk: flown from once and never again
            return (
                f"{_side(side)}: {unit} lands where it may not fly from again: "
                "out of play (Off-Board Bases 3)"
            )
        return f"{_side(side)}: {unit} leaves the map and may not return (Off-Board Bases 5)"

    def _reinforcements(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        units = self.units(side, e.get("units")) or "none in play with these rules"
        return (
            f"{_side(side)} reinforcements at {self.unit(side, e.get('base'))}, enemy ships "
            f"sighted in {_rows(e.get('sighted'))} (Land-Based Planes): {units}"
        )

    def _replacement(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        planes = int(e.get("planes") or 0)
        return (
            f"{_side(side)} replacement (Replacements): one {e.get('type')} plane to "
            f"{self.unit(side, e.get('unit'))} in the Arming box at "
            f"{self.unit(side, e.get('to'))}, now {planes} plane{'s' if planes != 1 else ''}"
        )

    def _strike_order(self, e: dict[str, Any]) -> str:
        first = FIRST_WAVE.get(str(e.get("first")), str(e.get("first")))
        return f"Battle in {e.get('hex')}: {first} attack first (Bombers 6)"

    def _planes(self, side: str, losses: object) -> str:
        """Planes lost or hit, by unit: "Lae Zero 1 (2 planes)"."""
        if not isinstance(losses, dict) or not any(losses.values()):
            return "none"
        return ", ".join(
            f"{self.unit(side, u)} {n} plane{'s' if n != 1 else ''}" for u, n in losses.items() if n
        )

    def _bomber_losses(self, e: dict[str, Any]) -> str:
        attacker = self.attacker
        return (
            f"Bombers 3: {self.units(attacker, e.get('units'))} ({e.get('bombers')} bombers) on "
            f"{self.unit(self.defender, e.get('target'))}: {e.get('attack')} attack factors "
            f"against defense {e.get('defense')} (screening {e.get('screening')}), odds "
            f"{e.get('odds')}: bombers lost {self._planes(attacker, e.get('losses'))}"
        )

    def _base_strike(self, e: dict[str, Any]) -> str:
        attacker, defender = self.attacker, self.defender
        group = "land bombers" if e.get("group") == "B" else "dive and torpedo bombers"
        parts = [
            f"Attack on {self.unit(defender, e.get('base'))} ({e.get('rule')}): {group} "
            f"{self.units(attacker, e.get('units'))}"
        ]
        cover: dict[str, Any] = e.get("fighter_cover") or {}
        if cover:
            fire = cover.get("bombers_fire") or {}
            parts.append(
                f"fighter cover: the bombers fire at {self.unit(defender, fire.get('target'))}, "
                f"{OUTCOME.get(str(fire.get('result')), fire.get('result'))}"
            )
            back = cover.get("fighters_fire")
            if back:
                lost = self._planes(attacker, back.get("losses"))
                parts.append(f"the fighters fire back: bombers lost {lost}")
        parts.append(f"the base's AA (Bases 4): hit {self._planes(attacker, e.get('aa'))}")
        hits = int(e.get("hits") or 0)
        parts.append(
            f"{e.get('bombers')} bombers over the base: {hits} hit{'s' if hits != 1 else ''}, "
            f"planes on the ground hit {self._planes(defender, e.get('on_the_ground'))}"
        )
        ko: dict[str, Any] = e.get("knockout") or {}
        die = f", die {ko['die']}" if ko.get("die") else ""
        parts.append(
            f"{ko.get('hits')} of {e.get('knockout_number')} hits today: "
            f"{ko.get('result')}{die} (Bases 3)"
        )
        return "; ".join(parts)

    def _base_dice(self, e: dict[str, Any]) -> Roll:
        """Bases 3-4: a base raid's dice - the base's AA dice (each die's hits, as the AA
        table gives them), the knockout die - and what they did, for the Dice panel."""
        attacker, defender = self.attacker, self.defender
        rolled = [str(d) for d in e.get("aa_dice") or []]
        ko: dict[str, Any] = e.get("knockout") or {}
        dice = f"{_side(defender)}'s AA fire (Bases 4): " + (
            f"{len(rolled)} di{'c' if len(rolled) != 1 else ''}e, hits {', '.join(rolled)}"
            if rolled
            else "no dice"
        )
        if ko.get("die"):
            dice += f"; knockout die (Bases 3): {ko['die']}"
        hits = int(e.get("hits") or 0)
        outcome = (
            f"bombers lost {self._planes(attacker, e.get('aa'))}; "
            f"{hits} hit{'s' if hits != 1 else ''} on the base: {ko.get('result')}"
        )
        return Roll(
            title=f"Attack on {self.unit(defender, e.get('base'))} ({e.get('rule')})",
            attacker=_side(attacker),
            attacker_roll=0,
            attacker_modifier=0,
            attacker_number=0,
            defender=_side(defender),
            defender_roll=0,
            defender_modifier=0,
            defender_number=0,
            outcome=outcome,
            dice=dice,
        )

    # -- rolls the log shows ------------------------------------------------------------

    def _submarine_roll(self, e: dict[str, Any]) -> str:
        who = e.get("attacker")
        result = f"{_side(who)} has a submarine attack" if who else "no submarine attack"
        return (
            f"Submarine roll (11e): United States {e.get('usa')}, Japan {e.get('japan')}: {result}"
        )

    def _search_roll(self, e: dict[str, Any]) -> str:
        return (
            f"{_side(e.get('side'))} search roll in {e.get('hex')}: {e.get('searcher_roll')} "
            f"{_signed(int(e.get('modifier') or 0))} = {e.get('searcher_number')} against "
            f"{e.get('opponent_roll')}"
        )

    def _wave_roll(self, e: dict[str, Any]) -> str:
        rolls: dict[str, Any] = e.get("rolls") or {}
        told = ", ".join(f"{g} {r}" for g, r in rolls.items())
        return f"Battle in {e.get('hex')}: the waves' order rolled (13b): {told}"

    def seat(self, seat: object) -> str:
        """17a: a player by his command ("Task Force 16"), else by his side."""
        return self.n.seats.get(str(seat)) or _side(seat)

    def _radio(self, e: dict[str, Any]) -> str:
        return (
            f"{_side(e.get('side'))}: {self.seat(e.get('from'))} radios "
            f"{self.seat(e.get('to'))} (17c3): {e.get('roll')} against {e.get('against')}, "
            f"to be delivered at the start of Turn {e.get('delivery')}"
        )

    def _radio_delivered(self, e: dict[str, Any]) -> str:
        return (
            f"Radio from {self.seat(e.get('from'))}, written Turn {e.get('written')} "
            f"(17c3): “{e.get('text')}”"
        )

    def _flagship_revealed(self, e: dict[str, Any]) -> str:
        return (
            f"{_side(e.get('side'))} radio traffic: {self.seat(e.get('by'))}'s flagship is "
            f"in {e.get('hex')} (17c4)"
        )

    def _turn(self, e: dict[str, Any]) -> str:
        return f"Turn {e.get('turn')} begins (6)"

    def _game_over(self, e: dict[str, Any]) -> str:
        points: dict[str, Any] = e.get("points") or {}
        score = ", ".join(f"{_side(s)} {p}" for s, p in points.items())
        return f"The game is over (7a3): {score}; result: {_side(e.get('winner'))}"

    def _unknown(self, kind: str, e: dict[str, Any]) -> str:
        skip = {"kind", "audience", "turn", "step"}
        detail = ", ".join(f"{k} {v}" for k, v in e.items() if k not in skip)
        return f"{kind.replace('-', ' ').capitalize()}: {detail}" if detail else kind
