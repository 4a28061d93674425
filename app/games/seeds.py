"""Dice seeds and their commitment (DESIGN.md: the seed's hash is shown from the start,
the seed revealed at the end).

A game's seed is 128 random bits. Before the first action each seat is shown a SHA-256
commitment that covers the seed and a 128-bit random salt; when the game is over its
record reveals both, and anyone can check

    sha256(f"{seed}:{salt}".encode()).hexdigest() == seed_sha256

(seed in decimal, salt in lower-case hex). The salt keeps the commitment from being
checked against guessed seeds while the game runs. Games created before salts existed
have an empty salt and committed to `sha256(str(seed))`.
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 128
SALT_BYTES = 16
MAX_SEED = 2**SEED_BITS  # seeds given for tests (MIDWAY_ALLOW_SEED=1) are below it
COMMITMENT = 'sha256(f"{seed}:{seed_salt}")'  # how the record says it was computed


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 shown from the start: over the seed and its salt."""
    text = f"{seed}:{salt}" if salt else str(seed)
    return hashlib.sha256(text.encode()).hexdigest()
