"""The game log in words: one line per event this seat may see (GET .../log).

Combat events carry their dice (4b3): each side's roll, total modifier and combat number,
and the result (4b4). They read as the rulebook writes them: "8 vs 7: one hit" (10b1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.web.choices import CATEGORY, Namer
from app.web.console import UmpireLines
from app.web.counters import SIDE_TITLE

OUTCOME = {
    "miss": "no damage",
    "hit": "one hit",
    "flip": "flipped",
    "eliminated": "eliminated",
}
STEP_RULE = {
    "setup": "7a",
    "sides": "3",
    "radio": "17c3",
    "assembly": "3a",
    "ready": "3b",
    "sea movement": "3c",
    "scout routes": "18c1",  # the umpired modes: scouts' routes handed in at once
    "scouting": "18c1",  # ... and flown by the umpire (15a1.1: factors over a task force)
    "air movement and search": "3d",
    "combat": "4",
    "battle setup": "4a2",
    "air attack setup": "4a3",
    "anti-aircraft combat": "4c",
    "bombing combat": "4d",
    "reorganization": "4e1",
    "air return": "5",
    "turn record": "6",
    "surface contact": "16a",
    "surface setup": "16c",
    "surface sides": "16d1",
    "surprise": "16k",
    "surface movement": "16e",
    "torpedo fire": "16f",
    "gunnery": "16g",
    "torpedo combat": "16h",
    "breakoff": "16i",
    "bombardment": "16j",
}

BIG_SHIPS = frozenset({"CV", "CVL"})  # 1b1: the aircraft carriers
# Issue 13: what a side had none of, when a step is passed for it.
NOTHING_TO_DO = {
    "assembly": "no air unit to take off",
    "ready": "no air unit to shift between its Arming and Ready boxes",
    "sea movement": "no task force to move",
    "air movement and search": "no air unit to fly and no hex to search",
    "air return": "no air unit to return",
    "reorganization": "no ship to shift between task forces",
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

    @property
    def summary(self) -> str:
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


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


class Narrator(UmpireLines):
    """Turns events into lines; remembers the battle being fought (who fires AA)."""

    def __init__(self, namer: Namer) -> None:
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

    # -- surface combat (16) -------------------------------------------------------------

    def _setup_line(self, e: dict[str, Any]) -> str:
        side, line = _side(e.get("side")), e.get("line")
        return f"{side} sets up on line {line}, facing {e.get('facing')} (16c1)"

    def _surface_set_up(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        lines = "; ".join(self.units(side, ln) for ln in e.get("battlelines") or [])
        return f"{_side(side)} ships set up on the Battleboard (16c): {lines}"

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
        return f"{_side(e.get('side'))} has {why}: {step.capitalize()} skipped ({e.get('rule')})"

    def _launch(self, e: dict[str, Any]) -> str:
        side = str(e.get("side"))
        unit, ship = self.unit(side, e.get("unit")), self.unit(side, e.get("from"))
        return f"{_side(side)}: {unit} takes off from {ship}"

    def _ready(self, e: dict[str, Any]) -> str:
        return f"{_side(e.get('side'))}: {e.get('unit')} shifted to its Ready box (3b)"

    def _arm(self, e: dict[str, Any]) -> str:
        return f"{_side(e.get('side'))}: {e.get('unit')} shifted to its Arming box (3b)"

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
