"""Tests of the data layer (app/data) and of the data against the printed rulebook values."""

from __future__ import annotations

from app.data import catalog


def test_catalog_loads_all_files() -> None:
    cat = catalog()
    assert cat.scenarios["one"].rule == "7b"
    assert cat.time_record.box(7).date == "June 4, 1942"  # 7a2.1


def test_10b2_yorktown_defense_3c_back_2c() -> None:
    yorktown = catalog().ship("usa", "Yorktown")
    assert (yorktown.front.defense, yorktown.front.armour) == (3, "c")
    assert yorktown.back is not None
    assert (yorktown.back.defense, yorktown.back.armour) == (2, "c")


def test_7a2_3_yorktown_capacity_8_launch_4_2() -> None:
    yorktown = catalog().ship("usa", "Yorktown")
    assert yorktown.capacity == 8
    assert yorktown.back is not None
    assert (yorktown.front.launch, yorktown.back.launch) == (4, 2)
