"""The writes of one committed action, as statements built once (DESIGN.md, Storage).

An action writes the game's row (log length, status), one log record, each changed
seat's version, the patches and, every `snapshot_every` actions, a snapshot. Building a
SQL Core statement costs more than executing it on SQLite, so each statement is built
once with bind parameters and only the values change per action. On PostgreSQL the
writes go as one statement, each a data-modifying CTE, around the NOTIFY that tells the
other processes (one round trip instead of six; PostgreSQL runs each CTE exactly once, on
one snapshot: they touch different rows). Those combined statements are built once per
shape (how many seats changed, with or without a snapshot, with or without the NOTIFY).

SQLite has no data-modifying CTEs: there the writes are one INSERT into a view of each
connection's own (`action_writes`, TEMP, made when the connection opens: no schema
change), whose INSTEAD OF trigger makes them all inside SQLite, in the same transaction.
The values go through the same column types' bind processors (JSON text as Python
writes it, the same timestamps), so the rows are those the separate statements wrote.
That INSERT is run on the driver's own connection (`write_action_sqlite`), with no
SQLAlchemy statement around it: on SQLite, SQLAlchemy's execution took more CPU than the
trigger's six writes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Column,
    Connection,
    DateTime,
    Executable,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.engine import Dialect

from app.games.models import ACTIONS_T, BENCH_T, GAMES_T, PATCHES_T, SEATS_T, SNAPSHOTS_T

NOTIFY_CHANNEL = "midway_games"
# The most seats a game may have (app.rules.modes.seats declares each game's: two a side with
# teams, 17a, and an umpire, 18): one action changes the versions of 1 to MAX_SEATS seats.
MAX_SEATS = 6


@dataclass(frozen=True)
class SeatChange:
    """A seat's view moved to `version` by `patch` (RFC 6902, from `version - 1`); no
    patch means the seat needs a fresh view."""

    seat: str
    version: int
    patch: list[Any] | None


@dataclass(frozen=True)
class ActionWrites:
    """The values one action writes."""

    game_id: str
    seq: int
    status: str
    finished_at: Any
    seat: str
    action: Any
    seat_version: int
    events: Any
    created_at: Any
    stamp: str
    seats: tuple[SeatChange, ...]
    snapshot: str | None = None  # the JSON text of the engine's snapshot of the state


def _game() -> Executable:
    return (
        update(GAMES_T)
        .where(GAMES_T.c.id == bindparam("g_id"))
        .values(
            actions=bindparam("g_actions"),
            status=bindparam("g_status"),
            finished_at=bindparam("g_finished_at"),
        )
    )


def _action() -> Executable:
    return insert(ACTIONS_T).values(
        game_id=bindparam("a_game_id"),
        seq=bindparam("a_seq"),
        seat=bindparam("a_seat"),
        action=bindparam("a_action"),
        seat_version=bindparam("a_seat_version"),
        events=bindparam("a_events"),
        created_at=bindparam("a_created_at"),
    )


def _seat(i: int) -> Executable:
    return (
        update(SEATS_T)
        .where(SEATS_T.c.game_id == bindparam(f"s{i}_game"))
        .where(SEATS_T.c.seat == bindparam(f"s{i}_seat"))
        .values(version=bindparam(f"s{i}_version"), view_stamp=bindparam(f"s{i}_stamp"))
    )


def _patch(i: int) -> Executable:
    return insert(PATCHES_T).values(
        game_id=bindparam(f"p{i}_game"),
        seat=bindparam(f"p{i}_seat"),
        version=bindparam(f"p{i}_version"),
        patch=bindparam(f"p{i}_patch"),
    )


def _snapshot() -> Executable:
    return insert(SNAPSHOTS_T).values(
        game_id=bindparam("n_game"),
        seq=bindparam("n_seq"),
        stamp=bindparam("n_stamp"),
        state=bindparam("n_state"),
    )


GAME = _game()
ACTION = _action()
SEAT = tuple(_seat(i) for i in range(MAX_SEATS))
PATCH = tuple(_patch(i) for i in range(MAX_SEATS))  # one row each: a multi-row VALUES
# has no cache key, and would be compiled again for every action
SNAPSHOT = _snapshot()
BENCH_PING = insert(BENCH_T).values(created_at=bindparam("created_at"))


def _statements(w: ActionWrites) -> list[tuple[Executable, dict[str, Any]]]:
    """Each statement with its values, in order."""
    out: list[tuple[Executable, dict[str, Any]]] = [
        (
            GAME,
            {
                "g_id": w.game_id,
                "g_actions": w.seq,
                "g_status": w.status,
                "g_finished_at": w.finished_at,
            },
        ),
        (
            ACTION,
            {
                "a_game_id": w.game_id,
                "a_seq": w.seq,
                "a_seat": w.seat,
                "a_action": w.action,
                "a_seat_version": w.seat_version,
                "a_events": w.events,
                "a_created_at": w.created_at,
            },
        ),
    ]
    for i, s in enumerate(w.seats):
        values = {"game": w.game_id, "seat": s.seat, "version": s.version}
        out.append(
            (SEAT[i], {f"s{i}_{k}": v for k, v in values.items()} | {f"s{i}_stamp": w.stamp})
        )
        out.append(
            (PATCH[i], {f"p{i}_{k}": v for k, v in values.items()} | {f"p{i}_patch": s.patch})
        )
    if w.snapshot is not None:
        values = {"n_game": w.game_id, "n_seq": w.seq, "n_stamp": w.stamp, "n_state": w.snapshot}
        out.append((SNAPSHOT, values))
    return out


@cache
def _combined(seats: int, snapshot: bool, notify: bool) -> Executable:
    """PostgreSQL: every write of an action of this shape as one statement."""
    writes = [GAME, ACTION, *SEAT[:seats], *PATCH[:seats]] + ([SNAPSHOT] if snapshot else [])
    ctes = [cast(Any, w).cte(f"w{i}") for i, w in enumerate(writes)]
    head = func.pg_notify(NOTIFY_CHANNEL, bindparam("news")) if notify else literal(1)
    return select(head).add_cte(*ctes)


def _sqlite_view() -> Table:
    """SQLite: the columns of `action_writes`, typed as the tables' own columns are."""
    seats = [
        column
        for i in range(MAX_SEATS)
        for column in (
            Column(f"s{i}_seat", String),
            Column(f"s{i}_version", Integer),
            Column(f"s{i}_patch", JSON(none_as_null=True)),
        )
    ]
    return Table(
        "action_writes",
        MetaData(),
        Column("game_id", String),
        Column("seq", Integer),
        Column("status", String),
        Column("finished_at", DateTime(timezone=True)),
        Column("seat", String),
        Column("action", JSON),
        Column("seat_version", Integer),
        Column("events", JSON),
        Column("created_at", DateTime(timezone=True)),
        Column("stamp", String),
        Column("snapshot", Text),
        *seats,
    )


ACTION_WRITES_T = _sqlite_view()


def _sqlite_ddl() -> tuple[str, ...]:
    names = ", ".join(f"NULL AS {c.name}" for c in ACTION_WRITES_T.columns)
    seats = "\n".join(
        f"""UPDATE seats SET version = NEW.s{i}_version, view_stamp = NEW.stamp
  WHERE NEW.s{i}_seat IS NOT NULL AND game_id = NEW.game_id AND seat = NEW.s{i}_seat;
INSERT INTO patches (game_id, seat, version, patch)
  SELECT NEW.game_id, NEW.s{i}_seat, NEW.s{i}_version, NEW.s{i}_patch
  WHERE NEW.s{i}_seat IS NOT NULL;"""
        for i in range(MAX_SEATS)
    )
    trigger = f"""CREATE TEMP TRIGGER IF NOT EXISTS action_writes_insert
INSTEAD OF INSERT ON action_writes BEGIN
UPDATE games SET actions = NEW.seq, status = NEW.status, finished_at = NEW.finished_at
  WHERE id = NEW.game_id;
INSERT INTO actions (game_id, seq, seat, action, seat_version, events, created_at)
  VALUES (NEW.game_id, NEW.seq, NEW.seat, NEW.action, NEW.seat_version, NEW.events,
          NEW.created_at);
{seats}
INSERT INTO snapshots (game_id, seq, stamp, state)
  SELECT NEW.game_id, NEW.seq, NEW.stamp, NEW.snapshot WHERE NEW.snapshot IS NOT NULL;
END"""
    return (f"CREATE TEMP VIEW IF NOT EXISTS action_writes AS SELECT {names}", trigger)


SQLITE_DDL = _sqlite_ddl()  # run on each new SQLite connection (app.games.db)


def _sqlite_values(w: ActionWrites) -> dict[str, Any]:
    """The INSERT's values by column, in ACTION_WRITES_T's order."""
    values: dict[str, Any] = {
        "game_id": w.game_id,
        "seq": w.seq,
        "status": w.status,
        "finished_at": w.finished_at,
        "seat": w.seat,
        "action": w.action,
        "seat_version": w.seat_version,
        "events": w.events,
        "created_at": w.created_at,
        "stamp": w.stamp,
        "snapshot": w.snapshot,
    }
    for i in range(MAX_SEATS):
        s = w.seats[i] if i < len(w.seats) else None
        values[f"s{i}_seat"] = s.seat if s else None
        values[f"s{i}_version"] = s.version if s else None
        values[f"s{i}_patch"] = s.patch if s else None
    return values


@cache
def _sqlite_insert(dialect: Dialect) -> tuple[str, tuple[Callable[[Any], Any] | None, ...]]:
    """The INSERT into `action_writes` in SQLite's own words, and each column's bind
    processor as `dialect` has it (what SQLAlchemy would do to each value)."""
    columns = list(ACTION_WRITES_T.columns)
    names = ", ".join(c.name for c in columns)
    marks = ", ".join("?" for _ in columns)
    processors = tuple(c.type.dialect_impl(dialect).bind_processor(dialect) for c in columns)
    return f"INSERT INTO action_writes ({names}) VALUES ({marks})", processors


def write_action_sqlite(conn: sqlite3.Connection, dialect: Dialect, w: ActionWrites) -> None:
    """SQLite: one action's writes, as the one INSERT into `action_writes`, on the
    driver's connection inside its write transaction."""
    if not w.seats or len(w.seats) > MAX_SEATS:
        raise ValueError(f"an action changes 1 to {MAX_SEATS} seats, not {len(w.seats)}")
    sql, processors = _sqlite_insert(dialect)
    values = _sqlite_values(w)
    row = [
        value if process is None else process(value)
        for process, value in zip(processors, values.values(), strict=True)
    ]
    conn.execute(sql, row)


def write_action(conn: Connection, w: ActionWrites, notify: str | None) -> None:
    """Run one action's writes, as one statement; on PostgreSQL, `notify` (when given)
    is sent as the news of this commit on NOTIFY_CHANNEL."""
    if conn.dialect.name == "sqlite":
        driver = conn.connection.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        write_action_sqlite(driver, conn.dialect, w)  # checks the seats itself
        return
    if not w.seats or len(w.seats) > MAX_SEATS:
        raise ValueError(f"an action changes 1 to {MAX_SEATS} seats, not {len(w.seats)}")
    statements = _statements(w)
    if conn.dialect.name != "postgresql":
        for statement, values in statements:
            conn.execute(statement, values)
        return
    params: dict[str, Any] = {"news": notify} if notify is not None else {}
    for _statement, values in statements:
        params |= values
    conn.execute(_combined(len(w.seats), w.snapshot is not None, notify is not None), params)
