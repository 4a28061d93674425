"""Random games of every kind of seat, for the web tests that follow each seat's page
along one: after each action, the state and each seat's log so far."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from app import rules
from app.rules.engine.state import State
from app.rules.modes.seats import acting
from tools.fuzz import _next_seat, choose

# (scenario, options, mode, teams): a seat of every kind (17a's commands, 18's umpire)
KINDS = [
    ("one", (), "two-player", False),
    ("two", ("12a", "15a", "11a"), "two-player", False),
    ("three", (), "two-player", True),
    ("one", (), "umpired", False),
    ("coral-sea", (), "two-player", False),
]
Kind = tuple[str, tuple[str, ...], str, bool]


def played(
    kind: Kind, seed: int, rng_seed: int, actions: int
) -> Iterator[tuple[int, State, dict[str, list[dict[str, Any]]]]]:
    """Up to `actions` random actions of a new game; after each, its number, the state
    and each seat's log (one list a seat, extended in place as a live page keeps it)."""
    scenario, options, mode, teams = kind
    rng = random.Random(rng_seed)
    state = rules.new_game(scenario, frozenset(options), seed, mode, teams)
    logs: dict[str, list[dict[str, Any]]] = {s.id: [] for s in rules.seats(state)}
    for step in range(actions):
        if state.status == "finished":
            return
        seat = _next_seat(state, rng)
        state, events = rules.apply(state, seat, choose(state, seat, rng))
        for s, log in logs.items():
            log.extend(json.loads(json.dumps(rules.events_for(events, s))))
        yield step, state, logs


def play_on(
    state: State, rng: random.Random, logs: dict[str, list[dict[str, Any]]] | None = None
) -> State:
    """The state after one random action of a seat that may act (`tools.fuzz`'s choice);
    each seat's log in `logs` becomes a new list with the events it may read added, as
    JSON carries them (the lists a page was given stay as they were)."""
    seat = rng.choice(acting(state))
    state, events = rules.apply(state, seat, choose(state, seat, rng))
    if logs is not None:
        for s, log in logs.items():
            logs[s] = log + json.loads(json.dumps(rules.events_for(events, s)))
    return state
