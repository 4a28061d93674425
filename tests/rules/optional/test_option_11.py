"""Option 11: combat options."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, view
from app.rules.engine.events import Event
from app.rules.engine.state import State, UnitKey
from app.rules.engine.steps import StepId, goto

from ..helpers import kinds, play, position


def haruna_under_attack(dice: list[int], options: frozenset[str]) -> State:
    """10b1's battle: B5, B6, S6 over Haruna and Nagara in H4 (Turn 8, Japan Side A)."""
    s = position(
        8,
        {"usa": {"TF16": ("H5", []), "TF17": ("H5", [])}, "japan": {"MobileForce": ("H4", [])}},
        dice=[4, 6, *dice],
        options=options,
    )
    s, _ = play(s, "usa", "launch B5", "launch B6", "launch S6", "done")
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "done")
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "done")
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "fly H5-strike H4", "done")
    s, _ = play(s, "japan", "done")
    return s


def test_11a_the_holder_may_reroll_both_dice_of_one_combat_then_passes_the_marker() -> None:
    """11a: the original rolls are ignored, both dice rolled again; the marker passes."""
    s = haruna_under_attack([6, 5, 1, 10], frozenset({"11a"}))
    assert s.free_roll == "usa"  # 7b4.3
    s, _ = play(s, "japan", "face N", "formation")
    ships = s.battle.ships if s.battle else []
    s, _ = play(s, "usa", *(f"target {u} {ships[0]}" for u in ("B5", "B6", "S6")))
    s, ev = play(s, "japan", f"aa {ships[0]} B5", "fire")
    assert [e.data["attacker_number"] for e in kinds(ev, "dice")] == [8]  # 6+2 vs 5+2: a hit
    assert s.step == "free roll" and s.waiting == ["usa"]
    assert [a.text() for a in legal_actions(s, "usa")] == ["accept", "reroll"]
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "reroll"})
    assert err.value.rule == "3"
    s, ev = play(s, "usa", "reroll")
    aa = kinds(ev, "anti-aircraft")
    assert (aa[0].data["attacker_roll"], aa[0].data["defender_roll"]) == (1, 10)
    assert aa[0].data["outcome"] == "miss" and s.units["usa"]["B5"].hits == 0
    assert s.free_roll == "japan" and view(s, "usa")["step"] == "anti-aircraft combat"


def test_11a_accepting_keeps_the_dice_and_the_marker() -> None:
    s = haruna_under_attack([6, 5], frozenset({"11a"}))
    s, _ = play(s, "japan", "face N", "formation")
    ships = s.battle.ships if s.battle else []
    s, _ = play(s, "usa", *(f"target {u} {ships[0]}" for u in ("B5", "B6", "S6")))
    s, _ = play(s, "japan", f"aa {ships[0]} B5", "fire")
    s, ev = play(s, "usa", "accept")
    assert kinds(ev, "anti-aircraft")[0].data["outcome"] == "hit"
    assert s.free_roll == "usa" and s.units["usa"]["B5"].hits == 1


def test_11a_without_the_option_there_is_no_pause() -> None:
    s = haruna_under_attack([6, 5], frozenset())
    s, _ = play(s, "japan", "face N", "formation")
    ships = s.battle.ships if s.battle else []
    s, _ = play(s, "usa", *(f"target {u} {ships[0]}" for u in ("B5", "B6", "S6")))
    s, ev = play(s, "japan", f"aa {ships[0]} B5", "fire")
    assert s.step != "free roll" and kinds(ev, "anti-aircraft")[0].data["outcome"] == "hit"


def test_11a_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown optional rules"):
        new_game("one", frozenset({"99z"}), 1)


def combat_phase_end(dice: list[int], options: frozenset[str]) -> tuple[State, list[Event]]:
    """Yorktown (flipped, 1 hit: 10b2) and Midway were damaged this Combat Phase."""
    s = position(
        8,
        {"usa": {"TF17": ("L3", []), "TF16": ("K6", [])}, "japan": {"MobileForce": ("H2", [])}},
        dice=[4, 6, *dice],
        options=options,
    )
    s.put(replace(s.units["usa"]["Yorktown"], damage=4))
    s.put(replace(s.units["usa"]["Midway"], damage=1))
    s.put(replace(s.units["usa"]["B3"], box="arming"))
    s.damaged = [UnitKey("usa", "Yorktown"), UnitKey("usa", "Midway")]
    out: list[Event] = []
    goto(s, StepId.AIRCRAFT_DAMAGE, out)
    return s, out


def test_11b_air_units_aboard_a_damaged_ship_or_base_are_checked() -> None:
    """11b1 +2 on board a ship, 11b2 +3 on the ground at Midway, the opponent unmodified."""
    aboard_yorktown = ["B3", "B5", "T3", "O"]
    at_midway = ["2T8", "1SB241", "2SB241", "5AF", "1BG11", "A", "B", "C"]
    dice = [10, 1] + [1, 10] * 3 + [10, 1] + [1, 10] * 7
    s, out = combat_phase_end(dice, frozenset({"11b"}))
    checks = kinds(out, "aircraft damage")
    assert [e.data["target"] for e in checks] == aboard_yorktown + at_midway
    first = checks[0].data
    assert (first["attacker_number"], first["defender_number"], first["outcome"]) == (
        10,
        3,
        "eliminated",
    )
    assert s.units["usa"]["B3"].eliminated
    assert checks[1].data["defender_modifier"] == 2 and checks[4].data["defender_modifier"] == 3
    # 10 vs 4 flips 2T8, whose back is ELIM (4b5)
    assert checks[4].data["outcome"] == "eliminated" and s.units["usa"]["2T8"].eliminated
    assert s.step == "air return" and not s.forced_dice


def test_11b3_a_scout_ignores_a_hit_and_dies_at_two_times() -> None:
    dice = [1, 10] * 3 + [9, 5] + [1, 10] * 5 + [8, 1] + [1, 10] * 2
    s, out = combat_phase_end(dice, frozenset({"11b"}))
    by_unit = {e.data["target"]: e.data["outcome"] for e in kinds(out, "aircraft damage")}
    assert by_unit["O"] == "no effect" and s.units["usa"]["O"].damage == 0  # 9 vs 7: one hit
    assert by_unit["A"] == "eliminated" and s.units["usa"]["A"].eliminated  # 8 vs 4: two times


def test_11b_without_the_option_nothing_is_checked() -> None:
    s, out = combat_phase_end([], frozenset())
    assert not kinds(out, "aircraft damage") and s.step == "air return"
