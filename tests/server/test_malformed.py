"""Malformed input is a 4xx (or a websocket close with a message), never a 500 or a
traceback: deeply nested JSON, binary frames, oversized frames and reads after a close,
through real HTTP and real websockets on SQLite and PostgreSQL (issue 16)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from app.api.inbound import MAX_DEPTH, BadJson, nesting_depth, parse_json
from server.client import Api, Game
from server.conftest import Server

DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def tracebacks(server: Server) -> int:
    return server.log_path.read_text(errors="replace").count("Traceback")


def test_deeply_nested_action_on_the_page_is_a_422_not_a_500(server: Server, api: Api) -> None:
    game = api.create(seed=11)
    before = tracebacks(server)
    r = api.http.post(
        f"/games/{game.id}/act", data={"version": "1", "action": DEEP}, headers=game.auth("japan")
    )
    assert r.status_code == 422, r.text
    assert "could not be read" in r.text
    nested = '{"kind":' * 200 + '"done"' + "}" * 200
    r = api.http.post(
        f"/games/{game.id}/act", data={"version": "1", "action": nested}, headers=game.auth("japan")
    )
    assert r.status_code == 422, r.text
    assert api.view(game, "japan")["version"] == 1  # the game untouched
    assert tracebacks(server) == before


@pytest.mark.parametrize("depth", [40, 900, 5000])
def test_deeply_nested_api_body_is_a_400_naming_the_nesting(
    server: Server, api: Api, depth: int
) -> None:
    game = api.create(seed=11)
    before = tracebacks(server)
    action = '{"a":' * depth + "1" + "}" * depth
    r = api.http.post(
        f"/api/games/{game.id}/actions",
        content='{"version": 1, "action": ' + action + "}",
        headers={**game.auth("japan"), "Content-Type": "application/json"},
    )
    assert r.status_code == 400, r.text
    assert r.json()["detail"] == f"JSON body nested deeper than {MAX_DEPTH} levels"
    assert api.view(game, "japan")["version"] == 1
    assert tracebacks(server) == before


def test_shallow_nesting_still_reaches_the_action_check(server: Server, api: Api) -> None:
    """The limit refuses nothing the contract uses: a malformed but shallow action gets
    the game layer's 422."""
    game = api.create(seed=11)
    r = api.act(game, "japan", 1, {"kind": {"a": [[[1]]]}})
    assert r.status_code == 422, r.text
    assert "malformed action" in r.json()["detail"]


@pytest.mark.parametrize("since", ["32429557281977430016", "-1", "2147483648"])
def test_chat_since_out_of_range_is_a_422_not_a_500(server: Server, api: Api, since: str) -> None:
    """Found by the schema run (issue 16): a `since` past SQLite's 64-bit integer reached
    the database (OverflowError, a 500). It is bounded like the pulse's `since`."""
    game = api.create(seed=11)
    before = tracebacks(server)
    r = api.http.get(f"/api/games/{game.id}/chat?since={since}", headers=game.auth("japan"))
    assert r.status_code == 422, r.text
    assert "query.since" in r.json()["detail"]
    assert tracebacks(server) == before


def test_body_that_is_not_utf8_is_a_400_with_a_detail(server: Server, api: Api) -> None:
    """The schema documents a 400 for a body that cannot be read as text (issue 16)."""
    game = api.create(seed=11)
    r = api.http.post(
        f"/api/games/{game.id}/chat",
        content=b"\xe3",
        headers={**game.auth("japan"), "Content-Type": "application/json"},
    )
    assert r.status_code == 400, r.text
    assert isinstance(r.json()["detail"], str) and r.json()["detail"]


async def _first_frame(url: str, frame: str | bytes) -> tuple[list[str | bytes], int | None]:
    """Send one frame; every message the server sent back and its close code."""
    got: list[str | bytes] = []
    async with connect(url, max_size=None) as ws:
        await ws.send(frame)
        try:
            while True:
                got.append(await asyncio.wait_for(ws.recv(), 5))
        except ConnectionClosed as exc:
            return got, exc.rcvd.code if exc.rcvd else None


def _first_frames(game: Game) -> list[str | bytes]:
    return [
        b"\x00\x01binary",
        DEEP[:4000],
        '{"token": ' * 300 + '"x"' + "}" * 300,
        "x" * 70_000,  # past the server's frame limit: closed with 1009
    ]


@pytest.mark.parametrize("path", ["/games/{id}/live", "/api/games/{id}/ws"])
def test_bad_first_frame_closes_the_socket_with_a_message(
    server: Server, api: Api, path: str
) -> None:
    game = api.create(seed=11)
    url = server.ws_url + path.format(id=game.id)
    before = tracebacks(server)
    for frame in _first_frames(game):
        got, code = asyncio.run(_first_frame(url, frame))
        if len(frame) > 65536:
            assert code == 1009
        else:
            assert code == 4400, (frame[:20], got, code)
            assert got and ("expected" in str(got[0])), got
    # the server is still there, and said nothing it should not have
    assert api.view(game, "japan")["version"] == 1
    assert tracebacks(server) == before


async def _live_then(url: str, first: str, then: str | bytes) -> int | None:
    async with connect(url, max_size=None) as ws:
        await ws.send(first)
        await asyncio.wait_for(ws.recv(), 10)  # the view, or the synced page
        await ws.send(then)
        try:
            while True:
                await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd else None


@pytest.mark.parametrize("path", ["/games/{id}/live", "/api/games/{id}/ws"])
def test_bad_frame_once_live_closes_without_a_traceback(
    server: Server, api: Api, path: str
) -> None:
    """Once live: a binary frame is a 4400 close; an oversized one a 1009 close, after
    which the server reads no more from the socket (a read after the close raised)."""
    game = api.create(seed=11)
    url = server.ws_url + path.format(id=game.id)
    first = json.dumps({"token": game.tokens["usa"], "version": 1})
    before = tracebacks(server)
    assert asyncio.run(_live_then(url, first, b"\x00binary")) == 4400
    assert asyncio.run(_live_then(url, first, "y" * 70_000)) == 1009
    if path.startswith("/api"):  # the API socket reads pings; the page ignores its text
        assert asyncio.run(_live_then(url, first, "[" * 3000)) == 4400
    assert api.view(game, "usa")["version"] == 1
    assert tracebacks(server) == before


# -- the parser itself ---------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:'),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=20,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(json_values)
def test_nesting_depth_counts_brackets_outside_strings_only(value: object) -> None:
    text = json.dumps(value).encode()
    assert nesting_depth(text, 1000) == _depth(value)


def test_parse_json_refuses_depth_and_length_with_a_message() -> None:
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, 1000) is not None
    with pytest.raises(BadJson, match="nested deeper than"):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), 1000)
    with pytest.raises(BadJson, match="too long"):
        parse_json("[" + "1," * 600 + "1]", 1000)
    with pytest.raises(BadJson, match="not JSON"):
        parse_json("{'a': 1}", 1000)
