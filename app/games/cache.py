"""What a process keeps of recently used games: the state after the log's last action
and the seats' view documents at their current versions.

Everything here can be rebuilt from the database (snapshot + log, then `view()`), so an
entry is only used when its log length and its take-back count (`games.takebacks`: a
take-back shortens the log, which may then grow back to the same length with other
actions) match the database's: a stale entry is simply not found. States are never
mutated (`apply` returns a new one). Worker threads share the cache, hence the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True)
class Loaded:
    """The state after `seq` actions of the log as it was after `epoch` take-backs, and
    the view documents known for it (by seat)."""

    seq: int
    state: Any
    docs: dict[str, Json] = field(default_factory=dict)
    epoch: int = 0

    @property
    def at(self) -> tuple[int, int]:
        """Where in the game's history: later is greater (a take-back adds to `epoch`
        and takes from `seq`, an action adds to `seq`)."""
        return self.epoch, self.seq


class GameCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, Loaded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, seq: int, epoch: int) -> Loaded | None:
        with self._lock:
            item = self._items.get(game_id)
            if item is None or item.at != (epoch, seq):
                return None
            self._items.move_to_end(game_id)
            return item

    def latest(self, game_id: str) -> Loaded | None:
        """The latest state held for the game, whatever its log length (the caller
        checks it against the database)."""
        with self._lock:
            return self._items.get(game_id)

    def discard(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)

    def put(self, game_id: str, loaded: Loaded) -> None:
        """Keep `loaded` unless a later state is already here; at the same point, the
        documents are merged."""
        if self.size == 0:
            return
        with self._lock:
            current = self._items.get(game_id)
            if current is not None and current.at > loaded.at:
                return
            if current is not None and current.at == loaded.at:
                docs = {**current.docs, **loaded.docs}
                loaded = Loaded(loaded.seq, loaded.state, docs, loaded.epoch)
            self._items[game_id] = loaded
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
