"""Notices sent from an outbox (issue 31): notice_outbox

Revision ID: 0008_notice_outbox
Revises: 0007_teams
Create Date: 2026-12-05

Each notice due is a row, claimed by one process at a time (a lease), tried again after a
failure that may pass, and deleted once delivered; a seat is marked told only then.
Nothing to carry over: notices due before are those the seats' flags already record.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_notice_outbox"
down_revision: str | None = "0007_teams"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notice_outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("how", sa.String(length=8), nullable=False),
        sa.Column("scenario", sa.String(length=200), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failed", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_notice_outbox_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notice_outbox")),
    )
    op.create_index(op.f("ix_notice_outbox_game_id"), "notice_outbox", ["game_id"])
    op.create_index(op.f("ix_notice_outbox_next_at"), "notice_outbox", ["next_at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_notice_outbox_next_at"), table_name="notice_outbox")
    op.drop_index(op.f("ix_notice_outbox_game_id"), table_name="notice_outbox")
    op.drop_table("notice_outbox")
