"""docker-compose.yml's topology without containers (issue 16): two `midway serve`
processes on one PostgreSQL with the Redis broker, nginx from Debian in front with the
deployment's own configuration, and a browser-like client that speaks only to nginx.

- a socket on one process gets the patches of actions posted to the other;
- kill -9 of one process loses no acknowledged action, and the other keeps serving (the
  dropped socket reconnects through nginx and catches up);
- SIGTERM closes a process's sockets with 1012 (service restart), they reconnect through
  nginx to the other process and miss nothing;
- no seat token in any log: nginx's or either process's.

Under CI=true a missing nginx, PostgreSQL or Redis fails the run instead of skipping.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server.client import apply_patch, receive
from server.conftest import Server, unavailable
from server.scrape import scrape, value
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from deploy.nginx import Nginx, find_nginx

pytestmark = pytest.mark.postgres
SEATS = ("japan", "usa")


@dataclass
class Topology:
    proxy: Nginx
    servers: list[Server]

    def running(self) -> list[Server]:
        return [s for s in self.servers if s.proc is not None]

    def other(self, server: Server) -> Server:
        return next(s for s in self.servers if s is not server)

    def logs(self) -> str:
        return self.proxy.logs() + "".join(s.log_path.read_text() for s in self.servers)


def following(server: Server) -> float:
    """Sockets following a seat on this process, by its own /metrics."""
    return value(scrape(server.url), "midway_sockets_following")


def build(make_server: Any, pg_database: str, redis_url: str, **more: str) -> Iterator[Topology]:
    binary = find_nginx()
    if binary is None:
        unavailable("nginx is not installed (tools/test-setup.sh installs Debian's nginx)")
    assert binary is not None
    env = {"MIDWAY_BROKER": "redis", "MIDWAY_REDIS_URL": redis_url, **more}
    servers = [make_server(pg_database, **env), make_server(pg_database, **env)]
    proxy = Nginx(binary, [f"127.0.0.1:{s.port}" for s in servers]).start()
    try:
        yield Topology(proxy, servers)
    finally:
        proxy.stop()
        proxy.remove()


@pytest.fixture
def topology(make_server: Any, pg_database: str, redis_url: str) -> Iterator[Topology]:
    yield from build(make_server, pg_database, redis_url)


@pytest.fixture
def quota_topology(make_server: Any, pg_database: str, redis_url: str) -> Iterator[Topology]:
    """The topology with 2 games a minute a client (each process counts its own)."""
    yield from build(make_server, pg_database, redis_url, MIDWAY_GAMES_PER_MINUTE="2")


@dataclass
class Table:
    """One game as a browser-like client sees it through nginx: both seats' sockets and
    documents, actions posted over HTTP."""

    proxy: Nginx
    http: httpx.Client
    id: str = ""
    tokens: dict[str, str] = field(default_factory=dict)
    sockets: dict[str, ClientConnection] = field(default_factory=dict)
    docs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def create(self, seed: int) -> None:
        r = self.http.post("/api/games", json={"scenario": "one", "seed": seed})
        assert r.status_code == 201, r.text
        body = r.json()
        self.id, self.tokens = body["id"], {s["seat"]: s["token"] for s in body["seats"]}

    def view(self, seat: str) -> dict[str, Any]:
        r = self.http.get(f"/api/games/{self.id}", headers=self.auth(seat))
        assert r.status_code == 200, r.text
        found: dict[str, Any] = r.json()
        return found

    def auth(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    async def open(self, seat: str, topology: Topology, on: Server | None = None) -> Server:
        """A socket through nginx (with the version held, when reconnecting); the process
        nginx chose, found by the processes' /metrics. With `on`, reconnect until nginx
        chooses that process."""
        for _ in range(10):
            servers = topology.running()
            before = [await asyncio.to_thread(following, s) for s in servers]
            version = self.docs[seat]["version"] if seat in self.docs else None
            query = f"token={self.tokens[seat]}" + (f"&version={version}" if version else "")
            ws = await connect(f"{self.proxy.ws_url}/api/games/{self.id}/ws?{query}")
            # A new socket gets the view once it has joined its process's hub; one that
            # holds the current version gets nothing but heartbeats (DESIGN.md, Realtime):
            # it has joined when a process counts one more socket following.
            message = await receive(ws) if version is None else None
            deadline = time.monotonic() + 10
            while True:
                after = [await asyncio.to_thread(following, s) for s in servers]
                landed = [s for s, b, a in zip(servers, before, after, strict=True) if a > b]
                if landed or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.05)
            assert len(landed) == 1, (before, after)
            if on is None or landed[0] is on:
                self.sockets[seat] = ws
                if message is not None:
                    await self.absorb(seat, message)
                return landed[0]
            await ws.close()
            while await asyncio.to_thread(following, landed[0]) > before[servers.index(landed[0])]:
                await asyncio.sleep(0.05)
        raise AssertionError(f"nginx never chose the process on port {on and on.port}")

    async def open_both(self, topology: Topology) -> Server:
        """Both seats' sockets, on one process (which is returned)."""
        holder = await self.open(SEATS[0], topology)
        await self.open(SEATS[1], topology, on=holder)
        return holder

    async def absorb(self, seat: str, message: dict[str, Any]) -> None:
        if message["type"] == "view":
            self.docs[seat] = message["view"]
        else:
            assert message["type"] == "patch", message
            assert message["version"] == self.docs[seat]["version"] + 1, message
            self.docs[seat] = apply_patch(self.docs[seat], message["patch"])

    async def catch_up(self, seat: str) -> None:
        """Read the seat's socket until its document is the seat's view (fetched through
        nginx, from whichever process)."""
        target = await asyncio.to_thread(self.view, seat)
        while self.docs[seat]["version"] < target["version"]:
            await self.absorb(seat, await receive(self.sockets[seat], timeout=15))
        assert self.docs[seat] == target

    def acting(self) -> tuple[str, dict[str, Any]] | None:
        for seat in SEATS:
            view = self.view(seat)
            if view["prompt"]["actions"]:
                return seat, view
        return None

    async def close(self) -> None:
        for ws in self.sockets.values():
            await ws.close()


def assert_no_tokens(topology: Topology, *tables: Table) -> None:
    logs = topology.logs()
    assert logs.strip(), "no logs at all"
    for table in tables:
        for seat, token in table.tokens.items():
            assert token not in logs, f"{seat}'s token in a log"
    for line in topology.proxy.logs().splitlines():
        if line.startswith("{"):
            assert "?" not in json.loads(line)["path"], line


def accepted(server: Server) -> float:
    return value(scrape(server.url), "midway_actions_total", status="200")


def test_through_nginx_a_socket_on_one_process_gets_the_patches_posted_to_the_other(
    topology: Topology,
) -> None:
    """Sockets on one process; actions posted through nginx land on both processes (round
    robin), and the sockets track both seats' views exactly, action after action."""
    rng = random.Random(16)

    async def run() -> Table:
        with httpx.Client(base_url=topology.proxy.url, timeout=30) as http:
            table = Table(topology.proxy, http)
            table.create(16)
            holder = await table.open_both(topology)
            other = topology.other(holder)
            before = {s.port: accepted(s) for s in topology.servers}
            for _ in range(30):
                found = await asyncio.to_thread(table.acting)
                assert found is not None
                seat, view = found
                action = rng.choice(view["prompt"]["actions"])
                body = {"version": view["version"], "action": action}
                r = await asyncio.to_thread(
                    http.post, f"/api/games/{table.id}/actions", json=body, headers=table.auth(seat)
                )
                assert r.status_code == 200, r.text
                for name in SEATS:
                    await table.catch_up(name)
            took = {s.port: accepted(s) - before[s.port] for s in topology.servers}
            assert took[other.port] > 0, f"nginx sent no action to the other process: {took}"
            assert sum(took.values()) == 30
            # The page through nginx: its shell, and its live socket's first fragments.
            page = http.get(f"/games/{table.id}/seat/japan")
            assert page.status_code == 200 and "midway" in page.text.lower()
            async with connect(f"{topology.proxy.ws_url}/games/{table.id}/live") as live:
                await live.send(json.dumps({"token": table.tokens["japan"], "version": 0}))
                fragment = await asyncio.wait_for(live.recv(), 15)
                assert isinstance(fragment, str) and 'id="' in fragment
            await table.close()
            return table

    table = asyncio.run(run())
    assert http_get(topology.proxy.url + "/metrics").status_code == 404  # not from outside
    assert_no_tokens(topology, table)


def http_get(url: str) -> httpx.Response:
    return httpx.get(url, timeout=10)


def test_kill9_of_one_process_behind_nginx_loses_nothing_acknowledged(
    topology: Topology, pg_database: str
) -> None:
    """A stream of posts through nginx while the process holding the sockets is killed
    with -9: every action answered 200 is in the game's log, in order; the other process
    keeps answering; the sockets reconnect through nginx and catch up exactly."""
    rng = random.Random(61)
    acknowledged: list[tuple[str, dict[str, Any]]] = []
    unknown = 0  # posts whose answer was lost with the process (committed or not)

    async def run() -> Table:
        nonlocal unknown
        with httpx.Client(base_url=topology.proxy.url, timeout=30) as http:
            table = Table(topology.proxy, http)
            table.create(61)
            victim = await table.open_both(topology)
            killed = threading.Event()

            def kill() -> None:
                victim.kill9()
                killed.set()

            threading.Timer(2.0, kill).start()
            after_kill = 0
            deadline = time.monotonic() + 120
            while after_kill < 20 and time.monotonic() < deadline:
                found = await asyncio.to_thread(table.acting)
                if found is None:
                    break  # the game ended: what was answered is checked below
                seat, view = found
                action = rng.choice(view["prompt"]["actions"])
                body = {"version": view["version"], "action": action}
                r = await asyncio.to_thread(
                    http.post, f"/api/games/{table.id}/actions", json=body, headers=table.auth(seat)
                )
                if r.status_code == 200:
                    acknowledged.append((seat, action))
                    after_kill += killed.is_set()
                else:  # nginx's 502: the request reached the process as it died
                    assert r.status_code == 502, r.text
                    assert killed.wait(10), "a refusal before the kill"
                    unknown += 1
            assert killed.is_set() and after_kill >= 20, (after_kill, unknown)
            r = http.get("/readyz")
            assert r.status_code == 200, r.text  # the survivor answers for the topology
            for seat in SEATS:  # the sockets were on the killed process
                with pytest.raises(ConnectionClosed):
                    while True:
                        await table.absorb(seat, await receive(table.sockets[seat], timeout=15))
                await table.open(seat, topology)
                await table.catch_up(seat)
            await table.close()
            return table

    table = asyncio.run(run())
    engine = sa.create_engine(pg_database.replace("postgresql://", "postgresql+psycopg://"))
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT seat, action FROM actions WHERE game_id = :g ORDER BY seq"),
            {"g": table.id},
        ).all()
    engine.dispose()
    logged = [
        (seat, action if isinstance(action, dict) else json.loads(action)) for seat, action in rows
    ]
    assert len(acknowledged) <= len(logged) <= len(acknowledged) + unknown
    position = iter(logged)  # acknowledged is a subsequence of the log, in order
    missing = [a for a in acknowledged if not any(a == b for b in position)]
    assert not missing, f"acknowledged but not in the log: {missing[:3]}"
    assert_no_tokens(topology, table)


def test_sigterm_closes_sockets_with_1012_and_they_reconnect_through_nginx(
    topology: Topology,
) -> None:
    """Graceful shutdown: SIGTERM to the process holding the sockets closes them with 1012
    (service restart); the client reconnects through nginx, lands on the other process
    with the version it holds, and gets every patch of the actions posted meanwhile."""
    rng = random.Random(1012)

    async def run() -> Table:
        with httpx.Client(base_url=topology.proxy.url, timeout=30) as http:
            table = Table(topology.proxy, http)
            table.create(1012)
            victim = await table.open_both(topology)
            stopping = asyncio.create_task(asyncio.to_thread(victim.stop))
            for seat in SEATS:
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await table.absorb(seat, await receive(table.sockets[seat], timeout=15))
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            await stopping
            for _ in range(10):  # meanwhile, the game goes on on the other process
                found = await asyncio.to_thread(table.acting)
                assert found is not None
                seat, view = found
                body = {"version": view["version"], "action": rng.choice(view["prompt"]["actions"])}
                r = await asyncio.to_thread(
                    http.post, f"/api/games/{table.id}/actions", json=body, headers=table.auth(seat)
                )
                assert r.status_code == 200, r.text
            for seat in SEATS:
                await table.open(seat, topology)
                await table.catch_up(seat)
            await table.close()
            return table

    table = asyncio.run(run())
    assert '"Shutting down"' in " ".join(s.log_path.read_text() for s in topology.servers)
    assert_no_tokens(topology, table)


def test_through_nginx_a_client_cannot_pick_its_own_address(quota_topology: Topology) -> None:
    """Issue 31, item 2: nginx sets X-Forwarded-For to the address it was reached from and
    the servers believe only nginx's: a client that names a new address in every request
    still has one quota (2 a minute on each of the two processes: 4 creations, then 429),
    and the servers' logs name the address nginx saw, never the one the client made up."""
    statuses = []
    with httpx.Client(base_url=quota_topology.proxy.url, timeout=30) as http:
        for n in range(6):
            spoofed = {"X-Forwarded-For": f"203.0.113.{n + 1}"}
            body = {"scenario": "one", "seed": n}
            statuses.append(http.post("/api/games", json=body, headers=spoofed).status_code)
    assert statuses.count(201) == 4 and statuses[4:] == [429, 429], statuses
    # a server writes its access line as it answers: the last may reach the file a moment
    # after nginx has passed the answer on
    deadline = time.monotonic() + 10
    while True:
        logs = "".join(s.log_path.read_text() for s in quota_topology.servers)
        created = [
            json.loads(line)
            for line in logs.splitlines()
            if line.startswith("{") and '"path": "/api/games"' in line
        ]
        if len(created) >= 6 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(created) == 6, logs[-2000:]
    assert {line["client"] for line in created} == {"127.0.0.1"}
    assert "203.0.113." not in logs
