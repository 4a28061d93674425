"""Fan-out of "game G changed" between server processes (DESIGN.md, Realtime).

- `LocalBroker`: one process, nothing to fan out (SQLite's default).
- `PostgresBroker`: the writer's transaction itself runs `pg_notify` (see
  `GameStore.notify_in_transaction`), so the news leaves exactly when the action commits;
  every process LISTENs on one connection.
- `RedisBroker`: the process publishes after commit on a Redis channel.

A broker only says which game changed; each process reads what its sockets need from the
database. A listener that loses its connection reconnects, and then tells every game it
holds sockets for to re-check, so nothing missed in between stays missed.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import psycopg
import redis.asyncio as aioredis

from app.games.store import PROCESS_ORIGIN
from app.games.writes import NOTIFY_CHANNEL

log = logging.getLogger(__name__)

OnChange = Callable[[str | None], Awaitable[None]]  # a game id, or None for "re-check all"
REDIS_CHANNEL = "midway:games"
RETRY_SECONDS = 1.0


class Broker(Protocol):
    async def start(self, on_change: OnChange) -> None: ...

    async def publish(self, game_id: str, seq: int) -> None: ...

    async def stop(self) -> None: ...


class LocalBroker:
    async def start(self, on_change: OnChange) -> None:
        return None

    async def publish(self, game_id: str, seq: int) -> None:
        return None

    async def stop(self) -> None:
        return None


class _Listener(abc.ABC):
    """A background task that keeps one subscription alive."""

    def __init__(self) -> None:
        self.origin = PROCESS_ORIGIN
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        self.connected = False  # subscribed now (GET /readyz)

    async def start(self, on_change: OnChange) -> None:
        self._task = asyncio.create_task(self._run(on_change))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), timeout=10)

    async def _run(self, on_change: OnChange) -> None:
        first = True
        while True:
            try:
                await self._listen(on_change, resync=not first)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("fan-out listener lost its connection; retrying", exc_info=True)
            self.connected = False
            first = False
            await asyncio.sleep(RETRY_SECONDS)

    @abc.abstractmethod
    async def _listen(self, on_change: OnChange, resync: bool) -> None:
        """Listen for changes until the connection drops (each broker its own way)."""

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task


class PostgresBroker(_Listener):
    def __init__(self, conninfo: str) -> None:
        super().__init__()
        self.conninfo = conninfo

    async def publish(self, game_id: str, seq: int) -> None:
        return None  # sent by the committing transaction itself

    async def _listen(self, on_change: OnChange, resync: bool) -> None:
        async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
            await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            self.connected = True
            self.ready.set()
            if resync:
                await on_change(None)
            async for notice in conn.notifies():
                game_id, _seq, origin = notice.payload.split(":", 2)
                if origin != self.origin:
                    await on_change(game_id)


class RedisBroker(_Listener):
    def __init__(self, url: str) -> None:
        super().__init__()
        self.client: aioredis.Redis = aioredis.Redis.from_url(url)

    async def publish(self, game_id: str, seq: int) -> None:
        try:
            await self.client.publish(REDIS_CHANNEL, f"{game_id}:{seq}:{self.origin}")
        except Exception:  # the action is committed; other processes re-check on heartbeat
            log.warning("could not publish a change of %s to Redis", game_id, exc_info=True)

    async def _listen(self, on_change: OnChange, resync: bool) -> None:
        pubsub = self.client.pubsub()
        try:
            await pubsub.subscribe(REDIS_CHANNEL)
            self.connected = True
            self.ready.set()
            if resync:
                await on_change(None)
            async for message in pubsub.listen():
                if message.get("type") != "message":
                    continue
                game_id, _seq, origin = message["data"].decode().split(":", 2)
                if origin != self.origin:
                    await on_change(game_id)
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def stop(self) -> None:
        await super().stop()
        await self.client.aclose()
