"""Games abandoned before their end are deleted: an unfinished game with no action for
`MIDWAY_EXPIRE_AFTER_DAYS` days (counted from its last action, or its creation) goes,
with its seats, log, patches and snapshots. Finished games are kept: their replays and
records stay readable. So are claimed games (a claim ends a paced game, issue 14), and a
paced game waits for its move as long as its pace and vacation allow before the expiry's
days start to count: its player has `days_per_move` (and his vacation) to move, and his
opponent the expiry's days after that to claim it.

Each server process sweeps every `MIDWAY_EXPIRE_SWEEP_SECONDS` (GameService); the sweep
is a plain function of the database and the time, so it can be run and tested with any
clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, select

from app.games.between_models import GamePace
from app.games.db import Database
from app.games.models import ACTIONS_T, GAMES_T
from app.games.presence import aware

FINISHED = "finished"
BATCH = 500  # games deleted per transaction
PACES_T = GamePace.__table__

_LAST_ACTION = (
    select(func.max(ACTIONS_T.c.created_at))
    .where(ACTIONS_T.c.game_id == GAMES_T.c.id)
    .scalar_subquery()
)
_IDLE_SINCE = func.coalesce(_LAST_ACTION, GAMES_T.c.created_at)


def expire_games(db: Database, now: datetime, after: timedelta) -> list[str]:
    """Delete the unfinished games idle since before `now - after` (later, for a paced
    game: see above); their ids."""
    cutoff = now - after
    idle = (
        select(
            GAMES_T.c.id,
            GAMES_T.c.actions,
            GAMES_T.c.takebacks,
            _IDLE_SINCE.label("idle_since"),
            PACES_T.c.days_per_move,
            PACES_T.c.vacation_days,
        )
        .outerjoin(PACES_T, PACES_T.c.game_id == GAMES_T.c.id)
        .where(GAMES_T.c.status != FINISHED, PACES_T.c.claimed_by.is_(None))
        .where(func.coalesce(_LAST_ACTION, GAMES_T.c.created_at) < cutoff)
    )
    with db.read() as session:
        rows = session.execute(idle).all()
    due = [
        (r.id, r.actions, r.takebacks)
        for r in rows
        if aware(r.idle_since) + timedelta(days=(r.days_per_move or 0) + (r.vacation_days or 0))
        < cutoff
    ]
    gone: list[str] = []
    for start in range(0, len(due), BATCH):
        with db.write() as session:
            conn = session.connection()
            for game_id, actions, takebacks in due[start : start + BATCH]:
                # only if nothing happened since it was found idle: an action in between
                # changes `actions`, a take-back `takebacks`, a game that ended `status`,
                # a claim its pace
                claimed = select(PACES_T.c.game_id).where(
                    PACES_T.c.game_id == game_id, PACES_T.c.claimed_by.is_not(None)
                )
                still = and_(
                    GAMES_T.c.id == game_id,
                    GAMES_T.c.actions == actions,
                    GAMES_T.c.takebacks == takebacks,
                    GAMES_T.c.status != FINISHED,
                    ~claimed.exists(),
                )
                if conn.execute(delete(GAMES_T).where(still)).rowcount:
                    gone.append(game_id)  # seats, actions, patches, snapshots: ON DELETE CASCADE
    return gone
