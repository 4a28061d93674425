"""Browser tests: a live `midway serve` in a subprocess (SQLite in a temporary folder,
seeds allowed) and Debian's headless Chromium driven by Playwright.

Playwright never downloads a browser here: it is pointed at /usr/bin/chromium (or the
`chromium` on PATH, or $MIDWAY_CHROMIUM). Without it the tests skip and say why, except
under CI=true, where they fail: a CI run that silently skipped the browser would hide a
break. Screenshots of every step go to test-artifacts/browser/<test>/ (gitignored).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
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
ARTIFACTS = ROOT / "test-artifacts" / "browser"
STARTUP_SECONDS = 60.0
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def chromium_path() -> str | None:
    for candidate in (os.environ.get("MIDWAY_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("chromium")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """One `midway serve` process on a free port."""

    folder: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.folder / 'midway.db'}",
            "PORT": str(self.port),
            "MIDWAY_ALLOW_SEED": "1",
            "MIDWAY_HEARTBEAT_SECONDS": "2",
            "PYTHONUNBUFFERED": "1",
        }
        with (self.folder / "server.log").open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "serve"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited at start:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/scenarios", timeout=2).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError(f"server not ready in {STARTUP_SECONDS}s:\n{self.log()}")

    def log(self) -> str:
        return (self.folder / "server.log").read_text(errors="replace")[-5000:]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = Server(tmp_path_factory.mktemp("browser-server")).start()
    yield found
    found.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    if executable is None:
        message = "Chromium is not installed (apt-get install chromium; or set MIDWAY_CHROMIUM)"
        if in_ci():
            pytest.fail(f"{message} - CI=true: the browser tests must run, not skip")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    """test-artifacts/browser/<test name>/, emptied first."""
    folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder
