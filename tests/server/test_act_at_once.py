"""Issue 17: on SQLite an action's transaction runs on the event loop's own thread when
the write lock is free that instant, and in a worker thread, as before, when it is not
(app.games.service.GameService._act_here, app.games.db.Database.begin_at_once). The loop
never waits for a lock (another thread's, or another process's on the same file: not
SQLite's 30 s busy timeout), and an action that had to wait is still applied, once."""

from __future__ import annotations

import asyncio
import random
import threading
import time
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


def test_17_an_action_runs_on_the_loop_and_waits_in_a_thread_when_it_must(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Actions posted through the service: with the lock free, each runs on the event
    loop's thread; with another thread holding it, the action waits for it in a worker
    thread and lands once it is released, the loop answering meanwhile."""
    service = GameService.build(Settings(DATABASE_URL=url, allow_seed=True))
    threads: list[tuple[str, bool]] = []  # (thread name, at_once) of each transaction
    act = store_module.GameStore.act

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        threads.append((threading.current_thread().name, bool(kwargs.get("at_once"))))
        return act(self, *args, **kwargs)

    monkeypatch.setattr(store_module.GameStore, "act", spy)

    async def main() -> None:
        loop_thread = threading.current_thread().name
        game = (await service.create("one", [], "two-player", 11)).id
        seats = [s["seat"] for s in await service.seats(game)]
        rng = random.Random(11)

        async def one_action() -> int:
            docs = {seat: await service.view(game, seat) for seat in seats}
            seat = rng.choice([x for x in seats if docs[x]["prompt"]["actions"]])
            action = rng.choice(docs[seat]["prompt"]["actions"])
            return await service.act(game, seat, docs[seat]["version"], action)

        for _ in range(5):
            await one_action()
        assert threads == [(loop_thread, True)] * 5
        threads.clear()

        thread, release = holding(service.store.db)
        try:
            posted = asyncio.create_task(one_action())
            await asyncio.sleep(0.3)
            assert not posted.done()  # waiting for the lock, in a worker thread
            release.set()
            await asyncio.wait_for(posted, 10)
        finally:
            release.set()
            thread.join()
        assert [t for t in threads if t[0] == loop_thread] == [(loop_thread, True)]
        assert [t for t in threads if t[0] != loop_thread] == [(threads[-1][0], False)]
        with service.store.db.read() as session:
            actions = session.execute(select(GAMES_T.c.actions).where(GAMES_T.c.id == game))
            assert actions.scalar_one() == 6  # each applied once: none lost, none twice

    asyncio.run(main())
    service.store.db.dispose()


def test_17_the_bench_floor_commits_where_an_action_would(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make bench`'s floor (one committed insert) runs as an action's transaction does: on
    the event loop when the lock is free, in a worker thread when it is held. (Always in a
    worker thread, it held the write lock there 20 times a second, and the actions that
    found it held waited in worker threads too: at 1,000 live games, every action then.)
    An action that waits is counted (`actions_waited`, printed by the bench)."""
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
            thread, release = holding(service.store.db)
            try:
                floor = asyncio.create_task(service.bench_insert())
                posted = asyncio.create_task(
                    service.act(game, "usa", usa["version"], usa["prompt"]["actions"][0])
                )
                await asyncio.sleep(0.3)
                assert not floor.done() and not posted.done()
                release.set()
                await asyncio.wait_for(asyncio.gather(floor, posted), 10)
            finally:
                release.set()
                thread.join()
            assert threads[1:] == [threads[-1]] and threads[-1] != loop_thread
            assert STAGES.read()["counts"].get("actions_waited", 0) == waited + 1

        asyncio.run(main())
    finally:
        STAGES.enabled = False
        service.store.db.dispose()
