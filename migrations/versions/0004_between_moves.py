"""Between moves: where seats are open, the chat, the lobby, notices and paces

Revision ID: 0004_between_moves
Revises: 0003_seed_salt
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_between_moves"
down_revision: str | None = "0003_seed_salt"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["game_id"], ["games.id"], name=op.f(f"fk_{table}_game_id_games"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "seat_presence",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("place", sa.String(length=32), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        _game_fk("seat_presence"),
        sa.PrimaryKeyConstraint("game_id", "seat", "place", name=op.f("pk_seat_presence")),
    )
    op.create_table(
        "chat_messages",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("audience", sa.String(length=48), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("chat_messages"),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_chat_messages")),
    )
    op.create_table(
        "lobby_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _game_fk("lobby_games"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_lobby_games")),
    )
    op.create_table(
        "lobby_seats",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("taken", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["lobby_games.game_id"],
            name=op.f("fk_lobby_seats_game_id_lobby_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_lobby_seats")),
    )
    op.create_table(
        "seat_notices",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.String(length=32), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("webhook", sa.String(length=2000), nullable=True),
        sa.Column("remind_hours", sa.Integer(), nullable=True),
        sa.Column("move_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("told", sa.Boolean(), nullable=False),
        sa.Column("reminded", sa.Boolean(), nullable=False),
        sa.Column("overdue", sa.Boolean(), nullable=False),
        sa.Column("vacation_left_s", sa.Integer(), nullable=False),
        _game_fk("seat_notices"),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seat_notices")),
    )
    op.create_table(
        "game_paces",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("days_per_move", sa.Integer(), nullable=False),
        sa.Column("vacation_days", sa.Integer(), nullable=False),
        sa.Column("claimed_by", sa.String(length=32), nullable=True),
        _game_fk("game_paces"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_paces")),
    )


def downgrade() -> None:
    op.drop_table("game_paces")
    op.drop_table("seat_notices")
    op.drop_table("lobby_seats")
    op.drop_table("lobby_games")
    op.drop_table("chat_messages")
    op.drop_table("seat_presence")
