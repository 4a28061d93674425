"""Chat by audience (issue 14): who may write to and read which channel.

Channels: `all` (every seat); `side:<side>`, a side's own channel, open only before play
starts and only when the side has two players (17c1: teammates confer during set-up;
once play starts they talk only by radio, 17c3); `seat:<seat>`, one seat's.

In the umpired modes the players are separated (18a) and "all information must go
through the umpire" (18c): a player writes to the umpire only (`seat:umpire`, umpired),
or to nobody (double-blind: the server is the umpire), besides his side's channel during
set-up (17c1: the commanders of a side meet before the game begins); the umpire writes
to everyone, a side or one player, and reads every channel.

A seat's side is the start of its id (`usa`, `usa-tf16`): the game's seats say which
seats share a side, and nothing here lists them.

Messages are stored, limited in size and rate, and handed out as text (templates escape
them; the JSON carries them verbatim). After the end they are part of the game's record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from unicodedata import category

from sqlalchemy import func, select

from app.games.between_models import ChatMessage
from app.games.db import Database
from app.games.engine import side_of
from app.games.errors import BadRequest, GameError, GameNotFound
from app.games.models import GAMES_T, utcnow

ALL = "all"
UMPIRE = "umpire"
TWO_PLAYER = "two-player"
WITH_UMPIRE = "umpired"  # 18: a human umpire's seat (double-blind has none)
MAX_CHARS = 500
FLOOD_WINDOW = timedelta(seconds=10)
FLOOD_MESSAGES = 5  # at most this many messages by one seat in FLOOD_WINDOW
MAX_PER_SEAT = 2000  # messages one seat may leave in one game
SIDE_WORDS = {"usa": "United States", "japan": "Japan"}


class MessageTooLarge(GameError):
    status = 413


class TooManyMessages(GameError):
    status = 429


def side_channel(seat: str) -> str:
    return f"side:{side_of(seat)}"


def seat_channel(seat: str) -> str:
    """One seat's channel: the umpire's (a player writes to him) or a player's (the
    umpire writes to him)."""
    return f"seat:{seat}"


def readers(audience: str, seats: Iterable[str]) -> frozenset[str]:
    """The seats a message to `audience` reaches (its writer reads it too; the umpire,
    in an umpired game, reads every channel: `may_read`)."""
    if audience == ALL:
        return frozenset(seats)
    return frozenset(s for s in seats if audience in (side_channel(s), seat_channel(s)))


def may_read(seat: str, audience: str, writer: str = "") -> bool:
    """18c: the umpire reads every channel ("all information must go through the umpire")."""
    return (
        seat in (writer, UMPIRE)
        or audience in (ALL, seat_channel(seat))
        or (seat != UMPIRE and audience == side_channel(seat))
    )


def check_audience(
    seat: str, audience: str, seats: Iterable[str], started: bool, mode: str = TWO_PLAYER
) -> None:
    """Refuse a channel the seat may not write to now, naming the rule."""
    seats = tuple(seats)
    if seat == UMPIRE:
        if audience != ALL and not readers(audience, seats) - {UMPIRE}:
            raise BadRequest(
                f"the umpire writes to all, a side or a player, not {audience[:48]!r}",
                rule="18c",
            )
        return
    if audience.startswith("side:") and audience == side_channel(seat):
        _check_side_channel(audience, seats, started)
    elif audience == seat_channel(UMPIRE) and UMPIRE in seats:
        return  # 18c: all information goes through the umpire
    elif mode != TWO_PLAYER:
        raise BadRequest(_separated(mode), rule="18a")
    elif audience != ALL:
        raise BadRequest(f"no chat channel {audience[:48]!r} for the {seat} seat", rule="17c1")


def _check_side_channel(audience: str, seats: tuple[str, ...], started: bool) -> None:
    if len(readers(audience, seats)) < 2:
        raise BadRequest("a side's own channel is for a side of two players (17c1)", rule="17c1")
    if started:
        raise BadRequest(
            "once play starts, teammates talk only by radio (17c3); the side's channel "
            "was open during set-up (17c1)",
            rule="17c3",
        )


def _separated(mode: str) -> str:
    """18a: why a player of an umpired game writes to no other player."""
    if mode == WITH_UMPIRE:
        return (
            "the players are separated (18a): all information goes through the umpire "
            "(18c), so a player writes to the umpire only"
        )
    return (
        "the players are separated (18a) and the server is the umpire: a player writes "
        "to no other player (his side's channel is open during set-up only, 17c1)"
    )


def channels(seat: str, seats: tuple[str, ...], started: bool, mode: str) -> dict[str, Any]:
    """The channels `seat` may write to now, each with its words for the page, and, when
    it has none, why (the rule that closes them)."""
    open_ = []
    why = ""
    for audience, label in _candidates(seat, seats):
        try:
            check_audience(seat, audience, seats, started, mode)
        except BadRequest as exc:
            why = why or exc.message
            continue
        open_.append({"audience": audience, "label": label})
    return {"to": open_, "closed": "" if open_ else why}


def _candidates(seat: str, seats: tuple[str, ...]) -> list[tuple[str, str]]:
    out = [(ALL, "Everyone")]
    if seat == UMPIRE:
        sides = sorted({side_of(s) for s in seats if s != UMPIRE})
        out += [(f"side:{x}", SIDE_WORDS.get(x, x)) for x in sides]
        out += [(seat_channel(s), s) for s in seats if s not in (UMPIRE, side_of(s))]
        return out
    out.append((side_channel(seat), "My side only"))
    if UMPIRE in seats:
        out.append((seat_channel(UMPIRE), "The umpire"))
    return out


def check_text(text: str) -> str:
    text = text.strip()
    if not text:
        raise BadRequest("an empty message is not sent")
    if len(text) > MAX_CHARS:
        raise MessageTooLarge(f"a message is at most {MAX_CHARS} characters, not {len(text)}")
    if not all(printing(c) for c in text):
        raise BadRequest(
            "a message is text: control, format (bidi, zero-width) and unpaired "
            "surrogate characters are refused"
        )
    return text


# Unicode's categories of characters that print nothing of their own or rearrange the
# text around them: C0 and C1 controls (Cc), format characters such as the bidi overrides
# and zero-width ones (Cf), unpaired surrogates (Cs), private use (Co), unassigned (Cn),
# and line and paragraph separators (Zl, Zp).
NOT_PRINTING = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def printing(c: str) -> bool:
    """Whether a message may hold the character `c` (lines and tabs are kept)."""
    return c in "\n\t" or (c.isprintable() or category(c) not in NOT_PRINTING)


def message_json(m: ChatMessage | Any) -> dict[str, Any]:
    return {
        "seq": m.seq,
        "seat": m.seat,
        "audience": m.audience,
        "text": m.text,
        "at": m.created_at.isoformat(),
    }


@dataclass
class Chat:
    db: Database
    clock: Callable[[], datetime] = utcnow

    def post(
        self, game_id: str, seat: str, audience: str, text: str, seats: tuple[str, ...]
    ) -> dict[str, Any]:
        text = check_text(text)
        with self.db.write() as session:
            game = session.execute(
                select(GAMES_T.c.status, GAMES_T.c.mode)
                .where(GAMES_T.c.id == game_id)
                .with_for_update()
            ).one_or_none()
            if game is None:
                raise GameNotFound(f"no game {game_id!r}")
            check_audience(seat, audience, seats, game.status != "setup", game.mode)
            now = self.clock()
            self._check_flood(session, game_id, seat, now)
            last = session.scalar(
                select(func.max(ChatMessage.seq)).where(ChatMessage.game_id == game_id)
            )
            message = ChatMessage(
                game_id=game_id,
                seq=(last or 0) + 1,
                seat=seat,
                audience=audience,
                text=text,
                created_at=now,
            )
            session.add(message)
            session.flush()
            return message_json(message)

    def _check_flood(self, session: Any, game_id: str, seat: str, now: datetime) -> None:
        mine = select(func.count()).where(ChatMessage.game_id == game_id, ChatMessage.seat == seat)
        recent = session.scalar(mine.where(ChatMessage.created_at > now - FLOOD_WINDOW))
        if recent >= FLOOD_MESSAGES:
            raise TooManyMessages(
                f"at most {FLOOD_MESSAGES} messages in {FLOOD_WINDOW.seconds} seconds: "
                "wait a moment"
            )
        if session.scalar(mine) >= MAX_PER_SEAT:
            raise TooManyMessages(f"a seat may leave at most {MAX_PER_SEAT} messages a game")

    def read(self, game_id: str, seat: str | None, since: int = 0) -> list[dict[str, Any]]:
        """The messages after `since` that `seat` may read; every message when None (a
        finished game's record)."""
        with self.db.read() as session:
            rows = session.scalars(
                select(ChatMessage)
                .where(ChatMessage.game_id == game_id, ChatMessage.seq > since)
                .order_by(ChatMessage.seq)
            ).all()
        return [message_json(m) for m in rows if seat is None or may_read(seat, m.audience, m.seat)]

    def channels(self, game_id: str, seat: str, seats: tuple[str, ...]) -> dict[str, Any]:
        """The channels the seat may write to now (`channels`)."""
        with self.db.read() as session:
            game = session.execute(
                select(GAMES_T.c.status, GAMES_T.c.mode).where(GAMES_T.c.id == game_id)
            ).one_or_none()
        if game is None:
            raise GameNotFound(f"no game {game_id!r}")
        return channels(seat, seats, game.status != "setup", game.mode)
