"""Snapshots as JSON: snapshots.state is the text of the engine's snapshot document

Revision ID: 0005_snapshot_json
Revises: 0004_between_moves
Create Date: 2026-12-02

A snapshot was a pickle of the state (read back, a pickle runs whatever it holds, and it
breaks with every change of a class); it is now the JSON text of the rules engine's
`snapshot(state)`, a versioned document of JSON types (app/rules/engine/snapshot.py). Snapshots
are a cache of the log's replay, so the old ones are dropped, not converted: a game
without one is replayed from its log, and snapshotted again on its next 50th action.
The way down drops the JSON snapshots in turn.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_snapshot_json"
down_revision: str | None = "0004_between_moves"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _state_column(type_: sa.types.TypeEngine[object]) -> None:
    op.execute("DELETE FROM snapshots")
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("state")
        batch.add_column(sa.Column("state", type_, nullable=False))


def upgrade() -> None:
    _state_column(sa.Text())


def downgrade() -> None:
    _state_column(sa.LargeBinary())
