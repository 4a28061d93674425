"""Pacific Theatre Via Midway, Bases 2-4 and Base Knockout Numbers: the bases of the theatre
scenarios - what they accept, their AA fire, their damage and knockout.

A base's printed values are data (`catalog().theatre_bases`, from scenarios/theatre-bases.toml);
what a base has suffered today is a `BaseDamage`. Damage is counted in 1991 damage points
(4b4: a hit 1, flipped 3, eliminated 6); the printed knockout numbers in 1964 hits become
damage points at one point per five hits (RULES-NOTES.md, "Pacific Theatre Via Midway").
"""

from __future__ import annotations

from dataclasses import dataclass

from app.data import catalog
from app.data.records import PTVM_TYPES, BaseSpec
from app.rules.engine.dice import Dice, roll_d6
from app.rules.expansions.ptvm.record import BaseDamage as BaseDamage

KNOCKOUT_ROLL = 5  # Bases 3: "a roll of 5 or 6 knocks out the base"
RECOVERY_TIME = "0700"  # Bases 3: "till 0700 of the next day"
AA_DIE_PER = 6  # Bases 4: "one die ... for every six bombers or fraction thereof"

BELOW, HOLDS, KNOCKED_OUT, AUTOMATIC, ALREADY, NO_HITS = (
    "below the knockout number",
    "holds",
    "knocked out",
    "knocked out automatically",
    "already knocked out",
    "no hits",
)


@dataclass(frozen=True, slots=True)
class KnockoutCheck:
    """What an attack's damage did to a base: the result and the die rolled, if one was."""

    result: str
    die: int | None
    damage: int


def base(scenario: str, name: str) -> BaseSpec:
    """A base as the theatre scenario `scenario` lists it (Bases 2)."""
    bases = catalog().theatre_bases
    if bases is None or scenario not in bases.scenarios:
        raise KeyError(f"no theatre scenario {scenario!r} in scenarios/theatre-bases.toml")
    try:
        return bases.scenarios[scenario][name]
    except KeyError:
        raise KeyError(f"no base {name!r} in the {scenario} scenario (Bases 2)") from None


def aa_hits(strength: int, die: int) -> int:
    """Bases 4: the AA table - hits scored by one die at an AA strength of 1-4 (0: no AA)."""
    if not 1 <= die <= 6:
        raise ValueError(f"an AA die reads 1-6, got {die}")
    if strength == 0:
        return 0
    bases = catalog().theatre_bases
    assert bases is not None
    if not 1 <= strength <= len(bases.aa_table[0]):
        raise ValueError(f"Bases 4: AA strength is 1-{len(bases.aa_table[0])}, got {strength}")
    return bases.aa_table[die - 1][strength - 1]


def aa_dice(bombers: int) -> int:
    """Bases 4: "one die ... for every six bombers or fraction thereof" - counted in planes."""
    return -(-bombers // AA_DIE_PER)


def aa_fire(dice: Dice, spec: BaseSpec, bombers: int) -> list[int]:
    """Bases 4: a base's AA fire at `bombers` attacking planes - one die for every six
    bombers or fraction thereof (planes, not air units: two units of three planes left are
    six bombers, one die), each die's hits from the AA table. A base with no AA strength
    rolls nothing."""
    if spec.zone is None:
        raise ValueError(f"Off-Board Bases 4: {spec.name} is off the board and is never attacked")
    if bombers < 0:
        raise ValueError(f"Bases 4: no negative number of bombers, got {bombers}")
    if not spec.aa:
        return []
    return [aa_hits(spec.aa, roll_d6(dice)) for _ in range(aa_dice(bombers))]


def damage_base(
    dice: Dice, spec: BaseSpec, today: BaseDamage, points: int, date: str = ""
) -> KnockoutCheck:
    """Bases 3: one attack on the date `date` adds `points` damage points to the day's
    damage. Once the day's damage reaches the knockout number, each attack that adds hits
    rolls a die (5 or 6: the base is knocked out till 0700 of the next day), unless the base
    is already knocked out; at twice the number it is knocked out without a roll."""
    if spec.zone is None or spec.knockout is None:
        raise ValueError(f"Off-Board Bases 4: {spec.name} is off the board and is never attacked")
    if points < 0:
        raise ValueError(f"an attack adds no negative damage, got {points}")
    _start_day(today, date)
    if points == 0:
        return KnockoutCheck(NO_HITS, None, today.damage)
    today.damage += points
    if today.knocked_out:
        return KnockoutCheck(ALREADY, None, today.damage)
    if today.damage >= 2 * spec.knockout:
        today.knocked_out, today.knocked_on = True, date
        return KnockoutCheck(AUTOMATIC, None, today.damage)
    if today.damage < spec.knockout:
        return KnockoutCheck(BELOW, None, today.damage)
    die = roll_d6(dice)
    today.knocked_out = die >= KNOCKOUT_ROLL
    if today.knocked_out:
        today.knocked_on = date
    return KnockoutCheck(KNOCKED_OUT if today.knocked_out else HOLDS, die, today.damage)


def _start_day(today: BaseDamage, date: str) -> None:
    """Bases 3: "Damage for each day is cumulative" - a new date's count starts at nothing."""
    if date and today.day != date:
        today.damage, today.day = 0, date


def new_day(today: BaseDamage, date: str, time: str) -> None:
    """Bases 3, at the start of the Turn of `date` and `time` on the Time Record Track: on a
    new date the day's damage starts anew; at 0700 a base knocked out on an earlier date is
    operable again ("knocks out the base till 0700 of the next day": a knockout in a day's
    0500 Turn lasts until 0700 of the next day, not of the same day).

    # RULES? "Damage for each day is cumulative" does not say when a day's count starts; it is
    # the track's date (0500 is a day's first Turn, 2400 its last), the day a knockout is
    # counted from. A base knocked out on the day before is still out at 0500 (no roll, as
    # "already knocked out"), and its new day's damage counts from that 0500.
    """
    _start_day(today, date)
    if today.knocked_out and time == RECOVERY_TIME and today.knocked_on != date:
        today.knocked_out, today.knocked_on = False, ""


def _bomber(air_type: str) -> bool:
    return air_type in PTVM_TYPES["B"]


def landing_refused(spec: BaseSpec, today: BaseDamage, air_type: str) -> str | None:
    """Why a base refuses the landing of a 1991 air unit type, or None (Bases 2, 3; Bombers 2)."""
    if today.knocked_out:
        return f"Bases 3: {spec.name} is knocked out till {RECOVERY_TIME}; no plane may land"
    if not spec.accepts(air_type):
        refused = "bombers" if _bomber(air_type) else f"{air_type} planes"
        return f"Bases 2, Bombers 2: {spec.name} may not accept {refused}"
    return None


def take_off_refused(spec: BaseSpec, today: BaseDamage, air_type: str) -> str | None:
    """Why a base refuses the take-off of a 1991 air unit type, or None (Bases 3; Santa Cruz's
    Buka, where bombers may land but not take off)."""
    if today.knocked_out:
        return f"Bases 3: {spec.name} is knocked out till {RECOVERY_TIME}; no plane may take off"
    if _bomber(air_type) and not spec.bombers_take_off:
        return f"{spec.name}: bombers may land but not take off for the rest of the game"
    return None


def has_room(spec: BaseSpec, planes_aboard: int, planes_arriving: int) -> bool:
    """Bases 2: the plane capacity (None: unlimited). Both counts are in the expansion's
    planes, as the capacity is printed."""
    return spec.capacity is None or planes_aboard + planes_arriving <= spec.capacity
