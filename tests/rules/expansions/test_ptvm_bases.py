"""Pacific Theatre Via Midway, Bases 2-4 and Base Knockout Numbers, with forced dice.

No theatre scenario can be played yet (their files do not exist), so the base mechanics are
tested here on their own, on a game state's dice (`state.forced_dice`).
"""

from __future__ import annotations

import pytest

from app.rules import State, new_game
from app.rules.engine.dice import roll_d6
from app.rules.expansions.ptvm.bases import (
    ALREADY,
    AUTOMATIC,
    BELOW,
    HOLDS,
    KNOCKED_OUT,
    NO_HITS,
    BaseDamage,
    aa_fire,
    aa_hits,
    base,
    damage_base,
    has_room,
    landing_refused,
    new_day,
    take_off_refused,
)


def dice(*values: int) -> State:
    state = new_game("one", frozenset(), 7)
    state.forced_dice = list(values)
    return state


# Rabaul: knockout number 25 hits = 5 damage points; Gili-Gili: 5 hits = 1 point.
RABAUL = base("coral-sea", "Rabaul")
GILI = base("eastern-solomons", "Gili-Gili")


def test_ptvm_bases_3_knockout_numbers_in_damage_points() -> None:
    assert (RABAUL.knockout_hits, RABAUL.knockout) == (25, 5)
    assert (
        base("santa-cruz", "Henderson").knockout_hits,
        base("santa-cruz", "Henderson").knockout,
    ) == (18, 4)
    assert (base("santa-cruz", "Buna").knockout_hits, base("santa-cruz", "Buna").knockout) == (
        12,
        2,
    )
    assert (GILI.knockout_hits, GILI.knockout) == (5, 1)


def test_ptvm_bases_3_below_the_number_no_roll() -> None:
    state, today = dice(6), BaseDamage()
    check = damage_base(state, RABAUL, today, 4)
    assert (check.result, check.die, today.damage, today.knocked_out) == (BELOW, None, 4, False)
    assert state.forced_dice == [6]  # no die was rolled


@pytest.mark.parametrize("die", [5, 6])
def test_ptvm_bases_3_knockout_on_5_or_6(die: int) -> None:
    state, today = dice(die), BaseDamage()
    check = damage_base(state, RABAUL, today, 5)  # reaches 5, the number
    assert (check.result, check.die, today.knocked_out) == (KNOCKED_OUT, die, True)


@pytest.mark.parametrize("die", [1, 2, 3, 4])
def test_ptvm_bases_3_knockout_roll_of_1_to_4_holds(die: int) -> None:
    state, today = dice(die), BaseDamage()
    check = damage_base(state, RABAUL, today, 6)
    assert (check.result, check.die, today.knocked_out) == (HOLDS, die, False)


def test_ptvm_bases_3_damage_for_the_day_is_cumulative() -> None:
    state, today = dice(5), BaseDamage()
    assert damage_base(state, RABAUL, today, 3).result == BELOW
    check = damage_base(state, RABAUL, today, 2)  # 3 + 2 reaches the number
    assert (check.result, check.damage, today.knocked_out) == (KNOCKED_OUT, 5, True)


def test_ptvm_bases_3_new_roll_for_each_attack_that_adds_hits() -> None:
    state, today = dice(4, 3, 6), BaseDamage()
    assert damage_base(state, RABAUL, today, 5).result == HOLDS  # rolled 4
    assert damage_base(state, RABAUL, today, 1).result == HOLDS  # rolled 3
    check = damage_base(state, RABAUL, today, 1)  # rolled 6
    assert (check.result, check.die, today.damage, state.forced_dice) == (KNOCKED_OUT, 6, 7, [])


def test_ptvm_bases_3_no_roll_for_an_attack_without_hits() -> None:
    state, today = dice(4, 6), BaseDamage()
    damage_base(state, RABAUL, today, 5)
    assert damage_base(state, RABAUL, today, 0).result == NO_HITS
    assert state.forced_dice == [6] and not today.knocked_out


def test_ptvm_bases_3_no_roll_once_knocked_out() -> None:
    state, today = dice(5, 1), BaseDamage()
    damage_base(state, RABAUL, today, 5)
    check = damage_base(state, RABAUL, today, 2)
    assert (check.result, check.die, today.damage, state.forced_dice) == (ALREADY, None, 7, [1])


def test_ptvm_bases_3_knockout_twice_the_number() -> None:
    state, today = dice(1), BaseDamage()
    check = damage_base(state, RABAUL, today, 10)  # twice 5: no roll
    assert (check.result, check.die, today.knocked_out) == (AUTOMATIC, None, True)
    assert state.forced_dice == [1]
    state, today = dice(2), BaseDamage()
    assert damage_base(state, GILI, today, 1).result == HOLDS  # 1 = the number: rolled 2
    assert damage_base(state, GILI, today, 1).result == AUTOMATIC  # 2 = twice the number


def test_ptvm_bases_3_knocked_out_till_0700_next_day() -> None:
    """A knockout at 1700 May 4 lasts through the night and May 5's 0500 Turn; at 0700 May 5
    the base is operable. On May 5 the day's damage starts anew (from its 0500 Turn).

    Updated: new_day takes the Turn's date; the day's count restarts on a new date, not at
    0700 (so at 0500 May 5 the damage is May 5's: none yet)."""
    state, today = dice(6), BaseDamage()
    damage_base(state, RABAUL, today, 5, "May 4, 1942")
    for time in ("1900", "2400"):
        new_day(today, "May 4, 1942", time)
        assert today.knocked_out and today.damage == 5, time
    new_day(today, "May 5, 1942", "0500")
    assert (today.knocked_out, today.damage) == (True, 0)
    new_day(today, "May 5, 1942", "0700")
    assert (today.knocked_out, today.damage) == (False, 0)


def test_ptvm_bases_3_knockout_in_the_0500_turn_lasts_till_0700_of_the_next_day() -> None:
    """Bases 3: "knocks out the base till 0700 of the next day" - a knockout in May 4's 0500
    Turn does not end at 0700 May 4 (the same day) but at 0700 May 5."""
    state, today = dice(5), BaseDamage()
    assert damage_base(state, RABAUL, today, 5, "May 4, 1942").result == KNOCKED_OUT
    for time in ("0700", "0900", "1700", "1900", "2400"):
        new_day(today, "May 4, 1942", time)
        assert today.knocked_out, time
    new_day(today, "May 5, 1942", "0500")
    assert today.knocked_out
    new_day(today, "May 5, 1942", "0700")
    assert not today.knocked_out


def test_ptvm_bases_3_knocked_out_base_refuses_take_off_and_landing() -> None:
    state, today = dice(5), BaseDamage()
    assert landing_refused(RABAUL, today, "F") is None
    assert take_off_refused(RABAUL, today, "M") is None
    damage_base(state, RABAUL, today, 5)
    for kind in ("F", "D", "T", "M", "H"):
        assert "Bases 3" in str(landing_refused(RABAUL, today, kind))
        assert "Bases 3" in str(take_off_refused(RABAUL, today, kind))


def test_ptvm_bases_2_prohibited_types() -> None:
    shortlands, today = base("coral-sea", "Shortlands"), BaseDamage()  # no bombers or dive bombers
    refused = {k for k in ("F", "D", "T", "H", "M") if landing_refused(shortlands, today, k)}
    assert refused == {"D", "H", "M"}
    kavieng = base("coral-sea", "Kavieng")  # no bombers
    assert {k for k in ("F", "D", "T", "H", "M") if landing_refused(kavieng, today, k)} == {
        "H",
        "M",
    }


def test_ptvm_santa_cruz_buka_bombers_land_but_do_not_take_off() -> None:
    buka, today = base("santa-cruz", "Buka"), BaseDamage()
    assert landing_refused(buka, today, "M") is None
    assert "may land but not take off" in str(take_off_refused(buka, today, "M"))
    assert take_off_refused(buka, today, "F") is None
    assert base("eastern-solomons", "Buka").bombers_take_off  # elsewhere Buka takes no bombers
    assert landing_refused(base("eastern-solomons", "Buka"), today, "H") is not None


def test_ptvm_bases_2_capacity() -> None:
    tulagi = base("coral-sea", "Tulagi")  # maximum capacity 6
    assert has_room(tulagi, 4, 2) and not has_room(tulagi, 5, 2)
    assert has_room(base("coral-sea", "Australia"), 10_000, 100)  # unlimited


def test_ptvm_bases_4_aa_table_as_printed() -> None:
    printed = {  # die: hits at strength 1, 2, 3, 4
        1: (0, 0, 0, 0),
        2: (0, 0, 0, 1),
        3: (0, 1, 1, 1),
        4: (1, 1, 1, 2),
        5: (1, 1, 2, 2),
        6: (1, 2, 2, 2),
    }
    for die, row in printed.items():
        assert tuple(aa_hits(strength, die) for strength in (1, 2, 3, 4)) == row
    with pytest.raises(ValueError, match="AA strength"):
        aa_hits(5, 1)


def test_ptvm_bases_4_one_die_per_six_bombers_or_fraction() -> None:
    """Updated (was one die per attacking air unit): Bases 4 counts dice in planes."""
    state = dice(6, 3, 1)
    assert aa_fire(state, base("coral-sea", "Lae"), 18) == [2, 1, 0]  # AA strength 2
    assert state.forced_dice == []
    state = dice(6, 6)
    assert aa_fire(state, base("coral-sea", "Tulagi"), 3) == [1]  # AA strength 1: one die
    assert state.forced_dice == [6]
    state = dice(6, 6)
    assert aa_fire(state, base("coral-sea", "Tulagi"), 7) == [1, 1]  # a fraction: a die


def test_ptvm_offboard_bases_4_may_not_be_attacked() -> None:
    australia, state = base("coral-sea", "Australia"), dice(6)
    with pytest.raises(ValueError, match="Off-Board Bases 4"):
        damage_base(state, australia, BaseDamage(), 3)
    with pytest.raises(ValueError, match="Off-Board Bases 4"):
        aa_fire(state, australia, 2)
    assert state.forced_dice == [6]


def test_ptvm_six_sided_die_forced_and_rolled() -> None:
    state = dice(7)
    with pytest.raises(ValueError, match="1-6"):
        roll_d6(state)
    state.forced_dice = []
    faces = {roll_d6(state) for _ in range(200)}
    assert faces == {1, 2, 3, 4, 5, 6}
