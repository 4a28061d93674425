"""Games played to the end quickly for the between-moves tests: the actions are chosen by
the rules engine in this process (random legal actions, seeded), then posted over HTTP."""

from __future__ import annotations

import random
from typing import Any

import app.rules as rules
from server.client import Api, Game


def random_game(scenario: str, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """A complete game's actions, as (seat, action JSON)."""
    rng = random.Random(seed)
    state = rules.new_game(scenario, frozenset(), seed, "two-player")
    out: list[tuple[str, dict[str, Any]]] = []
    while seats := [s for s in ("japan", "usa") if rules.legal_actions(state, s)]:
        action = rng.choice(rules.legal_actions(state, seats[0]))
        state, _events = rules.apply(state, seats[0], action)
        out.append((seats[0], action.to_json()))
    assert str(state.status) == "finished"
    return out


def post_all(api: Api, game: Game, actions: list[tuple[str, dict[str, Any]]]) -> None:
    versions = {s: api.view(game, s)["version"] for s in game.tokens}  # 18: the umpire's too
    for seat, action in actions:
        r = api.act(game, seat, versions[seat], action)
        if r.status_code == 409:  # the other seat's move changed this one's view
            versions[seat] = api.view(game, seat)["version"]
            r = api.act(game, seat, versions[seat], action)
        assert r.status_code == 200, r.text
        versions[seat] = r.json()["version"]
