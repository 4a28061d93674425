"""A complete Scenario One game (7b) through HTTP only, random legal actions on both
seats, to `finished` (issue 3, Done when); then the replay reveals the seed."""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import pytest

import app.rules as rules
from app.web import render
from server.client import Api
from server.conftest import Server

MAX_ACTIONS = 20_000


@pytest.mark.slow
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
        revealed = f"{replay['seed']}:{replay['seed_salt']}".encode()  # app.games.seeds
        assert hashlib.sha256(revealed).hexdigest() == replay["seed_sha256"]
        assert replay["seed_sha256"] == views["japan"]["seed_sha256"]
        assert len(replay["actions"]) == taken
        logs = {
            seat: api.http.get(f"/api/games/{game.id}/log", headers=game.auth(seat)).json()
            for seat in ("japan", "usa")
        }
        assert len(replay["events"]) >= max(len(log) for log in logs.values())
        assert any(e["audience"] == "japan" for e in replay["events"])
        assert not any(e["audience"] == "japan" for e in logs["usa"])


def play_to_the_end(api: Api, seed: int) -> tuple[Any, int]:
    rng = random.Random(seed)
    game = api.create(seed=seed)
    taken = 0
    while (found := api.acting_seat(game)) is not None and taken < MAX_ACTIONS:
        seat, view = found
        r = api.act(game, seat, view["version"], rng.choice(view["prompt"]["actions"]))
        assert r.status_code == 200, r.text
        taken += 1
    return game, taken


@pytest.mark.slow
def test_replay_page_steps_through_a_finished_game_as_each_side_saw_it(server: Server) -> None:
    """GET /games/{id}/replay (anyone with the link, finished games only): the game after
    any number of its actions, as Japan or the United States saw it then, by the seat
    page's own regions (no prompt: a replay takes no actions); the end shows everything
    and the result. Before the end the page says only that it is not open yet."""
    with Api(server.url) as api:
        game = api.create(seed=77)
        early = api.http.get(f"/games/{game.id}/replay")
        assert early.status_code == 403 and "finished" in early.text
        game, taken = play_to_the_end(api, 77)
        assert api.view(game, "japan")["status"] == "finished"

        end = api.http.get(f"/games/{game.id}/replay")
        assert end.status_code == 200
        assert f"After action {taken} of {taken}" in end.text
        assert "everything revealed" in end.text and 'id="r-victory"' in end.text
        assert 'id="r-prompt"' not in end.text and "hx-post" not in end.text

        first = api.http.get(f"/games/{game.id}/replay", params={"seat": "usa", "at": 0})
        assert first.status_code == 200 and "After action 0 of" in first.text
        assert 'rel="next" data-at="1"' in first.text and 'rel="prev"' not in first.text

        record = api.http.get(f"/api/games/{game.id}/replay").json()
        log = [(a["seat"], a["action"]) for a in record["actions"]]
        for at in sorted({1, 25, taken // 2}):  # 25: app.games.replays.CHECKPOINT
            check_replay_step(api, game, record, log, at)
        at = taken // 2
        both = api.http.get(f"/games/{game.id}/replay", params={"seat": "omniscient", "at": at})
        assert both.status_code == 200 and "Replay: both sides" in both.text
        assert both.text.count('<section id="r-searchboard"') == 1
        for seat in ("japan", "usa"):  # both sides' markers on one Searchboard
            own = api.http.get(f"/games/{game.id}/replay", params={"seat": seat, "at": at}).text
            mine = set(re.findall(rf'data-key="((?:tf|g|air):{seat}:[^"]*)"', own))
            assert mine, seat
            assert mine == set(re.findall(rf'data-key="((?:tf|g|air):{seat}:[^"]*)"', both.text))

        for params, status in (
            ({"at": taken + 1}, 422),
            ({"at": -1}, 422),
            ({"seat": "umpire"}, 404),
        ):
            r = api.http.get(f"/games/{game.id}/replay", params=params)
            assert r.status_code == status, (params, r.text)
        assert api.http.get("/games/0123456789abcdef/replay").status_code == 404
        for seat in ("japan", "", "umpire", "../usa", "\x00", "u" * 300):
            for raw in (-5, 0, taken, taken + 1, 10**30, "x", "", "1.5", "\x00"):
                r = api.http.get(f"/games/{game.id}/replay", params={"seat": seat, "at": raw})
                assert r.status_code in (200, 404, 422), (seat, raw, r.status_code)
                assert r.status_code != 200 or seat == "japan"  # "" is no seat
                assert "Traceback" not in r.text


def check_replay_step(api: Api, game: Any, record: dict[str, Any], log: list[Any], at: int) -> None:
    """Each side's replay page after `at` actions shows the Searchboard and the log the
    engine's own replay of the log gives that side then."""
    state, events = rules.replay("one", frozenset(), 77, log[:at])
    for seat in ("japan", "usa"):
        page = api.http.get(f"/games/{game.id}/replay", params={"seat": seat, "at": at})
        assert page.status_code == 200
        view = json.loads(json.dumps(rules.view(state, seat)))
        view.update(id=game.id, version=at, seat=seat, seed_sha256=record["seed_sha256"])
        view["prompt"]["actions"] = []
        shown = json.loads(json.dumps(rules.events_for(events, seat)))
        who = render.Seat(game.id, seat)
        expected = render.regions(view, shown, who, ("searchboard", "log"), replay=True)
        assert expected["searchboard"] in page.text, f"{seat}'s board at {at}"
        assert expected["log"] in page.text, f"{seat}'s log at {at}"
