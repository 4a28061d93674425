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

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, select, update

from app.games.between_models import GamePace, NoticeOutbox, SeatNotice
from app.games.db import Database
from app.games.engine import side_of
from app.games.errors import BadRequest, GameError
from app.games.models import Game, Seat
from app.games.outbox import WORKERS, Delivery, Notice, Sender
from app.games.presence import aware
from app.games.webhooks import Refused, WebhookPolicy, parse_webhook

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


class CannotClaim(GameError):
    status = 409


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
    delivery: Delivery = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.delivery = Delivery(
            self.db, self.sender, self.base_url, self.workers, self.send_seconds
        )

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

    def deliver(self, now: datetime) -> list[tuple[str, Notice]]:
        return self.delivery.deliver(now)

    def close(self) -> None:
        self.delivery.close()
