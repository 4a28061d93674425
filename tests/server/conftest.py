"""Live servers for the API tests: `midway serve` in a subprocess on a free port, against
a fresh SQLite file or a fresh PostgreSQL database, spoken to with real HTTP (httpx) and
real websockets (websockets).

PostgreSQL is the local server at 127.0.0.1:5432 (trust auth, user postgres or root). Each
test session creates its own database `midway_test_<random>` and drops it at the end.
When PostgreSQL cannot be reached the PostgreSQL tests skip and say why, except under
CI=true, where they fail: a CI run that quietly tested only SQLite would hide a break.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live import Server, in_ci

PG_HOST = os.environ.get("MIDWAY_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("MIDWAY_TEST_PG_PORT", "5432"))
PG_USERS = ("postgres", "root")
REDIS_URL = "redis://127.0.0.1:6379/0"


def unavailable(what: str) -> None:
    """Skip (on a developer's machine) or fail (under CI=true) for a missing service."""
    if in_ci():
        pytest.fail(f"{what} (CI=true: a missing service fails the run instead of skipping)")
    pytest.skip(what)


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
