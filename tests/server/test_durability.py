"""Nothing acknowledged is lost, and one action at a time per game (DESIGN.md, Storage;
issue 3): kill -9 after acknowledged actions, concurrent conflicting posts, snapshots."""

from __future__ import annotations

import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

import app.rules as rules
from server.client import Api


def fresh_url(database_url: str, tmp_path: Path) -> str:
    """A database of the test's own: a new SQLite file, or the session's PostgreSQL
    database (games never collide there: each test makes its own)."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'own.db'}"
    return database_url


def query(database_url: str, sql: str, **params: Any) -> list[Any]:
    engine = sa.create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(sql), params).all())
    finally:
        engine.dispose()


def test_kill9_after_acknowledged_actions_then_restart_has_them_all(
    make_server: Any, database_url: str, tmp_path: Path
) -> None:
    """Every action answered 200 before a kill -9 is there after the restart: the same
    views, the same versions, and the game goes on from them."""
    url = fresh_url(database_url, tmp_path)
    server = make_server(url)
    rng = random.Random(99)
    with Api(server.url) as api:
        game = api.create(seed=99)
        acknowledged = api.play(game, 120, rng)
        views = {seat: api.view(game, seat) for seat in ("japan", "usa")}
    server.kill9()
    server.start()
    with Api(server.url) as api:
        after = {seat: api.view(game, seat) for seat in ("japan", "usa")}
        differ = {s: [k for k in views[s] if views[s][k] != after[s].get(k)] for s in views}
        stamps = query(url, "SELECT DISTINCT view_stamp FROM seats WHERE game_id = :g", g=game.id)
        assert after == views, f"differing keys {differ}; engine stamps {stamps}"
        assert api.play(game, 5, rng) == 5
    rows = query(url, "SELECT count(*) FROM actions WHERE game_id = :g", g=game.id)
    assert rows[0][0] == acknowledged + 5


def test_kill9_during_a_stream_of_posts_loses_nothing_answered(
    make_server: Any, database_url: str, tmp_path: Path
) -> None:
    """Posts race a kill -9 from another thread: every post that got its 200 is in the
    log afterwards (at most one more, committed but not answered)."""
    url = fresh_url(database_url, tmp_path)
    server = make_server(url)
    killer = threading.Timer(3.0, server.kill9)
    acknowledged = 0
    with Api(server.url) as api:
        game = api.create(seed=5)
        rng = random.Random(5)
        killer.start()
        try:
            for _ in range(5000):
                acting = api.acting_seat(game)
                if acting is None:
                    break  # the game ended before the kill: what was answered is checked below
                seat, view = acting
                action = rng.choice(view["prompt"]["actions"])
                r = api.act(game, seat, view["version"], action)
                assert r.status_code == 200
                acknowledged += 1
        except httpx.TransportError:
            pass
        finally:
            killer.join()
    assert acknowledged > 0
    server.start()
    rows = query(url, "SELECT count(*) FROM actions WHERE game_id = :g", g=game.id)
    assert acknowledged <= rows[0][0] <= acknowledged + 1


def test_concurrent_conflicting_posts_exactly_one_wins(api_server: Api) -> None:
    """Of many posts on the same version at once, exactly one gets 200 and every other
    gets 409 (version check plus row lock), round after round."""
    api = api_server
    game = api.create(seed=31)
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(10):
            view = api.view(game, "japan")
            actions = view["prompt"]["actions"][:8]
            version = view["version"]
            statuses = sorted(
                pool.map(lambda a, v=version: api.act(game, "japan", v, a).status_code, actions)
            )
            assert statuses == [200] + [409] * (len(actions) - 1)
            assert api.view(game, "japan")["version"] == view["version"] + 1


def test_concurrent_posts_of_both_seats_are_serialised(api_server: Api) -> None:
    """Both seats posting at once during simultaneous setup: every 200 is a distinct
    version of its seat and the log holds exactly the accepted actions."""
    api = api_server
    game = api.create(seed=32)

    def post(seat: str) -> list[int]:
        versions = []
        with Api(str(api.http.base_url)) as own:
            for _ in range(15):
                view = own.view(game, seat)
                r = own.act(game, seat, view["version"], view["prompt"]["actions"][0])
                assert r.status_code in (200, 409), r.text
                if r.status_code == 200:
                    versions.append(r.json()["version"])
        return versions

    with ThreadPoolExecutor(max_workers=2) as pool:
        japan, usa = pool.map(post, ["japan", "usa"])
    assert len(set(japan)) == len(japan) and len(set(usa)) == len(usa)
    assert api.view(game, "japan")["version"] >= max(japan)


@pytest.fixture
def api_server(server: Any) -> Any:
    with Api(server.url) as client:
        yield client


def test_snapshots_load_a_game_without_its_cached_state(
    make_server: Any, database_url: str, tmp_path: Path
) -> None:
    """With no state cache, every action loads the game from its latest snapshot plus the
    log after it; a snapshot stamped by another engine version is ignored (replay
    instead). Either way the state is the engine's own replay of the log."""
    url = fresh_url(database_url, tmp_path)
    server = make_server(url, MIDWAY_STATE_CACHE_SIZE="0", MIDWAY_SNAPSHOT_EVERY="7")
    with Api(server.url) as api:
        game = api.create(seed=44)
        assert api.play(game, 30, random.Random(44)) == 30
        snaps = query(url, "SELECT seq FROM snapshots WHERE game_id = :g ORDER BY seq", g=game.id)
        assert [s for (s,) in snaps] == [7, 14, 21, 28]
        execute(url, "UPDATE snapshots SET stamp = 'old-engine' WHERE game_id = :g", g=game.id)
        assert api.play(game, 10, random.Random(45)) == 10
        log = query(
            url, "SELECT seat, action FROM actions WHERE game_id = :g ORDER BY seq", g=game.id
        )
        state, _events = rules.replay("one", frozenset(), 44, [(s, as_json(a)) for s, a in log])
        for seat in ("japan", "usa"):
            served = api.view(game, seat)
            expected = json.loads(json.dumps(rules.view(state, seat)))
            assert {k: served[k] for k in expected} == expected


def as_json(value: Any) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(value) if isinstance(value, str) else value
    return loaded


def execute(database_url: str, sql: str, **params: Any) -> None:
    engine = sa.create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(sql), params)
    finally:
        engine.dispose()
