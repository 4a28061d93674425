"""The notices' outbox (issue 31): what a notice says, how it is sent (SMTP, webhook),
and the sending of the table notice_outbox's rows by a pool of workers.

A tick (app.games.notices) puts the notices due in the outbox; `Delivery.deliver` then
claims the rows due (a row lock skipping those another transaction holds on PostgreSQL,
SQLite's single write lock there, and a lease written on each row, so that exactly one
process sends each), sends them several at once, each within its deadline, and writes
each outcome as its send ends: delivered, the row goes and the seat is marked told;
failed in a way that may pass, tried again after 1, 2, 4 and 8 minutes; else given up.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import smtplib
import socket
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Protocol

from sqlalchemy import or_, select

from app.games.between_models import NoticeOutbox, SeatNotice
from app.games.db import Database
from app.games.models import utcnow
from app.games.webhooks import SendFailed, WebhookPolicy

log = logging.getLogger(__name__)

# Sends made at once, tries of a notice, and the pause after the first failed try
# (doubled after each). A tick claims ROUNDS rows a worker at a time, for a lease that
# outlasts their sends, each within its deadline, by a minute; then the next ones due,
# until none is.
WORKERS = 8
ATTEMPTS = 5
RETRY_AFTER = timedelta(minutes=1)
ROUNDS = 4
LEASE_MARGIN = timedelta(minutes=1)


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


@dataclass(frozen=True)
class Claim:
    """An outbox row this process claimed, and where to send it."""

    id: int
    lease: str
    how: str
    where: str | None
    notice: Notice


@dataclass
class Delivery:
    """Sends the outbox's rows that are due (see the module's docstring)."""

    db: Database
    sender: Sender
    base_url: str = ""
    workers: int = WORKERS
    send_seconds: float = 10.0  # the deadline of one send (the sender's)
    _pool: ThreadPoolExecutor | None = field(default=None, init=False, repr=False)

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
