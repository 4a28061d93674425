"""Games abandoned before their end are deleted: an unfinished game with no action for
`MIDWAY_EXPIRE_AFTER_DAYS` days (counted from its last action, or its creation) goes,
with its seats, log, patches and snapshots. Finished games are kept: their replays and
records stay readable.

Each server process sweeps every `MIDWAY_EXPIRE_SWEEP_SECONDS` (GameService); the sweep
is a plain function of the database and the time, so it can be run and tested with any
clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, delete, func, select

from app.games.db import Database
from app.games.models import ACTIONS_T, GAMES_T

FINISHED = "finished"
BATCH = 500  # games deleted per transaction

_LAST_ACTION = (
    select(func.max(ACTIONS_T.c.created_at))
    .where(ACTIONS_T.c.game_id == GAMES_T.c.id)
    .scalar_subquery()
)


def expire_games(db: Database, now: datetime, after: timedelta) -> list[str]:
    """Delete the unfinished games idle since before `now - after`; their ids."""
    cutoff = now - after
    idle = (
        select(GAMES_T.c.id, GAMES_T.c.actions, GAMES_T.c.takebacks)
        .where(GAMES_T.c.status != FINISHED)
        .where(func.coalesce(_LAST_ACTION, GAMES_T.c.created_at) < cutoff)
        .limit(BATCH)
    )
    gone: list[str] = []
    while True:
        with db.write() as session:
            conn = session.connection()
            rows = conn.execute(idle).all()
            for game_id, actions, takebacks in rows:
                # only if nothing happened since it was found idle: an action in between
                # changes `actions`, a take-back `takebacks`, a game that ended `status`
                still = and_(
                    GAMES_T.c.id == game_id,
                    GAMES_T.c.actions == actions,
                    GAMES_T.c.takebacks == takebacks,
                    GAMES_T.c.status != FINISHED,
                )
                if conn.execute(delete(GAMES_T).where(still)).rowcount:
                    gone.append(game_id)  # seats, actions, patches, snapshots: ON DELETE CASCADE
        if len(rows) < BATCH:
            return gone
