"""Seats the computer plays (issue 35): seats.computer, the level of the computer that
plays the seat, NULL for a person's

Revision ID: 0010_computer_seats
Revises: 0009_replay_marks
Create Date: 2026-12-05

Games created before have no computer seat. Going down, a computer's seat is left to
nobody: its token was never handed out, so the game waits for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_computer_seats"
down_revision: str | None = "0009_replay_marks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("computer", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("computer")
