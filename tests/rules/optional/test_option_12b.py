"""Options 12b1 and 12b2: small air units, expanded launches, the Max. Strike box (12b3.2)."""

from __future__ import annotations

from dataclasses import replace

from app.rules import legal_actions
from app.rules.engine.state import State, UnitKey

from ..helpers import play, position


def assembly(options: set[str], aboard: list[str]) -> State:
    """Yorktown (launch 4, CATALOG 1a) with `aboard` in its Ready box, at the Assembly Step."""
    s = position(
        8,
        {"usa": {"TF17": ("N5", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H2", [])}},
        dice=[4, 6],
        options=frozenset(options),
    )
    for uid in aboard:
        s.put(replace(s.units["usa"][uid], area="Yorktown"))
    return s


def kinds_for(s: State, unit: str) -> set[str]:
    return {a.text() for a in legal_actions(s, "usa") if a.values and a.values[0] == unit}


YORKTOWN = ["B3", "B5", "T3", "O", "B6", "S6", "T6", "M"]


def test_3a4_without_12b2_the_fifth_take_off_is_refused() -> None:
    s = assembly(set(), YORKTOWN)
    s, _ = play(s, "usa", "launch B3", "launch B5", "launch T3", "launch O")
    assert kinds_for(s, "B6") == set()


def test_12b2_maximum_launch_up_to_twice_into_max_strike_only() -> None:
    s = assembly({"12b2"}, YORKTOWN)
    s, _ = play(s, "usa", "launch B3", "launch B5", "launch T3", "launch O")
    assert kinds_for(s, "B6") == {"max-strike B6"}  # 12b2.3: only Max. Strike (or Low CAP)
    s, _ = play(s, "usa", "max-strike B6", "max-strike S6", "max-strike T6", "max-strike M")
    assert s.launched[UnitKey("usa", "Yorktown")] == 8 and s.units["usa"]["M"].box == "max-strike"


def test_12b1_with_12b2_small_units_count_half_toward_launches() -> None:
    """12b1: a scout and a flipped unit count one-half against the launch number."""
    s = assembly({"12b1", "12b2"}, YORKTOWN)
    s.put(replace(s.units["usa"]["B6"], damage=3))  # flipped: half a unit
    s, _ = play(s, "usa", "launch O", "launch M", "launch B6", "launch B3", "launch B5")
    assert s.launched[UnitKey("usa", "Yorktown")] == 3.5
    assert kinds_for(s, "T3") == {"max-strike T3"}  # 4.5 would pass the normal 4
    assert kinds_for(s, "S6") == {"max-strike S6"}


def test_12b2_1_fighters_normal_to_high_cap_max_to_low_cap() -> None:
    s = assembly({"12b2", "14"}, ["B3", "B5", "T3", "O"])
    assert kinds_for(s, "1F3") == {"launch 1F3", "cap 1F3 high"}
    s, _ = play(s, "usa", "launch B3", "launch B5", "launch T3", "launch O")
    assert kinds_for(s, "1F3") == {"max-strike 1F3", "cap 1F3 low"}


def test_12b3_2_max_strike_units_move_one_hex_less() -> None:
    s = assembly({"12b2"}, YORKTOWN)
    s, _ = play(
        s, "usa", "launch B3", "launch B5", "launch T3", "launch O", "max-strike B6", "done"
    )
    for seat in ("japan", "usa", "japan", "usa", "japan"):
        s, _ = play(s, seat, "done")
    assert s.step == "air movement and search"
    flights = s.boards["usa"].flights
    assert flights["B6"].max_strike and not flights["B5"].max_strike
    # 3d2: all of TF 17's combat units move together; B6 (5 - 1 = 4) is dropped after 4 hexes.
    s, _ = play(s, "usa", *(f"fly N5-strike {h}" for h in ("M5", "L5", "K5", "J5", "I5")))
    flights = s.boards["usa"].flights
    assert flights["B6"].hex == "J5" and flights["B5"].hex == "I5"
