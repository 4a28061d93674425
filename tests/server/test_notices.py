"""Your move away from the page, and paces (issue 14, Done when): an email arrives at a
real SMTP server (aiosmtpd, in this process) and a webhook at a real HTTP server, both
saying nothing about the position; an overdue seat on a correspondence pace is reminded,
its vacation spent first, and its opponent may then claim the game.

The server runs with MIDWAY_TEST_CLOCK=1 and no tick of its own: each test says what time
it is (POST /api/_clock/tick), so nothing waits on a real clock."""

from __future__ import annotations

import email
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from live import free_port

from server.client import Api, Game

SCENARIO = "Scenario One - Introductory"


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content)
        message["X-Envelope-To"] = ",".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 OK"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


@pytest.fixture
def hooks() -> Iterator[tuple[list[dict[str, Any]], str]]:
    got: list[dict[str, Any]] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            size = int(self.headers.get("content-length", "0"))
            got.append({"path": self.path, "body": json.loads(self.rfile.read(size))})
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield got, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def api(make_server: Any, database_url: str, inbox: tuple[Inbox, int]) -> Iterator[Api]:
    server = make_server(
        database_url,
        MIDWAY_TEST_CLOCK="1",
        MIDWAY_NOTICE_TICK_SECONDS="0",
        MIDWAY_SMTP_HOST="127.0.0.1",
        MIDWAY_SMTP_PORT=str(inbox[1]),
        MIDWAY_BASE_URL="http://midway.example",
        # the listeners below are on 127.0.0.1, which the server refuses unless told
        MIDWAY_WEBHOOK_ALLOW_NETWORKS="127.0.0.0/8",
    )
    with Api(server.url) as client:
        yield client


def tick(api: Api, at: datetime) -> list[dict[str, Any]]:
    r = api.http.post("/api/_clock/tick", json={"at": at.isoformat()})
    assert r.status_code == 200, r.text
    sent: list[dict[str, Any]] = r.json()["sent"]
    return sent


def set_up(api: Api, game: Game, japan_hex: str) -> None:
    """7a: both sides place their task force markers; Japan's placement is secret."""

    def act(seat: str, **action: str) -> None:
        r = api.act(game, seat, api.view(game, seat)["version"], action)
        assert r.status_code == 200, r.text

    act("japan", kind="place", force="MobileForce", hex=japan_hex)
    act("japan", kind="done")
    act("usa", kind="place", force="TF17", hex="L2")
    act("usa", kind="place", force="TF16", hex="N4")
    act("usa", kind="done")


def expected_body(kind: str, game: Game, seat: str) -> str:
    words = {
        "your move": "It is your move",
        "reminder": "Reminder: it is still your move",
        "overdue": "Your move is overdue: your opponent may now claim the game",
        "claimable": "Your opponent's move is overdue: you may claim the game",
    }[kind]
    return (
        f"{words} in Midway Online game {game.id}\n({SCENARIO}), seat {seat}.\n"
        "Open your seat's link (kept in your browser's My games): "
        f"http://midway.example/games/{game.id}/seat/{seat}\n"
    )


def opt_in(api: Api, game: Game, seat: str, hook: str, hours: int | None = None) -> None:
    body = {"email": f"{seat}@players.example", "webhook": f"{hook}/{game.id}/{seat}"}
    r = api.http.put(
        f"/api/games/{game.id}/notices",
        json=body | {"remind_hours": hours},
        headers=game.auth(seat),
    )
    assert r.status_code == 200, r.text
    assert r.json() == {"email": True, "webhook": True, "remind_hours": hours}


def test_email_and_webhook_arrive_and_say_nothing_of_the_position(
    api: Api, inbox: tuple[Inbox, int], hooks: tuple[list[dict[str, Any]], str]
) -> None:
    """Two games that differ only in where the Mobile Force was secretly placed: each
    seat to move gets an email and a webhook whose words are exactly the game, the
    seat and the kind of notice (a leak test over every notice body), the same in both
    games once the id is masked; a reminder follows after the hours asked; a seat not
    to move gets nothing; no token is ever in a notice."""
    mail, _port = inbox
    posted, hook = hooks
    games = [api.create(seed=8), api.create(seed=8)]
    for game, where in zip(games, ("J2", "H1"), strict=True):
        set_up(api, game, where)
        for seat in ("japan", "usa"):
            opt_in(api, game, seat, hook, hours=6)
    t0 = datetime.now(UTC)
    first = tick(api, t0)
    assert tick(api, t0 + timedelta(hours=1)) == []  # told once, not again
    reminders = tick(api, t0 + timedelta(hours=7))
    assert {s["kind"] for s in reminders} == {"reminder"}
    assert len(mail.messages) == len(first) // 2 + len(reminders) // 2 > 0
    assert len(posted) == len(mail.messages)
    masked: dict[str, list[str]] = {}
    for game in games:
        to_move = [s for s in ("japan", "usa") if api.view(game, s)["prompt"]["actions"]]
        mine = [m for m in mail.messages if game.id in str(m["Subject"])]
        assert sorted(m["X-Envelope-To"] for m in mine) == sorted(
            f"{s}@players.example" for s in to_move for _ in range(2)
        )
        bodies = []
        for m in mine:
            seat = m["X-Envelope-To"].split("@")[0]
            kind = (
                "reminder"
                if str(m["Subject"]).startswith("Midway Online: reminder")
                else "your move"
            )
            text = m.get_payload(decode=True).decode().replace("\r\n", "\n")
            assert text == expected_body(kind, game, seat)
            bodies.append(text.replace(game.id, "<game>"))
        for p in (p for p in posted if p["path"].startswith(f"/{game.id}/")):
            seat = p["path"].rsplit("/", 1)[1]
            assert p["body"]["text"] == p["body"]["content"]
            assert p["body"]["text"].split("\n", 1)[1] in {
                expected_body(k, game, seat) for k in ("your move", "reminder")
            }
            bodies.append(p["body"]["text"].replace(game.id, "<game>"))
        for token in game.tokens.values():
            assert all(token not in b for b in bodies)
        masked[game.id] = sorted(bodies)
    assert masked[games[0].id] == masked[games[1].id]


def test_opt_in_refusals(api: Api) -> None:
    game = api.create(seed=9)
    for body in ({"email": "not an address"}, {"webhook": "ftp://x"}, {"remind_hours": 0}):
        r = api.http.put(f"/api/games/{game.id}/notices", json=body, headers=game.auth("usa"))
        assert r.status_code == 422, body
    r = api.http.put(f"/api/games/{game.id}/notices", json={}, headers=game.auth("usa"))
    assert r.status_code == 200 and r.json()["email"] is False
    assert api.http.put(f"/api/games/{game.id}/notices", json={}).status_code == 401


def test_overdue_seat_on_a_correspondence_pace(api: Api) -> None:
    """One day a move, one day of vacation: a seat a day and a half late has spent half
    its vacation and is not overdue; past two days it is overdue and reminded, and its
    opponent - not itself, and nobody before - may claim the game; then no one acts."""
    game = api.create(seed=10, pace_days=1, vacation_days=1)
    set_up(api, game, "J2")
    late = next(s for s in ("japan", "usa") if api.view(game, s)["prompt"]["actions"])
    other = "usa" if late == "japan" else "japan"
    assert not api.view(game, other)["prompt"]["actions"]
    opt_in(api, game, late, "http://127.0.0.1:9")  # a webhook nobody answers: noted only

    def pace(seat: str) -> dict[str, Any]:
        r = api.http.get(f"/api/games/{game.id}/glance", headers=game.auth(seat))
        assert r.status_code == 200, r.text
        found: dict[str, Any] = r.json()["pace"]
        return found

    def claim(seat: str) -> Any:
        return api.http.post(f"/api/games/{game.id}/claim", headers=game.auth(seat))

    t0 = datetime.now(UTC)
    tick(api, t0)
    assert pace(other)["days_per_move"] == 1 and pace(other)["seats"][late]["due"]
    assert claim(other).status_code == 409
    tick(api, t0 + timedelta(days=1, hours=12))
    seen = pace(other)["seats"][late]
    assert not seen["overdue"] and seen["vacation_left_hours"] == 11  # 12 h spent, and a second
    assert claim(other).status_code == 409
    sent = tick(api, t0 + timedelta(days=2, hours=13))
    # by email; the webhook nobody answers is only noted, and the other seat opted into nothing
    assert {(s["kind"], s["seat"]) for s in sent} == {("overdue", late)}
    assert pace(other)["may_claim"] and not pace(late)["may_claim"]
    r = claim(late)
    assert r.status_code == 409 and "no opponent" in r.json()["detail"]
    r = claim(other)
    assert r.status_code == 200, r.text
    assert pace(late)["claimed_by"] == other
    glance = api.http.get(f"/api/games/{game.id}/glance", headers=game.auth(late)).json()
    assert glance["state"] == "finished"
    view = api.view(game, late)
    r = api.act(game, late, view["version"], view["prompt"]["actions"][0])
    assert r.status_code == 403 and "claimed" in r.json()["detail"]
    assert claim(other).status_code == 409
