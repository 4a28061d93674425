"""Issue 30: the umpire's word reaches a player's page as it is written (18c).

A message of the umpire, or a report he releases, is news for the player even where
nothing on his board changes; it used to reach his page only at a reload or at the next
change of his board, the page saying "Live" meanwhile. Now each is a change of the
player's view (its `heard` part, modes/r18_umpired/heard.py), so the page's live socket and the
API's socket bring it at once - to its audience only."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from server.client import Api, Game
from server.conftest import Server

WAIT = 3.0  # seconds: far less than anyone waits, far more than a push takes


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


async def open_page(server: Server, api: Api, game: Game, seat: str) -> ClientConnection:
    """A seat page's live socket, past its first push (the page as rendered)."""
    page = await connect(f"{server.ws_url}/games/{game.id}/live")
    version = api.view(game, seat)["version"]
    await page.send(json.dumps({"token": game.tokens[seat], "version": version}))
    await asyncio.wait_for(page.recv(), 10)
    return page


async def pushes_within(page: ClientConnection, seconds: float) -> str:
    """Everything the socket is sent in `seconds` (messages apart by NUL)."""
    got = []
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        try:
            got.append(str(await asyncio.wait_for(page.recv(), left)))
        except TimeoutError:
            break
    return "\x00".join(got)


def umpire_says(api: Api, game: Game, to: str, text: str) -> None:
    umpire = api.view(game, "umpire")
    r = api.act(game, "umpire", umpire["version"], {"kind": "message", "to": to, "text": text})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("teams", [False, True])
def test_issue_30_the_umpires_message_reaches_the_players_page_live(
    server: Server, api: Api, teams: bool
) -> None:
    """18c: the umpire writes to one side (or one player, with teams): the pages of its
    players show it at once, the enemy's page nothing."""
    game = api.create(scenario="three" if teams else "one", mode="umpired", teams=teams)
    usa = "usa-tf16" if teams else "usa"
    japan = "japan-i" if teams else "japan"

    async def main() -> None:
        ours, theirs = (
            await open_page(server, api, game, usa),
            await open_page(server, api, game, japan),
        )
        try:
            await asyncio.to_thread(umpire_says, api, game, usa, "Scout the north, not the east")
            mine, enemy = await asyncio.gather(
                pushes_within(ours, WAIT), pushes_within(theirs, WAIT)
            )
            assert "Scout the north, not the east" in mine, mine[:500]
            assert "Scout the north" not in enemy
            await asyncio.to_thread(umpire_says, api, game, "all", "Weather clear")
            mine, enemy = await asyncio.gather(
                pushes_within(ours, WAIT), pushes_within(theirs, WAIT)
            )
            assert "Weather clear" in mine and "Weather clear" in enemy
        finally:
            await ours.close()
            await theirs.close()

    asyncio.run(main())
    view = api.view(game, usa)
    assert [m["text"] for m in view["heard"]["messages"]] == [
        "Scout the north, not the east",
        "Weather clear",
    ]
    assert [m["text"] for m in api.view(game, japan)["heard"]["messages"]] == ["Weather clear"]


def test_issue_30_the_umpires_message_comes_as_a_patch_on_the_api_socket(
    server: Server, api: Api
) -> None:
    """DESIGN.md, Realtime: the API's socket follows the seat's view - a message of the
    umpire is one patch of it."""
    game = api.create(scenario="one", mode="umpired")

    async def main() -> None:
        async with connect(
            f"{server.ws_url}/api/games/{game.id}/ws?token={game.tokens['japan']}"
        ) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first["type"] == "view"
            await asyncio.to_thread(umpire_says, api, game, "japan", "Hold at the dateline")
            got = [json.loads(m) for m in (await pushes_within(ws, WAIT)).split("\x00") if m]
            patches = [m for m in got if m["type"] == "patch"]
            assert patches, "no patch came: the message did not change the view"
            message = patches[0]
            assert message["version"] == first["version"] + 1
            assert "Hold at the dateline" in json.dumps(message["patch"])

    asyncio.run(main())
