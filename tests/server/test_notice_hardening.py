"""Notices hardened (issue 31, items 1, 4 and 8's notice parts), against live servers on
SQLite and PostgreSQL:

1. a webhook to loopback (in any spelling), a private or a metadata address is refused
   when the seat opts in, and one stored before is refused at the send: the listener on
   127.0.0.1 receives nothing;
4. notices go through an outbox: a failed send is tried again later, a bounded number of
   times, the seat told only once one arrives; a dribbling webhook holds no other notice;
   two processes ticking at once send each notice once;
8. one email address per field; webhook URLs with a user name or a control character
   refused with a 4xx on both databases.

Servers run with MIDWAY_TEST_CLOCK=1 and no tick of their own (tests/server/test_notices.py
says how); `guarded` is the production policy, `lenient` lets 127.0.0.0/8 through so that
the outbox's own behaviour can be watched at a local listener."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from app.games.db import Database, normalise_url
from app.games.notices import Notices
from app.games.outbox import Notice
from server.client import Api, Game
from server.conftest import BACKENDS
from server.listeners import Listener, listening

SEND_SECONDS = 3.0


@pytest.fixture
def guarded(make_server: Any, database_url: str) -> Iterator[Api]:
    """The production policy: no network let through to webhooks."""
    server = make_server(database_url, MIDWAY_TEST_CLOCK="1", MIDWAY_NOTICE_TICK_SECONDS="0")
    with Api(server.url) as client:
        yield client


def lenient_server(make_server: Any, database_url: str) -> Any:
    return make_server(
        database_url,
        MIDWAY_TEST_CLOCK="1",
        MIDWAY_NOTICE_TICK_SECONDS="0",
        MIDWAY_NOTICE_SEND_SECONDS=str(SEND_SECONDS),
        MIDWAY_WEBHOOK_ALLOW_NETWORKS="127.0.0.0/8",
    )


@pytest.fixture
def lenient(make_server: Any, database_url: str) -> Iterator[Api]:
    with Api(lenient_server(make_server, database_url).url) as client:
        yield client


def put(api: Api, game: Game, seat: str, **body: Any) -> Any:
    return api.http.put(f"/api/games/{game.id}/notices", json=body, headers=game.auth(seat))


def tick(api: Api, at: datetime) -> list[dict[str, Any]]:
    r = api.http.post("/api/_clock/tick", json={"at": at.isoformat()}, timeout=60)
    assert r.status_code == 200, r.text
    sent: list[dict[str, Any]] = r.json()["sent"]
    return sent


def to_move(api: Api, game: Game) -> list[str]:
    return [s for s in ("japan", "usa") if api.view(game, s)["prompt"]["actions"]]


def test_issue_31_1_webhooks_to_loopback_and_private_addresses_are_refused_at_opt_in(
    guarded: Api,
) -> None:
    """Every spelling of 127.0.0.1, names that resolve to it, private, link-local and
    metadata addresses: a 422 naming the problem, nothing stored, nothing ever sent to
    the listener on 127.0.0.1 (before issue 31 each was accepted and POSTed to)."""
    with listening() as listener:
        game = guarded.create(seed=31)
        assert to_move(guarded, game)  # a notice would be due at once
        port = listener.port
        for host, why in (
            ("127.0.0.1", "127.0.0.1 is a loopback address"),
            ("127.1", "four decimal numbers"),
            ("2130706433", "four decimal numbers"),
            ("0x7f.1", "four decimal numbers"),
            ("[::1]", "::1 is a loopback address"),
            ("0.0.0.0", "0.0.0.0 is an unspecified"),
            ("[::ffff:127.0.0.1]", "an IPv4-mapped address"),
            ("localhost", "localhost resolves to"),
            ("169.254.169.254", "the cloud metadata address"),
            ("10.0.0.1", "a private address"),
            ("192.168.0.1", "a private address"),
            ("[fd00::1]", "a unique-local address"),
        ):
            for seat in ("japan", "usa"):
                r = put(guarded, game, seat, webhook=f"http://{host}:{port}/{seat}")
                assert r.status_code == 422, (host, r.text)
                assert why in r.json()["detail"], (host, r.text)
        r = put(guarded, game, "japan", email="japan@players.example")
        assert r.status_code == 200 and r.json()["webhook"] is False
        t0 = datetime.now(UTC)
        tick(guarded, t0)
        tick(guarded, t0 + timedelta(hours=1))
        time.sleep(0.2)
    assert listener.got == []


def test_issue_31_1_a_stored_loopback_webhook_is_refused_at_send(
    guarded: Api, database_url: str
) -> None:
    """A webhook stored before the check (or whose name now resolves elsewhere) is
    checked again at every send: refused, given up at once, never sent; reminders do not
    send it either."""
    with listening() as listener:
        game = guarded.create(seed=32)
        seats = to_move(guarded, game)
        for seat in seats:
            assert put(guarded, game, seat, remind_hours=1).status_code == 200
        engine = sa.create_engine(normalise_url(database_url))
        try:
            with engine.begin() as conn:
                conn.execute(
                    sa.text("UPDATE seat_notices SET webhook = :hook WHERE game_id = :game"),
                    {"hook": f"http://127.1:{listener.port}/stored", "game": game.id},
                )
            t0 = datetime.now(UTC)
            assert tick(guarded, t0) == []
            assert tick(guarded, t0 + timedelta(hours=2)) == []  # the reminder: refused too
            with engine.connect() as conn:
                rows = conn.execute(
                    sa.text("SELECT kind, attempts, failed FROM notice_outbox WHERE game_id = :g"),
                    {"g": game.id},
                ).all()
        finally:
            engine.dispose()
        time.sleep(0.2)
    assert listener.got == []
    assert sorted((k, a, bool(f)) for k, a, f in rows) == sorted(
        (kind, 1, True) for kind in ("your move", "reminder") for _ in seats
    )


def test_issue_31_8_one_email_address_and_no_userinfo_or_control_characters(
    guarded: Api,
) -> None:
    """An email field names one recipient: commas, semicolons, group syntax and line
    breaks refused; a webhook URL with a user name and password, or with a NUL (a 500 on
    PostgreSQL before), refused with a 422 on both databases; nothing is saved."""
    game = guarded.create(seed=33)
    for address in (
        "a,b@players.example",
        "a;b@players.example",
        "friends:a@players.example;",
        "a@players.example\r\nBcc: b@evil.example",
    ):
        r = put(guarded, game, "usa", email=address)
        assert r.status_code == 422 and "one email address only" in r.json()["detail"], address
    for url, why in (
        ("http://user:pw@hooks.example/hook", "user name or password"),
        ("http://hooks.example/\u0000", "control characters"),
        ("http://hooks.example/a\u0000b", "control characters"),
    ):
        r = put(guarded, game, "usa", webhook=url)
        assert r.status_code == 422 and why in r.json()["detail"], (url, r.text)
    r = put(guarded, game, "usa")
    assert r.status_code == 200
    assert r.json() == {"email": False, "webhook": False, "remind_hours": None}


def opt_in_one(api: Api, hook: Listener, seed: int) -> tuple[Game, str]:
    game = api.create(seed=seed)
    seat = to_move(api, game)[0]
    r = put(api, game, seat, webhook=f"{hook.url}/{game.id}/{seat}")
    assert r.status_code == 200, r.text
    return game, seat


def test_issue_31_4_a_failed_send_is_tried_again_and_the_seat_told_once(lenient: Api) -> None:
    """500, then 503, then delivered: tried again after a minute, then two more (not
    before); the seat is marked told only then, and not sent the notice again."""
    with listening(answers=[500, 503]) as hook:
        game, seat = opt_in_one(lenient, hook, 34)
        t0 = datetime.now(UTC)
        assert tick(lenient, t0) == [] and len(hook.got) == 1
        assert tick(lenient, t0 + timedelta(seconds=30)) == [] and len(hook.got) == 1
        assert tick(lenient, t0 + timedelta(seconds=61)) == [] and len(hook.got) == 2
        assert tick(lenient, t0 + timedelta(minutes=2)) == [] and len(hook.got) == 2
        sent = tick(lenient, t0 + timedelta(minutes=3, seconds=2))
        assert sent == [{"how": "webhook", "kind": "your move", "seat": seat}]
        assert tick(lenient, t0 + timedelta(hours=1)) == []
        assert [g.path for g in hook.got] == [f"/{game.id}/{seat}"] * 3


def test_issue_31_4_tries_are_bounded(lenient: Api) -> None:
    """A webhook that always fails is tried five times in all (after 1, 2, 4, 8 minutes),
    then given up, and not queued again while the move lasts."""
    with listening(answers=[500] * 20) as hook:
        opt_in_one(lenient, hook, 35)
        t0 = datetime.now(UTC)
        for minutes in (0, 1, 3, 7, 15, 31, 63, 24 * 60):
            assert tick(lenient, t0 + timedelta(minutes=minutes, seconds=1)) == []
        assert len(hook.got) == 5


def test_issue_31_4_a_dribbling_webhook_holds_no_other_notice(lenient: Api) -> None:
    """One webhook answers its status line a byte a second; the others get their notices
    at once (measured from the tick's start), and the tick ends at the send's deadline."""
    with listening(dribble=1.0) as slow, listening() as fast:
        first, second = lenient.create(seed=36), lenient.create(seed=37)
        assert to_move(lenient, first) == ["japan", "usa"]
        assert to_move(lenient, second) == ["japan", "usa"]
        # japan's notice is the first of its game to go (before issue 31: one at a time)
        assert put(lenient, first, "japan", webhook=f"{slow.url}/slow").status_code == 200
        assert put(lenient, first, "usa", webhook=f"{fast.url}/a").status_code == 200
        assert put(lenient, second, "japan", webhook=f"{fast.url}/b").status_code == 200
        start = time.monotonic()
        sent = tick(lenient, datetime.now(UTC))
        took = time.monotonic() - start
        arrived = sorted(g.at - start for g in fast.got)
    print(f"fast webhooks reached after {arrived} s; the tick took {took:.2f} s")
    assert sorted(g.path for g in fast.got) == ["/a", "/b"]
    assert all(t < 1.5 for t in arrived), arrived
    assert SEND_SECONDS - 0.5 < took < SEND_SECONDS + 2.5, took
    assert sorted(s["seat"] for s in sent) == ["japan", "usa"]  # the two fast ones
    assert len(slow.got) == 1


@pytest.fixture(params=BACKENDS)
def own_database(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A database of this test's own (no other test's games in it)."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("fresh_pg_database")
        return url
    return f"sqlite:///{tmp_path / 'own.db'}"


class Recorder:
    """A sender that records what it sent, taking a little while over each."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str]] = []

    def email(self, to: str, notice: Notice) -> None:
        time.sleep(0.1)
        self.sent.append((to, notice.game_id, notice.kind))

    def webhook(self, url: str, notice: Notice) -> None:
        self.email(url, notice)


def test_issue_31_4_two_processes_ticking_at_once_send_each_notice_once(
    make_server: Any, own_database: str
) -> None:
    """Two processes' notices (A and B, each with its own engines) tick the same game at
    once: B's whole tick runs while A is between reading the seats and writing them
    (A's `your_move` starts it and waits up to a second for it). Each notice is sent
    once: before issue 31 both read the seats unlocked and both sent it (on PostgreSQL;
    SQLite's write lock already kept B out)."""
    server = make_server(own_database, MIDWAY_TEST_CLOCK="1", MIDWAY_NOTICE_TICK_SECONDS="0")
    with Api(server.url) as api:
        game = api.create(seed=38)
        seats = to_move(api, game)
        for seat in seats:
            assert put(api, game, seat, email=f"{seat}@players.example").status_code == 200
    sender = Recorder()
    a, b = (Notices(Database.connect(own_database), sender, dict) for _ in range(2))
    at = datetime.now(UTC)
    sent: dict[str, list[Any]] = {}
    held: list[threading.Thread] = []

    def b_tick() -> None:
        sent["b"] = b.tick(at, lambda g, s: s in seats)

    def a_moves(game_id: str, seat: str) -> bool:
        if not held:
            held.append(threading.Thread(target=b_tick))
            held[0].start()
            held[0].join(1.0)
        return seat in seats

    try:
        sent["a"] = a.tick(at, a_moves)
        held[0].join(30)
        assert not held[0].is_alive()
    finally:
        for notices in (a, b):
            notices.close()
            notices.db.dispose()
    assert sorted(sender.sent) == sorted(
        (f"{s}@players.example", game.id, "your move") for s in seats
    )
    assert sorted(n.seat for _, n in sent["a"] + sent["b"]) == sorted(seats)
