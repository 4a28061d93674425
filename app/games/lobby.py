"""The lobby (issue 14): games opened to anyone, and joining one.

A lobby game is created like any other; the seats its creator does not keep are listed
as free. Joining one makes that seat a new token (the one made at creation is never handed
out) and hands its link to the joiner, once: the seat is taken in the same transaction
that stores the new token's hash, so two joiners can never both get it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from app.games.between_models import GamePace, LobbyGame, LobbySeat
from app.games.db import Database
from app.games.errors import BadRequest, GameError, GameNotFound
from app.games.models import GAMES_T, Seat
from app.games.tokens import new_token, token_hash

MAX_LISTED = 100


class SeatTaken(GameError):
    status = 409


@dataclass
class Lobby:
    db: Database

    def open(self, game_id: str, free: tuple[str, ...]) -> None:
        with self.db.write() as session:
            session.add(LobbyGame(game_id=game_id))
            session.flush()
            for seat in free:
                session.add(LobbySeat(game_id=game_id, seat=seat, taken=False))

    def offered(self, game_id: str) -> dict[str, bool]:
        """The seats a lobby game offered to anyone, each with whether it is taken (none
        for a game not opened in the lobby)."""
        with self.db.read() as session:
            rows = session.execute(
                select(LobbySeat.seat, LobbySeat.taken)
                .where(LobbySeat.game_id == game_id)
                .order_by(LobbySeat.seat)
            ).all()
        return {r.seat: r.taken for r in rows}

    def listing(self) -> list[dict[str, Any]]:
        """Open games, newest first: the MAX_LISTED newest with a free seat that are not
        over (only those are read: a lobby of thousands of open games is read as one of a
        hundred), each with its pace's days a move (None: no pace)."""
        free = (
            select(LobbySeat.game_id)
            .where(LobbySeat.game_id == LobbyGame.game_id, LobbySeat.taken.is_(False))
            .exists()
        )
        newest = (
            select(LobbyGame.game_id)
            .join(GAMES_T, GAMES_T.c.id == LobbyGame.game_id)
            .where(free, GAMES_T.c.status != "finished")
            .order_by(LobbyGame.created_at.desc(), LobbyGame.game_id)
            .limit(MAX_LISTED)
            .subquery()
        )
        with self.db.read() as session:
            rows = session.execute(
                select(
                    GAMES_T,
                    LobbySeat.seat,
                    LobbyGame.created_at.label("opened"),
                    GamePace.days_per_move,
                )
                .join(newest, newest.c.game_id == GAMES_T.c.id)
                .join(LobbyGame, LobbyGame.game_id == GAMES_T.c.id)
                .join(LobbySeat, LobbySeat.game_id == GAMES_T.c.id)
                .outerjoin(GamePace, GamePace.game_id == GAMES_T.c.id)
                .where(LobbySeat.taken.is_(False))
                .order_by(LobbyGame.created_at.desc(), GAMES_T.c.id, LobbySeat.seat)
            ).all()
        games: dict[str, dict[str, Any]] = {}
        for r in rows:
            entry = games.setdefault(
                r.id,
                {
                    "id": r.id,
                    "scenario": r.scenario,
                    "options": list(r.options),
                    "mode": r.mode,
                    "seats_free": [],
                    "opened": r.opened.isoformat(),
                    "pace_days": r.days_per_move,
                },
            )
            entry["seats_free"].append(r.seat)
        return list(games.values())

    def join(self, game_id: str, seat: str | None) -> tuple[str, str]:
        """Take a free seat (the one asked for, else the first): (seat, its new token)."""
        with self.db.write() as session:
            free = session.scalars(
                select(LobbySeat.seat)
                .where(LobbySeat.game_id == game_id, LobbySeat.taken.is_(False))
                .order_by(LobbySeat.seat)
            ).all()
            if not free:
                if session.get(LobbyGame, game_id) is None:
                    raise GameNotFound(f"no open game {game_id!r} in the lobby")
                raise SeatTaken("every seat of this game is taken")
            if seat is None:
                seat = free[0]
            elif seat not in free:
                raise SeatTaken(f"the {seat[:32]} seat is not free; free: {', '.join(free)}")
            taken = session.execute(
                update(LobbySeat)
                .where(LobbySeat.game_id == game_id, LobbySeat.seat == seat)
                .where(LobbySeat.taken.is_(False))
                .values(taken=True)
            )
            if getattr(taken, "rowcount", 0) != 1:
                raise SeatTaken(f"the {seat} seat was just taken")
            token = new_token()
            session.execute(
                update(Seat)
                .where(Seat.game_id == game_id, Seat.seat == seat)
                .values(token_sha256=token_hash(token))
            )
        return seat, token


def check_keep(keep: str | None, seats: tuple[str, ...]) -> tuple[str, ...]:
    """The seats left free when the creator keeps `keep` (or none)."""
    if keep is not None and keep not in seats:
        raise BadRequest(f"no seat {keep[:32]!r} to keep: the seats are {', '.join(seats)}")
    return tuple(s for s in seats if s != keep)
