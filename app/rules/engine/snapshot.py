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

from collections.abc import Callable
from functools import cache
from typing import Any

from app.rules.engine.codec import Codec, CodecError, codec
from app.rules.engine.state import SLOT_TYPES, State
from app.rules.engine.steps import StepId

FORMAT = 1
# How a document of an earlier shape of the state is read: each reader, registered by the
# package that changed the shape, puts the state's JSON into the current shape in place
# (the expansion's fields moved into its slot: app/rules/expansions/ptvm/record.py).
OLD_FORMS: list[Callable[[dict[str, Any]], None]] = []


def register_old_form(reader: Callable[[dict[str, Any]], None]) -> None:
    OLD_FORMS.append(reader)


def _before_calls(doc: dict[str, Any]) -> None:
    """A snapshot written before the steps' calls were kept in the state (`State.calls`):
    it has none, unless it was written in a procedure (`_procedure`), or a free roll (11a)
    or a number of ships to state (15a1.2) was
    waiting, whose combat or search kept the step to resume (`resume_step`,
    `resume_waiting`) - it becomes their call, the seats done and who acted at once then
    being the caller's (those steps left them as they were)."""
    if "calls" in doc:
        return
    doc["calls"] = []
    _procedure(doc)
    _resumed(doc, doc, "pending")
    boards = doc.get("boards")
    if type(boards) is dict:
        doc["boards"] = boards = {side: board for side, board in boards.items()}
        for side, board in boards.items():
            if type(board) is dict and type(board.get("report")) is dict:
                boards[side] = board = dict(board)
                _resumed(doc, board, "report")


# 16d: the steps of a surface combat, a procedure called by the surface contact (then 4e1's
# reorganisation) or by Scenario Four's setup (7e: then the Turn Record Phase)
_SURFACE_COMBAT = frozenset(
    {
        StepId.SURFACE_SETUP,
        StepId.SURFACE_SIDES,
        StepId.SURPRISE,
        StepId.SURFACE_MOVEMENT,
        StepId.TORPEDO_FIRE,
        StepId.GUNNERY,
        StepId.TORPEDO_COMBAT,
        StepId.BREAKOFF,
    }
)
# 18c1: the scouts' routes and their flight, called by the Air Movement and Search Step
_SCOUTS = frozenset({StepId.SCOUT_ROUTES, StepId.SCOUTING})


def _procedure(doc: dict[str, Any]) -> None:
    """A snapshot written in a procedure that went on to its caller's step by name (a
    surface combat, the umpired scouts' routes) has that step as its call: the caller the
    sequence's `Call` would have kept."""
    step = doc.get("step")
    if step in _SCOUTS:  # its caller waited for nobody yet: the strikes move after (18c1)
        back = {"step": StepId.AIR_MOVEMENT_AND_SEARCH.value, "enter": False}
    elif step in _SURFACE_COMBAT:
        surface = doc.get("surface")
        combat = surface.get("combat") if type(surface) is dict else None
        in_a_hex = type(combat) is dict and bool(combat.get("hex"))  # 7e: none in Scenario Four
        then = StepId.REORGANIZATION if in_a_hex else StepId.TURN_RECORD
        back = {"step": then.value, "enter": True}
    else:
        return
    doc["calls"].append({"waiting": [], "done": [], "simultaneous": False, **back})


def _resumed(doc: dict[str, Any], holder: dict[str, Any], key: str) -> None:
    """`holder[key]`'s step to resume, as a call; copied, not changed in place (the
    caller's document stays as it was)."""
    record = holder.get(key)
    if type(record) is not dict or "resume_step" not in record:
        return
    holder[key] = record = dict(record)
    back = {
        "step": record.pop("resume_step"),
        "waiting": record.pop("resume_waiting", []),
        "done": doc.get("done", []),
        "simultaneous": doc.get("simultaneous", False),
        "enter": False,
    }
    doc["calls"].append(back)
    doc["done"], doc["simultaneous"] = [], False


register_old_form(_before_calls)


@cache
def _state() -> Codec:
    """The State's codec, its slots' classes named as their packages registered them."""
    return codec(State, tuple(SLOT_TYPES.items()))


class SnapshotError(ValueError):
    """A document `restore` cannot read: another format version, or not a state."""


def snapshot(state: State) -> dict[str, Any]:
    """The state as JSON types (a new document, sharing nothing with the state)."""
    return {"format": FORMAT, "state": _state().encode(state)}


def restore(doc: object) -> State:
    """The state `snapshot` made `doc` from; SnapshotError for anything else."""
    if type(doc) is not dict or doc.keys() != {"format", "state"}:
        raise SnapshotError("a snapshot is an object of its format and its state")
    if doc["format"] != FORMAT:
        raise SnapshotError(f"snapshot format {doc['format']!r}: this engine reads {FORMAT}")
    body = doc["state"]
    if type(body) is dict and OLD_FORMS:
        body = dict(body)  # the caller's document stays as it was
        for reader in OLD_FORMS:
            reader(body)
    try:
        state: State = _state().decode(body)
    except CodecError as exc:
        raise SnapshotError(f"not a state of format {FORMAT}: {exc}") from exc
    return state
