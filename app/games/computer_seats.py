"""Which seats of a game the computer plays, and at what level (issue 35): the column
seats.computer, written at creation, never changed.

The computer plays a seat as a person would (app.games.computer); its seat has a token
like any other, handed to nobody.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import select

from app.bots import LEVELS
from app.games.db import Database
from app.games.errors import BadRequest
from app.games.models import Game, Seat


def check_computer(seats: tuple[str, ...], computer: Mapping[str, str]) -> dict[str, str]:
    """The computer's seats and levels, each a seat of this game and a level offered;
    else BadRequest naming what is wrong."""
    for seat, level in computer.items():
        if seat not in seats:
            raise BadRequest(
                f"computer: {seat!r} is no seat of this game (its seats: {', '.join(seats)})"
            )
        if level not in LEVELS:
            raise BadRequest(f"computer: level must be one of {', '.join(LEVELS)}, not {level!r}")
    return dict(computer)


def computer_seats(db: Database, game_id: str) -> dict[str, str]:
    """seat -> level of each seat of the game the computer plays."""
    with db.read() as session:
        rows = session.execute(
            select(Seat.seat, Seat.computer)
            .where(Seat.game_id == game_id)
            .where(Seat.computer.is_not(None))
        ).all()
    return {seat: str(level) for seat, level in rows}


def games_with_computer(db: Database) -> list[str]:
    """The unfinished games where the computer plays a seat (to resume at start-up)."""
    with db.read() as session:
        rows = session.execute(
            select(Seat.game_id)
            .join(Game, Game.id == Seat.game_id)
            .where(Seat.computer.is_not(None))
            .where(Game.status != "finished")
            .distinct()
        ).all()
    return sorted(str(r[0]) for r in rows)
