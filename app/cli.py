"""`midway serve`: apply the migrations, then serve on HOST:PORT (DESIGN.md, Storage:
one command runs the server on a fresh machine). `midway migrate` only migrates."""

from __future__ import annotations

import argparse
from pathlib import Path

from alembic import command
from alembic.config import Config

from app import logs
from app.games.db import ensure_sqlite_dir, is_sqlite, normalise_url
from app.settings import Settings, get_settings

ROOT = Path(__file__).resolve().parent.parent


def alembic_config(database_url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalise_url(database_url).replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def migrate(settings: Settings) -> None:
    ensure_sqlite_dir(settings.database_url)
    command.upgrade(alembic_config(settings.database_url), "head")


def check_workers(settings: Settings, workers: int) -> None:
    """Several processes need a broker to pass "game G changed" between them."""
    local = settings.broker == "local" or (
        settings.broker == "auto" and is_sqlite(settings.database_url)
    )
    if workers > 1 and local:
        raise SystemExit(
            "--workers > 1 needs a broker: PostgreSQL (DATABASE_URL) or MIDWAY_BROKER=redis"
        )


def serve(settings: Settings, workers: int) -> None:
    import uvicorn

    from app.api.deadlines import PROTOCOL
    from app.api.wire import WIRE

    check_workers(settings, workers)
    migrate(settings)
    uvicorn.run(
        "app.api:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=workers,
        ws=WIRE,  # uvicorn's sans-I/O websockets, deflated at level 1 (app.api.wire)
        http=PROTOCOL,  # uvicorn's httptools protocol, with a deadline on the headers
        log_config=logs.config(settings.log_level),
        access_log=False,  # app.api.access writes one line per request, without its query
        timeout_keep_alive=30,
        ws_max_size=64 * 1024,
        timeout_graceful_shutdown=settings.shutdown_seconds,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="midway", description="Midway Online game server")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="apply migrations, then serve HTTP and websockets")
    run.add_argument("--port", type=int, help="port (default $PORT or 8000)")
    run.add_argument("--host", help="address (default $HOST or 127.0.0.1)")
    run.add_argument("--workers", type=int, default=1, help="server processes")
    sub.add_parser("migrate", help="apply the database migrations and exit")
    args = parser.parse_args(argv)
    settings = get_settings()
    logs.configure(settings.log_level)
    if args.command == "migrate":
        migrate(settings)
        return 0
    overrides = {k: v for k, v in (("port", args.port), ("host", args.host)) if v is not None}
    serve(settings.model_copy(update=overrides), args.workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
