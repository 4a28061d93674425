"""Where each seat's page is open (issue 14): a seat's opponent sees it online or when it
was last seen, and a seat open in two places says so on both.

Each open page names itself by a random `place` and says it is there every few seconds
(its pulse); a place is online while its last pulse is younger than ONLINE. The times are
in the database, so every server process sees every page. A pulse writes at most once per
WRITE_EVERY per place, so an open page costs little.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.games.between_models import SeatPresence
from app.games.db import Database
from app.games.errors import BadRequest
from app.games.models import utcnow

ONLINE = timedelta(seconds=15)
WRITE_EVERY = timedelta(seconds=4)
PLACE = re.compile(r"[0-9a-zA-Z_-]{8,32}")


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive times; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=utcnow().tzinfo)


@dataclass
class Presence:
    db: Database
    clock: Callable[[], datetime] = utcnow
    _written: dict[tuple[str, str, str], datetime] = field(default_factory=dict)

    def seen(self, game_id: str, seat: str, place: str) -> None:
        if not PLACE.fullmatch(place):
            raise BadRequest("a place is 8 to 32 letters, digits, '-' or '_'")
        now = self.clock()
        key = (game_id, seat, place)
        last = self._written.get(key)
        if last is not None and now - last < WRITE_EVERY:
            return
        if len(self._written) > 50_000:
            self._written.clear()
        self._written[key] = now
        try:
            with self.db.write() as session:
                done = session.execute(
                    update(SeatPresence)
                    .where(SeatPresence.game_id == game_id, SeatPresence.seat == seat)
                    .where(SeatPresence.place == place)
                    .values(last_seen=now)
                )
                if not getattr(done, "rowcount", 0):
                    session.add(
                        SeatPresence(game_id=game_id, seat=seat, place=place, last_seen=now)
                    )
        except IntegrityError:  # the same place's two pulses at once: one row is enough
            pass

    def report(self, game_id: str, seat: str, place: str | None) -> dict[str, Any]:
        """Each seat's presence (online, last seen) and how many other places hold `seat`."""
        now = self.clock()
        with self.db.read() as session:
            rows = session.execute(
                select(SeatPresence.seat, SeatPresence.place, SeatPresence.last_seen).where(
                    SeatPresence.game_id == game_id
                )
            ).all()
        seats: dict[str, dict[str, Any]] = {}
        elsewhere = 0
        for row in rows:
            when = aware(row.last_seen)
            online = now - when < ONLINE
            entry = seats.setdefault(row.seat, {"online": False, "last_seen": None})
            entry["online"] = entry["online"] or online
            if entry["last_seen"] is None or when.isoformat() > entry["last_seen"]:
                entry["last_seen"] = when.isoformat()
            if row.seat == seat and row.place != place and online:
                elsewhere += 1
        return {"seats": seats, "elsewhere": elsewhere}
