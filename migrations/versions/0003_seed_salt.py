"""128-bit seeds with a salted commitment: games.seed as decimal text, games.seed_salt

Revision ID: 0003_seed_salt
Revises: 0002
Create Date: 2026-12-01

A seed of 128 bits does not fit a BIGINT: it is kept as its decimal text. The salt that
the commitment `seed_sha256` covers with it is new; games created before have an empty
salt (their commitment is the SHA-256 of the seed alone: app.games.seeds).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_seed_salt"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("games") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.BigInteger(),
            type_=sa.String(length=40),
            existing_nullable=False,
            postgresql_using="seed::text" if postgres else None,
        )
        batch.add_column(
            sa.Column("seed_salt", sa.String(length=64), nullable=False, server_default="")
        )


def downgrade() -> None:
    """Seeds of 64 bits or more cannot go back into a BIGINT: their games are kept with
    their seed cut to its low 63 bits (their dice can then no longer be replayed)."""
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_salt")
        batch.alter_column(
            "seed",
            existing_type=sa.String(length=40),
            type_=sa.BigInteger(),
            existing_nullable=False,
            postgresql_using="mod(seed::numeric, 9223372036854775808)::bigint"
            if postgres
            else None,
        )
