"""A complete Scenario One game (7b) through HTTP only, random legal actions on both
seats, to `finished` (issue 3, Done when); then the replay reveals the seed."""

from __future__ import annotations

import hashlib
import random
from typing import Any

from server.client import Api
from server.conftest import Server

MAX_ACTIONS = 20_000


def test_scenario_one_complete_game_over_http_to_finished(server: Server) -> None:
    """Both seats take random actions from their prompts until the view says finished;
    the view then carries the victory points, nobody may act (403), and GET /replay
    gives the creation record, the seed (whose SHA-256 every view showed) and every
    event, while the seats' logs hold only what each could see."""
    rng = random.Random(2024)
    with Api(server.url) as api:
        game = api.create(seed=2024)
        taken = 0
        while taken < MAX_ACTIONS:
            found = api.acting_seat(game)
            if found is None:
                break
            seat, view = found
            r = api.act(game, seat, view["version"], rng.choice(view["prompt"]["actions"]))
            assert r.status_code == 200, r.text
            taken += 1
        views = {seat: api.view(game, seat) for seat in ("japan", "usa")}
        for view in views.values():
            assert view["status"] == "finished", f"stuck after {taken} actions: {view['prompt']}"
            assert "points" in view["victory"]
        r = api.act(game, "usa", views["usa"]["version"], {"kind": "done"})
        assert r.status_code == 403

        replay: dict[str, Any] = api.http.get(game.body["replay_url"]).json()
        assert replay["seed"] == 2024 and replay["scenario"] == "one"
        assert hashlib.sha256(b"2024").hexdigest() == replay["seed_sha256"]
        assert replay["seed_sha256"] == views["japan"]["seed_sha256"]
        assert len(replay["actions"]) == taken
        logs = {
            seat: api.http.get(f"/api/games/{game.id}/log", headers=game.auth(seat)).json()
            for seat in ("japan", "usa")
        }
        assert len(replay["events"]) >= max(len(log) for log in logs.values())
        assert any(e["audience"] == "japan" for e in replay["events"])
        assert not any(e["audience"] == "japan" for e in logs["usa"])
