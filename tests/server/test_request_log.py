"""The server's log (issue 16): one JSON line per request, with the game id, and never a
seat token, whichever way the token came (Authorization header, a websocket's query
string or first message, a page's socket) - tested on the whole log of a complete game
played through every door: the API, its sockets, the pages and their socket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.logs import scrub
from server.conftest import Server
from server.test_durability import fresh_url

SEATS = ("japan", "usa")
CREATED = re.compile(
    r"/games/(?P<game>[0-9a-f]{16})/created#japan=(?P<japan>[A-Za-z0-9_-]+)&usa=(?P<usa>[A-Za-z0-9_-]+)"
)
MAX_ACTIONS = 3000


async def drain(ws: ClientConnection, seen: list[str]) -> None:
    """Read a socket until it closes (so that the server never waits on it)."""
    with contextlib.suppress(ConnectionClosed):
        async for message in ws:
            seen.append(message if isinstance(message, str) else message.decode())


async def play_whole_game(server: Server) -> tuple[str, dict[str, str], int]:
    """Create a game by the home page's form, follow it on every kind of socket, play it
    to the end by the API and the page's clicks (and a few refusals); the game id, its
    tokens, and the number of action posts."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await http.post("/games", data={"scenario": "four", "seed": "31"})
        assert created.status_code == 303, created.text
        # the tokens ride in the redirect's fragment, never in a path the server is asked for
        location = created.headers["location"]
        found = CREATED.fullmatch(location)
        assert found, location
        game = found["game"]
        tokens = {seat: found[seat] for seat in SEATS}
        page = await http.get(location)  # httpx, like a browser, sends no fragment
        assert page.status_code == 200 and tokens["japan"] not in page.text
        auth = {seat: {"Authorization": f"Bearer {tokens[seat]}"} for seat in SEATS}
        base = f"{server.ws_url}"
        async with contextlib.AsyncExitStack() as stack:
            sockets = [
                # the API socket, token in the query string (what a bot may do) ...
                await stack.enter_async_context(
                    connect(f"{base}/api/games/{game}/ws?token={tokens['japan']}&version=0")
                ),
                # ... or in the first message
                await stack.enter_async_context(connect(f"{base}/api/games/{game}/ws")),
                # the page's socket, token in the first message (the page's own way), and
                # a careless client that also put it in the query string
                await stack.enter_async_context(connect(f"{base}/games/{game}/live")),
                await stack.enter_async_context(
                    connect(f"{base}/games/{game}/live?token={tokens['usa']}")
                ),
            ]
            await sockets[1].send(json.dumps({"token": tokens["usa"]}))
            await sockets[2].send(json.dumps({"token": tokens["japan"], "version": 0}))
            await sockets[3].send(json.dumps({"token": tokens["usa"], "version": 0}))
            seen: list[str] = []
            readers = [asyncio.create_task(drain(ws, seen)) for ws in sockets]
            # a socket with someone else's token in the wrong game, and a bad one
            async with connect(
                f"{base}/api/games/0123456789abcdef/ws?token={tokens['usa']}"
            ) as bad:
                with contextlib.suppress(ConnectionClosed):
                    await asyncio.wait_for(bad.recv(), 10)
            page = await http.get(f"/games/{game}/seat/japan")
            assert page.status_code == 200
            regions = await http.get(f"/games/{game}/regions", headers=auth["usa"])
            assert regions.status_code == 200
            # a token in a query string where none is expected: refused, and not logged
            r = await http.get(f"/api/games/{game}", params={"token": tokens["japan"]})
            assert r.status_code == 401

            rng = random.Random(31)
            posts = 0
            while posts < MAX_ACTIONS:
                views = {
                    s: (await http.get(f"/api/games/{game}", headers=auth[s])).json() for s in SEATS
                }
                ready = [s for s in SEATS if views[s]["prompt"]["actions"]]
                if not ready:
                    assert views["japan"]["status"] == "finished", views["japan"]["prompt"]
                    break
                seat = rng.choice(ready)
                action = rng.choice(views[seat]["prompt"]["actions"])
                version = views[seat]["version"]
                if posts % 7 == 3:  # a click on the page
                    form = {"version": str(version), "action": json.dumps(action)}
                    r = await http.post(f"/games/{game}/act", data=form, headers=auth[seat])
                else:
                    body = {"version": version, "action": action}
                    r = await http.post(f"/api/games/{game}/actions", json=body, headers=auth[seat])
                assert r.status_code == 200, r.text
                posts += 1
                if posts % 25 == 0:  # a stale click: 409
                    body = {"version": version, "action": action}
                    r = await http.post(f"/api/games/{game}/actions", json=body, headers=auth[seat])
                    assert r.status_code == 409, r.text
                    posts += 1
            for seat in SEATS:
                assert (
                    await http.get(f"/api/games/{game}/log", headers=auth[seat])
                ).status_code == 200
            assert (await http.get(f"/games/{game}/replay")).status_code == 200
            await asyncio.sleep(0.5)  # the last patches reach the sockets
        for reader in readers:
            await reader
        assert any('id="sync"' in m for m in seen) and any('"patch"' in m for m in seen)
    return game, tokens, posts


def access_lines(log: str) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in log.splitlines() if line.strip()]
    return [line for line in lines if line["logger"] == "midway.access"]


@pytest.mark.slow
def test_no_seat_token_in_the_log_of_a_whole_game(
    make_server: Any, database_url: str, tmp_path: Path
) -> None:
    """A complete game (Scenario Four, 7e: one surface combat, the shortest) through the
    API, its sockets, the pages and their socket: the whole server log holds neither
    seat's token, every line of it is JSON, each request has its line with the game id
    and its path without the query."""
    server = make_server(fresh_url(database_url, tmp_path))
    game, tokens, posts = asyncio.run(play_whole_game(server))
    server.stop()  # the shutdown's lines too
    log = server.log_path.read_text()
    for seat, token in tokens.items():
        assert token not in log, f"{seat}'s token is in the log"
    lines = [json.loads(line) for line in log.splitlines() if line.strip()]  # all JSON
    access = [line for line in lines if line["logger"] == "midway.access"]
    for line in access:
        assert "?" not in line["path"] and "?" not in line["message"], line
    ours = [line for line in access if line["game"] == game]
    kinds = {(line["method"], line["route"]) for line in ours}
    assert ("POST", "/games") in kinds  # the creation, by the id in its answer
    assert ("WEBSOCKET", "/api/games/{game_id}/ws") in kinds
    assert ("WEBSOCKET", "/games/{game_id}/live") in kinds
    assert ("GET", "/games/{game_id}/seat/{seat}") in kinds
    actions = [
        line
        for line in ours
        if line["method"] == "POST" and line["route"].endswith(("/actions", "/act"))
    ]
    assert len(actions) == posts  # one line per request
    assert {line["status"] for line in actions} == {200, 409}
    sockets = [line for line in ours if line["method"] == "WEBSOCKET"]
    assert len(sockets) == 4 and {line["status"] for line in sockets} == {101}
    assert all(isinstance(line["close"], int) for line in sockets)
    refused = [line for line in access if line["path"] == "/api/games/0123456789abcdef/ws"]
    assert len(refused) == 1 and refused[0]["close"] == 4404
    assert not any("WebSocket" in line["message"] for line in lines), "uvicorn's handshake line"


def test_scrub_removes_query_strings_and_tokens_from_any_log_text() -> None:
    """The last line of defence for any logger's text (uvicorn's, a traceback's)."""
    token = "F_EjqRv-XFjpLmQpYmDREkuCIzcnx6jgirEwIQt29o8"
    for text in (
        f'127.0.0.1:5 - "WebSocket /api/games/0123456789abcdef/ws?token={token}" [accepted]',
        f"GET /games/0123456789abcdef/live?version=3&token={token} HTTP/1.1",
        f"Authorization: Bearer {token}",
        f'{{"token": "{token}", "version": 4}}',
        f"token={token}",
    ):
        assert token not in scrub(text), text
    assert scrub("POST /api/games/0123456789abcdef/actions 200") == (
        "POST /api/games/0123456789abcdef/actions 200"
    )
