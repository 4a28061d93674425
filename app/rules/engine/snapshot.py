"""A game state as a versioned JSON document, and back (`snapshot`, `restore`).

The document is `{"format": FORMAT, "state": ...}`, the state encoded by the typed codec
(app/rules/engine/codec.py) from `State`'s annotations: JSON types only, so it reads back
without running anything, and `restore(snapshot(s)) == s` for every state, the dice
generator's state included (the game goes on with the same rolls).

`FORMAT` is the version of the mapping from the state's types to JSON (codec.py's
rules): change it when they change. A change of the state's fields needs no new
version: `restore` checks every field by name and every value by type, so a document
of another shape is refused (`SnapshotError`) instead of being read as something else.
"""

from __future__ import annotations

from typing import Any

from app.rules.engine.codec import CodecError, codec
from app.rules.engine.state import State
from app.rules.optional.surface.model import Surface

FORMAT = 1
# The classes State's annotations name but state.py imports only for type checking.
_NAMES: tuple[tuple[str, type], ...] = (("Surface", Surface),)
_STATE = codec(State, _NAMES)


class SnapshotError(ValueError):
    """A document `restore` cannot read: another format version, or not a state."""


def snapshot(state: State) -> dict[str, Any]:
    """The state as JSON types (a new document, sharing nothing with the state)."""
    return {"format": FORMAT, "state": _STATE.encode(state)}


def restore(doc: object) -> State:
    """The state `snapshot` made `doc` from; SnapshotError for anything else."""
    if type(doc) is not dict or doc.keys() != {"format", "state"}:
        raise SnapshotError("a snapshot is an object of its format and its state")
    if doc["format"] != FORMAT:
        raise SnapshotError(f"snapshot format {doc['format']!r}: this engine reads {FORMAT}")
    try:
        state: State = _STATE.decode(doc["state"])
    except CodecError as exc:
        raise SnapshotError(f"not a state of format {FORMAT}: {exc}") from exc
    return state
