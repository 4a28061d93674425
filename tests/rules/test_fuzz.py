"""The seeded fuzzer (issue 2: at least 1,000 complete Scenario One games with random legal
actions): `make fuzz` plays 5,000 of them, seeds 0-4999; the suite plays the first 200,
and fewer of the longer campaigns `make fuzz` plays 300 of, to stay within its time.

Each chunk plays 100 games; the invariants, replay, victory points and non-interference
are checked inside `play_game` after every step. A failure is saved to fuzz-failures/ as
(scenario, seed, log); copy it into tests/rules/fuzz_cases/ to keep it as a regression.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from app.rules import apply, new_game
from app.rules.base.setup import OPTIONS
from tools.fuzz import check_invariants, mode_options, play_game, random_options, save_failure

GAMES_PER_CHUNK = 100
CHUNKS = 2  # 200 games in all (make fuzz: 5,000)
CASES = sorted((Path(__file__).parent / "fuzz_cases").glob("*.json"))


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.slow
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


@pytest.mark.parametrize("scenario", ["one", "two", "three"])
@pytest.mark.parametrize("which", ["all", "random"])
@pytest.mark.slow
def test_fuzz_with_optional_rules(scenario: str, which: str) -> None:
    """Complete games with every option on, and with random subsets (make fuzz plays more)."""
    games = 20 if scenario == "one" else 6
    for seed in range(games):
        options = frozenset(OPTIONS) if which == "all" else random_options(random.Random(seed))
        log: list[tuple[str, dict[str, object]]] = []
        try:
            play_game(scenario, seed, log=log, options=options)
        except Exception as exc:
            path = save_failure(scenario, seed, log, repr(exc), options)
            raise AssertionError(
                f"{scenario} seed {seed} {sorted(options)} failed: {path}"
            ) from exc


@pytest.mark.parametrize("scenario", ["coral-sea", "eastern-solomons", "santa-cruz"])
@pytest.mark.parametrize("which", ["none", "all"])
def test_fuzz_pacific_theatre_scenarios(scenario: str, which: str) -> None:
    """Pacific Theatre Via Midway: complete games of each scenario on the theatre map, without
    options and with every option it is played with, invariants and non-interference checked
    (make fuzz plays 300 of each)."""
    options = frozenset(mode_options("two-player", scenario)) if which == "all" else frozenset()
    battles = 0
    for seed in range(3):
        log: list[tuple[str, dict[str, object]]] = []
        try:
            battles += play_game(scenario, seed, log=log, options=options).battles
        except Exception as exc:
            path = save_failure(scenario, seed, log, repr(exc), options)
            raise AssertionError(f"{scenario} seed {seed} {which} failed: {path}") from exc
    assert battles > 0, "the agents should meet in battle in three games"


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_saved_fuzz_case_replays(case: Path) -> None:
    """Regression: a game the fuzzer once broke, replayed with the invariants after every step."""
    data = json.loads(case.read_text())
    options = frozenset(data.get("options", []))
    state = new_game(
        data["scenario"], options, data["seed"], "two-player", data.get("teams", False)
    )
    for seat, action in data["log"]:
        state, _ = apply(state, seat, action)
        check_invariants(state)
    assert state.status == "finished"


@pytest.mark.parametrize("scenario", ["two", "three"])
def test_fuzz_17a_team_games(scenario: str) -> None:
    """17a: complete games with two seats a side, each seat playing only what it is
    offered (17b); invariants, replay and non-interference for every seat (make fuzz
    plays more)."""
    checked: dict[str, int] = {}
    for seed in range(3):
        options = random_options(random.Random(seed))
        log: list[tuple[str, dict[str, object]]] = []
        try:
            result = play_game(scenario, seed, log=log, options=options, teams=True)
        except Exception as exc:
            path = save_failure(scenario, seed, log, repr(exc), options, teams=True)
            raise AssertionError(f"{scenario} seed {seed} failed, saved as {path}") from exc
        for seat, n in result.checked.items():
            checked[seat] = checked.get(seat, 0) + n
    assert set(checked) == {"japan-i", "japan-vi", "usa-tf16", "usa-tf17", "spectator"}
    assert min(checked.values()) > 50


def test_issue_33_fuzz_counts_each_game_for_comparing_two_checkouts(tmp_path: Path) -> None:
    """`--counts` writes each game's seed, actions and battles: the per-seed figures that
    show a change of structure left play as it was (issue 33, `make fuzz` per seed)."""
    from tools.fuzz import run

    counts = tmp_path / "counts.jsonl"
    assert run("one", 3, 5, "none", counts=counts) == 0
    lines = [json.loads(line) for line in counts.read_text().splitlines()]
    assert [line["seed"] for line in lines] == [5, 6, 7]
    for line in lines:
        played = play_game("one", line["seed"])
        assert (line["actions"], line["battles"]) == (played.actions, played.battles)
