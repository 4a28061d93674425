"""More than one server process (DESIGN.md, Realtime; issue 3): a socket held by process 1
gets the patches of an action posted to process 2, through PostgreSQL LISTEN/NOTIFY or
Redis pub/sub. Any process serves any seat: no sticky sessions."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.client import Api, Game, apply_patch, receive
from server.conftest import Server


async def follow_while_posting(
    listen: Server, post: Server, game: Game, rng: random.Random, actions: int
) -> dict[str, int]:
    """Sockets on `listen`, posts to `post`; each socket's document must track the seat's
    view exactly. The patches received per seat."""
    received = {"japan": 0, "usa": 0}
    with Api(post.url) as poster, Api(listen.url) as reader:
        async with (
            connect(f"{listen.ws_url}/api/games/{game.id}/ws?token={game.tokens['japan']}") as jp,
            connect(f"{listen.ws_url}/api/games/{game.id}/ws?token={game.tokens['usa']}") as us,
        ):
            docs = {"japan": (await receive(jp))["view"], "usa": (await receive(us))["view"]}
            for _ in range(actions):
                found = await asyncio.to_thread(poster.acting_seat, game)
                assert found is not None
                seat, view = found
                action = rng.choice(view["prompt"]["actions"])
                r = await asyncio.to_thread(poster.act, game, seat, view["version"], action)
                assert r.status_code == 200, r.text
                for name, ws in (("japan", jp), ("usa", us)):
                    target = await asyncio.to_thread(reader.view, game, name)
                    while docs[name]["version"] < target["version"]:
                        message = await receive(ws, timeout=10)
                        assert message["type"] == "patch", message
                        docs[name] = apply_patch(docs[name], message["patch"])
                        received[name] += 1
                    assert docs[name] == target
    return received


@pytest.mark.postgres
def test_two_processes_on_one_postgresql_pass_patches(make_server: Any, pg_database: str) -> None:
    """Process 1 holds the sockets, process 2 takes the actions, and back: LISTEN/NOTIFY
    (sent by the committing transaction itself) carries "game G changed"."""
    one, two = make_server(pg_database), make_server(pg_database)
    with Api(one.url) as api:
        game = api.create(seed=12)
    rng = random.Random(12)
    received = asyncio.run(follow_while_posting(one, two, game, rng, 25))
    assert received["japan"] > 0 and received["usa"] > 0
    received = asyncio.run(follow_while_posting(two, one, game, rng, 25))
    assert received["japan"] > 0 and received["usa"] > 0


def test_two_processes_on_one_sqlite_file_with_redis_pass_patches(
    make_server: Any, redis_url: str, tmp_path: Path
) -> None:
    """With MIDWAY_BROKER=redis, two processes on one SQLite file (BEGIN IMMEDIATE keeps
    one writer at a time across them) pass patches through Redis pub/sub."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    env = {"MIDWAY_BROKER": "redis", "MIDWAY_REDIS_URL": redis_url}
    one, two = make_server(url, **env), make_server(url, **env)
    with Api(one.url) as api:
        game = api.create(seed=13)
    received = asyncio.run(follow_while_posting(one, two, game, random.Random(13), 25))
    assert received["japan"] > 0 and received["usa"] > 0


@pytest.mark.postgres
def test_two_processes_starting_at_once_on_an_empty_database_migrate_in_turn(
    make_server: Any, fresh_pg_database: str
) -> None:
    """`midway serve` migrates at start; two starting together on an empty PostgreSQL
    database take turns (an advisory lock) and both serve the same games."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        one, two = pool.map(lambda _: make_server(fresh_pg_database), range(2))
    with Api(one.url) as first, Api(two.url) as second:
        game = first.create(seed=3)
        assert second.view(game, "usa") == first.view(game, "usa")
