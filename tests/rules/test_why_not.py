"""Issue 13: a click on the board that makes no legal action is explained by the rules
engine (`why_not`), with the same words and rule as the refusal `apply` gives for the
action the click is shaped like: setup areas (7b2, 7b3, 7c3), movement (3c, 3d1),
launches (3a2) and landings (5a2), someone else's unit (2c), someone else's turn (3)."""

from __future__ import annotations

import pytest

from app.rules import Action, IllegalAction, State, apply, legal_actions, new_game, why_not

from .base.test_basic_rules import action_phase, fly, game, through
from .base.test_scenarios import set_up, until


def same_as_apply(s: State, seat: str, click: dict[str, str], action: str) -> IllegalAction:
    """The click's refusal is the one `apply` raises for the action it is shaped like."""
    found = why_not(s, seat, click)
    assert found is not None
    with pytest.raises(IllegalAction) as raised:
        apply(s, seat, Action.from_text(action))
    assert (str(found), found.rule) == (str(raised.value), raised.value.rule)
    return found


def test_7b2_task_force_17_sets_up_east_of_the_dateline() -> None:
    s = new_game("one", frozenset(), 0)
    click = {"subject": "TF17", "owner": "usa", "hex": "C5"}
    found = same_as_apply(s, "usa", click, "place TF17 C5")
    assert found.rule == "7b2"
    assert (
        "Task Force 17 sets up in any hex east of the International Dateline (hex rows L through T)"
        in str(found)
    )
    assert why_not(s, "usa", {**click, "hex": "L5"}) is None  # a legal placement


def test_7b3_the_mobile_force_sets_up_in_area_ii() -> None:
    s = new_game("one", frozenset(), 0)
    click = {"subject": "MobileForce", "owner": "japan", "hex": "M5"}
    found = same_as_apply(s, "japan", click, "place MobileForce M5")
    assert found.rule == "7b3" and "Mobile Force sets up in any area II hex" in str(found)


def test_7c3_the_escort_force_enters_in_area_vi() -> None:
    s = until(set_up("two", {"TF16": "N3", "TF17": "N4"}, {}), "sea movement")
    while s.waiting[0] != "japan":
        s, _ = apply(s, s.waiting[0], Action("done"))
    click = {"subject": "EscortForce", "owner": "japan", "hex": "C5"}
    found = same_as_apply(s, "japan", click, "enter EscortForce C5")
    assert found.rule == "7c3" and "area VI: A7, A8, A9, A10, A11, not in C5" in str(found)


def test_3c_a_task_force_moves_one_hex() -> None:
    s = game()
    s, _ = through(s, "assembly")
    s, _ = through(s, "ready")
    found = same_as_apply(
        s, "usa", {"subject": "TF17", "owner": "usa", "hex": "J3"}, "move TF17 J3"
    )
    assert found.rule == "3c"
    assert "began the Turn in L3; J3 is 2 hexes from there" in str(found)
    assert "no more than 1 hex this Turn" in str(found)


def test_3d1_air_units_fly_into_an_adjacent_hex() -> None:
    s = game()
    for step in ("assembly", "ready", "sea movement"):
        s, _ = through(s, step, usa=["launch B5"] if step == "assembly" else ())
    click = {"subject": "L3-strike", "owner": "usa", "hex": "O3"}
    found = same_as_apply(s, "usa", click, "fly L3-strike O3")
    assert found.rule == "3d1" and "L3-strike is in L3" in str(found)


def test_3a2_only_a_ready_box_unit_takes_off() -> None:
    s = game(arming=[("usa", "B3")])
    assert s.step == "assembly"
    click = {"subject": "B3", "owner": "usa", "unit": "Yorktown"}
    found = same_as_apply(s, "usa", click, "launch B3")
    assert found.rule == "3a2" and "B3 is not" in str(found)


def test_5a2_a_unit_lands_within_its_movement_factor() -> None:
    s = game(japan={"MobileForce": ("H1", ["Haruna", "Nagara"])})
    s, _ = action_phase(s, usa=["B5", "T3"], usa_fly=fly("L3-strike", "K3", "J3", "I3", "H3", "G4"))
    assert s.step == "air return"
    click = {"subject": "B5", "owner": "usa", "unit": "Midway"}
    found = same_as_apply(s, "usa", click, "land B5 Midway")
    assert found.rule == "5a2" and "beyond its movement factor" in str(found)


def test_2c_an_enemy_counter_is_not_yours_to_move() -> None:
    s = new_game("one", frozenset(), 0)
    found = why_not(s, "usa", {"subject": "MobileForce", "owner": "japan", "hex": "L5"})
    assert found is not None and found.rule == "2c" and "enemy's" in str(found)


def test_3_not_your_move() -> None:
    s = game()
    s, _ = through(s, "assembly")
    s, _ = through(s, "ready")
    waiting = s.waiting[0]
    other = "japan" if waiting == "usa" else "usa"
    found = why_not(s, other, {"subject": "TF17", "owner": "usa", "hex": "M3"})
    assert found is not None and found.rule == "3"
    assert f"it is not your move: the sea movement step waits for {waiting}" in str(found)


def test_a_hex_alone_says_to_pick_a_counter_first() -> None:
    s = new_game("one", frozenset(), 0)
    found = why_not(s, "usa", {"hex": "L5"})
    assert found is not None and found.rule == "7a" and "pick one of your counters" in str(found)


@pytest.mark.parametrize(
    "click",
    [{"subject": "a b"}, {"hex": 3}, {"hex": "L5", "unit": "Yorktown"}, {"owner": "x" * 41}],
)
def test_a_click_that_is_not_well_formed_is_a_parse_error(click: dict[str, object]) -> None:
    from app.rules import ActionParseError

    with pytest.raises(ActionParseError):
        why_not(new_game("one", frozenset(), 0), "usa", click)


def coral_sea_sea_movement() -> State:
    """Coral Sea's Japanese forces set up, the Invasion Force at Rabaul (its APs), and
    Turn 1's sea movement come to Japan."""
    s = new_game("coral-sea", frozenset(), 1)
    for force in ("StrikingForce", "CoveringGroup", "InvasionForce", "SupportGroup"):
        s, _ = apply(s, "japan", Action("place", (force, "C2B")))
    s, _ = apply(s, "japan", Action("done"))
    for force, zone in (("TF17", "H7H"), ("TF44", "H7G")):
        s, _ = apply(s, "usa", Action("place", (force, zone)))
    s, _ = apply(s, "usa", Action("done"))
    while not (s.step == "sea movement" and s.waiting == ["japan"]):
        s, _ = apply(s, s.waiting[0], Action("done"))
    return s


def test_ptvm_starting_positions_a_held_invasion_force_clicked_says_why_in_words() -> None:
    """Issue 30: Coral Sea's Invasion Force clicked alone in sea movement, where it has
    nothing to do: "APs cannot move until" Turn 8 (Starting Positions), not another kind
    of action's refusal (an `exit`, 2e) in the action's syntax."""
    s = coral_sea_sea_movement()
    assert not [a for a in legal_actions(s, "japan") if "InvasionForce" in a.values]
    found = why_not(s, "japan", {"subject": "InvasionForce", "owner": "japan"})
    assert found is not None and found.rule == "Starting Positions", found
    assert "APs cannot move until Turn 8" in found.message
    assert "'" not in found.message and "not legal now" not in found.message
    # a force that may move, clicked alone, has something to do: nothing to explain
    assert why_not(s, "japan", {"subject": "StrikingForce", "owner": "japan"}) is None
