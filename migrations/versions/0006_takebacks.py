"""Take-back: games.takebacks, how many times a take-back shortened the log

Revision ID: 0006_takebacks
Revises: 0005_snapshot_json
Create Date: 2026-12-02

A take-back (issue 14) removes a seat's last action from the log; the log may then grow
back to the same length with other actions. With `actions`, `takebacks` names one log
for good: a process's memory of a game is keyed by both (app/games/cache.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_takebacks"
down_revision: str | None = "0005_snapshot_json"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("takebacks", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takebacks")
