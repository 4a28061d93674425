"""Your move, away from the page (issue 14): email and webhooks, each opted into per
seat, with a reminder after a set number of hours; and paces - days per move, a vacation
allowance spent only when a move would otherwise be overdue, the overdue seat reminded
and its opponent then free to claim the game.

A notice names the game and the seat and says nothing about the position: its words are
made here from the game's id, the scenario's name, the seat and the kind of notice, and
nothing else (no view, no event, no Turn).

The work is `Notices.tick(now)`: the server calls it every `notice_tick_seconds` with the
clock's time; tests call it with the time they choose. A tick brings the seats' clocks to
`now` and puts each notice due in the outbox (the table notice_outbox: one row per seat,
kind and way), then sends what the outbox holds that is due (issue 31): several at once,
each within its own deadline, so that one slow webhook holds up no other notice; each row
claimed by one process only; a failure that may pass (5xx, timeout, refused connection)
tried again later with a growing pause, up to `ATTEMPTS` times; the seat marked told only
once a notice reached it. Where a webhook may go is app.games.webhooks's.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import secrets
import smtplib
import socket
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any, Protocol

from sqlalchemy import delete, or_, select, update

from app.games.between_models import GamePace, NoticeOutbox, SeatNotice
from app.games.db import Database
from app.games.engine import side_of
from app.games.errors import BadRequest, GameError
from app.games.models import Game, Seat, utcnow
from app.games.presence import aware
from app.games.webhooks import Refused, SendFailed, WebhookPolicy, parse_webhook

log = logging.getLogger(__name__)

# One address, nothing else: a dot-atom before the @ (no comma, semicolon, colon, angle
# bracket, quote, space or line break, any of which would let one field name several
# recipients or a group), a host name after it.
_ATOM = r"[A-Za-z0-9#$&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
EMAIL = re.compile(rf"{_ATOM}(?:\.{_ATOM})*@(?:{_LABEL}\.)+[A-Za-z]{{2,24}}")
EMAIL_SEPARATORS = re.compile(r"[,;:<>()\[\]\\\"\s]")
MAX_LOCAL_PART = 64
# The shape of a webhook URL (the schema's pattern): no user name or password, nothing
# but printable ASCII. app.games.webhooks refuses the rest, saying why.
WEBHOOK = re.compile(r"https?://[A-Za-z0-9._:\[\]-]+(?:[/?#][!-~]*)?")
MAX_REMIND_HOURS = 24 * 60
MAX_DAYS = 60
# The outbox: sends a tick makes at once, tries of a notice, and the pause after the
# first failed try (doubled after each). A tick claims ROUNDS rows a worker at a time,
# for a lease that outlasts their sends, each within its deadline, by a minute; then the
# next ones due, until none is.
WORKERS = 8
ATTEMPTS = 5
RETRY_AFTER = timedelta(minutes=1)
ROUNDS = 4
LEASE_MARGIN = timedelta(minutes=1)


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
    """Sends one notice, or raises (SendFailed says whether to try again)."""

    def email(self, to: str, notice: Notice) -> None: ...
    def webhook(self, url: str, notice: Notice) -> None: ...


@dataclass
class Outbox:
    """Sends by SMTP (when a host is set) and by webhook, each send within `seconds`
    in all, and says nothing of where to in the log (addresses and webhook URLs are the
    players'). A send that did not deliver raises SendFailed, saying whether to try
    again."""

    smtp_host: str | None
    smtp_port: int
    smtp_from: str
    seconds: float = 10.0
    webhooks: WebhookPolicy = field(default_factory=WebhookPolicy)

    def email(self, to: str, notice: Notice) -> None:
        if not self.smtp_host:
            return
        message = EmailMessage()
        message["From"] = self.smtp_from
        message["To"] = to
        message["Subject"] = notice.subject
        message.set_content(notice.body)
        smtp = smtplib.SMTP(timeout=self.seconds)
        watchdog = threading.Timer(self.seconds, _shut_smtp, (smtp,))
        watchdog.daemon = True
        watchdog.start()
        try:
            smtp.connect(self.smtp_host, self.smtp_port)
            smtp.send_message(message, to_addrs=[to])  # the one address, whatever the header
            smtp.quit()
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            raise SendFailed(f"recipient refused ({codes})", min(codes) < 500) from None
        except smtplib.SMTPResponseException as exc:
            raise SendFailed(f"answered {exc.smtp_code}", exc.smtp_code < 500) from None
        except (OSError, smtplib.SMTPException) as exc:
            raise SendFailed(type(exc).__name__, True) from None
        finally:
            watchdog.cancel()
            smtp.close()

    def webhook(self, url: str, notice: Notice) -> None:
        """A JSON POST that chat services accept: `text` (Slack, Mattermost, Rocket.Chat)
        and `content` (Discord)."""
        text = notice.subject + "\n" + notice.body
        data = json.dumps({"text": text, "content": text, "username": "Midway Online"})
        self.webhooks.post(url, data.encode(), self.seconds)


def _shut_smtp(smtp: smtplib.SMTP) -> None:
    """An email's deadline: whatever its send waits for ends now."""
    sock = getattr(smtp, "sock", None)
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


def check_email(email: str) -> None:
    if EMAIL_SEPARATORS.search(email):
        raise BadRequest(
            "one email address only: no commas, semicolons, colons (group syntax), "
            "angle brackets, quotes, spaces or line breaks"
        )
    if not EMAIL.fullmatch(email) or len(email.split("@", 1)[0]) > MAX_LOCAL_PART:
        raise BadRequest("that is not an email address")


def check_opt_in(
    email: str | None,
    webhook: str | None,
    remind_hours: int | None,
    webhooks: WebhookPolicy | None = None,
) -> None:
    """Each setting, as the seat gave it; a webhook's host is resolved and must name
    public addresses only (`webhooks`: the policy; None checks the URL's form only)."""
    if email is not None:
        check_email(email)
    if webhook is not None:
        try:
            parse_webhook(webhook)
            if webhooks is not None:
                webhooks.check(webhook)
        except Refused as exc:
            raise BadRequest(str(exc)) from None
        if not WEBHOOK.fullmatch(webhook):
            raise BadRequest("a webhook is an http:// or https:// URL")
    if remind_hours is not None and not 1 <= remind_hours <= MAX_REMIND_HOURS:
        raise BadRequest(f"a reminder comes after 1 to {MAX_REMIND_HOURS} hours")


def check_pace(days: int | None, vacation: int) -> None:
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise BadRequest(f"a pace is 1 to {MAX_DAYS} days per move")
    if not 0 <= vacation <= MAX_DAYS:
        raise BadRequest(f"a vacation allowance is 0 to {MAX_DAYS} days")


YourMove = Callable[[str, str], bool]  # (game, seat) -> is it that seat's move now


@dataclass(frozen=True)
class Claim:
    """An outbox row this process claimed, and where to send it."""

    id: int
    lease: str
    how: str
    where: str | None
    notice: Notice


@dataclass
class Notices:
    db: Database
    sender: Sender
    scenario_names: Callable[[], dict[str, str]]
    base_url: str = ""
    webhooks: WebhookPolicy | None = None  # None: webhook URLs checked for form only
    workers: int = WORKERS
    send_seconds: float = 10.0  # the deadline of one send (the sender's)
    sent: list[tuple[str, Notice]] = field(default_factory=list)  # this process's, newest last
    _pool: ThreadPoolExecutor | None = field(default=None, init=False, repr=False)

    # -- settings of a seat and a game ---------------------------------------------------

    def opt_in(
        self, game_id: str, seat: str, email: str | None, webhook: str | None, hours: int | None
    ) -> dict[str, Any]:
        check_opt_in(email, webhook, hours, self.webhooks)
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
        """Bring every watched seat's clock to `now`, putting what is due in the outbox;
        then send what the outbox holds that is due. Returns what reached its seat (how:
        "email" or "webhook")."""
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
            self._tick_game(game.id, names.get(game.scenario, game.scenario), now, your_move)
        out = self.deliver(now)
        self.sent.extend(out)
        del self.sent[:-1000]
        return out

    def _tick_game(self, game_id: str, scenario: str, now: datetime, your_move: YourMove) -> None:
        """One game's seats: their clocks, and the notices now due in the outbox. The
        seats' rows are locked (PostgreSQL; SQLite's write lock is the database's), so
        that two processes ticking at once queue each notice once."""
        due: list[tuple[SeatNotice, str]] = []
        with self.db.write() as session:
            pace = session.get(GamePace, game_id)
            rows = session.scalars(
                select(SeatNotice)
                .where(SeatNotice.game_id == game_id)
                .order_by(SeatNotice.seat)
                .with_for_update()
            ).all()
            queued = {
                (o.seat, o.kind)
                for o in session.execute(
                    select(NoticeOutbox.seat, NoticeOutbox.kind).where(
                        NoticeOutbox.game_id == game_id
                    )
                )
            }
            passed = []
            for row in rows:
                kinds = self._advance(row, pace, now, your_move, queued)
                if kinds is None:
                    passed.append(row.seat)
                else:
                    due += [(row, kind) for kind in kinds]
            if passed:  # the move passed: what was queued for it is not due any more
                session.execute(
                    delete(NoticeOutbox).where(
                        NoticeOutbox.game_id == game_id, NoticeOutbox.seat.in_(passed)
                    )
                )
            late = {r.seat for r in rows if r.overdue}
            for row in rows:  # the opponents of a seat that just fell overdue
                fell = any(kind == "overdue" and r.seat != row.seat for r, kind in due)
                if fell and row.seat not in late:
                    due.append((row, "claimable"))
            for row, kind in due:
                for how, where in (("email", row.email), ("webhook", row.webhook)):
                    if where:
                        session.add(
                            NoticeOutbox(
                                game_id=game_id,
                                seat=row.seat,
                                kind=kind,
                                how=how,
                                scenario=scenario[:200],
                                attempts=0,
                                next_at=now,
                                failed=False,
                            )
                        )

    def _advance(
        self,
        row: SeatNotice,
        pace: GamePace | None,
        now: datetime,
        your_move: YourMove,
        queued: set[tuple[str, str]],
    ) -> list[str] | None:
        """One seat's clock at `now`: the kinds of notice now due to it (`queued`: those
        already in the outbox, sent or not), or None when its move just passed."""
        if not your_move(row.game_id, row.seat):
            passed = row.move_since is not None or row.told or row.reminded or row.overdue
            row.move_since, row.told, row.reminded, row.overdue = None, False, False, False
            return None if passed else []
        if row.move_since is None:
            row.move_since = now
        kinds = []
        if not row.told and (row.seat, "your move") not in queued:
            kinds.append("your move")
        since = aware(row.move_since)
        if (
            row.remind_hours
            and not row.reminded
            and (row.seat, "reminder") not in queued
            and now - since >= timedelta(hours=row.remind_hours)
        ):
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

    # -- the outbox ----------------------------------------------------------------------

    def close(self) -> None:
        """Stop the senders' threads, not waiting for sends under way: a row claimed and
        not finished is claimed again once its lease lapses."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def deliver(self, now: datetime) -> list[tuple[str, Notice]]:
        """Send what the outbox holds that is due at `now`, several at once; each
        outcome is written as its send ends. Returns what was delivered."""
        out = []
        while claims := self._claim(now):
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="notices")
            sends = {self._pool.submit(self._send, claim): claim for claim in claims}
            for done in as_completed(sends):
                claim = sends[done]
                if self._finish(now, claim, done.result()):
                    out.append((claim.how, claim.notice))
        return out

    def _claim(self, now: datetime) -> list[Claim]:
        """The due rows nobody else holds, as many as the workers send in ROUNDS turns,
        each now this process's till they are surely sent (a row lock skipping those
        another transaction holds on PostgreSQL; SQLite's single write lock does the
        same there)."""
        lease, wall = secrets.token_hex(8), utcnow()
        lasts = timedelta(seconds=self.send_seconds * ROUNDS) + LEASE_MARGIN
        with self.db.write() as session:
            rows = session.scalars(
                select(NoticeOutbox)
                .where(
                    NoticeOutbox.failed.is_(False),
                    NoticeOutbox.next_at <= now,
                    or_(NoticeOutbox.lease_until.is_(None), NoticeOutbox.lease_until < wall),
                )
                .order_by(NoticeOutbox.next_at, NoticeOutbox.id)
                .limit(self.workers * ROUNDS)
                .with_for_update(skip_locked=True)
            ).all()
            claims = []
            for row in rows:
                row.lease, row.lease_until = lease, wall + lasts
                seat = session.get(SeatNotice, (row.game_id, row.seat))
                where = None if seat is None else seat.email if row.how == "email" else seat.webhook
                claims.append(Claim(row.id, lease, row.how, where, self._notice(row)))
        return claims

    def _notice(self, row: NoticeOutbox) -> Notice:
        link = f"{self.base_url}/games/{row.game_id}/seat/{row.seat}" if self.base_url else ""
        return Notice(row.kind, row.game_id, row.seat, row.scenario, link)

    def _send(self, claim: Claim) -> SendFailed | None:
        if not claim.where:  # opted out since
            return SendFailed("opted out", False)
        send = self.sender.email if claim.how == "email" else self.sender.webhook
        try:
            send(claim.where, claim.notice)
        except SendFailed as exc:
            return exc
        except Exception as exc:
            return SendFailed(type(exc).__name__, True)
        return None

    def _finish(self, now: datetime, claim: Claim, failed: SendFailed | None) -> bool:
        """Write a send's outcome, if the row is still this claim's (its move may have
        passed meanwhile): delivered, the row goes and the seat is marked told; else
        tried again after a pause, or kept as given up. True when delivered."""
        notice = claim.notice
        with self.db.write() as session:
            # the seat's row locked before the outbox's, in the order a tick locks them
            seat = session.get(SeatNotice, (notice.game_id, notice.seat), with_for_update=True)
            row = session.get(NoticeOutbox, claim.id, with_for_update=True)
            if row is None or row.lease != claim.lease:
                return False
            if failed is None:
                session.delete(row)
                if seat is not None and notice.kind == "your move":
                    seat.told = True
                elif seat is not None and notice.kind == "reminder":
                    seat.reminded = True
                return True
            if not claim.where:
                session.delete(row)
                return False
            row.attempts += 1
            row.lease = row.lease_until = None
            row.failed = not failed.retry or row.attempts >= ATTEMPTS
            row.next_at = now + RETRY_AFTER * 2 ** (row.attempts - 1)
        log.warning(
            "a %s notice of game %s could not be sent (try %d, %s): %s",
            claim.how,
            notice.game_id,
            row.attempts,
            "given up" if row.failed else "to be tried again",
            failed.logged,
        )
        return False
