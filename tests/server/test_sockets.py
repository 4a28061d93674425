"""WS /api/games/{id}/ws (DESIGN.md, Realtime; issue 3, Live updates): full view on
connect, one RFC 6902 patch per change of that seat's view, heartbeats, reconnect with
the last version, errors as close codes, 1012 on shutdown."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.client import Api, Game, apply_patch, receive
from server.conftest import Server


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def ws_url(server: Server, game: Game, seat: str | None = None, **params: Any) -> str:
    if seat is not None:
        params = {"token": game.tokens[seat], **params}
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"{server.ws_url}/api/games/{game.id}/ws" + (f"?{query}" if query else "")


async def act_in_thread(api: Api, game: Game, seat: str, view: dict[str, Any]) -> int:
    """Post the seat's first prompt action (from a thread: the test's loop keeps reading)."""
    r = await asyncio.to_thread(api.act, game, seat, view["version"], view["prompt"]["actions"][0])
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_ws_view_on_connect_then_patches_that_rebuild_the_view(server: Server, api: Api) -> None:
    """A socket gets the whole view, then one patch per version; applying the patches to
    the view gives exactly what GET returns, for both seats, and the acting seat's patch
    arrives for every action (its view always changes)."""
    game = api.create(seed=5)
    rng = random.Random(5)

    async def main() -> None:
        async with (
            connect(ws_url(server, game, "japan")) as jp,
            connect(ws_url(server, game, "usa")) as us,
        ):
            docs: dict[str, dict[str, Any]] = {}
            for seat, ws in (("japan", jp), ("usa", us)):
                first = await receive(ws)
                assert first["type"] == "view" and first["version"] == 1
                assert first["view"] == api.view(game, seat)
                docs[seat] = first["view"]
            for _ in range(30):
                found = await asyncio.to_thread(api.acting_seat, game)
                assert found is not None
                seat, view = found
                action = rng.choice(view["prompt"]["actions"])
                r = await asyncio.to_thread(api.act, game, seat, view["version"], action)
                assert r.status_code == 200
                for name, ws in (("japan", jp), ("usa", us)):
                    target = await asyncio.to_thread(api.view, game, name)
                    while docs[name]["version"] < target["version"]:
                        message = await receive(ws)
                        assert message["type"] == "patch"
                        assert message["version"] == docs[name]["version"] + 1
                        docs[name] = apply_patch(docs[name], message["patch"])
                    assert docs[name] == target

    run(main())


def test_ws_token_in_first_message(server: Server, api: Api) -> None:
    """The token may come as the first message instead of the query string."""
    game = api.create()

    async def main() -> None:
        async with connect(ws_url(server, game)) as ws:
            await ws.send(json.dumps({"token": game.tokens["usa"]}))
            first = await receive(ws)
            assert first["type"] == "view" and first["view"]["seat"] == "usa"

    run(main())


@pytest.mark.parametrize(
    ("how", "code", "status"),
    [
        ("bad-token", 4401, 401),
        ("unknown-game", 4404, 404),
        ("not-json", 4400, 400),
        ("no-token-field", 4400, 400),
        ("bad-version", 4400, 400),
    ],
)
def test_ws_refusals_close_with_a_code_and_message(
    server: Server, api: Api, how: str, code: int, status: int
) -> None:
    """Errors are an error message then a close code 4000 + the HTTP status."""
    game = api.create()
    base = f"{server.ws_url}/api/games/{game.id}/ws"
    url, first = {
        "bad-token": (f"{base}?token=nope", None),
        "unknown-game": (f"{server.ws_url}/api/games/0000000000000000/ws?token=x", None),
        "not-json": (base, "hello"),
        "no-token-field": (base, json.dumps({"version": 1})),
        "bad-version": (f"{base}?token={game.tokens['usa']}&version=abc", None),
    }[how]

    async def main() -> None:
        async with connect(url) as ws:
            if first is not None:
                await ws.send(first)
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert message["type"] == "error" and message["status"] == status
            assert message["message"]
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == code

    run(main())


def test_ws_heartbeat_and_ping_pong(server: Server, api: Api) -> None:
    """Heartbeats come every MIDWAY_HEARTBEAT_SECONDS (0.5 s for the tests) with the
    version; a client ping is answered with a pong; anything else is a protocol error."""
    game = api.create()

    async def main() -> None:
        async with connect(ws_url(server, game, "japan")) as ws:
            assert (await receive(ws))["type"] == "view"
            beat = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert beat == {"type": "heartbeat", "version": 1}
            await ws.send(json.dumps({"type": "ping"}))
            assert (await receive(ws)) == {"type": "pong"}
            await ws.send(json.dumps({"type": "launch"}))
            message = await receive(ws)
            assert message["type"] == "error" and "expected" in message["message"]

    run(main())


async def _read_to(ws: ClientConnection, doc: dict[str, Any] | None, version: int) -> Any:
    """Read messages until the document reaches `version`; the messages' types."""
    kinds = []
    while doc is None or doc["version"] < version:
        message = await receive(ws)
        kinds.append(message["type"])
        doc = message["view"] if message["type"] == "view" else apply_patch(doc, message["patch"])
    return doc, kinds


def test_ws_reconnect_gets_the_patches_it_missed(server: Server, api: Api) -> None:
    """A client that reconnects with its last version gets only the patches after it
    (not the whole view), and ends with exactly the current view."""
    game = api.create(seed=8)

    async def main() -> None:
        async with connect(ws_url(server, game, "japan")) as ws:
            doc = (await receive(ws))["view"]
        for _ in range(3):  # missed while disconnected
            await act_in_thread(api, game, "japan", api.view(game, "japan"))
        current = api.view(game, "japan")
        assert current["version"] == doc["version"] + 3
        async with connect(ws_url(server, game, "japan", version=doc["version"])) as ws:
            doc, kinds = await _read_to(ws, doc, current["version"])
            assert kinds == ["patch"] * 3
            assert doc == current
            # Live again: the next change arrives as a patch too.
            version = await act_in_thread(api, game, "japan", current)
            doc, kinds = await _read_to(ws, doc, version)
            assert kinds == ["patch"] and doc == api.view(game, "japan")

    run(main())


def test_ws_reconnect_too_far_behind_gets_a_fresh_view(server: Server, api: Api) -> None:
    """More than MIDWAY_MAX_CATCHUP_PATCHES (5 for the tests) behind: a fresh view. A
    client already at the current version gets nothing but heartbeats."""
    game = api.create(seed=9)
    for _ in range(7):
        view = api.view(game, "japan")
        assert api.act(game, "japan", view["version"], view["prompt"]["actions"][0]).is_success
    current = api.view(game, "japan")
    assert current["version"] >= 7

    async def main() -> None:
        async with connect(ws_url(server, game, "japan", version=1)) as ws:
            message = await receive(ws)
            assert message["type"] == "view" and message["view"] == current
        async with connect(ws_url(server, game, "japan", version=current["version"])) as ws:
            beat = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert beat == {"type": "heartbeat", "version": current["version"]}

    run(main())


def test_ws_closes_1012_on_shutdown(make_server: Any, tmp_path: Path) -> None:
    """SIGTERM: every open socket is closed with 1012 (service restart)."""
    server = make_server(f"sqlite:///{tmp_path / 'shutdown.db'}")
    with Api(server.url) as api:
        game = api.create()

    async def main() -> None:
        async with connect(ws_url(server, game, "usa")) as ws:
            assert (await receive(ws))["type"] == "view"
            await asyncio.to_thread(server.stop)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012

    run(main())


def test_ws_views_recomputed_without_cache_and_fresh_view_after_engine_change(
    make_server: Any, tmp_path: Path
) -> None:
    """Views are recomputed from the state, never stored: with no cache at all the
    patches still rebuild exactly the GET view. A seat whose view was computed by another
    engine (view_stamp differs) cannot be patched: its next version comes as a fresh view."""
    url = f"sqlite:///{tmp_path / 'nocache.db'}"
    server = make_server(url, MIDWAY_STATE_CACHE_SIZE="0")
    with Api(server.url) as api:
        game = api.create(seed=17)

        async def main() -> None:
            async with connect(ws_url(server, game, "usa")) as ws:
                doc = (await receive(ws))["view"]
                for _ in range(5):
                    await act_in_thread(api, game, "usa", api.view(game, "usa"))
                    doc, kinds = await _read_to(ws, doc, api.view(game, "usa")["version"])
                    assert kinds == ["patch"] and doc == api.view(game, "usa")
                await asyncio.to_thread(
                    execute, url, "UPDATE seats SET view_stamp = 'old' WHERE game_id = :g", game.id
                )
                version = await act_in_thread(api, game, "usa", api.view(game, "usa"))
                doc, kinds = await _read_to(ws, doc, version)
                assert kinds == ["view"] and doc == api.view(game, "usa")

        run(main())


def execute(url: str, sql: str, game_id: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(sql), {"g": game_id})
    finally:
        engine.dispose()


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    first=st.one_of(
        st.text(max_size=50),
        st.binary(max_size=50),
        st.dictionaries(st.sampled_from(["token", "version", "type"]), st.text(max_size=30)),
        st.builds(lambda n: "[" * n + "]" * n, st.integers(1, 3000)),
    )
)
def test_ws_fuzz_first_messages_are_refused_with_a_close_code(server: Server, first: Any) -> None:
    """Any first message that is not {"token": <a seat token>} ends in an error message
    and a 44xx close code (never a crash or a dropped connection without a reason)."""
    game_id = "0123456789abcdef"

    async def main() -> None:
        async with connect(f"{server.ws_url}/api/games/{game_id}/ws") as ws:
            await ws.send(first if isinstance(first, str | bytes) else json.dumps(first))
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert message["type"] == "error" and message["message"]
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and 4400 <= closed.value.rcvd.code < 4500

    run(main())


def test_ws_offers_compression_for_the_pages_regions(server: Server, api: Api) -> None:
    """The seat page's regions come over the websocket as HTML: about 120 kB for a
    Searchboard, an Operations Card pair and a setup prompt, about 11 kB deflated. The
    server accepts permessage-deflate (RFC 7692) from a client that offers it, as browsers
    do, on the API socket and the page socket alike."""
    game = api.create(seed=8)

    async def main() -> None:
        for path in (ws_url(server, game, "usa"), f"{server.ws_url}/games/{game.id}/live"):
            async with connect(path) as ws:
                extensions = ws.response.headers.get("Sec-WebSocket-Extensions", "")
                assert "permessage-deflate" in extensions, (path, extensions)

    run(main())


def test_17_a_move_from_a_page_with_its_socket_open_is_rendered_once(
    server: Server, api: Api
) -> None:
    """Issue 17, nothing computed twice: a click answered while the page's live socket is
    open (midway.js sends `Midway-Live: 1`) carries only the cleared flash, and the
    socket brings the acting seat's fresh prompt at its new version (what changed in it,
    issue 34); without the header
    (no socket) the answer itself carries the status and prompt."""
    game = api.create(seed=8)
    prompt = re.compile(r'<section id="r-prompt"[^>]*data-v="(\d+)"')
    patched = re.compile(r'data-in="r-prompt" data-from="\d+" data-to="(\d+)"')

    def click(view: dict[str, Any], live: bool) -> httpx.Response:
        form = {"version": str(view["version"]), "action": json.dumps(view["prompt"]["actions"][0])}
        headers = {**game.auth("japan"), **({"Midway-Live": "1"} if live else {})}
        return httpx.post(f"{server.url}/games/{game.id}/act", data=form, headers=headers)

    async def main() -> None:
        async with connect(f"{server.ws_url}/games/{game.id}/live") as page:
            await page.send(json.dumps({"token": game.tokens["japan"], "version": 0}))
            first = await asyncio.wait_for(page.recv(), 10)
            assert prompt.search(str(first)), "the first push holds every region"
            view = api.view(game, "japan")
            answer = await asyncio.to_thread(click, view, True)
            assert answer.status_code == 200, answer.text
            assert 'id="flash"' in answer.text and 'id="r-prompt"' not in answer.text
            pushed = str(await asyncio.wait_for(page.recv(), 10))
            # the region whole, or (issue 34) what changed in it, to the new version
            found = prompt.search(pushed) or patched.search(pushed)
            assert found and int(found.group(1)) == view["version"] + 1, pushed[:300]
        view = api.view(game, "japan")
        answer = click(view, False)
        found = prompt.search(answer.text)
        assert answer.status_code == 200 and found, answer.text[:300]
        assert int(found.group(1)) == view["version"] + 1

    run(main())
