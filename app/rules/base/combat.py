"""4b: general rules for all combats - modifiers, combat numbers, results."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.engine.dice import roll_d10
from app.rules.engine.state import State

MISS, HIT, FLIPPED, ELIMINATED = "miss", "hit", "flip", "eliminated"


@dataclass(frozen=True, slots=True)
class CombatRoll:
    attacker_roll: int
    attacker_modifier: int
    defender_roll: int
    defender_modifier: int

    @property
    def attacker_number(self) -> int:
        return combat_number(self.attacker_roll, self.attacker_modifier)

    @property
    def defender_number(self) -> int:
        return combat_number(self.defender_roll, self.defender_modifier)

    @property
    def result(self) -> str:
        return combat_result(self.attacker_number, self.defender_number)

    def to_json(self) -> dict[str, object]:
        return {
            "attacker_roll": self.attacker_roll,
            "attacker_modifier": self.attacker_modifier,
            "attacker_number": self.attacker_number,
            "defender_roll": self.defender_roll,
            "defender_modifier": self.defender_modifier,
            "defender_number": self.defender_number,
            "result": self.result,
        }


def combat_number(roll: int, modifier: int) -> int:
    """4b3: die roll plus total modifier; below 1 counts as 1."""
    return max(1, roll + modifier)


def combat_result(attacker: int, defender: int) -> str:
    """4b4: defender equal or more, a miss; more, a hit; two times, flipped; three, eliminated."""
    if defender >= attacker:
        return MISS
    if attacker >= 3 * defender:
        return ELIMINATED
    if attacker >= 2 * defender:
        return FLIPPED
    return HIT


def roll_combat(state: State, attacker_modifier: int, defender_modifier: int) -> CombatRoll:
    """4b3: both players roll; the attacker's die is rolled first."""
    a = roll_d10(state)
    d = roll_d10(state)
    return CombatRoll(a, attacker_modifier, d, defender_modifier)
