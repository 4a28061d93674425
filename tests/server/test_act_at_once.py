"""Issue 17: on SQLite an action's transaction runs on the event loop's own thread, when
the write lock is free (app.games.service.GameService._act, _when_free;
app.games.db.Database.begin_at_once). The loop never blocks on a lock (another thread's,
or another process's on the same file: not SQLite's 30 s busy timeout): while the lock
is held it tries again after a pause, answering everything else meanwhile, and only
after LOOP_WAIT_SECONDS hands the action to a worker thread to wait there. An action
that had to wait is worked out once and applied once."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Awaitable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.cli import migrate
from app.games import service as service_module
from app.games import store as store_module
from app.games.db import BUSY_TIMEOUT_MS, Busy, Database
from app.games.models import GAMES_T
from app.games.service import GameService
from app.games.stages import STAGES
from app.settings import Settings

NO_WAIT_S = 1.0  # far below the busy timeout: Busy came without waiting for the lock


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'at-once.db'}"
    migrate(Settings(DATABASE_URL=url))
    return url


def holding(db: Database) -> tuple[threading.Thread, threading.Event]:
    """Another thread of this process in a write transaction until the event is set."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with db.begin():
            held.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    assert held.wait(5)
    return thread, release


async def across_a_hold(db: Database, seconds: float, *works: Awaitable[Any]) -> list[Any]:
    """`works`, started while another thread holds the write lock for `seconds`: none is
    done by then, and the event loop went on meanwhile (its own pause took no longer
    than asked, give or take NO_WAIT_S); their results once the lock is released."""
    thread, release = holding(db)
    try:
        tasks = [asyncio.ensure_future(work) for work in works]
        started = time.monotonic()
        await asyncio.sleep(seconds)
        assert time.monotonic() - started < seconds + NO_WAIT_S  # the loop was not held up
        assert not any(task.done() for task in tasks)
        release.set()
        return await asyncio.wait_for(asyncio.gather(*tasks), 10)
    finally:
        release.set()
        thread.join()


def test_17_begin_at_once_does_not_wait_for_another_thread(url: str) -> None:
    db = Database.connect(url)
    thread, release = holding(db)
    try:
        start = time.monotonic()
        with pytest.raises(Busy), db.begin_at_once():
            pass
        assert time.monotonic() - start < NO_WAIT_S
    finally:
        release.set()
        thread.join()
    with db.begin_at_once() as conn:
        assert conn.exec_driver_sql("SELECT 1").scalar() == 1


def test_17_begin_at_once_does_not_wait_for_another_process(url: str) -> None:
    """Two engines on one file stand for two processes: while the other holds SQLite's
    write lock, Busy at once; afterwards the connection waits for a lock as before."""
    ours, theirs = Database.connect(url), Database.connect(url)
    with theirs.begin():
        start = time.monotonic()
        with pytest.raises(Busy), ours.begin_at_once():
            pass
        assert time.monotonic() - start < NO_WAIT_S
    assert not ours._write_lock.locked()
    with ours.begin_at_once() as conn:
        timeout = conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
        assert timeout == BUSY_TIMEOUT_MS  # restored: a later write waits as it should


def test_17_begin_at_once_is_never_postgresql() -> None:
    db = Database.connect("postgresql://nobody@127.0.0.1:1/none")  # no connection made
    with pytest.raises(Busy), db.begin_at_once():
        pass


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[str, bool]], list[str]]:
    """Each transaction GameStore.act tries: (its thread's name, at_once); and each action
    worked out ahead of the lock (GameStore.prepare), by its thread's name."""
    threads: list[tuple[str, bool]] = []
    prepared: list[str] = []
    act, prepare = store_module.GameStore.act, store_module.GameStore.prepare

    def act_spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        threads.append((threading.current_thread().name, bool(kwargs.get("at_once"))))
        return act(self, *args, **kwargs)

    def prepare_spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        prepared.append(threading.current_thread().name)
        return prepare(self, *args, **kwargs)

    monkeypatch.setattr(store_module.GameStore, "act", act_spy)
    monkeypatch.setattr(store_module.GameStore, "prepare", prepare_spy)
    return threads, prepared


def one_action(service: GameService, game: str, rng: random.Random) -> Coroutine[Any, Any, int]:
    async def act() -> int:
        seats = [s["seat"] for s in await service.seats(game)]
        docs = {seat: await service.view(game, seat) for seat in seats}
        seat = rng.choice([x for x in seats if docs[x]["prompt"]["actions"]])
        action = rng.choice(docs[seat]["prompt"]["actions"])
        return await service.act(game, seat, docs[seat]["version"], action)

    return act()


def actions_of(service: GameService, game: str) -> int:
    with service.store.db.read() as session:
        found = session.execute(select(GAMES_T.c.actions).where(GAMES_T.c.id == game))
        return int(found.scalar_one())


def test_17_an_action_waits_for_the_lock_on_the_loop_and_is_worked_out_once(
    url: str, spied: tuple[list[tuple[str, bool]], list[str]]
) -> None:
    """Actions posted through the service: with the lock free, each runs on the event
    loop's thread at the first try. With another thread holding the lock, the action is
    tried again on the loop until it is released, the loop answering meanwhile, and is
    worked out once; the next action runs at once again (one wait does not send the
    actions after it to worker threads)."""
    threads, prepared = spied
    service = GameService.build(Settings(DATABASE_URL=url, allow_seed=True))

    async def main() -> None:
        loop_thread = threading.current_thread().name
        game = (await service.create("one", [], "two-player", 11)).id
        rng = random.Random(11)
        for _ in range(5):
            await one_action(service, game, rng)
        assert threads == [(loop_thread, True)] * 5
        threads.clear()
        prepared.clear()

        await across_a_hold(service.store.db, 0.3, one_action(service, game, rng))
        assert len(threads) > 2 and set(threads) == {(loop_thread, True)}
        assert prepared == [loop_thread]  # worked out once, however many tries
        threads.clear()
        await one_action(service, game, rng)
        assert threads == [(loop_thread, True)]
        assert actions_of(service, game) == 7  # each applied once: none lost, none twice

    asyncio.run(main())
    service.store.db.dispose()


def test_17_an_action_held_up_past_the_loops_wait_waits_in_a_worker_thread(
    url: str,
    spied: tuple[list[tuple[str, bool]], list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lock held longer than LOOP_WAIT_SECONDS (another process's long transaction,
    say): the action stops trying on the loop and waits in a worker thread with SQLite's
    busy timeout, with the plan it was given; it lands once the lock is released."""
    threads, prepared = spied
    monkeypatch.setattr(service_module, "LOOP_WAIT_SECONDS", 0.1)
    service = GameService.build(Settings(DATABASE_URL=url, allow_seed=True))

    async def main() -> None:
        loop_thread = threading.current_thread().name
        game = (await service.create("one", [], "two-player", 12)).id
        rng = random.Random(12)
        await across_a_hold(service.store.db, 0.4, one_action(service, game, rng))
        assert threads[:-1] and set(threads[:-1]) == {(loop_thread, True)}
        assert threads[-1][0] != loop_thread and threads[-1][1] is False
        assert prepared == [loop_thread]
        assert actions_of(service, game) == 1

    asyncio.run(main())
    service.store.db.dispose()


def test_17_the_bench_floor_commits_where_an_action_would(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make bench`'s floor (one committed insert) runs as an action's transaction does: on
    the event loop, waiting there while the lock is held, in a worker thread only after
    LOOP_WAIT_SECONDS. An action that waits is counted once (`actions_waited`, printed by
    the bench), however many tries it takes; the floor is not an action."""
    monkeypatch.setattr(service_module, "LOOP_WAIT_SECONDS", 0.5)
    service = GameService.build(Settings(DATABASE_URL=url, allow_seed=True))
    threads: list[str] = []
    insert = store_module.bench_insert

    def spy(*args: Any, **kwargs: Any) -> None:
        insert(*args, **kwargs)  # Busy: not made here
        threads.append(threading.current_thread().name)

    monkeypatch.setattr(service_module, "bench_insert", spy)
    STAGES.enabled = True
    try:

        async def main() -> None:
            loop_thread = threading.current_thread().name
            await service.bench_insert()
            assert threads == [loop_thread]
            game = (await service.create("one", [], "two-player", 5)).id
            usa = await service.view(game, "usa")
            waited = STAGES.read()["counts"].get("actions_waited", 0)
            posted = service.act(game, "usa", usa["version"], usa["prompt"]["actions"][0])
            await across_a_hold(service.store.db, 0.2, service.bench_insert(), posted)
            assert threads == [loop_thread, loop_thread]
            assert STAGES.read()["counts"].get("actions_waited", 0) == waited + 1

            await across_a_hold(service.store.db, 0.8, service.bench_insert())
            assert threads[-1] != loop_thread  # past the loop's wait: a worker thread's

        asyncio.run(main())
    finally:
        STAGES.enabled = False
        service.store.db.dispose()
