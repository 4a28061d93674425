"""What a computer seat has seen, as one hash: the seed of its randomness.

The view document as the server hands it to the seat, less the server's fields that tell
one game from another (its id and the commitment to its seed: app.games.states.document)
and the seat's version (and whether it may take back), and the log of what the seat was
told. Two seats that were shown the same thing draw the same numbers.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

Json = dict[str, Any]
SERVER_FIELDS = frozenset({"id", "version", "seed_sha256"})


def information(view: Json) -> Json:
    """The view without the fields the server adds about the game itself, and without
    whether the seat may take back its last actions (issue 14), which the computer never
    does: what the computer reads."""
    out = {k: v for k, v in view.items() if k not in SERVER_FIELDS}
    prompt = out.get("prompt")
    if isinstance(prompt, dict) and "take_back" in prompt:
        out["prompt"] = {k: v for k, v in prompt.items() if k != "take_back"}
    return out


def digest(view: Json, log: list[Json]) -> bytes:
    h = hashlib.sha256()
    h.update(json.dumps(information(view), sort_keys=True, separators=(",", ":")).encode())
    h.update(json.dumps(log, sort_keys=True, separators=(",", ":")).encode())
    return h.digest()


def seeded(view: Json, log: list[Json]) -> random.Random:
    return random.Random(int.from_bytes(digest(view, log)[:8], "big"))
