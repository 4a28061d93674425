"""Option 12c1: unequal movement legs (B6: seven hexes out, three back)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import IllegalAction, apply, legal_actions
from app.rules.board.boards import searchboard
from app.rules.engine.events import Event
from app.rules.engine.state import STRIKE, State
from app.rules.engine.steps import StepId, goto

from ..helpers import play, position

PATH = ["S6", "R6", "Q6", "P6", "O6", "N6", "M6"]  # seven hexes west of T6


def b6_over_the_ocean(options: frozenset[str]) -> State:
    """TF 16 in T6, TF 17 in J6 (three hexes beyond M6); B6 takes off alone."""
    s = position(
        8,
        {"usa": {"TF16": ("T6", []), "TF17": ("J6", [])}, "japan": {"MobileForce": ("H1", [])}},
        dice=[4, 6],
        options=options,
    )
    b6 = s.units["usa"]["B6"]
    b6 = s.put(replace(b6, box=STRIKE, area="TF16"))
    out: list[Event] = []
    goto(s, StepId.AIR_MOVEMENT_AND_SEARCH, out)
    return s


def test_12c1_b6_moves_seven_hexes_out_and_three_back() -> None:
    s = b6_over_the_ocean(frozenset({"12c1"}))
    s, _ = play(s, "usa", *(f"fly T6-strike {h}" for h in PATH))
    assert s.boards["usa"].flights["B6"].moved == 7
    s, _ = play(s, "usa", "done")
    s, _ = play(s, "japan", "done")
    assert s.step == "air return"
    lands = [a.text() for a in legal_actions(s, "usa") if a.get("unit") == "B6"]
    # 2 x 5 - 7 = 3 hexes back: Yorktown (J6, 3 away) or Midway (M5, 1 away), not Enterprise (7)
    assert lands == ["land B6 Midway", "land B6 Yorktown"]


def test_12c1_no_farther_than_a_landing_allows() -> None:
    """After 8 hexes, the ninth must end within 2 x 5 - 9 = 1 hex of Yorktown or Midway."""
    s = b6_over_the_ocean(frozenset({"12c1"}))
    s, _ = play(s, "usa", *(f"fly T6-strike {h}" for h in [*PATH, "L6"]))
    assert s.boards["usa"].flights["B6"].moved == 8
    grid = searchboard()
    nexts = {a.get("hex") for a in legal_actions(s, "usa") if a.kind == "fly"}
    expected = {
        h for h in grid.neighbours("L6") if min(grid.distance(h, "J6"), grid.distance(h, "M5")) <= 1
    }
    assert nexts == expected and nexts != set(grid.neighbours("L6"))


def test_12c1_off_the_movement_factor_is_the_limit() -> None:
    s = b6_over_the_ocean(frozenset())
    s, _ = play(s, "usa", *(f"fly T6-strike {h}" for h in PATH[:5]))
    assert not [a for a in legal_actions(s, "usa") if a.kind == "fly"]
    with pytest.raises(IllegalAction) as err:
        apply(s, "usa", {"kind": "fly", "group": "T6-strike", "hex": "N6"})
    assert err.value.rule == "3d1"


def test_12c1_scouts_keep_equal_legs() -> None:
    s = b6_over_the_ocean(frozenset({"12c1"}))
    m = s.units["usa"]["M"]
    s.boards["usa"].flights["M"] = type(s.boards["usa"].flights["B6"])(
        hex="T6", group="M", path=["T6"]
    )
    m = s.put(replace(m, box="flying", area=""))
    s.boards["usa"].groups["M"] = ["M"]
    s, _ = play(s, "usa", *(f"fly M {h}" for h in PATH[:6]))  # scout M moves 6 (CATALOG 2c)
    assert not [a for a in legal_actions(s, "usa") if a.kind == "fly" and a.get("group") == "M"]


@pytest.mark.parametrize(("yorktown", "beyond"), [(5, False), (4, True)])
def test_12c1_a_carrier_dead_in_the_water_is_no_landing_place_for_the_long_leg(
    yorktown: int, beyond: bool
) -> None:
    """12c1: the landing place must meet "all landing conditions in rule 5a"; 11c2: no air
    unit lands on a carrier dead in the water. With Yorktown (J6) dead in the water and
    the Midway base gone, B6 has nowhere to land beyond its movement factor: five hexes
    is all. Flipped with 1 hit (afloat), Yorktown lets it fly on."""
    s = b6_over_the_ocean(frozenset({"12c1", "11c"}))
    # 5: flipped, 2 hits - dead in the water
    s.put(replace(s.units["usa"]["Yorktown"], damage=yorktown))
    midway = s.units["usa"]["Midway"]
    midway = s.put(replace(midway, box="eliminated", damage=6))
    s, _ = play(s, "usa", *(f"fly T6-strike {h}" for h in PATH[:5]))
    nexts = {a.get("hex") for a in legal_actions(s, "usa") if a.kind == "fly"}
    assert ("N6" in nexts) is beyond
    if not beyond:
        with pytest.raises(IllegalAction) as err:
            apply(s, "usa", {"kind": "fly", "group": "T6-strike", "hex": "N6"})
        assert err.value.rule == "3d1"
