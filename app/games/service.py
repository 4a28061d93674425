"""The game service of one server process: the store (the single writer, run in worker
threads, but for an action on SQLite: `_act`), the sockets it holds, and the broker that
tells other processes.

Routes and sockets call this and nothing below it. An action's answer is sent only after
its transaction committed; the patches then go to this process's sockets at once and, by
the broker, to every other process's.

Views, patches and events handed out here are shared with this process's cache and its
other sockets: read them, copy them before changing them (jsonpatch.apply_patch without
in_place copies).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TypeVar

from anyio import to_thread
from sqlalchemy.engine import make_url

from app.games.cache import GameCache
from app.games.computer import ComputerPlayer
from app.games.computer_seats import computer_seats, games_with_computer
from app.games.db import Busy, Database
from app.games.engine import Engine, Json, load_engine
from app.games.errors import BadRequest, NotAuthorised, NotYourMove, SeedNotAllowed
from app.games.expiry import expire_games
from app.games.fanout import Broker, LocalBroker, PostgresBroker, RedisBroker
from app.games.hub import Hub, Subscriber
from app.games.models import utcnow
from app.games.replays import ReplayStep
from app.games.stages import STAGES
from app.games.standing import Order, StandingOrders, can_stand, games_with_orders, quiet
from app.games.store import CatchUp, Committed, Created, GameStore, bench_insert
from app.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")

# SQLite's write lock, waited for on the event loop (GameService._when_free)
FIRST_PAUSE_SECONDS = 0.0005
LAST_PAUSE_SECONDS = 0.016
LOOP_WAIT_SECONDS = 1.0


def make_broker(settings: Settings, db: Database) -> Broker:
    kind = settings.broker
    if kind == "auto":
        kind = "local" if db.sqlite else "postgres"
    if kind == "postgres":
        if db.sqlite:
            raise ValueError("MIDWAY_BROKER=postgres needs a PostgreSQL DATABASE_URL")
        conninfo = make_url(db.url).set(drivername="postgresql")
        return PostgresBroker(conninfo.render_as_string(hide_password=False))
    if kind == "redis":
        return RedisBroker(settings.redis_url)
    return LocalBroker()


@dataclass
class GameService:
    store: GameStore
    broker: Broker
    hub: Hub
    allow_seed: bool = False
    expire_after_days: float = 0.0
    expire_sweep_seconds: float = 3600.0
    computer_seconds: float = 1.0
    computer_pause_seconds: float = 0.0
    _sweeper: asyncio.Task[None] | None = field(default=None, init=False)
    computer: ComputerPlayer = field(init=False)
    standing: StandingOrders = field(init=False)

    def __post_init__(self) -> None:
        self.standing = StandingOrders(self.store.db, on_change=self.hub.redraw)
        self.computer = ComputerPlayer(
            seats_of=self.computer_seats,
            view=self.view,
            log_of=self.log,
            act=self.act,
            think_seconds=self.computer_seconds,
            pause_seconds=self.computer_pause_seconds,
            standing=self.standing,
        )

    @classmethod
    def build(cls, settings: Settings, engine: Engine | None = None) -> GameService:
        db = Database.connect(settings.database_url)
        broker = make_broker(settings, db)
        store = GameStore(
            db=db,
            engine=engine or load_engine(settings.rules_module),
            snapshot_every=settings.snapshot_every,
            max_catchup=settings.max_catchup_patches,
            notify_in_transaction=isinstance(broker, PostgresBroker),
            cache=GameCache(settings.state_cache_size),
        )
        hub = Hub(
            fetch=lambda g, s, v: service.catch_up(g, s, v), per_seat=settings.sockets_per_seat
        )
        service = cls(
            store,
            broker,
            hub,
            allow_seed=settings.allow_seed,
            expire_after_days=settings.expire_after_days,
            expire_sweep_seconds=settings.expire_sweep_seconds,
            computer_seconds=settings.computer_seconds,
            computer_pause_seconds=settings.computer_pause_seconds,
        )
        return service

    async def start(self) -> None:
        await self.broker.start(self._remote_change)
        if self.expire_after_days > 0:
            self._sweeper = asyncio.create_task(self._sweep_now_and_then())
        await self.resume_computer()

    async def resume_computer(self) -> None:
        """Issue 35: at start-up, every unfinished game with a computer seat is looked at,
        so a seat whose move it is moves (the server may have stopped as it thought)."""
        for game_id in await to_thread.run_sync(games_with_computer, self.store.db):
            self.computer.poke(game_id)
        # issue 30: likewise every game where a seat's Done for this Turn stands
        for game_id in await to_thread.run_sync(games_with_orders, self.store.db):
            self.computer.poke(game_id)

    async def computer_seats(self, game_id: str) -> dict[str, str]:
        """The seats of the game the computer plays, and its level (issue 35)."""
        return await to_thread.run_sync(computer_seats, self.store.db, game_id)

    async def stop(self) -> None:
        await self.computer.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await self.broker.stop()
        await self.hub.close()
        self.store.db.dispose()

    async def _remote_change(self, game_id: str | None) -> None:
        for game in [game_id] if game_id else list(self.hub.games):
            self.hub.changed_soon(game)
        if game_id:
            self.standing.forget(game_id)  # another process may have given one
            self.computer.poke(game_id)

    async def expire(self) -> list[str]:
        """Delete the unfinished games idle for too long (app.games.expiry)."""
        after = timedelta(days=self.expire_after_days)
        gone = await to_thread.run_sync(expire_games, self.store.db, utcnow(), after)
        for game_id in gone:
            self.store.forget(game_id)
        if gone:
            log.info("expired %d unfinished idle games", len(gone))
        return gone

    async def _sweep_now_and_then(self) -> None:
        while True:
            try:
                await self.expire()
            except Exception:  # a failed sweep is tried again at the next one
                log.exception("sweeping idle games failed")
            await asyncio.sleep(self.expire_sweep_seconds)

    # -- the contract -------------------------------------------------------------

    def scenarios(self) -> list[Json]:
        return self.store.engine.describe_scenarios()

    async def create(
        self,
        scenario: str,
        options: list[str],
        mode: str,
        seed: int | None,
        teams: bool = False,
        computer: Mapping[str, str] | None = None,
    ) -> Created:
        """A new game; `computer`: the seats the computer plays, with its level (issue
        35), which starts thinking at once where it is to move."""
        if seed is not None and not self.allow_seed:
            raise SeedNotAllowed(
                "a seed is accepted only when the server runs with MIDWAY_ALLOW_SEED=1"
            )
        created = await to_thread.run_sync(
            self.store.create, scenario, options, mode, seed, teams, computer
        )
        self.computer.know(created.id, dict(computer or {}))
        self.standing.none_in(created.id)
        self.computer.poke(created.id)
        return created

    async def seats(self, game_id: str) -> tuple[Json, ...]:
        """The game's seats, as the engine declares them."""
        return await to_thread.run_sync(self.store.seats, game_id)

    async def authenticate(self, game_id: str, token: str | None) -> str:
        if self.store.knows_tokens(game_id):  # no database read: no thread needed
            t = STAGES.clock()
            try:
                return self.store.authenticate(game_id, token)
            except NotAuthorised:  # perhaps a seat's new token (lobby): read them again
                self.store.forget_tokens(game_id)
            finally:
                STAGES.lap("auth", t)
        return await to_thread.run_sync(self.store.authenticate, game_id, token)

    async def view(self, game_id: str, seat: str) -> Json:
        return await to_thread.run_sync(self.store.seat_view, game_id, seat)

    async def why_not(self, game_id: str, seat: str, click: Json) -> tuple[str, str | None] | None:
        """Why a click makes no legal action now: (message, rule), or None."""
        return await to_thread.run_sync(self.store.why_not, game_id, seat, click)

    async def act(self, game_id: str, seat: str, version: int, action: Json) -> int:
        return (await self.act_and_view(game_id, seat, version, action))[0]

    async def act_and_view(
        self, game_id: str, seat: str, version: int, action: Json
    ) -> tuple[int, Json]:
        """`act`, with the seat's view document at the version it gave (no read again)."""
        committed = await self._act(game_id, seat, version, action)
        self.hub.changed_soon(game_id, committed.changes, (committed.seq, committed.events))
        self.computer.poke(game_id)
        await self.broker.publish(game_id, committed.seq)
        doc = committed.doc
        if doc is None or doc.get("version") != committed.version:
            doc = await self.view(game_id, seat)
        return committed.version, doc

    async def _act(self, game_id: str, seat: str, version: int, action: Json) -> Committed:
        """On SQLite, the action on the event loop's own thread, worked out once and
        recorded when the write lock is free (`_when_free`); on PostgreSQL, whose
        statements are round trips to another process that the event loop must not wait
        for, in a worker thread.

        The work is Python under the GIL wherever it runs, and on SQLite the only wait is
        the commit's own write to disk, while a hop to a worker thread and the GIL passed
        back and forth between the two cost more than the whole transaction: in `make
        bench`'s 200-game run, 5.3-5.6 ms of CPU an action with the hop, 4.3 without."""
        store = self.store
        if not store.db.sqlite:
            return await to_thread.run_sync(store.act, game_id, seat, version, action)
        prepared = store.prepare(game_id, seat, version, action)
        try:
            return await self._when_free(
                lambda: store.act(game_id, seat, version, action, at_once=True, prepared=prepared),
                counted="actions_waited",
            )
        except Busy:
            return await to_thread.run_sync(
                lambda: store.act(game_id, seat, version, action, prepared=prepared)
            )

    async def _when_free(self, attempt: Callable[[], T], counted: str = "") -> T:
        """SQLite: `attempt` (a write that raises Busy rather than wait for the write
        lock) on the event loop, tried again after a pause that doubles from 0.5 to 16 ms
        while the lock is held, for up to LOOP_WAIT_SECONDS; Busy when it was never free
        (the caller's worker thread then waits for it with SQLite's busy timeout).
        `counted`: the stage count of attempts that met the lock held (app.games.stages).

        The wait is on the loop, not in a thread: an action handed to a worker thread
        held the process's write lock while it waited for the GIL, so the next actions
        found it held and went to threads too, each worked out twice and paying the
        hops; under `make bench` one such wait tipped the whole server over for good
        (every action in a thread, 4-6 ms of CPU each instead of 2.5, seconds of
        latency)."""
        pause = FIRST_PAUSE_SECONDS
        deadline = time.monotonic() + LOOP_WAIT_SECONDS
        while True:
            try:
                return attempt()
            except Busy:
                if counted and pause == FIRST_PAUSE_SECONDS:
                    STAGES.count(counted)
                if time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(2 * pause, LAST_PAUSE_SECONDS)

    async def take_back(self, game_id: str, seat: str, version: int) -> int:
        """Issue 14: the seat's last action taken back; told like an action (only the
        seats whose views changed get a patch). Issue 30: a standing "Done for this
        Turn" of the seat ends first (else it would say Done again at once); it stands
        again if nothing could be taken back."""
        order = await self.standing.order(game_id, seat)
        if order is not None:
            await self.standing.give(game_id, seat, None)
        try:
            committed = await to_thread.run_sync(self.store.take_back, game_id, seat, version)
        except Exception:
            if order is not None:
                await self.standing.give(game_id, seat, order)
            raise
        self.hub.changed_soon(game_id, committed.changes)
        self.computer.poke(game_id)
        await self.broker.publish(game_id, committed.seq)
        return committed.version

    # -- issue 30: Done for this Turn ------------------------------------------------------

    async def stand(self, game_id: str, seat: str) -> Order:
        """The seat's standing "Done for this Turn" (app.games.standing), given where it
        is to act in a quiet step of a Turn; its first Done is posted at once."""
        doc = await self.view(game_id, seat)
        if not (doc.get("prompt") or {}).get("actions"):
            raise NotYourMove("Done for this Turn is given when you are to act")
        if not can_stand(doc):
            why = quiet(doc) or "not in a Turn"
            raise BadRequest(f"Done for this Turn cannot stand now: {why}")
        order = Order(int(doc["turn"]))
        await self.standing.give(game_id, seat, order)
        self.computer.poke(game_id)
        return order

    async def cancel_standing(self, game_id: str, seat: str) -> None:
        """The seat's standing Done, if any, ends: the player says Done himself again."""
        if await self.standing.order(game_id, seat) is not None:
            await self.standing.give(game_id, seat, None)

    async def standing_order(self, game_id: str, seat: str) -> Order | None:
        """The seat's order of this Turn (its own: no other seat is shown it); one of a
        Turn gone by has ended, whether or not the server has cleared it yet."""
        order = await self.standing.order(game_id, seat)
        if order is None or order.turn != (await self.view(game_id, seat)).get("turn"):
            return None
        return order

    async def with_standing(self, game_id: str, seat: str, view: Json) -> Json:
        """The seat's view for its page, with its order of this Turn under "standing"."""
        order = await self.standing.order(game_id, seat)
        if order is None or order.turn != view.get("turn"):
            return view
        return {**view, "standing": order.to_json()}

    def doc_in_memory(self, game_id: str, seat: str, version: int) -> Json | None:
        """The seat's view document at `version` when this process holds it (as its own
        commits leave it), else None; no database read. Shared: read it only."""
        return self.store.doc_in_memory(game_id, seat, version)

    async def log(self, game_id: str, seat: str) -> list[Json]:
        return await to_thread.run_sync(self.store.log, game_id, seat)

    async def log_through(self, game_id: str, seat: str) -> tuple[int, list[Json]]:
        return await to_thread.run_sync(self.store.log_through, game_id, seat)

    async def summary(self, game_id: str) -> Json:
        return await to_thread.run_sync(self.store.summary, game_id)

    async def replay(self, game_id: str) -> Json:
        return await to_thread.run_sync(self.store.replay, game_id)

    async def replay_at(self, game_id: str, seat: str | None, at: int | None) -> ReplayStep:
        return await to_thread.run_sync(self.store.replay_at, game_id, seat, at)

    async def catch_up(self, game_id: str, seat: str, since: int | None) -> CatchUp:
        return await to_thread.run_sync(self.store.catch_up, game_id, seat, since)

    async def bench_insert(self) -> None:
        """The bench's floor: one committed insert, where an action's would run (on the
        event loop when SQLite's write lock is free, `_when_free`; else in a worker
        thread)."""
        db = self.store.db
        if db.sqlite:
            with contextlib.suppress(Busy):
                return await self._when_free(lambda: bench_insert(db, at_once=True))
        await to_thread.run_sync(bench_insert, db)

    # -- sockets ------------------------------------------------------------------------

    async def follow(self, sub: Subscriber) -> None:
        """Start following a seat: register first, then send what the socket lacks, so
        no change can fall between the two."""
        self.hub.add(sub)
        await self.hub.sync(sub, None, refusals=True)  # the socket's caller unfollows

    def unfollow(self, sub: Subscriber) -> None:
        self.hub.remove(sub)

    async def recheck(self, sub: Subscriber) -> None:
        """Heartbeat: make sure nothing was missed. Only Redis can lose news (a publish
        that failed after the commit); PostgreSQL's NOTIFY leaves with the commit, and a
        listener that reconnects re-checks every socket itself."""
        if isinstance(self.broker, RedisBroker):
            await self.hub.sync(sub, None)
