"""Fuzzing option 16: Scenario Four games, and Scenario Two/Three games with surface combats.

Scenario Four games are tools/fuzz.py's `play_game`, with its invariants, replay, victory
points and non-interference checks. In Scenarios Two and Three random task forces seldom
share a hex, so the agent here leans (reading the true positions, as the fuzzer's agent
does for flights) toward moving its task forces at the enemy, sea-searching where it is
and engaging; the same checks run after every action.
"""

from __future__ import annotations

import random

import pytest

from app.rules import Action, State, apply, legal_actions, new_game, replay
from app.rules.base.setup import OPTIONS
from app.rules.base.victory import victory_points
from app.rules.board.boards import midway_hex, searchboard
from app.rules.engine.state import Side, other
from app.rules.modes.seats import acting
from tools.fuzz import (
    MAX_ACTIONS,
    check,
    check_invariants,
    check_non_interference,
    choose,
    independent_points,
    play_game,
    random_options,
    save_failure,
)

SURFACE = frozenset({"16", "16f5", "16k"})
# Options that touch surface combats: free roll, aircraft damage, dead in the water, repairs,
# submarines, variable sea movement and spotting (2X and 3X, 16a).
WITH = frozenset({"11a", "11b", "11c", "11d", "11e", "12a", "15a"})


@pytest.mark.parametrize("chunk", range(2))
@pytest.mark.slow
def test_fuzz_scenario_four_complete_games(chunk: int) -> None:
    """200 complete games of the Night Surface Action (7e)."""
    seen: dict[str, int] = {}
    for seed in range(chunk * 100, (chunk + 1) * 100):
        log: list[tuple[str, dict[str, object]]] = []
        try:
            result = play_game("four", seed, log=log)
        except Exception as exc:
            path = save_failure("four", seed, log, repr(exc))
            raise AssertionError(f"four seed {seed} failed, saved as {path}") from exc
        assert result.final is not None and result.final.status == "finished"
        for _, action in log:
            seen[str(action["kind"])] = seen.get(str(action["kind"]), 0) + 1
    for kind in ("advance", "turn", "torpedo", "gun", "breakoff", "position", "formation"):
        assert seen.get(kind), f"no {kind!r} in 100 games"


def test_fuzz_scenario_four_with_optional_rules() -> None:
    """11a (7e4.4), 11c dead in the water, 16k surprise and random subsets."""
    for seed in range(40):
        options = frozenset(OPTIONS) if seed % 2 else random_options(random.Random(seed))
        log: list[tuple[str, dict[str, object]]] = []
        try:
            play_game("four", seed, log=log, options=options)
        except Exception as exc:
            path = save_failure("four", seed, log, repr(exc), options)
            raise AssertionError(f"four seed {seed} {sorted(options)}: {path}") from exc


# ---------------------------------------------------------------- Scenarios Two and Three


def lean(state: State, seat: Side, rng: random.Random) -> Action:
    """The fuzzer's agent, leaning toward surface contact (and the Japanese toward Midway)."""
    by_kind: dict[str, list[Action]] = {}
    for a in legal_actions(state, seat):
        by_kind.setdefault(a.kind, []).append(a)
    grid = searchboard()
    goals = [h for h in state.boards[other(seat)].forces.values() if h is not None]
    goals += [midway_hex()] if seat == "japan" else []

    def nearness(a: Action) -> tuple[int, float]:
        return min((grid.distance(a.get("hex"), g) for g in goals), default=0), rng.random()

    for kind, chance in (("move", 0.8), ("enter", 0.8), ("sea-search", 0.9)):
        if kind in by_kind and rng.random() < chance:
            return min(by_kind[kind], key=nearness)
    if "engage" in by_kind and rng.random() < 0.8:
        return rng.choice(by_kind["engage"])
    return choose(state, seat, rng)


def play_surface_game(scenario: str, seed: int, options: frozenset[str]) -> int:
    """One complete game with the leaning agent; returns the surface combats fought."""
    rng = random.Random(seed)
    state = new_game(scenario, options, seed)
    log: list[tuple[str, dict[str, object]]] = []
    combats = actions = 0
    try:
        while state.status != "finished":
            check(actions < MAX_ACTIONS, "the game does not end")
            seats = acting(state)
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            action = lean(state, seat, rng)
            log.append((seat, action.to_json()))
            state, events = apply(state, seat, action)
            actions += 1
            combats += sum(1 for e in events if e.kind in ("surface-combat", "bombardment-set-up"))
            check_invariants(state)
            if actions % 11 == 0:
                check_non_interference(state, rng)
        rebuilt, _ = replay(scenario, options, seed, log)
        check(rebuilt == state, "replay of the log differs from the state")
        assert state.victory is not None
        check(state.victory["points"] == independent_points(state), "victory points")
        check(victory_points(state) == state.victory, "victory points changed after the end")
    except Exception as exc:
        path = save_failure(scenario, seed, log, repr(exc), options)
        raise AssertionError(f"{scenario} seed {seed} {sorted(options)}: {path}") from exc
    return combats


@pytest.mark.parametrize("scenario", ["two", "three"])
def test_fuzz_surface_combats_in_the_searchboard_scenarios(scenario: str) -> None:
    combats = [
        play_surface_game(scenario, seed, SURFACE | WITH if seed % 2 else SURFACE)
        for seed in range(4)
    ]
    assert all(combats), f"surface combats per game: {combats}"
