"""Issue 17: on SQLite an action worked out from memory is recorded on the process's own
writing connection (app.games.db.Database.sqlite_write, app.games.store.GameStore.
_record_planned): one read of the locked rows and the one INSERT into `action_writes`,
with no SQLAlchemy statement in between, and the rows it writes are byte for byte those
of the SQLAlchemy path (the same bind processors: JSON text, timestamps). The version
check and the refusals are the same (DESIGN.md, Storage: one action at a time).
"""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from app.cli import migrate
from app.games.db import Database
from app.games.engine import load_engine
from app.games.errors import StaleVersion
from app.games.store import GameStore
from app.settings import Settings

ENGINE = load_engine("app.rules")


def fresh_url(tmp_path: Path, name: str) -> str:
    url = f"sqlite:///{tmp_path / name}"
    migrate(Settings(DATABASE_URL=url))
    return url


def play(store: GameStore, seed: int, actions: int) -> str:
    """A game of Scenario One with `actions` random legal actions, each posted on the
    acting seat's current version."""
    game = store.create("one", [], "two-player", seed).id
    seats = [x["seat"] for x in store.seats(game)]
    rng = random.Random(seed)
    for _ in range(actions):
        docs = {seat: store.seat_view(game, seat) for seat in seats}
        seat = rng.choice([x for x in seats if docs[x]["prompt"]["actions"]])
        store.act(game, seat, docs[seat]["version"], rng.choice(docs[seat]["prompt"]["actions"]))
    return game


def rows(url: str, game: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the game's actions wrote, as SQLite holds them (the text of each JSON
    column), without the game's id and the times of day."""
    path = url.removeprefix("sqlite:///")
    with closing(sqlite3.connect(path)) as conn, conn:
        return {
            "games": conn.execute(
                "SELECT status, actions, takebacks, finished_at IS NULL FROM games WHERE id = ?",
                (game,),
            ).fetchall(),
            "seats": conn.execute(
                "SELECT seat, version, view_stamp FROM seats WHERE game_id = ? ORDER BY seat",
                (game,),
            ).fetchall(),
            "actions": conn.execute(
                "SELECT seq, seat, action, seat_version, events, length(created_at) FROM actions"
                " WHERE game_id = ? ORDER BY seq",
                (game,),
            ).fetchall(),
            "patches": conn.execute(
                "SELECT seat, version, patch FROM patches WHERE game_id = ? ORDER BY seat, version",
                (game,),
            ).fetchall(),
            "snapshots": conn.execute(
                "SELECT seq, stamp, state FROM snapshots WHERE game_id = ? ORDER BY seq", (game,)
            ).fetchall(),
        }


def test_17_an_action_planned_from_memory_runs_no_sqlalchemy_statement(tmp_path: Path) -> None:
    url = fresh_url(tmp_path, "own.db")
    store = GameStore(db=Database.connect(url), engine=ENGINE)
    statements: list[str] = []
    acting = {"now": False}

    @event.listens_for(store.db.writer, "before_cursor_execute")
    def spy(*args: Any) -> None:
        if acting["now"]:
            statements.append(args[2])

    act = store.act

    def counted(*args: Any, **kwargs: Any) -> Any:
        acting["now"] = True
        try:
            return act(*args, **kwargs)
        finally:
            acting["now"] = False

    store.act = counted  # type: ignore[method-assign]
    play(store, 21, 30)
    assert statements == [], f"SQLAlchemy ran {len(statements)} statements: {statements[:3]}"
    store.db.dispose()


def test_17_the_own_connection_writes_the_rows_the_sqlalchemy_path_writes(
    tmp_path: Path,
) -> None:
    """The same game twice: once by a store whose memory holds the game (every action
    planned ahead, recorded on the own connection), once by a store that keeps nothing
    (every action worked out under SQLAlchemy's transaction). 60 actions pass a
    snapshot (every 50)."""
    fast_url, slow_url = fresh_url(tmp_path, "fast.db"), fresh_url(tmp_path, "slow.db")
    fast = GameStore(db=Database.connect(fast_url), engine=ENGINE)
    slow = GameStore(db=Database.connect(slow_url), engine=ENGINE)
    slow.cache.size = 0
    recorded: list[bool] = []
    planned = fast._record_planned

    def spy(*args: Any, **kwargs: Any) -> Any:
        done = planned(*args, **kwargs)
        recorded.append(done is not None)
        return done

    fast._record_planned = spy  # type: ignore[method-assign]
    fast_rows = rows(fast_url, play(fast, 33, 60))
    slow_rows = rows(slow_url, play(slow, 33, 60))
    assert len(recorded) == 60 and all(recorded)
    assert len(fast_rows["actions"]) == 60 and len(fast_rows["snapshots"]) == 1
    assert fast_rows == slow_rows
    fast.db.dispose()
    slow.db.dispose()


def test_17_a_stale_version_on_the_own_connection_is_refused_and_writes_nothing(
    tmp_path: Path,
) -> None:
    """Two stores stand for two processes: B's memory says the American seat is at a
    version A's action has since moved past. B's plan is refused with 409's error under
    the lock, nothing written, and the write lock is free again."""
    url = fresh_url(tmp_path, "stale.db")
    a = GameStore(db=Database.connect(url), engine=ENGINE)
    b = GameStore(db=Database.connect(url), engine=ENGINE)
    game = a.create("one", [], "two-player", 12).id
    usa = {seat: b.seat_view(game, seat) for seat in ("japan", "usa")}["usa"]
    a.act(game, "usa", usa["version"], usa["prompt"]["actions"][0])
    before = rows(url, game)
    planned = b._record_planned
    tried: list[int] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        tried.append(1)
        return planned(*args, **kwargs)

    b._record_planned = spy  # type: ignore[method-assign]
    with pytest.raises(StaleVersion):
        b.act(game, "usa", usa["version"], usa["prompt"]["actions"][0], at_once=True)
    assert tried == [1], "B's memory held the game: its plan went to the own connection"
    assert rows(url, game) == before
    assert not b.db._write_lock.locked()
    with b.db.sqlite_write(at_once=True) as conn:
        assert not conn.execute("SELECT 1 FROM actions WHERE seq = 2").fetchall()
    a.db.dispose()
    b.db.dispose()
