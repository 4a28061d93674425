"""Bounded memos (issue 17): what the engine and the pages make once and share while it is
asked for (a side's Operations Card, the tally of everything, a counter, a Searchboard's
cells), each table holding at most its number of entries, the least recently used dropped
first, so the entries a thousand live games keep using stay while the others go.

A memo keyed by the ids of the objects a value was made from keeps those objects in its
entry, so no id is another object's while the entry is kept.

Without a lock: the server's worker threads share some of these tables with the event
loop. Each step is one operation on a dict; a race at worst makes an entry twice or drops
one early, and the suppressed errors are those of another thread taking the entry first
or changing the dict while the oldest is looked up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """At most `most` values by key, the least recently asked for dropped first."""

    __slots__ = ("_entries", "most")

    def __init__(self, most: int) -> None:
        self.most = most
        self._entries: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        """The value kept for `key`, now the most recently used; None if none is."""
        value = self._entries.pop(key, None)
        if value is not None:
            self._entries[key] = value
        return value

    def put(self, key: K, value: V) -> V:
        """Keep `value` for `key` (the most recently used); returns it."""
        self._entries[key] = value
        if len(self._entries) > self.most:
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):
                del self._entries[next(iter(self._entries))]
        return value

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries
