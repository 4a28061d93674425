"""Server configuration, read from the environment (pydantic-settings).

Every knob has a default that runs a server on a fresh machine: SQLite under ./data/,
port 8000 on 127.0.0.1, no broker.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite:///./data/midway.db"


class Settings(BaseSettings):
    """`DATABASE_URL`, `PORT`, `HOST` and the `MIDWAY_*` variables."""

    model_config = SettingsConfigDict(env_prefix="MIDWAY_", extra="ignore")

    database_url: str = Field(default=DEFAULT_DATABASE_URL, validation_alias="DATABASE_URL")
    host: str = Field(default="127.0.0.1", validation_alias="HOST")
    port: int = Field(default=8000, validation_alias="PORT")
    # A seed in POST /api/games is accepted only with MIDWAY_ALLOW_SEED=1 (tests).
    allow_seed: bool = False
    # Fan-out of "game G changed" between server processes.
    broker: Literal["auto", "local", "postgres", "redis"] = "auto"
    redis_url: str = "redis://127.0.0.1:6379/0"
    # Issue 35: the most a computer seat thinks over one decision, in seconds (a guard: its
    # level is a fixed amount of work), and a pause before each of its moves (0: none).
    computer_seconds: float = Field(default=1.0, gt=0)
    computer_pause_seconds: float = Field(default=0.0, ge=0)
    # A snapshot of the game state every this many actions.
    snapshot_every: int = Field(default=50, ge=1)
    # States kept in memory per process (the game's latest state, keyed by its log length).
    state_cache_size: int = Field(default=512, ge=0)
    # Seconds between websocket heartbeats.
    heartbeat_seconds: float = Field(default=20.0, gt=0)
    # A reconnecting socket more than this many versions behind gets a fresh view.
    max_catchup_patches: int = Field(default=100, ge=0)
    # The address people reach the server at, e.g. https://midway.example (no trailing
    # slash): the created page's seat links start with it. Empty: links are relative to
    # the page. Never taken from the request's Host header, which the client chooses.
    base_url: str = Field(default="", pattern=r"^(https?://[^/?#\s]+(/[^?#\s]*)?)?$")
    # Quotas (app.api.quotas), 0 for none: games one client may create a minute, sockets
    # it may hold open, requests one seat token may make a minute.
    games_per_minute: int = Field(default=20, ge=0)
    sockets_per_client: int = Field(default=64, ge=0)
    requests_per_minute: int = Field(default=600, ge=0)
    # Sockets following one seat of one game, in each process (pages and API alike).
    sockets_per_seat: int = Field(default=6, ge=0)
    # Slow clients (app.api.deadlines, app.api.limits), 0 for no limit: seconds a request's
    # line and headers may take, seconds its body may take, and the bytes of request
    # bodies all requests together may hold while they are being read (503 past it).
    header_seconds: float = Field(default=10.0, ge=0)
    body_seconds: float = Field(default=30.0, ge=0)
    max_buffered_bytes: int = Field(default=64 * 1024 * 1024, ge=0)
    # An unfinished game with no action for this many days is deleted (0: never);
    # finished games are kept. Swept every `expire_sweep_seconds` (app.games.expiry).
    expire_after_days: float = Field(default=30.0, ge=0)
    expire_sweep_seconds: float = Field(default=3600.0, gt=0)
    # Largest request body accepted, in bytes.
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    # Largest game record accepted for import (POST /api/records), in bytes.
    max_record_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    # Notices away from the page: SMTP for email (none: no email is sent; their links
    # start with `base_url`), and how often seats' clocks are looked at (0: never; the
    # test-only POST /api/_clock/tick does it then, with `test_clock`).
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_from: str = "Midway Online <midway@localhost>"
    notice_tick_seconds: float = Field(default=60.0, ge=0)
    # Seconds one notice's send may take in all (resolving, connecting, the request and
    # the answer's status line); a send past it is tried again later.
    notice_send_seconds: float = Field(default=10.0, gt=0, le=120)
    # Webhooks go to public addresses only (app.games.webhooks). Networks listed here
    # (CIDR, separated by commas) are let through all the same: for tests, whose
    # listeners are on 127.0.0.1; empty in production.
    webhook_allow_networks: str = ""
    test_clock: bool = False
    # The bench-only floor endpoint (WS /api/_bench/floor).
    bench: bool = False
    # Seconds a stopping process waits for requests in flight (sockets are closed at once
    # with 1012, "service restart", so that clients reconnect to another process).
    shutdown_seconds: int = Field(default=5, ge=0)
    # Logging threshold: debug, info, warning, error.
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # The module that implements the rules engine contract.
    rules_module: str = "app.rules"

    @field_validator("webhook_allow_networks")
    @classmethod
    def _networks(cls, text: str) -> str:
        for network in text.split(","):
            if network.strip():
                ipaddress.ip_network(network.strip())  # ValueError: pydantic says which
        return text


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
