"""GET /healthz and GET /readyz (issue 16, Health and operations), on a live server:
up is up; ready means the database and the broker answer, else 503 with a message that
names what is unreachable, and never the database's address or user."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live import free_port

from server.conftest import PG_HOST, PG_PORT, Server, _pg_admin, unavailable


def wait_for(url: str, status: int, seconds: float = 15) -> httpx.Response:
    deadline = time.monotonic() + seconds
    while True:
        r = httpx.get(url, timeout=10)
        if r.status_code == status or time.monotonic() > deadline:
            return r
        time.sleep(0.2)


def test_healthz_and_readyz_on_a_live_server(server: Server) -> None:
    """Both backends: the process is up, and the database and its broker (PostgreSQL's
    LISTEN connection; none on SQLite) are reachable."""
    r = httpx.get(server.url + "/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    r = httpx.get(server.url + "/readyz")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ready", "checks": {"database": "ok", "broker": "ok"}}


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """A Redis server of the test's own, which it may stop and start again."""
    binary = shutil.which("redis-server")
    if binary is None:
        unavailable("redis-server is not installed")
    port = free_port()
    command = [str(binary), "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    command += ["--appendonly", "no", "--dir", str(tmp_path)]
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        procs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
        deadline = time.monotonic() + 10
        while (
            subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True
            ).stdout.strip()
            != b"PONG"
        ):
            assert time.monotonic() < deadline, "own redis-server did not start"
            time.sleep(0.05)

    def stop() -> None:
        procs[-1].terminate()
        procs[-1].wait()

    start()
    yield f"redis://127.0.0.1:{port}/0", (start, stop)
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_readyz_is_503_naming_the_broker_while_redis_is_down(
    make_server: Any, own_redis: tuple[str, Any], tmp_path: Path
) -> None:
    """MIDWAY_BROKER=redis: Redis stops -> 503 "broker unreachable", the process still up
    (/healthz 200); Redis back -> ready again, without a restart."""
    url, (start, stop) = own_redis
    server = make_server(
        f"sqlite:///{tmp_path / 'ready.db'}", MIDWAY_BROKER="redis", MIDWAY_REDIS_URL=url
    )
    assert httpx.get(server.url + "/readyz").status_code == 200
    stop()
    r = wait_for(server.url + "/readyz", 503)
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["detail"].startswith("not ready: broker unreachable"), body
    assert body["checks"]["database"] == "ok" and body["checks"]["broker"] != "ok"
    assert "127.0.0.1" not in r.text and "redis://" not in r.text
    assert httpx.get(server.url + "/healthz").status_code == 200
    start()
    r = wait_for(server.url + "/readyz", 200)
    assert r.status_code == 200, r.text


@pytest.mark.postgres
def test_readyz_is_503_naming_the_database_when_postgresql_loses_it(
    make_server: Any, fresh_pg_database: str
) -> None:
    """The server's PostgreSQL database is dropped under it: /readyz answers 503 naming
    the database (and the LISTEN connection) as unreachable, not where it is; /healthz
    still answers: the process is up, only not ready."""
    server = make_server(fresh_pg_database)
    assert httpx.get(server.url + "/readyz").status_code == 200
    admin, _user = _pg_admin()
    name = fresh_pg_database.rsplit("/", 1)[1]
    with admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    r = wait_for(server.url + "/readyz", 503)
    assert r.status_code == 503, r.text
    body = r.json()
    assert "database unreachable" in body["detail"], body
    assert body["checks"]["database"] != "ok"
    for secret in (name, PG_HOST, str(PG_PORT), "postgres"):
        assert secret not in body["detail"], secret
    assert httpx.get(server.url + "/healthz").json() == {"status": "ok"}
