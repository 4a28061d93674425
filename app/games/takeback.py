"""Take-back (issue 14): a seat takes back its last action, while the engine says it may.

The engine keeps what each seat may take back (app/rules/modes/takeback.py: no die rolled and
nothing revealed to anyone else since). The store, under the game's write lock, takes
the seat's last action out of the log:

- The actions after it, if any, are other seats' actions of a simultaneous step that the
  seat could not see (the engine counts on nothing else). They are replayed without the
  seat's action: each must still be legal and tell every seat exactly what it told, and
  the seat's action applied after them must give the state the game has now (they
  commute). Then they stay, each one place earlier in the log.
- The snapshots past the shortened log go; `games.takebacks` counts one more, so that no
  process's memory of the longer log is taken for the new one (app/games/cache.py).
- Every seat's view is recomputed as after an action: the taking seat gets a new
  version and its patch; a seat whose view did not change keeps its version and is sent
  nothing (the take-back never shows to it); one whose view changed gets a new version.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, delete, func, insert, select, update

from app.games.engine import Engine, Json
from app.games.errors import IllegalMove
from app.games.models import ACTIONS_T, GAMES_T, PATCHES_T, SEATS_T, SNAPSHOTS_T
from app.games.states import StateLoader, told
from app.games.writes import NOTIFY_CHANNEL, SeatChange

NOTHING = "nothing of yours to take back"
# 3: what the engine promised would commute did not: the game is left as it is.
DEPENDS = "you cannot take back now: what was done since depends on it (3)"


@dataclass(frozen=True)
class Kept:
    """A log record after the action taken back; it moves one place earlier."""

    seq: int
    seat: str
    action: Json
    seat_version: int
    events: Json
    created_at: datetime


@dataclass(frozen=True)
class Undone:
    """The log without the seat's last action (at `seq`): the records kept after it and
    the state after them."""

    seq: int
    kept: tuple[Kept, ...]
    state: Any


def refusal(allowed: Any) -> IllegalMove:
    """422: why the seat has nothing to take back, with the rule (1f, 1c, 3)."""
    rule = allowed.rule or None
    message = f"nothing to take back: {allowed.why}" if rule else str(allowed.why)
    return IllegalMove(message, rule=rule)


def undo(
    engine: Engine, loader: StateLoader, conn: Connection, game: Row[Any], seat: str, now: Any
) -> Undone:
    """The game without `seat`'s last action, `now` being its state (refused with 422)."""
    allowed = engine.takeback(now, seat)
    if allowed.actions < 1:
        raise refusal(allowed)
    last = (
        select(func.max(ACTIONS_T.c.seq))
        .where(ACTIONS_T.c.game_id == game.id, ACTIONS_T.c.seat == seat)
        .scalar_subquery()
    )
    rows = conn.execute(
        select(ACTIONS_T)
        .where(ACTIONS_T.c.game_id == game.id, ACTIONS_T.c.seq >= last)
        .order_by(ACTIONS_T.c.seq)
    ).all()
    if not rows:
        raise IllegalMove(NOTHING)
    first = rows[0]
    later = [
        Kept(r.seq, r.seat, r.action, r.seat_version, r.events, r.created_at) for r in rows[1:]
    ]
    state = loader.state_at(conn, game, first.seq - 1)
    try:
        for record in later:
            state, events = engine.apply(state, record.seat, engine.parse_action(record.action))
            if told(engine, state, events) != record.events:
                raise IllegalMove(DEPENDS, rule="3")
        again, _events = engine.apply(state, seat, engine.parse_action(first.action))
    except (engine.illegal_action, engine.parse_error) as exc:
        raise IllegalMove(DEPENDS, rule="3") from exc
    if again != now:
        raise IllegalMove(DEPENDS, rule="3")
    return Undone(first.seq, tuple(later), state)


@dataclass(frozen=True)
class TakeBackWrites:
    """The values one take-back writes."""

    game_id: str
    undone: Undone
    status: str
    finished_at: Any
    stamp: str
    seats: tuple[SeatChange, ...]


def write_takeback(conn: Connection, w: TakeBackWrites, notify: str | None) -> None:
    """Shorten the log by the action taken back, drop the snapshots past it, store each
    changed seat's version with its patch; on PostgreSQL, send `notify` as the news of
    this commit (app.games.fanout), as an action's writes do."""
    at = w.undone.seq
    conn.execute(delete(ACTIONS_T).where(ACTIONS_T.c.game_id == w.game_id, ACTIONS_T.c.seq >= at))
    if w.undone.kept:
        conn.execute(
            insert(ACTIONS_T),
            [
                {
                    "game_id": w.game_id,
                    "seq": k.seq - 1,
                    "seat": k.seat,
                    "action": k.action,
                    "seat_version": k.seat_version,
                    "events": k.events,
                    "created_at": k.created_at,
                }
                for k in w.undone.kept
            ],
        )
    conn.execute(
        delete(SNAPSHOTS_T).where(SNAPSHOTS_T.c.game_id == w.game_id, SNAPSHOTS_T.c.seq >= at)
    )
    conn.execute(
        update(GAMES_T)
        .where(GAMES_T.c.id == w.game_id)
        .values(
            actions=GAMES_T.c.actions - 1,
            takebacks=GAMES_T.c.takebacks + 1,
            status=w.status,
            finished_at=w.finished_at,
        )
    )
    for change in w.seats:
        conn.execute(
            update(SEATS_T)
            .where(SEATS_T.c.game_id == w.game_id, SEATS_T.c.seat == change.seat)
            .values(version=change.version, view_stamp=w.stamp)
        )
        conn.execute(
            insert(PATCHES_T).values(
                game_id=w.game_id, seat=change.seat, version=change.version, patch=change.patch
            )
        )
    if notify is not None and conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_notify(NOTIFY_CHANNEL, notify)))
