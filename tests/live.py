"""A live `midway serve` in a subprocess on a free port, for the API and browser tests:
spoken to with real HTTP and real websockets."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
STARTUP_SECONDS = 60.0


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


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
            # the suite creates games, sockets and requests far faster than a person:
            # no quotas, unless a test sets its own (tests/server/test_quotas.py)
            "MIDWAY_GAMES_PER_MINUTE": "0",
            "MIDWAY_SOCKETS_PER_CLIENT": "0",
            "MIDWAY_REQUESTS_PER_MINUTE": "0",
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
        # one client for every poll: httpx.get() makes a client, and with it an SSL
        # context, each time (about 45 ms of CPU every 0.1 s, taken from the starting server)
        with httpx.Client(timeout=2) as http:
            while time.monotonic() < deadline:
                assert self.proc is not None
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited at start:\n{self.log()}")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get(self.url + "/api/scenarios").status_code == 200:
                        return
                time.sleep(0.1)
        raise RuntimeError(f"server not ready in {STARTUP_SECONDS}s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-5000:]

    def cpu_seconds(self) -> float:
        """The CPU time the server's process has used so far, user and system (Linux's
        /proc): what a request costs it, whatever else the machine is doing."""
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

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
