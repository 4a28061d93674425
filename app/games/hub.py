"""The sockets this process holds, per game, and how each is brought up to date.

A socket follows one seat's view. When "game G changed" arrives (from this process's own
commit, with the patches in hand, or from another process through the broker, without
them), each socket of G gets the patches after the version it has, in order, or a fresh
view when patches would not do. Each socket has a lock: messages to it never interleave.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from app.games.errors import GameError
from app.games.stages import STAGES
from app.games.store import CatchUp
from app.games.writes import SeatChange

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]
Fetch = Callable[[str, str, int | None], Awaitable[CatchUp]]
# Told before the changes of action `seq` are delivered: the seat's events of it, or
# None when the log changed some other way (a take-back, another process's commit).
OnLog = Callable[[int | None, list[dict[str, Any]]], None]
# An action's number in the log and its events by who may read them (app.games.states.told)
Told = tuple[int, dict[str, Any] | None]


@dataclass(eq=False)
class Subscriber:
    """One socket following `seat` of `game_id`; `version` is the last one it was sent."""

    game_id: str
    seat: str
    send: Send
    version: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    on_log: OnLog | None = None  # for a socket that shows the log (the seat page's)

    def renders(self) -> bool:
        """Whether this socket renders what it is sent (the seat page's) before sending
        it; else it only sends it (the API's)."""
        return self.on_log is not None

    async def deliver(self, catch_up: CatchUp) -> None:
        """Send what takes this socket from its version to `catch_up.version`. Caller
        holds `lock`."""
        if catch_up.view is not None:
            await self.send({"type": "view", "version": catch_up.version, "view": catch_up.view})
            self.version = catch_up.version
            return
        for change in catch_up.patches:  # each has a patch (the store sends a view if not)
            if change.patch is not None and change.version == (self.version or 0) + 1:
                await self.send({"type": "patch", "version": change.version, "patch": change.patch})
                self.version = change.version


class TooManySockets(GameError):
    """429: the seat already has as many sockets in this process as it may."""

    status = 429


@dataclass
class Hub:
    fetch: Fetch
    games: dict[str, set[Subscriber]] = field(default_factory=dict)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    # Sockets one seat may have following it here (0: any number). Each action renders
    # every page socket of the game: 300 on one seat held up every action of the server
    # by 0.5 s and more (issue 31).
    per_seat: int = 0

    def add(self, sub: Subscriber) -> None:
        subs = self.games.setdefault(sub.game_id, set())
        if self.per_seat and sum(s.seat == sub.seat for s in subs) >= self.per_seat:
            raise TooManySockets(
                f"too many open sockets on the {sub.seat} seat: at most {self.per_seat}; "
                "close one first"
            )
        subs.add(sub)

    def remove(self, sub: Subscriber) -> None:
        subs = self.games.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.games[sub.game_id]

    def count(self) -> int:
        return sum(len(subs) for subs in self.games.values())

    def changed_soon(
        self,
        game_id: str,
        changes: tuple[SeatChange, ...] | None = None,
        told: Told | None = None,
    ) -> None:
        """Game `game_id` changed: `changes` when this process made them, None when only
        the news came (another process, a heartbeat); `told`, when it was an action
        committed here. Each of its sockets is brought up to date in a task of its own,
        started now; the caller (an HTTP answer) does not wait for them.

        The tasks run in the order they are made: the API's sockets first, which only
        send a patch, then the pages', which render their regions first (a page's render
        is a millisecond or more: made first, it held back the API socket's patch; nor
        does a task that only starts the others stand in between, a turn of the event
        loop's queue each)."""
        subs = self.games.get(game_id)
        if not subs:
            return
        t = STAGES.clock()
        for sub in sorted(subs, key=Subscriber.renders):
            task = asyncio.create_task(self.sync(sub, changes, told=told))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        STAGES.lap("fanout", t)

    def redraw(self, game_id: str, seat: str) -> None:
        """Issue 30: the seat's pages show again what is theirs beside its view (its
        standing Done changed); the view itself did not."""
        for sub in self.games.get(game_id, ()):
            if sub.seat == seat and sub.renders():
                task = asyncio.create_task(self._redraw(sub))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _redraw(self, sub: Subscriber) -> None:
        async with sub.lock:
            try:
                await sub.send({"type": "redraw"})
            except Exception:  # a socket that cannot be written is closed by its reader
                log.warning("could not redraw a page of %s", sub.game_id, exc_info=True)

    async def sync(
        self,
        sub: Subscriber,
        changes: tuple[SeatChange, ...] | None = None,
        *,
        refusals: bool = False,
        told: Told | None = None,
    ) -> None:
        """Bring one socket up to date, from `changes` when they chain, else the database.
        A refusal (a game that cannot be loaded, say) is raised when `refusals`, for the
        socket to answer and close; else only noted, without its cause, which may name
        something secret."""
        async with sub.lock:
            if sub.on_log is not None:
                seq, events = told if told is not None else (None, None)
                sub.on_log(seq if events is not None else None, (events or {}).get(sub.seat, []))
            try:
                await self._sync(sub, changes)
            except GameError as exc:
                if refusals:
                    raise
                log.warning("a socket of %s was refused: %s", sub.game_id, exc.message)
            except Exception:  # a socket that cannot be written is closed by its reader
                log.warning("could not bring a socket of %s up to date", sub.game_id, exc_info=True)

    async def _sync(self, sub: Subscriber, changes: tuple[SeatChange, ...] | None) -> None:
        if changes is None or sub.version is None:
            await sub.deliver(await self.fetch(sub.game_id, sub.seat, sub.version))
            return
        mine = tuple(c for c in changes if c.seat == sub.seat and c.version > sub.version)
        if not mine:
            return  # this seat's view did not change, or the socket already has it
        if mine[0].version == sub.version + 1 and all(c.patch is not None for c in mine):
            await sub.deliver(CatchUp(mine[-1].version, mine))
        else:
            await sub.deliver(await self.fetch(sub.game_id, sub.seat, sub.version))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
