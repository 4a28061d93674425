"""Schema changes go through Alembic only (STYLE.md): after `upgrade head` the database
matches the SQLAlchemy models exactly, on SQLite and on PostgreSQL, and the migrations
go down and up again."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app.cli import alembic_config
from app.games.models import Base
from server.conftest import Server


def differences(url: str) -> list[Any]:
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        engine.dispose()


def test_migrated_database_matches_the_models(server: Server) -> None:
    """The live server migrated its database at start; nothing differs from the models."""
    assert differences(server.database_url) == []


def test_migrations_go_down_to_nothing_and_up_again(tmp_path: Any) -> None:
    """downgrade base, upgrade head: the same schema as the models (batch mode on SQLite)."""
    url = f"sqlite:///{tmp_path / 'migrations.db'}"
    config = alembic_config(url)
    command.upgrade(config, "head")
    command.downgrade(config, "base")
    command.upgrade(config, "head")
    assert differences(url) == []
