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


@dataclass(frozen=True)
class SeatLog:
    """The events one seat may read, of the first `seq` actions of the log as it was
    after `takebacks` take-backs (never changed: a longer log is a new SeatLog)."""

    takebacks: int
    seq: int
    events: tuple[Json, ...]


class SeatLogs:
    """Issue 34: the seats' logs lately read, so that a seat's next read decodes only the
    actions recorded since (a seat's page reads its whole log on every GET). At most
    `most_events` events are kept in all, the least recently read logs dropped first.
    An entry is used only while its take-back count is the database's."""

    def __init__(self, most_events: int) -> None:
        self.most_events = most_events
        self._items: OrderedDict[tuple[str, str], SeatLog] = OrderedDict()
        self._events = 0
        self._lock = threading.Lock()

    def get(self, game_id: str, seat: str) -> SeatLog | None:
        with self._lock:
            return self._items.get((game_id, seat))

    def put(self, game_id: str, seat: str, log: SeatLog) -> None:
        """Keep `log` unless one of more actions at the same take-back count is here."""
        key = (game_id, seat)
        with self._lock:
            current = self._items.pop(key, None)
            if current is not None:
                self._events -= len(current.events)
                if current.takebacks == log.takebacks and current.seq > log.seq:
                    log = current
            if len(log.events) > self.most_events:
                return
            self._items[key] = log
            self._events += len(log.events)
            while self._events > self.most_events:
                _key, dropped = self._items.popitem(last=False)
                self._events -= len(dropped.events)

    def discard(self, game_id: str) -> None:
        with self._lock:
            for key in [k for k in self._items if k[0] == game_id]:
                self._events -= len(self._items.pop(key).events)
