"""The engine's contract: purity, actions, dice, grid, replay, views (DESIGN.md, STYLE.md)."""

from __future__ import annotations

import ast
import itertools
import json
import pickle
from pathlib import Path

import pytest

from app.rules import (
    Action,
    ActionParseError,
    IllegalAction,
    apply,
    legal_actions,
    new_game,
    replay,
    view,
)
from app.rules.board.boards import searchboard
from app.rules.engine.dice import roll_d10
from app.rules.engine.state import State

from ..helpers import play, started

FORBIDDEN = {
    "random", "time", "datetime", "os", "socket", "asyncio", "threading", "subprocess",
    "sqlalchemy", "fastapi", "starlette", "httpx", "requests", "logging", "pathlib", "io",
}  # fmt: skip


def test_rules_package_is_a_functional_core() -> None:
    """STYLE.md 1: no I/O, no web or database, no random, no clock in app/rules."""
    for path in Path("app/rules").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module.split(".")[0]]
            bad = FORBIDDEN.intersection(names)
            assert not bad, f"{path} imports {bad}"


def test_1f_dice_read_1_to_10_and_are_seeded() -> None:
    state = new_game("one", frozenset(), 99)
    rolls = [roll_d10(state) for _ in range(2000)]
    assert set(rolls) == set(range(1, 11))
    again = new_game("one", frozenset(), 99)
    assert [roll_d10(again) for _ in range(2000)] == rolls


def test_forced_dice_come_first() -> None:
    state = new_game("one", frozenset(), 1)
    state.forced_dice = [10, 1]
    assert (roll_d10(state), roll_d10(state)) == (10, 1)
    state.forced_dice = [0]
    with pytest.raises(ValueError):
        roll_d10(state)


def test_action_text_and_json_round_trip() -> None:
    a = Action("approach", ("1AT", "Yorktown", "K11"))
    assert a.text() == "approach 1AT Yorktown K11"
    assert Action.from_text(a.text()) == a
    assert a.to_json() == {"kind": "approach", "unit": "1AT", "target": "Yorktown", "hex": "K11"}
    assert Action.from_json(a.to_json()) == a


@pytest.mark.parametrize(
    "bad",
    [None, [], {"kind": "fly"}, {"kind": "nonsense"},
     {"kind": "launch", "unit": "B5", "extra": 1}, {"kind": "launch", "unit": 5},
     {"kind": "launch", "unit": ""}, {"kind": "launch", "unit": "x" * 100}],
)  # fmt: skip
def test_malformed_actions_are_parse_errors(bad: object) -> None:
    with pytest.raises(ActionParseError):
        Action.from_json(bad)


def test_1a_searchboard_adjacency_of_the_10a_paths() -> None:
    """RULES-NOTES.md: every path in 10a is a chain of adjacent hexes of the right length."""
    grid = searchboard()
    for path in (
        ["L3", "K3", "J2", "I3", "H3", "H4", "H5"],
        ["L3", "K4", "J4", "I5", "H4"],
        ["K6", "J5", "I5", "H4"],
    ):
        assert all(b in grid.neighbours(a) for a, b in itertools.pairwise(path))
        assert grid.distance(path[0], path[-1]) <= len(path) - 1
    assert grid.distance("K6", "H4") == 3 and grid.distance("I5", "L3") == 3
    assert set(grid.neighbours("L3")) >= {"K3", "K4"} and set(grid.neighbours("K3")) >= {"J2", "J3"}


def test_apply_never_mutates_its_input() -> None:
    state = started()
    before = pickle.dumps(state)
    for seat in ("japan", "usa"):
        for action in legal_actions(state, seat):
            apply(state, seat, action)
    assert pickle.dumps(state) == before


def test_legal_actions_worked_out_once_are_the_same_as_worked_out_afresh() -> None:
    """Issue 17: a state's choices are worked out once, and those `apply` finds on its way
    (passing steps with one choice) are kept for the state it returns; each must equal
    what a fresh copy of the state, asked for the first time, offers."""
    state = new_game("one", frozenset(), 11)
    for _ in range(120):
        if state.status == "finished":
            break
        seat = next(s for s in ("japan", "usa") if legal_actions(state, s))
        offered = legal_actions(state, seat)
        offered.clear()  # a caller's list is its own
        assert legal_actions(state, seat) == legal_actions(state.clone(), seat) != []
        state, _ = apply(state, seat, legal_actions(state, seat)[0])


def test_illegal_action_names_its_rule_and_changes_nothing() -> None:
    state = new_game("one", frozenset(), 3)
    before = pickle.dumps(state)
    with pytest.raises(IllegalAction) as err:
        apply(state, "japan", {"kind": "place", "force": "MobileForce", "hex": "T11"})
    assert err.value.rule == "7b3" and "area II" in str(err.value)
    assert pickle.dumps(state) == before


def test_not_your_move_is_refused_with_rule_3() -> None:
    state = started()
    waiting = state.waiting[0]
    idle = "usa" if waiting == "japan" else "japan"
    with pytest.raises(IllegalAction) as err:
        apply(state, idle, {"kind": "done"})
    assert err.value.rule == "3"


def test_replay_of_the_log_equals_the_state() -> None:
    state = new_game("one", frozenset(), 5)
    log = []
    for _ in range(60):
        seat = next(s for s in ("japan", "usa") if legal_actions(state, s))
        action = legal_actions(state, seat)[-1]
        log.append((seat, action.to_json()))
        state, _ = apply(state, seat, action)
    rebuilt, _ = replay("one", (), 5, log)
    assert rebuilt == state


def test_view_is_json_and_names_turn_and_step() -> None:
    state = started()
    v = view(state, "usa")
    json.dumps(v)
    assert v["turn"] == 7 and v["step"] in ("assembly", "ready", "sea movement")
    assert all(set(a) >= {"kind"} for a in v["prompt"]["actions"]) or not v["prompt"]["actions"]


def test_hidden_information_two_player_view_ignores_enemy_placement() -> None:
    """1c, 3c: two games that differ only in where Japan set up look the same to the US."""
    a = started(placements={"usa": {"TF16": "N3", "TF17": "N4"}, "japan": {"MobileForce": "H2"}})
    b = started(placements={"usa": {"TF16": "N3", "TF17": "N4"}, "japan": {"MobileForce": "J1"}})
    assert view(a, "usa") == view(b, "usa")
    assert view(a, "japan") != view(b, "japan")
    assert view(a, "spectator") == view(b, "spectator")


def test_own_searchboard_only() -> None:
    """2c, 3c: a side's view has its own markers and never the enemy's."""
    state: State = started()
    v = view(state, "usa")
    assert v["searchboard"]["forces"] == {"TF16": "N3", "TF17": "N4"}
    assert "searchboards" not in v and "H2" not in json.dumps(v)


def test_sea_movement_is_secret() -> None:
    """3c: the opponent is not informed of sea movement."""
    state = started(seed=2)
    while state.step != "sea movement":
        seat = state.waiting[0]
        state, _ = play(state, seat, "done")
    seat = state.waiting[0]
    move = next(a for a in legal_actions(state, seat) if a.kind == "move")
    after, events = apply(state, seat, move)
    enemy = "usa" if seat == "japan" else "japan"
    assert (
        view(after, enemy) == view(state, enemy)
        or view(after, enemy)["prompt"] == view(state, enemy)["prompt"]
    )
    assert all(e.audience == seat for e in events)
