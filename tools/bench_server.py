"""Server benchmark (issues 3 and 17, `make bench`): many live games, both seats on
websockets, random agents acting; action-to-patch latency against a floor measured in
the same run.

    python -m tools.bench_server [--games 1000] [--seconds 60] [--pages 0.5]
                                 [--compare-games 200] [--database-url URL]

The main run has 1,000 live games on one process; half the seats (`--pages`) hold the
seat page's socket (/games/{id}/live, HTML regions) and click as the page does (POST
/games/{id}/act with the button's value, read from the prompt region), the others the
API's socket (posting to the API). A shorter run with 200 games follows for comparison
(its lines prefixed `games200_`), then the two-process run. Prints one `name=value` line
per figure:

- `concurrent_games`: games live at the end of the run, both seats on open websockets.
- `action_to_patch_p50_ms`, `action_to_patch_p99_ms`: from sending an action's POST to
  the other seat's patch arriving on its socket (only actions that changed the other
  seat's view produce such a patch). Measured from the send, so it is never less than
  "accepted -> patch". Actions are posted as a browser's fetch would post them, over a
  kept-alive HTTP/1.1 connection with no client library in between (`Poster`).
- `floor_p50_ms`, `floor_p99_ms`: a bare websocket round trip plus one committed insert on
  the same database (WS /api/_bench/floor), sampled during the same run.
- `latency_ratio_p50`, `latency_ratio_p99`: action-to-patch over floor (goals <= 2.5, <= 4).
- `patch_bytes_ratio`: mean patch bytes over mean full-view bytes (goal <= 0.02).
- `page_action_to_html_p50_ms` (`_p99_ms`), `page_latency_ratio_p50`: from an action's
  POST to the other seat's page socket message, and over the floor p50;
  `page_bytes_per_action`: the mean size of a page socket message (the regions changed).
- `server_rss_mb`: the server process's largest resident memory while the games were
  live (goal <= 450).
- `cpu_ms_per_action`: the server process's CPU time in the window over the actions it
  accepted (goal <= 2.5); `actions_waited_share`: the share of them that found SQLite's
  write lock held and waited for it (on the event loop: app.games.service._when_free);
  `stage_<name>_ms`: the part of it each stage took, timed in the server
  (app/games/stages.py, GET /api/_bench/stages); `stage_http_ms` is the rest
  (uvicorn, middleware, FastAPI, the event loop, thread hops). `gc_ms_per_action`
  (`gc_<generation>_ms`): of all that, the cyclic garbage collector's part, counted
  within the stage it interrupted.
- `two_process_latency_ratio_p50` (issue 16): a second, shorter run with two `midway
  serve` processes on one database and the Redis broker (as docker-compose.yml runs
  them): both seats' sockets and the floor on process 1, every action posted to process
  2; action-to-patch p50 over the floor p50 of the same run (`two_process_*` figures;
  nan, with a note, when Redis cannot be reached).

Each game's agent thinks 1.5-4.5 s before each action (`--think`, the mean), about a
quick human's pace; the server is a
`midway serve` subprocess on a fresh SQLite file (or `--database-url`). Every loop is
bounded in time and the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.web.patches import Page

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def proc_cpu_s(pid: int) -> float:
    """The process's CPU time so far (user and system, every thread)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    patch_bytes: list[int] = field(default_factory=list)
    view_bytes: list[int] = field(default_factory=list)
    page_latencies: list[float] = field(default_factory=list)
    page_bytes: list[int] = field(default_factory=list)
    stages: dict[str, float] = field(default_factory=dict)  # CPU seconds in the window
    collector: dict[str, float] = field(default_factory=dict)  # of it, the cyclic GC's
    server_cpu_s: float = float("nan")
    server_actions: int = 0
    server_waited: int = 0  # of those, actions that waited for the write lock in a thread
    rss: list[float] = field(default_factory=list)
    actions: int = 0
    finished: int = 0
    live: int = 0
    errors: list[str] = field(default_factory=list)


class Poster:
    """POST JSON over one kept-alive HTTP/1.1 connection, with as little client work as
    a browser's fetch: the request is a few bytes written at once, the answer is read by
    its Content-Length. (httpx spends about 1 ms of Python per request here, measured
    against this client on the same server: client time, which the websocket floor
    does not pay.) Reconnects when the server has closed the connection."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(
        self, path: str, body: object, token: str, form: bool = False
    ) -> tuple[int, bytes]:
        """JSON, or (`form`) the fields of `body` form-encoded, as the seat page's form
        posts it while its live socket is open (midway.js: the prompt comes by the socket)."""
        extra = "Midway-Live: 1\r\n" if form else ""
        if form:
            assert isinstance(body, dict)
            data = urllib.parse.urlencode(body).encode()
            kind = "application/x-www-form-urlencoded"
        else:
            data, kind = json.dumps(body).encode(), "application/json"
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: {kind}\r\n{extra}"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        for attempt in (1, 2):
            if self.streams is None:
                self.streams = await asyncio.open_connection(self.host, self.port)
            reader, writer = self.streams
            try:
                writer.write(head + data)
                return await self._answer(reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                writer.close()
                self.streams = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    @staticmethod
    async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
        status_line = await reader.readuntil(b"\r\n")
        headers: dict[str, str] = {}
        while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
                body += (await reader.readexactly(size + 2))[:-2]
            await reader.readuntil(b"\r\n")
        else:
            body = await reader.readexactly(int(headers.get("content-length", "0")))
        return int(status_line.split()[1]), body

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


# A browser sends no pings of its own; a long wait for the handshake while a thousand
# games start is no failure of the server.
CLIENT: dict[str, Any] = {"ping_interval": None, "open_timeout": 60}
SYNC = re.compile(r'<div id="sync" data-v="(\d+)"')
BUTTON = re.compile(r"""<button name="action" value='([^']*)'""")


def page_prompt(page: Page, message: str) -> list[dict[str, Any]] | None:
    """The actions offered by the prompt region once a page socket's message is swapped
    into the page (the buttons a player would click; issue 34: a message may carry only
    what changed in it), or None when the message does not change that region."""
    if "r-prompt" not in message:
        return None
    page.apply(message)
    region = page.element("r-prompt")
    if region is None:
        return None
    return [json.loads(html.unescape(v)) for v in BUTTON.findall(region)]


@dataclass
class Table:
    """One game as its agents (one a seat, the seats the server created) see it. A seat
    in `pages` holds the seat page's socket (/games/{id}/live: HTML regions) and clicks
    as the page does (POST /games/{id}/act); the others hold the API's socket and post
    to the API. `docs` holds each seat's view; for a page seat, only what its page shows
    of it: the version, and the prompt's actions."""

    id: str
    tokens: dict[str, str]
    pages: frozenset[str] = frozenset()
    docs: dict[str, dict[str, Any]] = field(default_factory=dict)
    changed: dict[str, asyncio.Event] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.changed = {s: asyncio.Event() for s in self.tokens}

    sent_at: float = 0.0
    actor: str = ""
    awaiting_other: bool = False
    open_sockets: int = 0

    def status(self) -> str:
        api = [s for s in self.tokens if s not in self.pages]
        return str(self.docs[api[0]]["status"]) if api else ""


class Bench:
    def __init__(
        self,
        base: str,
        figures: Figures,
        think: tuple[float, float],
        post_base: str = "",
        page_share: float = 0.0,
    ) -> None:
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.host, port = (post_base or base).removeprefix("http://").split(":")
        self.port = int(port)  # where actions are posted (another process, or the same)
        self.figures = figures
        self.think = think
        self.page_share = page_share
        self.http = httpx.AsyncClient(
            base_url=base, timeout=60, limits=httpx.Limits(max_connections=500)
        )
        self.measuring = False
        self.tables: list[Table] = []

    async def new_table(self, seed: int) -> Table:
        r = await self.http.post("/api/games", json={"scenario": "one", "seed": seed})
        r.raise_for_status()
        body = r.json()
        tokens = {s["seat"]: s["token"] for s in body["seats"]}
        # page seats: the share asked for, and always one API seat (it says when it ends)
        n = min(len(tokens) - 1, round(self.page_share * len(tokens)))
        table = Table(body["id"], tokens, frozenset(list(tokens)[:n]))
        self.tables.append(table)
        return table

    async def read(self, table: Table, seat: str, ws: ClientConnection) -> None:
        """Keep the seat's document current; time the other seat's patches."""
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "view":
                table.docs[seat] = message["view"]
            elif kind == "patch":
                self.on_patch(table, seat, message, len(raw))
            else:
                continue
            table.changed[seat].set()

    async def read_page(self, table: Table, seat: str, ws: ClientConnection) -> None:
        """Keep what the seat's page shows current (its version, its buttons); time the
        other seat's actions to the page's fragments."""
        page = Page(only="r-prompt")
        async for raw in ws:
            now = time.perf_counter()
            text = raw if isinstance(raw, str) else raw.decode()
            found = SYNC.match(text)
            if found is None:
                continue  # a flash, say
            doc = table.docs.setdefault(seat, {"version": 0, "prompt": {"actions": []}})
            doc["version"] = int(found.group(1))
            actions = page_prompt(page, text)
            if actions is not None:
                doc["prompt"] = {"actions": actions}
            if self.measuring:
                self.figures.page_bytes.append(len(text.encode()))
                if table.awaiting_other and seat != table.actor:
                    table.awaiting_other = False
                    self.figures.page_latencies.append((now - table.sent_at) * 1000)
            table.changed[seat].set()

    def on_patch(self, table: Table, seat: str, message: dict[str, Any], size: int) -> None:
        now = time.perf_counter()
        doc = table.docs[seat]
        jsonpatch.apply_patch(doc, message["patch"], in_place=True)
        if not self.measuring:
            return
        self.figures.patch_bytes.append(len(json.dumps(message["patch"])))
        if len(self.figures.patch_bytes) % 10 == 0:  # what a whole view would have cost
            self.figures.view_bytes.append(len(json.dumps(doc)))
        if table.awaiting_other and seat != table.actor:
            table.awaiting_other = False
            self.figures.latencies.append((now - table.sent_at) * 1000)

    async def play(self, table: Table, rng: random.Random, deadline: float, poster: Poster) -> None:
        """Random legal actions, one at a time, until the game ends or time is up."""
        while time.monotonic() < deadline:
            await asyncio.sleep(rng.uniform(*self.think))
            ready = [s for s in table.tokens if table.docs[s]["prompt"]["actions"]]
            if not ready:
                if table.status() == "finished":
                    self.figures.finished += 1
                    return
                await self.wait_change(table, 5)
                continue
            seat = rng.choice(ready)
            doc = table.docs[seat]
            table.changed[seat].clear()
            table.actor, table.awaiting_other = seat, True
            action = rng.choice(doc["prompt"]["actions"])
            table.sent_at = time.perf_counter()
            try:
                if seat in table.pages:  # the page's form: the version, the button's value
                    body = {"version": doc["version"], "action": json.dumps(action)}
                    path = f"/games/{table.id}/act"
                    status, answer = await poster.post(path, body, table.tokens[seat], form=True)
                else:
                    body = {"version": doc["version"], "action": action}
                    path = f"/api/games/{table.id}/actions"
                    status, answer = await poster.post(path, body, table.tokens[seat])
            except (OSError, asyncio.IncompleteReadError) as exc:
                table.awaiting_other = False
                self.figures.errors.append(repr(exc))
                continue
            if status != 200:
                table.awaiting_other = False
                self.figures.errors.append(f"{status} {answer[:120]!r}")
                continue
            self.figures.actions += self.measuring
            if seat in table.pages:  # the acting seat's view always changes: a push
                version = body["version"] + 1
            else:
                version = json.loads(answer)["version"]
            while table.docs[seat]["version"] < version:
                await asyncio.wait_for(table.changed[seat].wait(), 30)
                table.changed[seat].clear()

    async def wait_change(self, table: Table, timeout: float) -> None:
        waits = [asyncio.create_task(e.wait()) for e in table.changed.values()]
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for task in waits:
            task.cancel()
        for event in table.changed.values():
            event.clear()

    async def seat_agents(self, slot: int, deadline: float, delay: float) -> None:
        """One slot of the run: a game, and a new one whenever the last has finished
        (the first after `delay`, so that the games do not all start at once)."""
        await asyncio.sleep(delay)
        rng = random.Random(slot)
        poster = Poster(self.host, self.port)
        try:
            await self._seat_agents(rng, deadline, poster)
        finally:
            await poster.close()

    async def _seat_agents(self, rng: random.Random, deadline: float, poster: Poster) -> None:
        while time.monotonic() < deadline:
            table = await self.new_table(rng.randrange(2**31))
            readers: list[asyncio.Task[None]] = []
            async with contextlib.AsyncExitStack() as stack:
                stack.push_async_callback(self._stop_readers, readers)
                for seat in table.tokens:
                    token = table.tokens[seat]
                    if seat in table.pages:
                        url = f"{self.ws_base}/games/{table.id}/live"
                        ws = await stack.enter_async_context(connect(url, max_size=2**24, **CLIENT))
                        await ws.send(json.dumps({"token": token, "version": None}))
                        reader = self.read_page(table, seat, ws)
                    else:
                        url = f"{self.ws_base}/api/games/{table.id}/ws?token={token}"
                        ws = await stack.enter_async_context(connect(url, max_size=2**24, **CLIENT))
                        table.docs[seat] = json.loads(await ws.recv())["view"]
                        reader = self.read(table, seat, ws)
                    readers.append(asyncio.create_task(self._reading(reader)))
                for seat in table.pages:  # the page's first message: every region
                    while seat not in table.docs:
                        await asyncio.wait_for(table.changed[seat].wait(), 60)
                        table.changed[seat].clear()
                table.open_sockets = len(table.tokens)
                try:
                    await self.play(table, rng, deadline, poster)
                finally:
                    table.open_sockets = 0
            self.tables.remove(table)

    async def _reading(self, reader: Coroutine[Any, Any, None]) -> None:
        """A seat's socket reader; a socket the server closes (a keepalive ping unanswered
        on a saturated server) is an error of the run, not a lost task."""
        try:
            await reader
        except ConnectionClosed as exc:
            if self.measuring:
                self.figures.errors.append(repr(exc))

    @staticmethod
    async def _stop_readers(readers: list[asyncio.Task[None]]) -> None:
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)

    async def floor(self, deadline: float) -> None:
        """The floor: a websocket round trip plus one committed insert, 10 times a second."""
        async with connect(f"{self.ws_base}/api/_bench/floor") as ws:
            while time.monotonic() < deadline:
                start = time.perf_counter()
                await ws.send("ping")
                await ws.recv()
                if self.measuring:
                    self.figures.floor.append((time.perf_counter() - start) * 1000)
                await asyncio.sleep(0.1)

    def live_games(self) -> int:
        return sum(1 for t in self.tables if t.open_sockets and t.open_sockets == len(t.tokens))


async def run(
    base: str,
    pid: int,
    games: int,
    seconds: float,
    warmup: float,
    think: float,
    post_base: str = "",
    pages: float = 0.0,
) -> Figures:
    figures = Figures()
    bench = Bench(
        base, figures, think=(think / 2, think * 3 / 2), post_base=post_base, page_share=pages
    )
    deadline = time.monotonic() + warmup + seconds
    spread = warmup * 3 / 4  # the games start over the first three quarters of the warm-up
    tasks = [
        asyncio.create_task(bench.seat_agents(i, deadline, spread * i / games))
        for i in range(games)
    ]
    tasks += [asyncio.create_task(bench.floor(deadline)) for _ in range(2)]
    await asyncio.sleep(warmup)
    bench.measuring = True
    probe = httpx.AsyncClient(base_url=base, timeout=60)  # not queued behind the games' pool
    cpu_before, actions_before = proc_cpu_s(pid), figures.actions
    before = await stages(probe)
    live = []
    while time.monotonic() < deadline - 1:
        live.append(bench.live_games())
        figures.rss.append(rss_mb(pid))
        await asyncio.sleep(min(5.0, max(0.1, deadline - 1 - time.monotonic())))
    live.append(bench.live_games())  # still in the window: the games play till its end
    bench.measuring = False
    after = await stages(probe)
    await probe.aclose()
    # Without the server's figures (GET /api/_bench/stages failed): its CPU time from
    # /proc, over the actions the agents had accepted.
    figures.server_cpu_s = proc_cpu_s(pid) - cpu_before
    figures.server_actions = figures.actions - actions_before
    if before and after:
        figures.server_cpu_s = after["process_cpu_s"] - before["process_cpu_s"]
        counts, counted = after["counts"], before["counts"]
        figures.server_actions = counts.get("actions", 0) - counted.get("actions", 0)
        figures.server_waited = counts.get("actions_waited", 0) - counted.get("actions_waited", 0)
        figures.collector = {
            name: cpu - before.get("gc_cpu_s", {}).get(name, 0.0)
            for name, cpu in after.get("gc_cpu_s", {}).items()
        }
        figures.stages = {
            name: cpu - before["stages_cpu_s"].get(name, 0.0)
            for name, cpu in after["stages_cpu_s"].items()
        }
    figures.rss.append(rss_mb(pid))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    figures.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    await bench.http.aclose()
    figures.live = min(live)
    return figures


async def stages(http: httpx.AsyncClient) -> dict[str, Any] | None:
    """The server's CPU time, in all and per stage (GET /api/_bench/stages)."""
    try:
        r = await http.get("/api/_bench/stages")
    except httpx.HTTPError:
        return None
    found: dict[str, Any] | None = r.json() if r.is_success else None
    return found


def start_server(database_url: str, port: int, log: Path, **extra: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "PORT": str(port),
        "MIDWAY_ALLOW_SEED": "1",
        "MIDWAY_BENCH": "1",
        "MIDWAY_GAMES_PER_MINUTE": "0",  # the bench is one client with many games
        "MIDWAY_SOCKETS_PER_CLIENT": "0",
        "MIDWAY_REQUESTS_PER_MINUTE": "0",
        **extra,
    }
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/api/scenarios", timeout=2).is_success:
                return proc
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server not ready in 60 s")


def mean(values: list[int]) -> float:
    return statistics.fmean(values) if values else float("nan")


def cpu_lines(figures: Figures) -> dict[str, str]:
    """The server's CPU time per accepted action in the window, in all and by stage;
    `http` is the rest (what no stage timer covers: app.games.stages)."""
    n = figures.server_actions
    if not n:
        return {"cpu_ms_per_action": "nan"}
    lines = {
        "cpu_ms_per_action": f"{figures.server_cpu_s * 1000 / n:.2f}",
        "actions_waited_share": f"{figures.server_waited / n:.3f}",
    }
    rest = figures.server_cpu_s - sum(figures.stages.values())
    for name, cpu in sorted({**figures.stages, "http": rest}.items()):
        lines[f"stage_{name}_ms"] = f"{cpu * 1000 / n:.3f}"
    lines["gc_ms_per_action"] = f"{sum(figures.collector.values()) * 1000 / n:.3f}"
    for name, cpu in sorted(figures.collector.items()):
        lines[f"gc_{name.removeprefix('gc')}_ms"] = f"{cpu * 1000 / n:.3f}"
    return lines


def report(figures: Figures, database: str, seconds: float, prefix: str = "") -> None:
    p50, p99 = percentile(figures.latencies, 50), percentile(figures.latencies, 99)
    f50, f99 = percentile(figures.floor, 50), percentile(figures.floor, 99)
    patch, view = mean(figures.patch_bytes), mean(figures.view_bytes)
    page50 = percentile(figures.page_latencies, 50)
    lines = {
        "database": database,
        "concurrent_games": figures.live,
        "actions_measured": figures.actions,
        "actions_per_s": f"{figures.actions / seconds:.1f}",
        "patches_timed": len(figures.latencies),
        "games_finished": figures.finished,
        "action_to_patch_p50_ms": f"{p50:.2f}",
        "action_to_patch_p99_ms": f"{p99:.2f}",
        "floor_p50_ms": f"{f50:.2f}",
        "floor_p99_ms": f"{f99:.2f}",
        "latency_ratio_p50": f"{p50 / f50:.2f}",
        "latency_ratio_p99": f"{p99 / f99:.2f}",
        "patch_bytes_ratio": f"{patch / view:.3f}",
        "page_patches_timed": len(figures.page_latencies),
        "page_action_to_html_p50_ms": f"{page50:.2f}",
        "page_action_to_html_p99_ms": f"{percentile(figures.page_latencies, 99):.2f}",
        "page_latency_ratio_p50": f"{page50 / f50:.2f}",
        "page_bytes_per_action": f"{mean(figures.page_bytes):.0f}",
        "page_bytes_p50": f"{percentile([float(b) for b in figures.page_bytes], 50):.0f}",
        "page_bytes_max": str(max(figures.page_bytes, default=0)),
        "page_messages": str(len(figures.page_bytes)),
        "server_rss_mb": f"{max(figures.rss):.1f}",
        **cpu_lines(figures),
        "errors": len(figures.errors),
    }
    for name, value in lines.items():
        print(f"{prefix}{name}={value}", flush=True)
    for error in figures.errors[:5]:
        print(f"# error: {error}", file=sys.stderr)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def redis_reachable(url: str) -> str | None:
    """None when Redis answers, else why not."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        return f"Redis at {url} is unreachable ({exc})"
    finally:
        client.close()
    return None


def two_processes(args: argparse.Namespace, url: str, tmp: Path) -> None:
    """Sockets and the floor on one process, actions posted to the other (issue 16)."""
    redis_url = os.environ.get("MIDWAY_REDIS_URL", "redis://127.0.0.1:6379/0")
    why = redis_reachable(redis_url)
    if why is not None:
        for name in ("two_process_action_to_patch_p50_ms", "two_process_latency_ratio_p50"):
            print(f"{name}=nan  # {why}")
        return
    env = {"MIDWAY_BROKER": "redis", "MIDWAY_REDIS_URL": redis_url}
    ports = free_port(), free_port()
    procs = [
        start_server(url, port, tmp / f"server-two-{i}.log", **env) for i, port in enumerate(ports)
    ]
    try:
        figures = asyncio.run(
            run(
                f"http://127.0.0.1:{ports[0]}",
                procs[0].pid,
                args.two_games,
                args.two_seconds,
                min(args.compare_warmup, args.two_seconds),
                args.think,
                post_base=f"http://127.0.0.1:{ports[1]}",
            )
        )
    finally:
        for proc in procs:
            stop_server(proc)
    p50, f50 = percentile(figures.latencies, 50), percentile(figures.floor, 50)
    lines = {
        "two_process_games": figures.live,
        "two_process_patches_timed": len(figures.latencies),
        "two_process_action_to_patch_p50_ms": f"{p50:.2f}",
        "two_process_action_to_patch_p99_ms": f"{percentile(figures.latencies, 99):.2f}",
        "two_process_floor_p50_ms": f"{f50:.2f}",
        "two_process_latency_ratio_p50": f"{p50 / f50:.2f}",
        "two_process_errors": len(figures.errors),
    }
    for name, value in lines.items():
        print(f"{name}={value}")
    for error in figures.errors[:5]:
        print(f"# error: {error}", file=sys.stderr)


def one_run(
    args: argparse.Namespace,
    url: str,
    tmp: Path,
    games: int,
    seconds: float,
    warmup: float,
    prefix: str,
) -> None:
    """One server on `url`, `games` live games on it, its figures printed."""
    port = free_port()
    env = {"MIDWAY_STATE_CACHE_SIZE": str(max(512, 2 * games))}  # every live game's state
    proc = start_server(url, port, tmp / f"server{prefix}.log", **env)
    print(f"# server pid={proc.pid} port={port} games={games}", file=sys.stderr, flush=True)
    try:
        figures = asyncio.run(
            run(
                f"http://127.0.0.1:{port}",
                proc.pid,
                games,
                seconds,
                warmup,
                args.think,
                pages=args.pages,
            )
        )
    finally:
        stop_server(proc)
    report(figures, url.split(":", 1)[0], seconds, prefix)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_server", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=60.0, help="games start meanwhile")
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds per action")
    parser.add_argument(
        "--pages", type=float, default=0.5, help="share of seats on the page socket"
    )
    parser.add_argument(
        "--compare-games", type=int, default=200, help="games of the comparison run (0: none)"
    )
    parser.add_argument("--compare-seconds", type=float, default=30.0, help="its window")
    parser.add_argument("--compare-warmup", type=float, default=15.0, help="its warm-up")
    parser.add_argument("--two-games", type=int, default=50, help="games of the two-process run")
    parser.add_argument(
        "--two-seconds", type=float, default=30.0, help="its measured window (0: no such run)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="midway-bench-") as tmp:
        url = args.database_url or f"sqlite:///{tmp}/bench.db"
        one_run(args, url, Path(tmp), args.games, args.seconds, args.warmup, "")
        if args.compare_games:
            compare_url = args.database_url or f"sqlite:///{tmp}/bench-compare.db"
            prefix = f"games{args.compare_games}_"
            games, seconds = args.compare_games, args.compare_seconds
            one_run(args, compare_url, Path(tmp), games, seconds, args.compare_warmup, prefix)
        if args.two_seconds:
            two_url = args.database_url or f"sqlite:///{tmp}/bench-two.db"
            two_processes(args, two_url, Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
