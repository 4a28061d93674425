"""Issue 33, golden playthroughs: before the rules engine is taken apart into its parts,
every seat of seeded games must go on receiving exactly what it received (tools/golden.py):
each scenario in each mode, with teams where 17a offers them, with no optional rule and with
all. An intended change of behaviour regenerates the files (`python -m tools.golden
--regenerate`) in a commit of its own saying why."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.games.engine import Engine, load_engine
from tools import golden
from tools.golden import GOLDEN, Playthrough, compare, compare_lines, lines, playthroughs

PLAYTHROUGHS = playthroughs()


@pytest.fixture(scope="module")
def engine() -> Engine:
    return load_engine("app.rules")


@pytest.mark.slow
@pytest.mark.parametrize("play", PLAYTHROUGHS, ids=[p.name for p in PLAYTHROUGHS])
def test_issue_33_golden_playthrough(engine: Engine, play: Playthrough) -> None:
    """What every seat receives (view, legal actions, events) is what the file holds."""
    problem = compare(engine, play)
    if problem is not None:
        pytest.fail(problem, pytrace=False)


def test_issue_33_every_playthrough_has_its_file_and_no_other() -> None:
    """Every scenario x mode x teams x options none/all has its file, and no file is left
    over from a playthrough that is no more."""
    files = {p.name for p in GOLDEN.glob("*.jsonl.gz")}
    assert files == {p.path.name for p in PLAYTHROUGHS}, f"regenerate with `{golden.REGENERATE}`"
    scenarios = {p.scenario for p in PLAYTHROUGHS}
    assert {"one", "two", "three", "four", "coral-sea", "eastern-solomons", "santa-cruz"} <= (
        scenarios
    )
    assert {p.mode for p in PLAYTHROUGHS} == {"two-player", "umpired", "double-blind"}
    assert {(p.scenario, p.mode) for p in PLAYTHROUGHS if p.teams} == {
        (s, m) for s in ("two", "three") for m in ("two-player", "umpired", "double-blind")
    }


def test_issue_33_all_means_every_option_the_game_accepts() -> None:
    """ "All" is every optional rule the scenario offers that the mode accepts (18: the
    umpired modes refuse 11a; the expansion's scenarios have no scouts)."""
    one = Playthrough("one", "two-player", False, "all").chosen()
    assert {"11a", "14", "16", "16k"} <= one
    assert "11a" not in Playthrough("one", "umpired", False, "all").chosen()
    assert Playthrough("one", "umpired", False, "none").chosen() == frozenset()


def test_issue_33_a_difference_names_playthrough_step_seat_and_field(engine: Engine) -> None:
    """A change in what one seat sees at one step fails the comparison with a message
    naming the playthrough, the step, the seat, the field, both values, and how to
    regenerate."""
    play = Playthrough("one", "two-player", False, "none")
    golden_lines = list(lines(engine, play))
    calls = 0

    def views(state: Any, seats: tuple[str, ...]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        out = engine.views(state, seats)
        if calls == 6:  # step 5
            out = {**out, "usa": {**out["usa"], "turn": 99}}
        return out

    changed = replace(engine, views=views)
    problem = compare_lines(play, golden_lines, lines(changed, play))
    assert problem is not None
    assert "one-two-player-none" in problem
    assert "step 5 " in problem
    assert "seat usa, view /turn: was" in problem and "now 99" in problem
    assert "python -m tools.golden --regenerate" in problem
    assert compare_lines(play, golden_lines, lines(engine, play)) is None


def test_issue_33_a_shorter_or_longer_game_is_a_difference(engine: Engine) -> None:
    play = Playthrough("four", "two-player", False, "none")
    recorded = list(lines(engine, play))
    """A game that now goes on after the recorded steps, or ends before them, differs."""
    problem = compare_lines(play, recorded[:-1], iter(recorded))
    assert problem is not None
    assert f"{len(recorded) - 1} steps recorded, the game now goes on" in problem
    problem = compare_lines(play, recorded, iter(recorded[:-1]))
    assert problem is not None
    assert f"{len(recorded)} steps recorded, the game now ends after {len(recorded) - 1}" in problem


def test_issue_33_patches_rebuild_the_views() -> None:
    """The files keep each view as a patch of the seat's view before: read back, it is the
    view whole; a value of another JSON type (1 and true) is a change."""
    old = {"a": 1, "b": {"c": [1, 2], "d": "x"}, "gone": 0}
    new = {"a": True, "b": {"c": [1, 2, 3], "d": "x"}, "e": None}
    patch = golden.diff(old, new)
    assert golden.patched(old, patch) == new
    assert patch["~"]["a"] == {"=": True}
    assert patch["-"] == ["gone"]
    assert golden.first_difference(old, new) == "/a: was 1, now true"
