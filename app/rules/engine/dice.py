"""1f: two ten-sided dice, 0 reads as 10; and the six-sided die of "Pacific Theatre Via
Midway" (Bases 3 and 4).

All chance in a game comes through `roll_d10` (or `roll_d6`), from a splitmix64 generator
whose state is an integer held in the game state. Tests force dice by queueing values in
`state.forced_dice`; a forced value is used before the generator is touched.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

MASK64 = (1 << 64) - 1
_LIMIT = (1 << 64) - ((1 << 64) % 10)  # rejection bound: every face equally likely
_LIMIT6 = (1 << 64) - ((1 << 64) % 6)


class Dice(Protocol):
    rng: int
    forced_dice: list[int]


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The generator's 64-bit state for a game seed of up to 128 bits (and more): a seed
    below 2**64 is the state itself (the seeds tests give keep their dice); a larger
    one is folded through SHA-256, so every bit of it counts."""
    if 0 <= seed <= MASK64:
        return seed
    size = max(1, (seed.bit_length() + 8) // 8)
    digest = hashlib.sha256(seed.to_bytes(size, "big", signed=True)).digest()
    return int.from_bytes(digest[:8], "big")


def _roll(dice: Dice, faces: int, limit: int, rule: str) -> int:
    """One die of `faces` faces, read 1-`faces`: a forced value first, else the generator
    (values at or above `limit` are rejected so that every face is equally likely)."""
    if dice.forced_dice:
        value = dice.forced_dice.pop(0)
        if not 1 <= value <= faces:
            raise ValueError(f"forced die {value} is not 1-{faces} ({rule})")
        return value
    while True:
        dice.rng, out = _splitmix64(dice.rng)
        if out < limit:
            return out % faces + 1


def roll_d10(dice: Dice) -> int:
    """1f: one die, read 1-10 (the 0 face reads 10)."""
    return _roll(dice, 10, _LIMIT, "1f")


def roll_d6(dice: Dice) -> int:
    """Pacific Theatre Via Midway (Bases 3, 4): one six-sided die, read 1-6."""
    return _roll(dice, 6, _LIMIT6, "a six-sided die")
