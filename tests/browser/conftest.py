"""Browser tests: a live `midway serve` in a subprocess (SQLite in a temporary folder,
seeds allowed) and Debian's headless Chromium driven by Playwright.

Playwright never downloads a browser here: it is pointed at /usr/bin/chromium (or the
`chromium` on PATH, or $MIDWAY_CHROMIUM). Without it the tests skip and say why, except
under CI=true, where they fail: a CI run that silently skipped the browser would hide a
break. Screenshots of every step go to test-artifacts/browser/<test>/ (gitignored).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live import Server, in_ci

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
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


def chromium_path() -> str | None:
    for candidate in (os.environ.get("MIDWAY_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("browser-server")
    database = f"sqlite:///{folder / 'midway.db'}"
    env = {
        "MIDWAY_HEARTBEAT_SECONDS": "2",
        # the notice clock moves only when a test says (POST /api/_clock/tick)
        "MIDWAY_TEST_CLOCK": "1",
        "MIDWAY_NOTICE_TICK_SECONDS": "0",
    }
    found = Server(database, folder / "server.log", env).start()
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
