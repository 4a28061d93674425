"""Your move, away from the page (issue 14): email and webhooks, each opted into per
seat, with a reminder after a set number of hours; and paces - days per move, a vacation
allowance spent only when a move would otherwise be overdue, the overdue seat reminded
and its opponent then free to claim the game.

A notice names the game and the seat and says nothing about the position: its words are
made here from the game's id, the scenario's name, the seat and the kind of notice, and
nothing else (no view, no event, no Turn).

The work is `Notices.tick(now)`: the server calls it every `notice_tick_seconds` with the
clock's time; tests call it with the time they choose.
"""

from __future__ import annotations

import json
import logging
import re
import smtplib
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any, Protocol

from sqlalchemy import or_, select, update

from app.games.between_models import GamePace, SeatNotice
from app.games.db import Database
from app.games.engine import side_of
from app.games.errors import BadRequest, GameError
from app.games.models import Game, Seat
from app.games.presence import aware

log = logging.getLogger(__name__)

EMAIL = re.compile(r"[^@\s<>\"']{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}")
WEBHOOK = re.compile(r"https?://[^\s\"'<>]{3,1990}")
MAX_REMIND_HOURS = 24 * 60
MAX_DAYS = 60


class CannotClaim(GameError):
    status = 409


WORDS = {
    "your move": "It is your move",
    "reminder": "Reminder: it is still your move",
    "overdue": "Your move is overdue: your opponent may now claim the game",
    "claimable": "Your opponent's move is overdue: you may claim the game",
}


@dataclass(frozen=True)
class Notice:
    """One notice: its words depend on nothing but these fields."""

    kind: str  # "your move", "reminder", "overdue", "claimable"
    game_id: str
    seat: str
    scenario: str
    link: str

    @property
    def subject(self) -> str:
        return f"Midway Online: {self.kind} (game {self.game_id}, {self.seat})"

    @property
    def body(self) -> str:
        lines = [
            f"{WORDS[self.kind]} in Midway Online game {self.game_id}",
            f"({self.scenario}), seat {self.seat}.",
        ]
        if self.link:
            lines.append(f"Open your seat's link (kept in your browser's My games): {self.link}")
        return "\n".join(lines) + "\n"


class Sender(Protocol):
    def email(self, to: str, notice: Notice) -> None: ...
    def webhook(self, url: str, notice: Notice) -> None: ...


@dataclass
class Outbox:
    """Sends by SMTP (when a host is set) and by webhook, and says nothing of where to in
    the log (addresses and webhook URLs are the players')."""

    smtp_host: str | None
    smtp_port: int
    smtp_from: str
    timeout: float = 10.0

    def email(self, to: str, notice: Notice) -> None:
        if not self.smtp_host:
            return
        message = EmailMessage()
        message["From"] = self.smtp_from
        message["To"] = to
        message["Subject"] = notice.subject
        message.set_content(notice.body)
        with smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=self.timeout) as smtp:
            smtp.send_message(message)

    def webhook(self, url: str, notice: Notice) -> None:
        """A JSON POST that chat services accept: `text` (Slack, Mattermost, Rocket.Chat)
        and `content` (Discord)."""
        text = notice.subject + "\n" + notice.body
        data = json.dumps({"text": text, "content": text, "username": "Midway Online"})
        request = urllib.request.Request(
            url, data=data.encode(), headers={"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(request, timeout=self.timeout) as answer:
            answer.read(1024)


def check_opt_in(email: str | None, webhook: str | None, remind_hours: int | None) -> None:
    if email is not None and not EMAIL.fullmatch(email):
        raise BadRequest("that is not an email address")
    if webhook is not None and not WEBHOOK.fullmatch(webhook):
        raise BadRequest("a webhook is an http:// or https:// URL")
    if remind_hours is not None and not 1 <= remind_hours <= MAX_REMIND_HOURS:
        raise BadRequest(f"a reminder comes after 1 to {MAX_REMIND_HOURS} hours")


def check_pace(days: int | None, vacation: int) -> None:
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise BadRequest(f"a pace is 1 to {MAX_DAYS} days per move")
    if not 0 <= vacation <= MAX_DAYS:
        raise BadRequest(f"a vacation allowance is 0 to {MAX_DAYS} days")


YourMove = Callable[[str, str], bool]  # (game, seat) -> is it that seat's move now


@dataclass
class Notices:
    db: Database
    sender: Sender
    scenario_names: Callable[[], dict[str, str]]
    base_url: str = ""
    sent: list[tuple[str, Notice]] = field(default_factory=list)  # this process's, newest last

    # -- settings of a seat and a game ---------------------------------------------------

    def opt_in(
        self, game_id: str, seat: str, email: str | None, webhook: str | None, hours: int | None
    ) -> dict[str, Any]:
        check_opt_in(email, webhook, hours)
        with self.db.write() as session:
            row = self._row(session, game_id, seat)
            row.email, row.webhook, row.remind_hours = email, webhook, hours
            return self._settings(row)

    @staticmethod
    def _settings(row: SeatNotice) -> dict[str, Any]:
        return {
            "email": row.email is not None,
            "webhook": row.webhook is not None,
            "remind_hours": row.remind_hours,
        }

    def _row(self, session: Any, game_id: str, seat: str) -> SeatNotice:
        row: SeatNotice | None = session.get(SeatNotice, (game_id, seat))
        if row is None:
            vacation = session.scalar(
                select(GamePace.vacation_days).where(GamePace.game_id == game_id)
            )
            row = SeatNotice(
                game_id=game_id,
                seat=seat,
                told=False,
                reminded=False,
                overdue=False,
                vacation_left_s=int((vacation or 0) * 86400),
            )
            session.add(row)
        return row

    def set_pace(self, game_id: str, days: int | None, vacation: int) -> None:
        check_pace(days, vacation)
        if days is None:
            return
        with self.db.write() as session:
            session.add(GamePace(game_id=game_id, days_per_move=days, vacation_days=vacation))
            session.flush()
            for seat in session.scalars(select(Seat.seat).where(Seat.game_id == game_id)):
                self._row(session, game_id, seat)

    def pace(self, game_id: str, seat: str) -> dict[str, Any] | None:
        """What both seat pages show of the pace: days per move, each seat's due time
        and vacation left, and who claimed the game."""
        with self.db.read() as session:
            pace = session.get(GamePace, game_id)
            if pace is None:
                return None
            rows = session.scalars(select(SeatNotice).where(SeatNotice.game_id == game_id)).all()
        seats = {}
        for r in rows:
            due = aware(r.move_since) + timedelta(days=pace.days_per_move) if r.move_since else None
            seats[r.seat] = {
                "due": due.isoformat() if due else None,
                "overdue": r.overdue,
                "vacation_left_hours": r.vacation_left_s // 3600,
            }
        claimable = any(v["overdue"] for s, v in seats.items() if side_of(s) != side_of(seat))
        return {
            "days_per_move": pace.days_per_move,
            "vacation_days": pace.vacation_days,
            "seats": seats,
            "claimed_by": pace.claimed_by,
            "may_claim": claimable and pace.claimed_by is None,
        }

    def claim(self, game_id: str, seat: str, your_move: YourMove) -> None:
        """The seat claims the game: its pace's opponent is overdue and still to move."""
        with self.db.write() as session:
            pace = session.get(GamePace, game_id, with_for_update=True)
            if pace is None:
                raise CannotClaim("this game has no pace: nobody can be overdue")
            if pace.claimed_by is not None:
                raise CannotClaim(f"the game was already claimed by {pace.claimed_by}")
            late = session.scalars(
                select(SeatNotice.seat).where(
                    SeatNotice.game_id == game_id, SeatNotice.overdue.is_(True)
                )
            ).all()
            late = [s for s in late if side_of(s) != side_of(seat) and your_move(game_id, s)]
            if not late:
                raise CannotClaim("no opponent of yours is overdue")
            pace.claimed_by = seat
            session.execute(update(Game).where(Game.id == game_id).values(status="claimed"))

    # -- the tick ----------------------------------------------------------------------

    def tick(self, now: datetime, your_move: YourMove) -> list[tuple[str, Notice]]:
        """Bring every watched seat's clock to `now`; send what is due. Returns what was
        sent (to whom: "email" or "webhook")."""
        out: list[tuple[str, Notice]] = []
        names = self.scenario_names()
        with self.db.read() as session:
            games = session.execute(
                select(Game.id, Game.scenario)
                .where(Game.status.not_in(("finished", "claimed")))
                .where(
                    or_(
                        Game.id.in_(select(SeatNotice.game_id)),
                        Game.id.in_(select(GamePace.game_id)),
                    )
                )
            ).all()
        for game in games:
            out += self._tick_game(game.id, names.get(game.scenario, game.scenario), now, your_move)
        self.sent.extend(out)
        del self.sent[:-1000]
        return out

    def _tick_game(
        self, game_id: str, scenario: str, now: datetime, your_move: YourMove
    ) -> list[tuple[str, Notice]]:
        due: list[tuple[SeatNotice, str]] = []
        with self.db.write() as session:
            pace = session.get(GamePace, game_id)
            rows = session.scalars(select(SeatNotice).where(SeatNotice.game_id == game_id)).all()
            for row in rows:
                due += [(row, kind) for kind in self._advance(row, pace, now, your_move)]
            late = {r.seat for r in rows if r.overdue}
            for row in rows:  # the opponents of a seat that just fell overdue
                fell = any(kind == "overdue" and r.seat != row.seat for r, kind in due)
                if fell and row.seat not in late:
                    due.append((row, "claimable"))
            jobs = [(r.seat, r.email, r.webhook, kind) for r, kind in due]
        return [sent for job in jobs for sent in self._send(game_id, scenario, *job)]

    def _advance(
        self, row: SeatNotice, pace: GamePace | None, now: datetime, your_move: YourMove
    ) -> list[str]:
        """One seat's clock at `now`: the kinds of notice now due to it."""
        if not your_move(row.game_id, row.seat):
            row.move_since, row.told, row.reminded, row.overdue = None, False, False, False
            return []
        if row.move_since is None:
            row.move_since = now
        kinds = []
        if not row.told:
            row.told = True
            kinds.append("your move")
        since = aware(row.move_since)
        if (
            row.remind_hours
            and not row.reminded
            and now - since >= timedelta(hours=row.remind_hours)
        ):
            row.reminded = True
            kinds.append("reminder")
        if pace is not None and not row.overdue:
            late = now - (since + timedelta(days=pace.days_per_move))
            if late > timedelta(0) and row.vacation_left_s > 0:  # spent only when overdue
                spend = min(row.vacation_left_s, int(late.total_seconds()) + 1)
                row.vacation_left_s -= spend
                row.move_since = since + timedelta(seconds=spend)
                late -= timedelta(seconds=spend)
            if late > timedelta(0):
                row.overdue = True
                kinds.append("overdue")
        return kinds

    def _send(
        self, game_id: str, scenario: str, seat: str, email: str | None, hook: str | None, kind: str
    ) -> list[tuple[str, Notice]]:
        link = f"{self.base_url}/games/{game_id}/seat/{seat}" if self.base_url else ""
        notice = Notice(kind, game_id, seat, scenario, link)
        sent = []
        for how, where, send in (
            ("email", email, self.sender.email),
            ("webhook", hook, self.sender.webhook),
        ):
            if not where:
                continue
            try:
                send(where, notice)
                sent.append((how, notice))
            except Exception as exc:  # a mail server or webhook down: noted, not fatal
                log.warning(
                    "a %s notice of game %s could not be sent: %s", how, game_id, type(exc).__name__
                )
        return sent
