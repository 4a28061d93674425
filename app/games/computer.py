"""The computer's seats, played by the server (issue 35; DESIGN.md, Bots).

After every action this process commits to a game (and on news of one from another
process, and at start-up for every unfinished game that has one), each computer seat of
the game that has something to do is handed its view document and its log, read as a
person's are (GameService.view, GameService.log), and its choice (app.bots.choose) goes
through GameService.act with the version it saw, as a player's click does: a stale
version (someone moved meanwhile) is looked at again, never forced.

The thinking runs in a process of its own (one, started when the first decision is
asked, decisions one at a time), never on the event loop nor in a thread of the server's
process: the bot's search is pure Python, and in a thread it would hold the interpreter's
lock that the event loop needs, so that every other game's action and patch waited on it.
It is a fixed amount of work (the level); `computer_seconds` is only a guard: past it, the
seat says Done when it may, else takes its first offered action.

The same machinery carries out a person's standing "Done for this Turn" (issue 30,
app.games.standing): after each action it looks at the seats with an order, and posts
the Done of each that is to act in a quiet step of the order's Turn, through the same
GameService.act; where the seat has a decision to make, the order stops, saying why;
once the Turn is over, it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from app.bots import choose
from app.games.engine import Json
from app.games.errors import GameError, NotYourMove, StaleVersion
from app.games.standing import DONE, Order, StandingOrders, quiet

log = logging.getLogger(__name__)
MAX_GAMES_KEPT = 10_000


@dataclass
class ComputerPlayer:
    """Plays the computer's seats of the games this process hears of."""

    seats_of: Callable[[str], Awaitable[dict[str, str]]]  # game -> {seat: level}
    view: Callable[[str, str], Awaitable[Json]]
    log_of: Callable[[str, str], Awaitable[list[Json]]]
    act: Callable[[str, str, int, Json], Awaitable[Any]]
    think_seconds: float = 1.0
    pause_seconds: float = 0.0
    standing: StandingOrders | None = None  # issue 30: the seats' standing Done
    _known: dict[str, dict[str, str]] = field(default_factory=dict)
    _running: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    _again: set[str] = field(default_factory=set)
    _pool: ProcessPoolExecutor | None = None

    def know(self, game_id: str, seats: dict[str, str]) -> None:
        """The game's computer seats, as created (they never change)."""
        if len(self._known) > MAX_GAMES_KEPT:
            self._known.clear()
        self._known[game_id] = dict(seats)

    def poke(self, game_id: str) -> None:
        """Something happened in the game: its computer seats look whether to move."""
        if self._known.get(game_id) == {} and not (
            self.standing and self.standing.may_have(game_id)
        ):
            return  # no computer and no standing order in this game: nothing to do, no task
        if game_id in self._running:
            self._again.add(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._play(game_id))
        self._running[game_id] = task
        task.add_done_callback(lambda _t: self._running.pop(game_id, None))

    async def stop(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        for task in list(self._running.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def idle(self) -> None:
        """Wait until no computer seat is thinking or moving (tests, the bench)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def _play(self, game_id: str) -> None:
        try:
            seats = self._known.get(game_id)
            if seats is None:
                seats = await self.seats_of(game_id)
                self.know(game_id, seats)
            while True:
                self._again.discard(game_id)
                orders = await self.standing.of(game_id) if self.standing else {}
                if not seats and not orders:
                    return
                moved = await self._round(game_id, seats) if seats else False
                moved = await self._orders(game_id, orders) or moved
                if not moved and game_id not in self._again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # one game's trouble never stops the others
            log.exception("the computer could not play game %s", game_id)

    async def _round(self, game_id: str, seats: dict[str, str]) -> bool:
        """Each computer seat with something to do makes one move; whether any did."""
        moved = False
        for seat, level in sorted(seats.items()):
            doc = await self.view(game_id, seat)
            if doc.get("status") == "finished":
                return False
            if not (doc.get("prompt") or {}).get("actions"):
                continue
            told = await self.log_of(game_id, seat)
            action = await self._think(doc, told, level)
            if self.pause_seconds:
                await asyncio.sleep(self.pause_seconds)
            try:
                await self.act(game_id, seat, int(doc["version"]), action)
            except (StaleVersion, NotYourMove):
                pass  # someone moved meanwhile: look again
            except GameError as exc:
                log.warning("the computer's move in game %s was refused: %s", game_id, exc)
                return False
            moved = True
        return moved

    async def _orders(self, game_id: str, orders: dict[str, Order]) -> bool:
        """Issue 30: each seat with a standing order that is to act in a quiet step of
        the order's Turn says Done; the order stops at a decision, ends with the Turn.
        Whether any seat moved."""
        assert self.standing is not None
        moved = False
        for seat, order in sorted(orders.items()):
            doc = await self.view(game_id, seat)
            if doc.get("status") == "finished" or doc.get("turn") != order.turn:
                await self.standing.give(game_id, seat, None, was=order)  # the Turn is over
                continue
            if not order.stands or not (doc.get("prompt") or {}).get("actions"):
                continue
            why = quiet(doc)
            if why is not None:
                await self.standing.give(game_id, seat, Order(order.turn, why), was=order)
                continue
            try:
                await self.act(game_id, seat, int(doc["version"]), dict(DONE))
            except (StaleVersion, NotYourMove):
                pass  # someone moved meanwhile: look again
            except GameError as exc:
                await self.standing.give(game_id, seat, Order(order.turn, exc.message), was=order)
                continue
            moved = True
        return moved

    async def _think(self, doc: Json, told: list[Json], level: str) -> Json:
        """The bot's choice, in the thinking process; past the guard, Done or the first
        action."""
        loop = asyncio.get_running_loop()
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of this threaded one; it is started
            # and has imported the bots before the first decision's guard starts to run
            self._pool = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"))
            await loop.run_in_executor(self._pool, _ready)
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self._pool, choose, doc, told, level),
                timeout=self.think_seconds,
            )
        except TimeoutError:
            actions: list[Json] = doc["prompt"]["actions"]
            return next((a for a in actions if a.get("kind") == "done"), actions[0])


def _ready() -> bool:
    """Run first in the thinking process: it is up, with app.bots imported."""
    return choose is not None
