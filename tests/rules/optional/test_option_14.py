"""Option 14: fighters and air combats - the 14d example and the rules around it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import IllegalAction, apply, legal_actions
from app.rules.base.air_attack import aa_modifier
from app.rules.base.units import aa_factor
from app.rules.engine.state import State, UnitKey

from ..helpers import kinds, play, position

FOURTEEN = frozenset({"14"})


def fighters_over_k3(dice: list[int], escorts: list[str], caps: dict[str, str]) -> State:
    """TF 16 and TF 17 in L3 send fighters over the Mobile Force in K3 (Japan is Side A)."""
    s = position(
        8,
        {"usa": {"TF16": ("L3", []), "TF17": ("L3", [])}, "japan": {"MobileForce": ("K3", [])}},
        dice=[4, 6, *dice],
        options=FOURTEEN,
    )
    s.put(replace(s.units["usa"]["2F3"], damage=3))  # 14d: 2F3 (back)
    s, _ = play(s, "usa", *(f"launch {u}" for u in escorts), "done")
    s, _ = play(s, "japan", *(f"cap {u} {level}" for u, level in caps.items()), "done")
    for seat in ("usa", "japan", "usa", "japan"):  # ready, sea movement
        s, _ = play(s, seat, "done")
    s, _ = play(s, "usa", "fly L3-strike K3", "done")
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "japan", "face N", "formation")
    return s


def test_14d_air_combat_example() -> None:
    """14d1: 10 vs 5 flips 1KF; 14 vs 4 eliminates 2KF. 14d2: 1KF (back) 10 vs 5 on 2F3."""
    s = fighters_over_k3([2, 3, 9, 2, 7, 4], ["1F3", "2F3", "1F6"], {"1KF": "high", "2KF": "high"})
    assert s.step == "cap setup" and s.waiting == ["japan"]
    # 14a2.2: while an escort is unfaced, a CAP unit must face an unfaced one.
    s, _ = play(s, "japan", "dogfight 1KF 1F3")
    assert {a.get("target") for a in legal_actions(s, "japan")} == {"2F3", "1F6"}
    s, _ = play(s, "japan", "dogfight 2KF 1F6")
    s, _ = play(s, "usa", "dogfight 2F3 1KF")  # 14a3: the excess escort joins 1KF's combat
    s, ev = play(s, "usa", "attack 1KF", "attack 2KF")
    fights = kinds(ev, "air combat")
    assert [
        (e.data["attacker_modifier"], e.data["attacker_number"], e.data["defender_number"])
        for e in fights
    ] == [
        (8, 10, 5),
        (5, 14, 4),
    ]
    assert [e.data["outcome"] for e in fights] == ["flip", "eliminated"]
    # 14c: 1F6's only opponent is gone: it may strafe, or end its part.
    assert "hold 1F6" in [a.text() for a in legal_actions(s, "usa")]
    s, _ = play(s, "usa", "hold 1F6")  # the escorts' part then ends by itself
    assert [a.text() for a in legal_actions(s, "japan")] == ["attack 1F3", "attack 2F3"]
    s, ev = play(s, "japan", "attack 2F3")
    back = kinds(ev, "air combat")[0].data
    assert (back["attacker_modifier"], back["attacker_number"], back["defender_number"]) == (
        3,
        10,
        5,
    )
    assert back["outcome"] == "eliminated"  # flipped again, and its back was up (14d2)
    assert s.units["usa"]["2F3"].eliminated and s.units["japan"]["2KF"].eliminated
    assert s.units["japan"]["1KF"].flipped and not s.forced_dice


def test_11d_a_fighter_that_fired_and_was_never_attacked_was_engaged_in_combat() -> None:
    """11d: "may not be engaged in any form of combat" - 1F6 fired at 2KF (14c) and no one
    fired at it: it was in combat this Turn all the same."""
    s = fighters_over_k3([2, 3, 9, 2], ["1F3", "2F3", "1F6"], {"1KF": "high", "2KF": "high"})
    s, _ = play(s, "japan", "dogfight 1KF 1F3", "dogfight 2KF 1F6")
    s, ev = play(s, "usa", "dogfight 2F3 1KF", "attack 1KF", "attack 2KF")
    assert s.units["japan"]["2KF"].eliminated and not s.forced_dice
    assert [e.data["units"] for e in kinds(ev, "air combat")] == [["1F3", "2F3"], ["1F6"]]
    assert "1F6" not in [e.data["target"] for e in kinds(ev, "air combat")]
    assert UnitKey("usa", "1F6") in s.engaged


def test_14a2_2_every_escort_faced_before_any_is_doubled() -> None:
    s = fighters_over_k3([], ["1F3", "2F3"], {"1KF": "high", "2KF": "high", "1AF": "low"})
    s, _ = play(s, "japan", "dogfight 1KF 1F3")
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "dogfight", "unit": "2KF", "target": "1F3"})
    assert err.value.rule == "14a2.2"
    s, _ = play(s, "japan", "dogfight 2KF 2F3")
    assert "dogfight 1AF 1F3" in [a.text() for a in legal_actions(s, "japan")]  # now any


def bombers_and_cap(dice: list[int], level: str) -> State:
    """B5 (dive) and T3 (torpedo) with no escort over K3: all CAP break through (14e)."""
    s = fighters_over_k3(dice, ["B5", "T3"], {"1KF": level})
    ships = s.battle.ships if s.battle else []
    s, _ = play(s, "usa", f"target B5 {ships[0]}")
    hexes = [
        a.get("hex")
        for a in legal_actions(s, "usa")
        if a.kind == "approach" and a.get("target") == ships[0]
    ]
    s, _ = play(s, "usa", f"approach T3 {ships[0]} {hexes[0]}")
    return s


def test_14e1_low_cap_breaks_through_only_to_torpedo_and_medium_level() -> None:
    s = bombers_and_cap([], "low")
    assert s.step == "breakthroughs"
    assert {a.text() for a in legal_actions(s, "japan")} == {"hold 1KF", "intercept 1KF T3"}
    s = bombers_and_cap([], "high")
    assert {a.text() for a in legal_actions(s, "japan")} == {
        "hold 1KF",
        "intercept 1KF B5",
        "intercept 1KF T3",
    }


def test_14e3_breakthrough_attacks_first_then_the_bomber_fires_back_and_14g2_low_cap() -> None:
    s = bombers_and_cap([3, 4, 10, 1], "high")
    s, ev = play(s, "japan", "intercept 1KF T3")
    fights = kinds(ev, "breakthrough")
    assert [(e.data["side"], e.data["target"]) for e in fights] == [("japan", "T3"), ("usa", "1KF")]
    assert (fights[0].data["attacker_modifier"], fights[0].data["outcome"]) == (6, "hit")  # 9 vs 6
    # T3's air combat factor is 0 (CATALOG 2a): 10 + 0 against 1 + 2.
    assert (fights[1].data["attacker_modifier"], fights[1].data["outcome"]) == (0, "eliminated")
    assert s.step == "anti-aircraft combat" and s.battle is not None
    assert s.battle.low_after == ["1KF"]  # 14g2: it fought a torpedo bomber


def test_14f_strafing_lowers_the_faced_ships_aa_by_1() -> None:
    s = fighters_over_k3([], ["B5", "1F3"], {})
    ships = s.battle.ships if s.battle else []
    s, _ = play(s, "usa", f"target B5 {ships[0]}")
    strafes = [
        a for a in legal_actions(s, "usa") if a.kind == "strafe" and a.get("target") == ships[0]
    ]
    s, _ = play(s, "usa", strafes[0].text())
    b = s.battle
    assert b is not None and s.step == "anti-aircraft combat"
    base = aa_factor(s.units["japan"][ships[0]])
    assert aa_modifier(s, b, [ships[0]], "B5") == base - 1
    assert aa_modifier(s, b, [ships[1]], "B5") == aa_factor(s.units["japan"][ships[1]])
    assert f"aa {ships[0]} 1F3" in [a.text() for a in legal_actions(s, "japan")]  # strafers draw AA


def test_14_fighters_of_scenario_one_only_with_the_option() -> None:
    """7b4.2: Scenario One's fighters are set up only with option 14."""
    s = position(8, {"usa": {}, "japan": {}}, options=FOURTEEN)
    assert s.units["usa"]["1F3"].area == "Yorktown" and s.units["japan"]["1KF"].area == "Kaga"
    assert "1F3" not in position(8, {"usa": {}, "japan": {}}).units["usa"]
