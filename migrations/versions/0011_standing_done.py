"""A seat's standing "Done for this Turn" (issue 30): seats.standing_turn, the Turn the
order stands for, and seats.standing_stop, why it stopped (NULL while it stands)

Revision ID: 0011_standing_done
Revises: 0010_computer_seats
Create Date: 2026-12-05

Seats of games created before have no order. Going down, the orders are dropped: the
players say Done themselves again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_standing_done"
down_revision: str | None = "0010_computer_seats"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("standing_turn", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("standing_stop", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("standing_stop")
        batch.drop_column("standing_turn")
