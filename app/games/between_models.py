"""The tables of what happens between moves (issue 14): where each seat is open, the chat,
the lobby's open seats. Schema changes go through Alembic only (0003_between_moves)."""

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
