"""Quotas and expiry (issue 16): games a client may create a minute, sockets a client may
hold open, requests a seat token may make a minute, each a 429 with a message past its
limit; unfinished games idle for the set number of days are deleted, finished games are
kept. Limits set low through the environment, through real HTTP and websockets on SQLite
and PostgreSQL; the sweep also run with its own clock."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.cli import migrate
from app.games.between_models import GamePace
from app.games.db import Database
from app.games.engine import load_engine
from app.games.expiry import expire_games
from app.games.models import utcnow
from app.games.store import GameStore
from app.settings import Settings
from server.client import Api


def refused(r: httpx.Response, words: str) -> None:
    assert r.status_code == 429, r.text
    assert words in r.json()["detail"]
    assert int(r.headers["retry-after"]) >= 1


def test_games_per_minute_per_client(make_server: Any, database_url: str) -> None:
    server = make_server(database_url, MIDWAY_GAMES_PER_MINUTE="3")
    with Api(server.url) as api:
        api.create(seed=1)
        api.create(seed=2)
        page = api.http.post("/games", data={"scenario": "one"})  # the home page's form counts
        assert page.status_code == 303  # to the created page
        refused(api.http.post("/api/games", json={"scenario": "one"}), "at most 3 a minute")
        refused(api.http.post("/games", data={"scenario": "one"}), "too many games created")
        # another client (as a trusted proxy names it) has its own quota
        other = {"X-Forwarded-For": "203.0.113.9"}
        r = api.http.post("/api/games", json={"scenario": "one"}, headers=other)
        assert r.status_code == 201, r.text


CREATIONS = {
    "api": ("/api/games", {"json": {"scenario": "one"}}),
    "page": ("/games", {"data": {"scenario": "one"}}),
    "lobby": ("/api/lobby", {"json": {"scenario": "one"}}),
    "lobby page": ("/games/open", {"data": {"scenario": "one"}}),
    "import": ("/api/records", {"json": {"format": "not a record"}}),
}


@pytest.mark.parametrize("way", list(CREATIONS))
def test_every_way_to_make_a_game_counts_against_one_quota(
    make_server: Any, database_url: str, way: str
) -> None:
    """Issue 31, item 2: the lobby's opening (API and page) and a record's import count
    with the creations: three other ways first, then this way is refused (and each way
    after its own limit, a refused import included: its replay is the costly part)."""
    server = make_server(database_url, MIDWAY_GAMES_PER_MINUTE="3")
    others = [w for w in CREATIONS if w != way][:3]
    with Api(server.url) as api:
        for other in others:
            path, body = CREATIONS[other]
            r = api.http.post(path, **body)
            assert r.status_code in (201, 303, 422), (other, r.status_code, r.text)
        path, body = CREATIONS[way]
        refused(api.http.post(path, **body), "too many games created: at most 3 a minute")


def test_requests_per_minute_per_seat_token(make_server: Any, database_url: str) -> None:
    server = make_server(database_url, MIDWAY_REQUESTS_PER_MINUTE="5")
    with Api(server.url) as api:
        game = api.create(seed=1)
        for _ in range(5):
            api.view(game, "japan")
        refused(
            api.http.get(f"/api/games/{game.id}", headers=game.auth("japan")),
            "too many requests with this seat token: at most 5 a minute",
        )
        r = api.http.get(f"/games/{game.id}/regions", headers=game.auth("japan"))
        assert r.status_code == 429  # the pages' requests too
        assert api.view(game, "usa")["version"] == 1  # the other seat's token is its own


def test_sockets_per_client(make_server: Any, database_url: str) -> None:
    server = make_server(database_url, MIDWAY_SOCKETS_PER_CLIENT="2")
    with Api(server.url) as api:
        game = api.create(seed=1)
    url = f"{server.ws_url}/api/games/{game.id}/ws?token={game.tokens['japan']}"

    async def main() -> None:
        async with connect(url) as first, connect(url) as second:
            assert (await first.recv()) and (await second.recv())
            with pytest.raises(InvalidStatus) as caught:
                async with connect(url):
                    pass
            response = caught.value.response
            assert response.status_code == 429
            assert b"too many open sockets from this client: at most 2" in response.body
        async with connect(url) as again:  # closed ones no longer count
            assert await again.recv()

    asyncio.run(main())


def test_idle_unfinished_games_expire_on_the_live_server(
    make_server: Any, database_url: str
) -> None:
    """Days are a setting: 0.00005 days (4.3 s) and a sweep every 0.3 s."""
    server = make_server(
        database_url, MIDWAY_EXPIRE_AFTER_DAYS="0.00005", MIDWAY_EXPIRE_SWEEP_SECONDS="0.3"
    )
    with Api(server.url) as api:
        idle = api.create(seed=1)
        busy = api.create(seed=2)
        rng = random.Random(2)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if api.http.get(f"/api/games/{idle.id}", headers=idle.auth("japan")).status_code == 404:
                break
            assert api.play(busy, 1, rng) == 1  # an action now and then keeps a game
            time.sleep(0.5)
        else:
            pytest.fail("the idle game was not expired")
        assert api.view(busy, "usa")["status"] != "finished"
        r = api.http.get(f"/api/games/{idle.id}/log", headers=idle.auth("usa"))
        assert r.status_code in (401, 404)


def test_sweep_deletes_idle_unfinished_games_and_keeps_finished_ones(
    database_url: str, tmp_path: Path
) -> None:
    """The sweep with its own clock: idle time counts from the last action; finished games
    stay however old."""
    migrate(Settings(database_url=database_url))
    store = GameStore(db=Database.connect(database_url), engine=load_engine("app.rules"))
    try:
        fresh = store.create("one", [], "two-player", 5).id
        played = store.create("one", [], "two-player", 6).id
        finished = store.create("one", [], "two-player", 7).id
        rng = random.Random(7)
        while True:
            moves = [
                (seat, doc)
                for seat in ("japan", "usa")
                if (doc := store.seat_view(finished, seat))["prompt"]["actions"]
            ]
            if not moves:
                break
            seat, doc = moves[0]
            store.act(finished, seat, doc["version"], rng.choice(doc["prompt"]["actions"]))
        assert store.seat_view(finished, "japan")["status"] == "finished"
        doc = store.seat_view(played, "japan")
        store.act(played, "japan", doc["version"], doc["prompt"]["actions"][0])

        now, days = utcnow(), timedelta(days=30)
        assert fresh not in expire_games(store.db, now + timedelta(days=29), days)
        gone = expire_games(store.db, now + timedelta(days=31), days)
        assert fresh in gone and played in gone and finished not in gone
        store.forget(fresh)
        assert store.seat_view(finished, "usa")["status"] == "finished"
        assert store.replay(finished)["id"] == finished
        with pytest.raises(Exception, match="no game"):
            store.seat_view(fresh, "japan")
        assert fresh not in expire_games(store.db, now + timedelta(days=400), days)
    finally:
        store.db.dispose()


def test_8_the_sweep_keeps_claimed_games_and_waits_out_a_paced_games_move(
    database_url: str,
) -> None:
    """Issue 31, item 8: a claimed game (a claim ends it) was deleted as idle after 30
    days, and so was a paced game whose player has 60 days a move. Now a claimed game is
    kept however old; a paced game's idle days count from the end of its move's days and
    vacation; an unpaced game goes as before."""
    migrate(Settings(database_url=database_url))
    store = GameStore(db=Database.connect(database_url), engine=load_engine("app.rules"))
    try:
        plain = store.create("one", [], "two-player", 11).id
        paced = store.create("one", [], "two-player", 12).id
        claimed = store.create("one", [], "two-player", 13).id
        with store.db.write() as session:
            session.add(GamePace(game_id=paced, days_per_move=60, vacation_days=10))
            session.add(GamePace(game_id=claimed, days_per_move=3, claimed_by="usa"))
        now, days = utcnow(), timedelta(days=30)
        gone = expire_games(store.db, now + timedelta(days=31), days)
        assert plain in gone and paced not in gone and claimed not in gone
        assert paced not in expire_games(store.db, now + timedelta(days=99), days)
        assert paced in expire_games(store.db, now + timedelta(days=101), days)
        assert expire_games(store.db, now + timedelta(days=400), days) == []  # claimed kept
        assert store.seat_view(claimed, "usa")["id"] == claimed
    finally:
        store.db.dispose()
