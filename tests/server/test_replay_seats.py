"""The replay page offers a view for every seat the engine declares for the game
(app/rules/modes/seats.py `seats(state)`): an umpired team game's four players (17a) and its
umpire (18b), then both sides; each answers with that seat's page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.rules import new_game, seats
from server.client import Api, Game
from server.conftest import Server
from tools.fuzz import play_game

SEED = 2  # an umpired Scenario Three team game that tools/fuzz.py's agent plays to its end


@pytest.fixture
def api(server: Server) -> Iterator[Api]:
    with Api(server.url) as client:
        yield client


def post_every(api: Api, game: Game, log: list[tuple[str, dict[str, Any]]]) -> None:
    versions = {seat: api.view(game, seat)["version"] for seat in game.tokens}
    for seat, action in log:
        r = api.act(game, seat, versions[seat], action)
        if r.status_code == 409:  # another seat's move changed this one's view
            versions[seat] = api.view(game, seat)["version"]
            r = api.act(game, seat, versions[seat], action)
        assert r.status_code == 200, r.text
        versions[seat] = r.json()["version"]


@pytest.mark.slow
def test_18b_the_replay_offers_each_seat_the_engine_declares_and_both_sides(api: Api) -> None:
    log = play_game("three", SEED, teams=True, mode="umpired").log
    game = api.create(seed=SEED, scenario="three", mode="umpired", teams=True)
    post_every(api, game, log)
    declared = [s.id for s in seats(new_game("three", frozenset(), SEED, "umpired", True))]
    assert "umpire" in declared and len(declared) == 5
    at = len(log) // 2
    for seat in [*declared, "omniscient"]:
        r = api.http.get(f"/games/{game.id}/replay", params={"seat": seat, "at": at})
        assert r.status_code == 200, (seat, r.text[:200])
        offered = re.findall(r'class="switch" href="[^"]*" data-seat="([^"]+)"', r.text)
        current = re.findall(r'<strong class="switch" aria-current="page">', r.text)
        assert len(current) == 1, seat
        assert offered == [s for s in [*declared, "omniscient"] if s != seat], (seat, offered)
        assert f"After action {at} of {len(log)}" in r.text
