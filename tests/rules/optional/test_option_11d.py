"""Option 11d: repairs after two consecutive night Turns."""

from __future__ import annotations

from dataclasses import replace

from app.rules.engine.state import State

from ..helpers import play, position


def two_nights(options: frozenset[str], move_tf16: bool = False) -> State:
    """Turns 6 and 7 are night Turns (CATALOG 4); damage is set before they begin."""
    s = position(
        6,
        {"usa": {"TF17": ("N5", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H2", [])}},
        options=options,
    )
    damage = {"Yorktown": 5, "Enterprise": 1, "B5": 2, "Midway": 3, "B6": 1}
    for uid, points in damage.items():
        s.put(replace(s.units["usa"][uid], damage=points))
    s.put(replace(s.units["japan"]["Haruna"], damage=1))
    while s.turn < 8:
        seat = s.waiting[0]
        if move_tf16 and s.step == "sea movement" and seat == "usa" and s.turn == 7:
            s, _ = play(s, seat, "move TF16 P4")
        s, _ = play(s, seat, "done")
    return s


def test_11d_units_that_stay_two_nights_out_of_combat_are_repaired() -> None:
    s = two_nights(frozenset({"11d"}))
    usa = s.units["usa"]
    assert (usa["Yorktown"].damage, usa["Yorktown"].flipped) == (
        4,
        True,
    )  # 11d1, stays flipped (11d3)
    assert usa["B5"].hits == 1 and usa["B6"].hits == 0 and usa["Enterprise"].hits == 0  # 11d1, 11d2
    assert (usa["Midway"].flipped, usa["Midway"].hits) == (False, 2)  # 11d3: the base
    assert s.units["japan"]["Haruna"].hits == 0


def test_11d_a_ship_that_moves_is_not_repaired_its_air_units_are() -> None:
    """11d: the same-hex condition is for "base or ship units"; air units need only remain
    On Board or On Ground - B6 aboard Enterprise is repaired though TF 16 moved."""
    s = two_nights(frozenset({"11d"}), move_tf16=True)
    assert s.units["usa"]["Enterprise"].hits == 1  # moved: not repaired
    assert s.units["usa"]["B6"].hits == 0  # on board two nights: its 1 hit removed (11d2)
    assert s.units["usa"]["Yorktown"].damage == 4


def test_11d_without_the_option_no_repairs() -> None:
    s = two_nights(frozenset())
    assert s.units["usa"]["Yorktown"].damage == 5 and s.units["usa"]["Midway"].damage == 3
