"""Server configuration, read from the environment (pydantic-settings).

Every knob has a default that runs a server on a fresh machine: SQLite under ./data/,
port 8000 on 127.0.0.1, no broker.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field
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
    # A snapshot of the game state every this many actions.
    snapshot_every: int = Field(default=50, ge=1)
    # States kept in memory per process (the game's latest state, keyed by its log length).
    state_cache_size: int = Field(default=512, ge=0)
    # Seconds between websocket heartbeats.
    heartbeat_seconds: float = Field(default=20.0, gt=0)
    # A reconnecting socket more than this many versions behind gets a fresh view.
    max_catchup_patches: int = Field(default=100, ge=0)
    # Largest request body accepted, in bytes.
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    # Largest game record accepted for import (POST /api/records), in bytes.
    max_record_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    # Notices away from the page (issue 14): SMTP for email (none: no email is sent), the
    # address seat pages are reached at (for links in notices), and how often seats'
    # clocks are looked at (0: never; the test-only POST /api/_clock/tick does it then).
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_from: str = "Midway Online <midway@localhost>"
    public_url: str = ""
    notice_tick_seconds: float = Field(default=60.0, ge=0)
    test_clock: bool = False
    # The bench-only floor endpoint (WS /api/_bench/floor).
    bench: bool = False
    # The module that implements the rules engine contract.
    rules_module: str = "app.rules"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
