"""The tables of what happens between moves (issue 14): where each seat is open, the chat,
the lobby's open seats. Schema changes go through Alembic only (0004_between_moves)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.games.models import Base, utcnow


class SeatPresence(Base):
    """One place (a browser tab) where a seat's page is open, and when it last said so."""

    __tablename__ = "seat_presence"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(32), primary_key=True)
    place: Mapped[str] = mapped_column(String(32), primary_key=True)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """One chat message: who wrote it, to which audience ("all", or "side:<side>")."""

    __tablename__ = "chat_messages"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(32))
    audience: Mapped[str] = mapped_column(String(48))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LobbyGame(Base):
    """A game opened to anyone: listed in the lobby while a seat of it is free."""

    __tablename__ = "lobby_games"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LobbySeat(Base):
    """A seat of a lobby game nobody holds yet; `taken` once its link was handed out."""

    __tablename__ = "lobby_seats"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("lobby_games.game_id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(32), primary_key=True)
    taken: Mapped[bool] = mapped_column(default=False)


class SeatNotice(Base):
    """How a seat is told it is its move away from the page (each opted into), and the
    seat's clock: since when the move has been its, what it was sent, its vacation left."""

    __tablename__ = "seat_notices"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(32), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    webhook: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    remind_hours: Mapped[int | None] = mapped_column(Integer, nullable=True)
    move_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    told: Mapped[bool] = mapped_column(default=False)
    reminded: Mapped[bool] = mapped_column(default=False)
    overdue: Mapped[bool] = mapped_column(default=False)
    vacation_left_s: Mapped[int] = mapped_column(Integer, default=0)


class GamePace(Base):
    """A correspondence pace: days per move, a vacation allowance per seat, and the seat
    that claimed the game when its opponent was overdue."""

    __tablename__ = "game_paces"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    days_per_move: Mapped[int] = mapped_column(Integer)
    vacation_days: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)


class NoticeOutbox(Base):
    """A notice to send (issue 31): one row per seat, kind and way ("email" or
    "webhook"), sent by whichever process claims it first (a lease: `lease` names the
    claim, `lease_until` when it lapses), tried again at `next_at` after a failure that
    may pass, and kept as `failed` once given up, until the seat's move passes, so the
    notice is not queued again meanwhile. A delivered notice's row is deleted and the
    seat marked told (or reminded). Where to send is read from the seat's settings at
    the send: a seat that opted out meanwhile is sent nothing."""

    __tablename__ = "notice_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))
    how: Mapped[str] = mapped_column(String(8))
    scenario: Mapped[str] = mapped_column(String(200))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    lease: Mapped[str | None] = mapped_column(String(32), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    failed: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
