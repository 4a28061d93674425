"""Option 15a: variable spotting information."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import IllegalAction, apply, legal_actions, view
from app.rules.base.search import search_modifier
from app.rules.engine.events import Event
from app.rules.engine.state import STRIKE, State
from app.rules.engine.steps import StepId, goto

from ..helpers import kinds, play, position

PATH = ["K3", "J2", "I3", "H3", "H4"]  # 10a: scout O from L3, five hexes of its six


def scout_over_h4(
    dice: list[int], options: frozenset[str] = frozenset({"15a"}), turn: int = 8
) -> State:
    """Scout O from TF 17 in L3 reaches the Mobile Force in H4 (10a); Japan is Side A."""
    s = position(
        turn,
        {"usa": {"TF17": ("L3", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H4", [])}},
        dice=[4, 6, *dice],
        options=options,
    )
    o = s.units["usa"]["O"]
    o = s.put(replace(o, box=STRIKE, area="TF17"))
    out: list[Event] = []
    goto(s, StepId.AIR_MOVEMENT_AND_SEARCH, out)
    s, _ = play(s, "usa", *(f"fly O {h}" for h in PATH))
    return s


MOBILE_FORCE_SHIPS = 9 + 6 + 6  # nine named ships and DD #1 and #2 (six ships each, CATALOG 1b)


def test_15a1_2_three_times_is_exact_information() -> None:
    s = scout_over_h4([9, 4])  # 9 + 3 (day) = 12 vs 4
    s, ev = play(s, "usa", "search H4")
    spot = kinds(ev, "search")[0].data
    assert spot["level"] == "exact" and spot["found"][0]["force"] == "MobileForce"


def test_15a1_2_two_times_is_the_actual_number() -> None:
    s = scout_over_h4([5, 4])  # 8 vs 4
    s, ev = play(s, "usa", "search H4")
    spot = kinds(ev, "search")[0].data
    assert (spot["level"], spot["ships"], spot["found"]) == ("actual", MOBILE_FORCE_SHIPS, [])


def test_15a1_2_tie_or_less_is_just_something_there() -> None:
    s = scout_over_h4([1, 4])  # 4 vs 4
    s, ev = play(s, "usa", "search H4")
    assert kinds(ev, "search")[0].data["level"] == "something"


def test_15a1_2_exceeded_the_owner_states_from_half_to_double() -> None:
    s = scout_over_h4([3, 5])  # 6 vs 5
    s, ev = play(s, "usa", "search H4")
    assert s.step == "search report" and s.waiting == ["japan"]
    assert not kinds(ev, "search")
    numbers = [int(a.get("ships")) for a in legal_actions(s, "japan")]
    assert numbers == list(range(11, 43))  # 21 ships: half rounded up 11, double 42
    assert "21" not in str(view(s, "usa")["prompt"]) and view(s, "usa")["prompt"]["actions"] == []
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "report", "ships": "43"})
    assert err.value.rule == "15a1.2"
    s, ev = play(s, "japan", "report 40")
    spot = kinds(ev, "search")[0].data
    assert (spot["level"], spot["ships"]) == ("number", 40)
    assert s.step == "air movement and search" and s.waiting == ["usa", "japan"]
    assert view(s, "usa")["searchboard"]["spotted"][-1]["ships"] == 40


def test_15a1_1_circling_adds_2_per_movement_factor_and_spends_it() -> None:
    s = scout_over_h4([1, 2])  # 1 + 3 (day) + 2 (one factor circling) = 6 vs 2: three times
    assert "circle H4 1" in [a.text() for a in legal_actions(s, "usa")]
    assert "circle H4 2" not in [a.text() for a in legal_actions(s, "usa")]  # one factor left
    s, ev = play(s, "usa", "circle H4 1")
    roll = kinds(ev, "search-roll")[0].data
    assert roll["modifier"] == 5 and kinds(ev, "search")[0].data["level"] == "exact"
    assert s.boards["usa"].flights["O"].moved == 6 and "O" not in s.boards["usa"].groups


def test_15a1_1_land_and_midway_modifiers() -> None:
    s = scout_over_h4([])
    assert search_modifier(s, "H4", "air search", 0) == 3  # day
    assert search_modifier(s, "L5", "air search", 0) == 6  # Kure: land or reef
    assert search_modifier(s, "M5", "sea search", 0) == 3 + 3 + 6  # Midway: land and the base
    night = scout_over_h4([], turn=7)
    assert search_modifier(night, "H4", "sea search", 0) == 0  # a sea search at night


def test_15a_off_the_basic_game_answers_exactly_without_rolls() -> None:
    s = scout_over_h4([], options=frozenset())
    s, ev = play(s, "usa", "search H4")
    assert not kinds(ev, "search-roll") and kinds(ev, "search")[0].data["level"] == "exact"
    assert "circle H4 1" not in [a.text() for a in legal_actions(s, "usa")]
