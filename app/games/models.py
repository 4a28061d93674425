"""The tables of a game (DESIGN.md, Storage). Schema changes go through Alembic only.

A game is its creation record plus its append-only action log; everything else here
(seat views, patches, snapshots) can be rebuilt from those two by replay.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Constraint names that match on SQLite and PostgreSQL (and in Alembic's batch mode).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class BigSeed(TypeDecorator[int]):
    """A 128-bit seed (app.games.seeds), beyond BIGINT: stored as its decimal text."""

    impl = String(40)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> int | None:
        return None if value is None else int(value)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Game(Base):
    """The creation record. `actions` is the length of the log: the game-wide count that
    never leaves the server (a seat sees only its own view's version). `takebacks` counts
    the take-backs (issue 14), each of which shortened the log: with `actions` it names
    one log for good (a process's memory of a game is keyed by both), and it never
    leaves the server either."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    scenario: Mapped[str] = mapped_column(String(64))
    options: Mapped[list[Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(32))
    teams: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # 17a
    seed: Mapped[int] = mapped_column(BigSeed)
    seed_salt: Mapped[str] = mapped_column(String(64), default="", server_default="")
    seed_sha256: Mapped[str] = mapped_column(String(64))  # app.games.seeds.commitment
    status: Mapped[str] = mapped_column(String(16))
    actions: Mapped[int] = mapped_column(Integer, default=0)
    takebacks: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Seat(Base):
    """One seat of a game: its token's hash and its view's version. The view itself is
    `view(state, seat)`, recomputed, never stored; `view_stamp` names the engine that
    computed the version's view (app/games/store.py)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    view_stamp: Mapped[str] = mapped_column(String(64), default="")
    # issue 35: the level of the computer that plays this seat (app/bots), or None for a
    # person's seat
    computer: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)
    # issue 30: the seat's standing "Done for this Turn" (app/games/standing.py): the Turn
    # it stands for, and why it stopped (None while it stands); None, None: no order
    standing_turn: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    standing_stop: Mapped[str | None] = mapped_column(String(200), nullable=True, default=None)


class ActionRecord(Base):
    """The log: who did what, when; and what each seat was told. Actions are appended;
    only a take-back (issue 14, app/games/takeback.py) removes one, from a seat's last."""

    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(32))
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    seat_version: Mapped[int] = mapped_column(Integer)
    events: Mapped[dict[str, Any]] = mapped_column(JSON)  # seat -> the events it may see, as JSON
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Patch(Base):
    """RFC 6902 patch taking a seat's view from `version - 1` to `version`; NULL when the
    seat's old view could not be recomputed (the engine changed): a fresh view then."""

    __tablename__ = "patches"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    patch: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)


class Snapshot(Base):
    """The state after `seq` actions: the JSON text of the engine's `snapshot(state)`,
    a document with its format version (app/rules/engine/snapshot.py). Used only by the engine
    `stamp` that made it (app/games/states.py says why)."""

    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    stamp: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(Text)


class ReplayMarks(Base):
    """Where a finished game stood after each of its actions (app.games.replays.Mark), as
    the replay of its log by the engine `stamp` found them: the JSON text of a list of
    [Turn, step, battles, in battle], one per action and one before the first. Kept at the
    game's first replay (issue 34), with snapshots of its states, so that its replay page
    is built without replaying the whole game again."""

    __tablename__ = "replay_marks"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    stamp: Mapped[str] = mapped_column(String(64))
    marks: Mapped[str] = mapped_column(Text)


class BenchPing(Base):
    """One committed insert per floor round trip of the bench (tools/bench_server.py)."""

    __tablename__ = "bench_pings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# The write path speaks SQL Core to the tables (no unit of work: one statement a row).
GAMES_T = cast(Table, Game.__table__)
SEATS_T = cast(Table, Seat.__table__)
ACTIONS_T = cast(Table, ActionRecord.__table__)
PATCHES_T = cast(Table, Patch.__table__)
SNAPSHOTS_T = cast(Table, Snapshot.__table__)
REPLAY_MARKS_T = cast(Table, ReplayMarks.__table__)
BENCH_T = cast(Table, BenchPing.__table__)

# The tables of what happens between moves (issue 14) join the same metadata.
from app.games import between_models as _between_models  # noqa: E402, F401
