"""Alembic environment: the game tables' metadata, batch mode on SQLite."""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import engine_from_config, pool, text

from app.games.db import normalise_url
from app.games.models import Base

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name)

url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("DATABASE_URL")
if url and config.attributes.get("configure_logger", True):
    config.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))

target_metadata = Base.metadata


def run_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connectable = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with connectable.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":  # servers starting at once migrate in turn
                connection.execute(text("SELECT pg_advisory_xact_lock(7283190)"))
            context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
