"""Views are recomputed, not stored: seats.view -> seats.view_stamp; a patch may be NULL

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

A seat's view is view(state, seat) for the state after the log; the database keeps the
log, the snapshots, each seat's version and the patches. `view_stamp` names the engine
that computed the seat's current view; a NULL patch tells the client to take a fresh view.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("view")
        batch.add_column(
            sa.Column("view_stamp", sa.String(length=64), nullable=False, server_default="")
        )
    with op.batch_alter_table("patches") as batch:
        batch.alter_column("patch", existing_type=sa.JSON(), nullable=True)


def downgrade() -> None:
    with op.batch_alter_table("patches") as batch:
        batch.alter_column("patch", existing_type=sa.JSON(), nullable=False)
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("view_stamp")
        batch.add_column(
            sa.Column("view", sa.JSON(), nullable=False, server_default=sa.text("'{}'"))
        )
