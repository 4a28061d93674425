"""Database engines: SQLite (the default, one file) or PostgreSQL (`DATABASE_URL`).

One action at a time per game: on PostgreSQL the writer takes the game's row with
`SELECT ... FOR UPDATE`; on SQLite a write transaction starts with `BEGIN IMMEDIATE`
(the database's single write lock, which also holds across processes) behind a process
lock, so two threads of one process queue in order instead of spinning on SQLITE_BUSY.
`begin_at_once` is that transaction only when both locks are free this instant, for a
caller that must never wait for them (the event loop: app.games.service).

On SQLite, `sqlite_write` is the same write transaction on the process's own writing
connection, held for good, with no SQLAlchemy in between: an action whose work was done
before the lock (app.games.store) needs only a read of its rows and one insert, and
SQLAlchemy's connection checkout, events and statement execution cost several times what
SQLite's own work does (an empty transaction: 152 us against 15 us).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.pool import PoolProxiedConnection

from app.games.writes import SQLITE_DDL

BUSY_TIMEOUT_MS = 30_000  # how long a SQLite write waits for another process's lock


class Busy(Exception):
    """The write lock is held now (by another thread of this process, or on SQLite by
    another process): `begin_at_once` does not wait for it."""


def normalise_url(url: str) -> str:
    """`postgresql://` and `postgres://` mean psycopg 3 (the driver the project pins)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(url: str) -> bool:
    return make_url(normalise_url(url)).get_backend_name() == "sqlite"


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite file (./data/ on first start)."""
    database = make_url(normalise_url(url)).database
    if is_sqlite(url) and database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)


def _sqlite_engine(url: str, begin: str) -> Engine:
    engine = create_engine(
        url, connect_args={"timeout": 30, "check_same_thread": False}, hide_parameters=True
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself, below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        for statement in SQLITE_DDL:  # an action's writes as one statement (app.games.writes)
            cursor.execute(statement)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql(begin)

    return engine


@dataclass
class Database:
    """The engines of one server process and its write discipline."""

    url: str
    reader: Engine
    writer: Engine
    sqlite: bool
    _write_lock: threading.Lock = field(default_factory=threading.Lock)
    _own: PoolProxiedConnection | None = field(default=None, init=False)  # sqlite_write's

    @classmethod
    def connect(cls, url: str) -> Database:
        url = normalise_url(url)
        if is_sqlite(url):
            ensure_sqlite_dir(url)
            writer = _sqlite_engine(url, "BEGIN IMMEDIATE")
            return cls(url, _sqlite_engine(url, "BEGIN"), writer, True)
        engine = create_engine(
            url, pool_size=10, max_overflow=20, pool_pre_ping=True, hide_parameters=True
        )
        return cls(url, engine, engine, False)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only transaction, rolled back when the session closes."""
        with Session(self.reader, expire_on_commit=False) as session:
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction, committed when the block ends without an exception."""
        if self.sqlite:
            with self._write_lock, self._session() as session:
                yield session
        else:
            with self._session() as session:
                yield session

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """`write` on a Core connection, without an ORM session around it (the action's
        transaction: its statements are Core already, and a session costs more than
        they do on SQLite)."""
        if self.sqlite:
            with self._write_lock, self.writer.begin() as conn:
                yield conn
        else:
            with self.writer.begin() as conn:
                yield conn

    @contextmanager
    def begin_at_once(self) -> Iterator[Connection]:
        """`begin`, on SQLite, when its write locks are free this instant; else Busy at
        once, nothing begun. Neither lock is waited for: the process's is tried, and
        BEGIN IMMEDIATE runs with no busy timeout (restored once it holds SQLite's)."""
        if not self.sqlite or not self._write_lock.acquire(blocking=False):
            raise Busy
        try:
            with self.writer.connect() as conn:
                driver = conn.connection.driver_connection
                assert driver is not None
                driver.execute("PRAGMA busy_timeout=0")
                try:
                    transaction = conn.begin()  # BEGIN IMMEDIATE (_sqlite_engine)
                except OperationalError as exc:  # SQLITE_BUSY: another process writes
                    raise Busy from exc
                finally:
                    driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
                with transaction:
                    yield conn
        finally:
            self._write_lock.release()

    @contextmanager
    def sqlite_write(self, at_once: bool = False) -> Iterator[sqlite3.Connection]:
        """SQLite: one write transaction (BEGIN IMMEDIATE behind the process's lock, as
        `begin`) on the process's own writing connection, the driver's, committed when
        the block ends without an exception, else rolled back. `at_once`: only when both
        locks are free this instant, else Busy at once (as `begin_at_once`). The
        connection is one of the writer engine's, set up as they all are (WAL, FULL
        synchronous, the action_writes view), and kept for the process's life."""
        if not self.sqlite:
            raise ValueError("sqlite_write is for SQLite only")
        if not self._write_lock.acquire(blocking=not at_once):
            raise Busy
        try:
            if self._own is None:
                self._own = self.writer.raw_connection()
            conn = self._own.driver_connection
            assert isinstance(conn, sqlite3.Connection)
            if at_once:
                conn.execute("PRAGMA busy_timeout=0")
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:  # SQLITE_BUSY: another process writes
                if at_once:
                    raise Busy from exc
                raise
            finally:
                if at_once:
                    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:  # SQLite may have rolled it back itself (SQLITE_FULL)
                    conn.execute("ROLLBACK")
                raise
        finally:
            self._write_lock.release()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.writer, expire_on_commit=False) as session, session.begin():
            yield session

    def dispose(self) -> None:
        with self._write_lock:
            if self._own is not None:
                self._own.invalidate()  # closed, whichever pool it came from
                self._own = None
        self.reader.dispose()
        self.writer.dispose()
