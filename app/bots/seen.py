"""What a computer seat has seen, as one hash: the seed of its randomness.

The view document as the server hands it to the seat, less the server's fields that tell
one game from another (its id and the commitment to its seed: app.games.states.document)
and the seat's version (and whether it may take back), and the log of what the seat was
told. Two seats that were shown the same thing draw the same numbers.

A long list (the Searchboard's sightings, the log) is hashed as its length and its last
TAIL entries: still a function of what the seat was shown, and a decision late in a
long game does not hash the whole game again.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

Json = dict[str, Any]
SERVER_FIELDS = frozenset({"id", "version", "seed_sha256"})
TAIL = 48


def information(view: Json) -> Json:
    """The view without the fields the server adds about the game itself, and without
    whether the seat may take back its last actions (issue 14), which the computer never
    does: what the computer reads."""
    out = {k: v for k, v in view.items() if k not in SERVER_FIELDS}
    prompt = out.get("prompt")
    if isinstance(prompt, dict) and "take_back" in prompt:
        out["prompt"] = {k: v for k, v in prompt.items() if k != "take_back"}
    return out


def _short(value: Any, depth: int = 3) -> Any:
    """`value` with each list longer than TAIL, down to `depth` dictionaries deep (the
    view's searchboards' sightings), as its length and its last TAIL entries."""
    if isinstance(value, dict) and depth > 0:
        return {k: _short(v, depth - 1) for k, v in value.items()}
    if isinstance(value, list) and len(value) > TAIL:
        return [len(value), *value[-TAIL:]]
    return value


def digest(view: Json, log: list[Json]) -> bytes:
    h = hashlib.sha256()
    for part in (information(view), log):
        h.update(json.dumps(_short(part), sort_keys=True, separators=(",", ":")).encode())
    return h.digest()


def seeded(view: Json, log: list[Json]) -> random.Random:
    return random.Random(int.from_bytes(digest(view, log)[:8], "big"))
