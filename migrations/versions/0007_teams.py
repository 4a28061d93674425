"""Teams of two a side (17a): games.teams, part of the creation record

Revision ID: 0007_teams
Revises: 0006_takebacks
Create Date: 2026-12-02

A game's seats follow from its creation record (scenario, mode, teams: app.rules.modes.seats).
Games created before have one seat a side: teams false. Going down, a team game keeps its
seats (`usa-tf16`, ...) but not its teams: the older server cannot replay it, and says so
(app.games.states.Unreplayable) rather than guess.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_teams"
down_revision: str | None = "0006_takebacks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("teams", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("teams")
