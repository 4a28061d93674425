"""The seeded fuzzer (issue: 1,000 complete Scenario One games with random legal actions).

Each chunk plays 100 games; the invariants, replay, victory points and non-interference
are checked inside `play_game` after every step. A failure is saved to fuzz-failures/ as
(scenario, seed, log); copy it into tests/rules/fuzz_cases/ to keep it as a regression.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.rules import apply, new_game
from tools.fuzz import check_invariants, play_game, save_failure

GAMES_PER_CHUNK = 100
CHUNKS = 10  # 1,000 games in all
CASES = sorted((Path(__file__).parent / "fuzz_cases").glob("*.json"))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_fuzz_scenario_one_random_games(chunk: int) -> None:
    battles = 0
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        log: list[tuple[str, dict[str, object]]] = []
        try:
            battles += play_game("one", seed, log=log).battles
        except Exception as exc:
            path = save_failure("one", seed, log, repr(exc))
            raise AssertionError(f"seed {seed} failed, saved as {path}") from exc
    assert battles > 0, "the agents should meet in battle in 100 games"


@pytest.mark.parametrize("scenario", ["two", "three"])
def test_fuzz_scenarios_two_and_three_basic_game(scenario: str) -> None:
    """30 complete games each of 7c and 7d in the Basic Game (make fuzz plays more)."""
    for seed in range(30):
        log: list[tuple[str, dict[str, object]]] = []
        try:
            play_game(scenario, seed, log=log)
        except Exception as exc:
            path = save_failure(scenario, seed, log, repr(exc))
            raise AssertionError(f"{scenario} seed {seed} failed, saved as {path}") from exc


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_saved_fuzz_case_replays(case: Path) -> None:
    """Regression: a game the fuzzer once broke, replayed with the invariants after every step."""
    data = json.loads(case.read_text())
    state = new_game(data["scenario"], frozenset(), data["seed"])
    for seat, action in data["log"]:
        state, _ = apply(state, seat, action)
        check_invariants(state)
    assert state.status == "finished"
