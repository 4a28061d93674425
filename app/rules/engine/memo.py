"""What is worked out once per state, kept while the state lives (issue 17).

The engine never changes a state it has answered for: `apply` works on a copy. So what a
state's questions were answered with - a seat's offered actions, what a seat is shown of it
- holds as long as the state does, and a caller that asks twice (the server's views, then
the next action's apply; take-back's check of an action, then of the next one from the
state it made) is answered once. A server keeps each game's latest state: however many
games it holds, the memo holds theirs and no more, and a state freed takes its entry with
it.

Without a lock: the server's threads share the table, and each step here is one operation
on a dict; an entry a reused id has since been given is left alone.
"""

from __future__ import annotations

import weakref
from functools import partial
from typing import TYPE_CHECKING

from app.rules.engine.state import State

if TYPE_CHECKING:
    from app.rules.engine.actions import Action


class Memo:
    """One state's answers, by seat, as far as they have been worked out."""

    __slots__ = ("offered", "shown", "views")

    def __init__(self) -> None:
        self.offered: dict[str, tuple[Action, ...]] = {}  # its legal actions (play.py)
        # what it shows the seat, less the seat's own take-back flag (modes/takeback.py)
        self.shown: dict[str, dict[str, object]] = {}
        # the parts of its views built so far, shared by every seat's (modes/sight.py:
        # `Sources.of`): take-back's look at the others' views, then the server's views
        self.views: object = None


def of(state: State) -> Memo:
    """The state's memo (a new one the first time it is asked for)."""
    key = id(state)
    entry = _MEMO.get(key)
    if entry is None or entry[0]() is not state:
        entry = (weakref.ref(state, partial(_forget, key)), Memo())
        _MEMO[key] = entry
    return entry[1]


def _forget(key: int, gone: weakref.ref[State]) -> None:
    """A state's memo goes with it."""
    entry = _MEMO.get(key)
    if entry is not None and entry[0] is gone:
        _MEMO.pop(key, None)


def held() -> int:
    """How many states have a memo now."""
    return len(_MEMO)


# The memos of the states asked about, by id, each with a reference that tells a reused id
# from its first owner and takes the entry away when the state is freed.
_MEMO: dict[int, tuple[weakref.ref[State], Memo]] = {}
