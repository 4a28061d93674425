"""Issue 17: an action's news reaches the sockets of its game (app.games.hub.Hub), each
socket in a task of its own started as the action commits: the API's sockets, which only
send a patch, before the seat pages', which render their regions first, and with no task
in between that only starts the others."""

from __future__ import annotations

import asyncio
from typing import Any

from app.games.hub import Hub, Subscriber
from app.games.store import CatchUp
from app.games.writes import SeatChange


async def never_fetched(game_id: str, seat: str, since: int | None) -> CatchUp:
    raise AssertionError("every socket here has the version the patches follow")


def test_17_api_sockets_get_their_patch_before_any_page_renders() -> None:
    """Twenty games, each with a page socket and an API socket added in either order: in
    each game the API socket sends first; and every socket has been sent its patch in
    the first turn of the event loop after the commits (no task stood in between)."""

    async def main() -> None:
        hub = Hub(fetch=never_fetched)
        sent: list[tuple[str, str]] = []  # (game, what), in the order it happened

        def recorder(game: str, what: str) -> Any:
            async def send(message: dict[str, Any]) -> None:
                assert message["type"] == "patch"
                sent.append((game, what))

            return send

        games = [f"g{i}" for i in range(20)]
        for i, game in enumerate(games):
            page = Subscriber(game, "japan", recorder(game, "page"), 4, on_log=lambda *_: None)
            api = Subscriber(game, "usa", recorder(game, "api"), 7)
            for sub in (page, api) if i % 2 else (api, page):
                hub.add(sub)
        changes = (SeatChange("japan", 5, []), SeatChange("usa", 8, []))
        for game in games:
            hub.changed_soon(game, changes, (3, None))
        await asyncio.sleep(0)  # one turn of the loop
        assert sorted(sent) == sorted((g, w) for g in games for w in ("api", "page"))
        for game in games:
            assert sent.index((game, "api")) < sent.index((game, "page"))

    asyncio.run(main())


def test_17_a_seat_whose_view_did_not_change_is_sent_nothing() -> None:
    async def main() -> None:
        hub = Hub(fetch=never_fetched)
        sent: list[str] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message["type"])

        hub.add(Subscriber("g", "japan", send, 4, on_log=lambda *_: None))
        hub.add(Subscriber("g", "usa", send, 7))
        hub.changed_soon("g", (SeatChange("usa", 8, [{"op": "add", "path": "/x", "value": 1}]),))
        await asyncio.gather(*hub._tasks)
        assert sent == ["patch"]

    asyncio.run(main())
