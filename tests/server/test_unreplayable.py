"""A game whose log the running rules refuse (recorded under earlier rules, say) cannot
be loaded: every request about it is answered 410 with a message, the websocket closes
with 4410, the game is left as it was, and nothing says which action failed, whose, or
how many there were (DESIGN.md, Hidden information; issue 3: never a 5xx)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.client import Api


def test_a_log_the_rules_refuse_is_answered_410_and_changes_nothing(
    make_server: Any, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    server = make_server(url, MIDWAY_SNAPSHOT_EVERY="1000")
    with Api(server.url) as api:
        game = api.create(seed=21)
        assert api.play(game, 6, random.Random(21)) == 6
        views = {seat: api.view(game, seat) for seat in ("japan", "usa")}
    server.stop()
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # the first action becomes one no rules allow now
        conn.execute(
            sa.text("UPDATE actions SET action = :a WHERE game_id = :g AND seq = 1"),
            {"a": json.dumps({"kind": "launch", "unit": "NoSuchUnit"}), "g": game.id},
        )
        before = conn.execute(sa.text("SELECT count(*) FROM actions")).scalar()
    server.start()  # a new process: nothing in memory, the log is replayed
    with Api(server.url) as api:
        for seat in ("japan", "usa"):
            r = api.http.get(f"/api/games/{game.id}", headers=game.auth(seat))
            assert r.status_code == 410, r.text
            detail = r.json()["detail"]
            assert "cannot be continued" in detail
            assert "NoSuchUnit" not in detail and "launch" not in detail
            action = views[seat]["prompt"]["actions"] or [{"kind": "done"}]
            r = api.act(game, seat, views[seat]["version"], action[0])
            assert r.status_code == 410, r.text

    async def socket() -> None:
        token = game.tokens["usa"]
        async with connect(f"{server.ws_url}/api/games/{game.id}/ws?token={token}") as ws:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert message["type"] == "error" and message["status"] == 410
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4410

    asyncio.run(socket())
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM actions")).scalar() == before
    engine.dispose()
    assert "NoSuchUnit" not in server.log()
