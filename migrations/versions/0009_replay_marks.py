"""Replay marks: where a finished game stood after each action, kept at its first replay

Revision ID: 0009_replay_marks
Revises: 0008_notice_outbox
Create Date: 2026-12-05

A finished game's replay page needs where the game stood after every action (its Turn,
step of the sequence of play and battle: app.games.replays.Mark); a process that did not
hold the game replayed the whole log for them (issue 34). They are kept at the first
replay, stamped by the engine that found them, as snapshots are: a cache of the log's
replay, dropped with its game.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_replay_marks"
down_revision: str | None = "0008_notice_outbox"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "replay_marks",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("stamp", sa.String(64), nullable=False),
        sa.Column("marks", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("replay_marks")
