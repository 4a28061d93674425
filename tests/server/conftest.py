"""Live servers for the API tests: `midway serve` in a subprocess on a free port, against
a fresh SQLite file or a fresh PostgreSQL database, spoken to with real HTTP (httpx) and
real websockets (websockets).

PostgreSQL is the local server at 127.0.0.1:5432 (trust auth, user postgres or root). Each
test session creates its own database `midway_test_<random>` and drops it at the end.
When PostgreSQL cannot be reached the PostgreSQL tests skip and say why, except under
CI=true, where they fail: a CI run that quietly tested only SQLite would hide a break.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PG_HOST = os.environ.get("MIDWAY_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("MIDWAY_TEST_PG_PORT", "5432"))
PG_USERS = ("postgres", "root")
REDIS_URL = "redis://127.0.0.1:6379/0"
STARTUP_SECONDS = 60.0


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def unavailable(what: str) -> None:
    """Skip (on a developer's machine) or fail (under CI=true) for a missing service."""
    if in_ci():
        pytest.fail(f"{what} (CI=true: a missing service fails the run instead of skipping)")
    pytest.skip(what)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# -- servers ------------------------------------------------------------------------------


@dataclass
class Server:
    """One `midway serve` process."""

    database_url: str
    log_path: Path
    env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "PORT": str(self.port),
            "MIDWAY_ALLOW_SEED": "1",
            "PYTHONUNBUFFERED": "1",
            **self.env,
        }
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited at start:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/scenarios", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"server not ready in {STARTUP_SECONDS}s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-5000:]

    def stop(self) -> None:
        """SIGTERM: uvicorn's graceful shutdown (sockets closed with 1012)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()
        self.proc = None


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    """Start servers for one test; every one is stopped at the end."""
    started: list[Server] = []

    def make(database_url: str, **env: str) -> Server:
        server = Server(database_url, tmp_path / f"server-{len(started)}.log", env)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


# -- databases ----------------------------------------------------------------------------


def _pg_admin() -> Any:
    import psycopg

    errors = []
    for user in PG_USERS:
        try:
            return psycopg.connect(
                host=PG_HOST,
                port=PG_PORT,
                user=user,
                dbname="test",
                autocommit=True,
                connect_timeout=3,
            ), user
        except psycopg.Error as exc:
            errors.append(f"{user}: {exc}".strip())
    return None, "; ".join(errors)


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session (dropped afterwards)."""
    yield from _pg_fresh()


@pytest.fixture
def fresh_pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, not even migrated (dropped afterwards)."""
    yield from _pg_fresh()


def _pg_fresh() -> Iterator[str]:
    admin, user = _pg_admin()
    if admin is None:
        unavailable(f"PostgreSQL at {PG_HOST}:{PG_PORT} is unreachable ({user})")
    name = f"midway_test_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql://{user}@{PG_HOST}:{PG_PORT}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def sqlite_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'midway.db'}"


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test that takes this runs against SQLite and against PostgreSQL."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_database")
        return url
    url = request.getfixturevalue("sqlite_database")
    return url


@pytest.fixture(scope="session")
def shared_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    servers: dict[str, Server] = {}
    yield servers
    for server in servers.values():
        server.stop()


@pytest.fixture
def server(
    database_url: str,
    shared_servers: dict[str, Server],
    tmp_path_factory: pytest.TempPathFactory,
) -> Server:
    """One live server per backend, shared by the tests of a session (each test makes its
    own games). Short heartbeats and a small catch-up window, so tests see both."""
    found = shared_servers.get(database_url)
    if found is None:
        log = tmp_path_factory.mktemp("server") / "server.log"
        env = {"MIDWAY_HEARTBEAT_SECONDS": "0.5", "MIDWAY_MAX_CATCHUP_PATCHES": "5"}
        found = Server(database_url, log, env).start()
        shared_servers[database_url] = found
    return found


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        unavailable(f"Redis at {REDIS_URL} is unreachable ({exc})")
    finally:
        client.close()
    return REDIS_URL
