"""Scenarios Two (7c) and Three (7d) in the Basic Game: entries, optional forces, Midway
control, Japanese scout O, and the setup notes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, view
from app.rules.base.victory import track_midway_control, victory_points
from app.rules.engine.events import Event
from app.rules.engine.state import GONE, OFF_BOARD, State
from app.rules.engine.steps import StepId, goto

from ..helpers import play


def set_up(
    scenario: str, usa: dict[str, str], japan: dict[str, str], commit: tuple[str, ...] = ()
) -> State:
    state = new_game(scenario, frozenset(), 11)
    for side, places in (("usa", usa), ("japan", japan)):
        texts = [f"place {m} {h}" for m, h in places.items()]
        texts += [f"commit {m}" for m in commit if m in ("TF1",) and side == "usa"]
        texts += [f"commit {m}" for m in commit if m == "ScreenForce" and side == "japan"]
        state, _ = play(state, side, *texts, "done")
    return state


def until(state: State, step: str) -> State:
    """Everyone says done until `step` is reached."""
    while state.step != step:
        state, _ = play(state, state.waiting[0], "done")
    return state


def test_7c_fighters_are_left_out_without_option_14() -> None:
    """7c: Scenario Two in the Basic Game is played without its F units."""
    state = new_game("two", frozenset(), 1)
    assert "1F6" not in state.units["usa"] and "1AF" not in state.units["japan"]
    assert "B6" in state.units["usa"] and "AD" in state.units["japan"]


def test_7a2_2_scenario_three_aps_start_on_their_backs() -> None:
    """7d3: AP I, II, III (back); 7a3.2: worth half if eliminated."""
    state = new_game("three", frozenset(), 1)
    ap = state.units["japan"]["AP1"]
    assert ap.flipped and ap.started_back
    ap = state.put(replace(ap, box=GONE, damage=6))
    lines = victory_points(state)["lines"]
    assert {
        "unit": "AP1",
        "name": "AP I",
        "side": "japan",
        "result": "eliminated",
        "points": 5,
    } in lines["usa"]


def test_3c_a_force_enters_on_its_turn_in_its_area_and_must() -> None:
    """3c, 7c3: the Escort Force enters in area VI on Turn 1; done is refused until it has."""
    state = set_up("two", {"TF16": "N3", "TF17": "N4"}, {})
    state = until(state, "sea movement")
    while state.waiting[0] != "japan":
        state, _ = play(state, state.waiting[0], "done")
    enters = {a.text() for a in legal_actions(state, "japan") if a.kind == "enter"}
    assert enters == {f"enter EscortForce A{r}" for r in range(7, 12)}
    assert "done" not in [a.kind for a in legal_actions(state, "japan")]
    with pytest.raises(IllegalAction) as err:
        apply(state, "japan", {"kind": "done"})
    assert err.value.rule == "3c"
    state, _ = play(state, "japan", "enter EscortForce A9", "done")
    assert state.boards["japan"].forces["EscortForce"] == "A9"
    # The Mobile Force is not due until Turn 2.
    assert state.boards["japan"].forces["MobileForce"] is None


def test_7c4_2_optional_force_noted_secretly_and_scored() -> None:
    """7c4.2: the choice is secret; using TF 1 gives Japan 15, the Screen Force the US 10."""
    state = set_up("two", {"TF16": "N3", "TF17": "N4"}, {}, commit=("TF1",))
    assert state.boards["usa"].committed == ["TF1"]
    assert "TF1" not in str(view(state, "japan").get("searchboard"))
    points = victory_points(state)["points"]
    assert points == {"japan": 15, "usa": 35}  # and the US holds Midway (7c4.3)
    state.boards["japan"].committed.append("ScreenForce")
    assert victory_points(state)["points"] == {"japan": 15, "usa": 45}


def test_7c4_3_japan_controls_midway_after_three_turns_with_an_ap_in_m5() -> None:
    state = new_game("three", frozenset(), 1)
    state.boards["japan"].forces["EscortForce"] = "M5"
    track_midway_control(state)
    assert state.boards["japan"].control_turns == 0  # the base must be eliminated first
    state.put(replace(state.units["usa"]["Midway"], box=GONE))
    state.put(replace(state.units["usa"]["Midway"], damage=6))
    track_midway_control(state)
    track_midway_control(state)
    assert not state.boards["japan"].controls_midway
    track_midway_control(state)
    assert state.boards["japan"].controls_midway
    assert victory_points(state)["points"]["japan"] >= 35 + 20  # control and the base (CATALOG 3)


def test_7c4_3_the_count_restarts_when_the_aps_leave() -> None:
    state = new_game("three", frozenset(), 1)
    state.put(replace(state.units["usa"]["Midway"], box=GONE))
    state.boards["japan"].forces["EscortForce"] = "M5"
    track_midway_control(state)
    track_midway_control(state)
    state.boards["japan"].forces["EscortForce"] = "M6"
    track_midway_control(state)
    assert state.boards["japan"].control_turns == 0 and not state.boards["japan"].controls_midway


def test_7c4_4_scout_o_enters_at_an_m_hex_on_turn_9_and_lands_off_board() -> None:
    state = new_game("two", frozenset(), 1)
    assert state.units["japan"]["O"].box == OFF_BOARD
    state.status, state.turn, state.side_a = "playing", 9, "usa"
    out: list[Event] = []
    goto(state, StepId.AIR_MOVEMENT_AND_SEARCH, out)
    assert state.waiting == ["japan", "usa"]
    sorties = [a.text() for a in legal_actions(state, "japan") if a.kind == "sortie"]
    assert sorties == ["sortie O F11", "sortie O H11"]
    state, _ = play(state, "japan", "sortie O H11", "fly O H10", "search H10", "done")
    state, _ = play(state, "usa", "done")
    assert state.step == "air return"
    lands = [a.text() for a in legal_actions(state, "japan")]
    assert lands == ["land O F11", "land O H11"]
    state, _ = play(state, "japan", "land O F11")
    assert state.units["japan"]["O"].box == OFF_BOARD


def test_7c4_4_scout_o_may_not_enter_on_other_turns() -> None:
    state = new_game("two", frozenset(), 1)
    state.status, state.turn, state.side_a = "playing", 10, "usa"
    goto(state, StepId.AIR_MOVEMENT_AND_SEARCH, [])
    assert not [a for a in legal_actions(state, "japan") if a.kind == "sortie"]
