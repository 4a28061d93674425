"""Tests of the data layer (app/data) and of the data against the printed rulebook values.

Each test names the rule whose printed value it checks. Values the rulebook does not print are
reconstructed in shared/CATALOG.md; tests of those check only what the catalogue's method
promises (each unit's provenance, the back-side conventions of CATALOG.md 0).
"""

from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from app.data import (
    SCENARIOS_DIR,
    SIDES,
    AirFace,
    AirUnit,
    Catalog,
    ForceSetup,
    Scenario,
    ShipFace,
    ShipUnit,
    Side,
    catalog,
)
from app.data.loader import load_catalog


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return catalog()


def ship(side: Side, unit: str) -> ShipUnit:
    return catalog().ship(side, unit)


def air(side: Side, unit: str) -> AirUnit:
    return catalog().airunit(side, unit)


def back_of(unit: ShipUnit) -> ShipFace:
    assert unit.back is not None, f"{unit.name} has ELIM on its back"
    return unit.back


def air_back(unit: AirUnit) -> AirFace:
    assert unit.back is not None, f"{unit.id} has {unit.back_label} on its back"
    return unit.back


def cast_int(value: int | None) -> int:
    assert value is not None
    return value


def table(value: object) -> Mapping[str, Any]:
    assert isinstance(value, Mapping)
    return value


# ---------------------------------------------------------------- loading


def test_catalog_loads_once_and_is_frozen(cat: Catalog) -> None:
    assert catalog() is cat
    with pytest.raises(dataclasses.FrozenInstanceError):
        cat.ship("usa", "Yorktown").capacity = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        cat.ships[("usa", "Nowhere")] = cat.ship("usa", "Yorktown")  # type: ignore[index]
    with pytest.raises(TypeError):
        cat.scenarios["four"].special["night"] = False  # type: ignore[index]


def test_lookup_of_a_missing_unit_names_it(cat: Catalog) -> None:
    with pytest.raises(KeyError, match="no japan ship or base unit 'Lexington'"):
        cat.ship("japan", "Lexington")
    with pytest.raises(KeyError, match="no usa air unit 'ZHF'"):
        cat.airunit("usa", "ZHF")
    with pytest.raises(KeyError, match="Turn 24"):
        cat.time_record.box(24)


def test_both_sides_have_dd1_and_scout_a(cat: Catalog) -> None:
    assert cat.ship("usa", "DD1").name == "DD #1"
    assert cat.ship("japan", "DD1").name == "DD #1"
    assert cat.airunit("usa", "A").aircraft == "PBY Catalina"
    assert cat.airunit("japan", "A").basing == "white"


def test_unit_ids_have_no_spaces_and_every_unit_has_provenance(cat: Catalog) -> None:
    units: list[ShipUnit | AirUnit] = [*cat.ships.values(), *cat.air.values()]
    for unit in units:  # units.toml cites CATALOG.md; theatre-units.toml reconstructs by it
        assert " " not in unit.id
        assert unit.provenance.startswith(("CATALOG.md ", "reconstructed: ")), unit.id
    assert cat.ship("usa", "NewOrleans").name == "New Orleans"
    assert cat.ship("japan", "AP1").name == "AP I"


def midway_unit(unit: ShipUnit | AirUnit) -> bool:
    """A unit of units.toml (CATALOG.md), not of the expansion's theatre-units.toml."""
    return unit.provenance.startswith("CATALOG.md ")


def test_catalogue_unit_counts(cat: Catalog) -> None:
    ships = Counter(side for (side, _), u in cat.ships.items() if midway_unit(u))
    airs = Counter((side, u.is_scout) for (side, _), u in cat.air.items() if midway_unit(u))
    assert (ships["usa"], ships["japan"]) == (24, 43)  # CATALOG.md 1a, 1b
    assert (airs[("usa", False)], airs[("usa", True)]) == (22, 17)  # 2a; 2c scouts A-Q
    assert (airs[("japan", False)], airs[("japan", True)]) == (21, 15)  # 2b; 2c scouts A-O


# ---------------------------------------------------------------- loader errors


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS_DIR, folder)
    return folder


def edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_loader_bad_factor_names_file_and_key(data_copy: Path) -> None:
    edit(data_copy, "units.toml", 'defense = "3c/2c"', 'defense = "3x/2c"')
    with pytest.raises(
        ValueError, match=r"^scenarios/units\.toml: ship\[0\] \(Yorktown\)\.defense"
    ):
        load_catalog(data_copy)


def test_loader_elim_unit_with_two_faces_is_refused(data_copy: Path) -> None:
    edit(data_copy, "units.toml", 'defense = "1d"', 'defense = "1d/0d"')
    with pytest.raises(ValueError, match=r"ship\[\d+\] \(DD10\)\.defense: expected one value"):
        load_catalog(data_copy)


def test_loader_unknown_unit_in_scenario_names_file_and_key(data_copy: Path) -> None:
    edit(data_copy, "scenario-one.toml", '"DD2"]', '"DD9"]')
    with pytest.raises(ValueError, match=r"scenario-one\.toml: force\[1\] \(TF17\)\.ships: no usa"):
        load_catalog(data_copy)


def test_loader_unit_set_up_twice_is_refused(data_copy: Path) -> None:
    edit(data_copy, "scenario-one.toml", 'usa.Midway = ["1F221"', 'usa.Midway = ["5AF"')
    with pytest.raises(ValueError, match=r"option14_fighters\.usa\.Midway: usa unit '5AF'"):
        load_catalog(data_copy)


def test_loader_unknown_key_and_duplicate_id(data_copy: Path) -> None:
    edit(data_copy, "victory_points.toml", "flipped = 10", "flipped = 10\nflippd = 1")
    with pytest.raises(ValueError, match=r"victory_points\.toml: row\[0\]\.flippd: unknown key"):
        load_catalog(data_copy)
    shutil.copy(SCENARIOS_DIR / "victory_points.toml", data_copy / "victory_points.toml")
    edit(data_copy, "units.toml", 'id = "Hornet"', 'id = "Enterprise"')
    with pytest.raises(ValueError, match=r"units\.toml: ship\[2\] \(Enterprise\)\.id: duplicate"):
        load_catalog(data_copy)


def test_loader_entry_turn_outside_the_scenario(data_copy: Path) -> None:
    edit(data_copy, "scenario-three.toml", "entry_turn = 8", "entry_turn = 18")
    with pytest.raises(ValueError, match=r"scenario-three\.toml: .*\(FirstFleet\)\.entry_turn"):
        load_catalog(data_copy)


def test_17a_commands_of_scenarios_two_and_three(cat: Catalog) -> None:
    """17a: the US commands are TF 16 / TF 17 and Midway, TF 1 chosen at setup; the Japanese
    those entering at I / at VI (Scenario Three's split follows Scenario Two's entries);
    no teams elsewhere (17: scenarios 7c and 7d)."""
    for sid in ("two", "three"):
        teams = cat.scenarios[sid].teams
        assert teams is not None and teams.rule == "17a" and teams.provenance
        forces = {(c.side, c.id): c.forces for c in teams.commands}
        assert forces[("usa", "tf16")] == ("TF16",)
        assert forces[("usa", "tf17")] == ("TF17", "Midway")
        assert {"MobileForce", "FirstFleet"} <= set(forces[("japan", "i")])
        assert {"EscortForce", "SecondFleet"} <= set(forces[("japan", "vi")])
        assert [c.id for c in teams.commands if c.overall] == ["tf17", "i"]
    assert cat.scenarios["two"].teams is not None
    assert cat.scenarios["two"].teams.chosen["usa"] == ("TF1",)
    for f in cat.scenarios["two"].forces_of("japan"):
        command = next(c for c in cat.scenarios["two"].teams.commands if f.marker in c.forces)
        assert command.id == {"I": "i", "VI": "vi"}[f.area], "17a: by the area of entry"
    assert cat.scenarios["one"].teams is None and cat.scenarios["four"].teams is None


def test_loader_17a_a_force_in_no_command_is_refused(data_copy: Path) -> None:
    edit(
        data_copy,
        "scenario-three.toml",
        'forces = ["EscortForce", "SecondFleet"]',
        'forces = ["EscortForce"]',
    )
    with pytest.raises(
        ValueError, match=r"scenario-three\.toml: teams\.command: 17a: each japan force"
    ):
        load_catalog(data_copy)


def test_loader_hex_off_the_board_and_bad_toml(data_copy: Path) -> None:
    edit(data_copy, "searchboard.toml", '"A5"]', '"A12"]')
    with pytest.raises(ValueError, match=r"searchboard\.toml: areas\.I\.hexes: hex 'A12'"):
        load_catalog(data_copy)
    shutil.copy(SCENARIOS_DIR / "searchboard.toml", data_copy / "searchboard.toml")
    (data_copy / "time_record.toml").write_text("turn = [", encoding="utf-8")
    with pytest.raises(ValueError, match=r"time_record\.toml: not valid TOML"):
        load_catalog(data_copy)


# ---------------------------------------------------------------- ship units, printed values


def test_10b2_yorktown_defense_3c_back_2c() -> None:
    yorktown = ship("usa", "Yorktown")
    assert (yorktown.front.defense, yorktown.front.armour, yorktown.front.aa) == (3, "c", 3)
    assert (back_of(yorktown).defense, back_of(yorktown).armour) == (2, "c")


def test_7a2_3_yorktown_capacity_8_launch_4_2() -> None:
    yorktown = ship("usa", "Yorktown")
    assert yorktown.capacity == 8
    assert (yorktown.front.launch, back_of(yorktown).launch) == (4, 2)


def test_2c4_enterprise_launch_4_2() -> None:
    enterprise = ship("usa", "Enterprise")
    assert (enterprise.front.launch, back_of(enterprise).launch) == (4, 2)


def test_10b2_astoria_portland_dd2_aa_2_each_total_6() -> None:
    escorts = [ship("usa", u) for u in ("Astoria", "Portland", "DD2")]
    assert [u.front.aa for u in escorts] == [2, 2, 2]
    assert (escorts[0].front.defense, escorts[0].front.armour) == (3, "b")


def test_10b1_haruna_defense_5a_aa_2_and_nagara_aa_1() -> None:
    haruna, nagara = ship("japan", "Haruna"), ship("japan", "Nagara")
    assert (haruna.front.defense, haruna.front.armour, haruna.front.aa) == (5, "a", 2)
    assert nagara.front.aa == 1
    assert haruna.back is not None  # 10b1: "turn over the Haruna ship unit"


def test_16j4_atago_chokai_surface_3b_against_midway_defense_a() -> None:
    atago, chokai, midway = ship("japan", "Atago"), ship("japan", "Chokai"), ship("usa", "Midway")
    assert [(u.front.surface, u.front.gun) for u in (atago, chokai)] == [(3, "b"), (3, "b")]
    assert midway.front.armour == "a"
    # 3 + 3 and -2 for "b" guns against an "a" defense: the printed "+4"
    assert cast_int(atago.front.surface) + cast_int(chokai.front.surface) - 2 == 4


def test_16j3_midway_surface_letter_c_and_the_base_has_no_movement() -> None:
    midway = ship("usa", "Midway")
    assert (midway.type, midway.front.gun, midway.front.movement) == ("base", "c", None)
    assert midway.back is not None  # 11d3: the base may be flipped back to its front


def test_12b1_chikuma_av_capacity_1() -> None:
    chikuma = ship("japan", "Chikuma")
    assert (chikuma.type, chikuma.capacity) == ("AV", 1)


def test_7a3_2_japanese_dd10_has_elim_on_its_back_and_no_other_ship_does() -> None:
    assert ship("japan", "DD10").back is None
    elim = [u.id for u in catalog().ships.values() if u.back is None]
    assert elim == ["DD10"]


def test_7d3_7e3_transports_and_mikuma_have_back_sides() -> None:
    for unit in ("AP1", "AP2", "AP3", "Mikuma"):
        assert ship("japan", unit).back is not None


def test_1b_dd_and_ap_units_represent_three_to_six_ships(cat: Catalog) -> None:
    for unit in cat.ships.values():
        expected = range(3, 7) if unit.type in ("DD", "AP") else range(0 if unit.is_base else 1, 2)
        assert unit.ships in expected, unit.name


def test_2c4_capacity_and_launch_only_on_carriers_avs_and_the_base(cat: Catalog) -> None:
    for unit in cat.ships.values():
        carries = unit.type in ("CV", "CVL", "AV", "base")
        assert (unit.capacity is not None) == carries == (unit.front.launch is not None)


def test_catalog_0_ship_backs_one_lower_letters_kept(cat: Catalog) -> None:
    for unit in cat.ships.values():
        if unit.back is None:
            continue
        f, b = unit.front, unit.back
        assert (b.defense, b.armour, b.gun) == (max(f.defense - 1, 0), f.armour, f.gun), unit.name
        assert b.aa == max(f.aa - 1, 0), unit.name
        if unit.type in ("DD", "AP") or f.movement is None:
            assert b.movement == f.movement, unit.name
        else:
            assert b.movement == max(f.movement - 1, 1), unit.name


def lower(value: int | None, by: int) -> int | None:
    return None if value is None else max(value - by, 0)


def test_catalog_0_air_backs_defense_1_lower_combat_2_lower_japanese_fighters_3(
    cat: Catalog,
) -> None:
    for unit in cat.air.values():
        if unit.back is None:
            continue
        f, b = unit.front, unit.back
        combat_loss = 3 if (unit.side, unit.type) == ("japan", "F") else 2
        assert b.defense == lower(f.defense, 1), unit.id
        assert b.air_combat == lower(f.air_combat, combat_loss), unit.id
        assert (b.movement, b.bombing) == (f.movement, lower(f.bombing, 2)), unit.id


# ---------------------------------------------------------------- air units, printed values


def test_10b1_b5_b6_s6_defense_2_bombing_7_and_identical() -> None:
    units = [air("usa", u) for u in ("B5", "B6", "S6")]
    assert {(u.type, u.front.defense, u.front.bombing) for u in units} == {("D", 2, 7)}
    assert units[0].front == units[1].front == units[2].front


def test_10a_t3_moves_3_b5_at_least_4_scout_o_6() -> None:
    assert air("usa", "T3").front.movement == 3
    assert air("usa", "B5").front.movement >= 4  # L3-K4-J4-I5-H4
    assert air("usa", "O").front.movement >= 6  # L3-K3-J2-I3-H3-H4-H5


def test_12c1_b6_moves_5() -> None:
    assert air("usa", "B6").front.movement == 5


def test_10b2_hyt_defense_2_bombing_7_back_bombing_5_and_ad_bombing_7() -> None:
    hyt = air("japan", "HYT")
    assert (hyt.type, hyt.front.defense, hyt.front.bombing) == ("T", 2, 7)
    assert air_back(hyt).bombing == 5
    assert [air("japan", u).front.bombing for u in ("AD", "1AT", "2AT", "HYD")] == [7, 7, 7, 7]
    assert air("japan", "AD").front.defense == 2


def test_14d1_1f3_front_plus_2f3_back_air_combat_8_and_1f6_5() -> None:
    total = cast_int(air("usa", "1F3").front.air_combat)
    total += cast_int(air_back(air("usa", "2F3")).air_combat)
    assert total == 8
    assert air("usa", "1F6").front.air_combat == 5
    assert [air("japan", u).front.defense for u in ("1KF", "2KF")] == [2, 2]


def test_14d2_1kf_back_air_combat_3_and_2f3_back_defense_1() -> None:
    assert air_back(air("japan", "1KF")).air_combat == 3
    assert air_back(air("usa", "2F3")).defense == 1


def test_7b2_1bg11_has_a_back_side_and_is_a_heavy_bomber() -> None:
    bg = air("usa", "1BG11")
    assert (bg.type, bg.back_label, bg.basing) == ("H", "reduced", "green")


def test_8e2_sb241_units_are_medium_bombers() -> None:
    assert [air("usa", u).type for u in ("1SB241", "2SB241")] == ["M", "M"]


def test_8e1_15c2_hosho_air_group_hg_is_t_class() -> None:
    assert air("japan", "HG").type == "T"


def test_8d1_5a1_jake_scouts_on_chikuma_and_tone_are_yellow() -> None:
    assert [air("japan", u).basing for u in ("M", "N")] == ["yellow", "yellow"]


def test_12d_patrol_scouts_and_4a_scouts_have_no_combat_factors(cat: Catalog) -> None:
    scouts = [u for u in cat.air.values() if u.is_scout]
    assert {u.back_label for u in scouts} == {"PATROL", "blank"}
    assert sorted(u.id for u in scouts if u.patrol) == ["A", "B", "C", "D"]
    assert {u.side for u in scouts if u.patrol} == {"usa"}
    for u in scouts:
        assert (u.front.defense, u.front.air_combat, u.front.bombing) == (None, None, None)


def test_7a3_2_elim_backs_are_combat_air_units(cat: Catalog) -> None:
    elim = sorted((u.side, u.id) for u in cat.air.values() if u.elim_back)
    assert elim == [("japan", "HG"), ("usa", "2T8"), ("usa", "5AF")]


def test_15c2_scout_creation_by_parent_class(cat: Catalog) -> None:
    usa, japan = cat.scout_creation["usa"], cat.scout_creation["japan"]
    assert dict(usa) == {"H": ("I", "J", "K"), "M": ("L",), "D": ("M", "N", "O", "P", "Q")}
    assert dict(japan) == {"D": tuple("ABCDEFG"), "T": tuple("HIJKL")}


# ---------------------------------------------------------------- Victory Points Chart


def test_7a3_cv_25_eliminated_10_flipped(cat: Catalog) -> None:
    vp = cat.victory_points
    assert (vp.eliminated["CV"], vp.flipped["CV"]) == (25, 10)


def test_10d_bb_flipped_5(cat: Catalog) -> None:
    assert cat.victory_points.flipped["BB"] == 5


def test_7a3_2_dd_eliminated_14(cat: Catalog) -> None:
    assert cat.victory_points.eliminated["DD"] // 2 == 7
    assert cat.victory_points.eliminated["DD"] == 14


def test_7a3_1_air_combat_unit_2_only_if_eliminated_scouts_0(cat: Catalog) -> None:
    vp = cat.victory_points
    assert (vp.eliminated["air"], vp.flipped["air"]) == (2, 0)
    assert (vp.eliminated["scout"], vp.flipped["scout"]) == (0, 0)


def test_7a3_chart_covers_every_ship_type(cat: Catalog) -> None:
    types = {u.type for u in cat.ships.values()} | {"air", "scout"}
    assert set(cat.victory_points.eliminated) == set(cat.victory_points.flipped) == types


# ---------------------------------------------------------------- Time Record Track


def test_7a2_1_turn_7_is_june_4_1942(cat: Catalog) -> None:
    assert cat.time_record.box(7).date == "June 4, 1942"


def test_10a_turn_8_is_a_day_turn(cat: Catalog) -> None:
    assert not cat.time_record.box(8).night


def test_12a2_triangles_on_turns_3_9_15_21(cat: Catalog) -> None:
    assert [b.turn for b in cat.time_record.turns if b.triangle] == [3, 9, 15, 21]


def test_12a3_dots_on_odd_turns(cat: Catalog) -> None:
    assert [b.turn for b in cat.time_record.turns if b.dot] == list(range(1, 24, 2))


def test_7c1_track_has_turns_1_to_23(cat: Catalog) -> None:
    assert [b.turn for b in cat.time_record.turns] == list(range(1, 24))


def test_7e1_scenario_four_turn_is_night(cat: Catalog) -> None:
    four = cat.scenarios["four"]
    assert cat.time_record.box(four.first_turn).night


# ---------------------------------------------------------------- boards


def test_7a2_2_area_ii_and_midway_m5(cat: Catalog) -> None:
    board = cat.searchboard
    assert board.areas["II"] == {"H1", "H2", "I1", "I2", "I3", "J1", "J2"}
    assert board.bases == {"Midway": "M5"}
    assert "M5" in board.land


def test_searchboard_areas_as_rules_notes(cat: Catalog) -> None:
    board = cat.searchboard
    assert (board.columns, board.rows, board.layout) == ("ABCDEFGHIJKLMNOPQRST", 11, "odd-q")
    assert set(board.areas) == {"I", "II", "III", "IV", "VI", "M", "east-of-dateline", "T"}
    assert board.areas["I"] == {f"A{r}" for r in range(1, 6)}
    assert board.areas["VI"] == {f"A{r}" for r in range(7, 12)}
    assert board.areas["III"] == {"F8", "F9", "G8", "G9", "H8", "H9"}
    assert board.areas["IV"] == {"C9", "C10", "D9", "D10", "E9", "E10"}
    assert board.land == {"L5", "M5", "N6", "P7", "Q8", "T8"}


def test_7c4_4_m_area_is_f11_h11(cat: Catalog) -> None:
    assert cat.searchboard.areas["M"] == {"F11", "H11"}


def test_7b2_east_of_dateline_is_columns_l_to_t_and_7c2_t_row(cat: Catalog) -> None:
    areas = cat.searchboard.areas
    assert areas["east-of-dateline"] == {f"{c}{r}" for c in "LMNOPQRST" for r in range(1, 12)}
    assert areas["T"] == {f"T{r}" for r in range(1, 12)}


def test_10a_hexes_are_on_the_searchboard(cat: Catalog) -> None:
    for h in ("M4", "L3", "K3", "J2", "I3", "H3", "H4", "H5", "K4", "J4", "I5", "K6"):
        assert cat.searchboard.contains(h), h
    assert not cat.searchboard.contains("U1") and not cat.searchboard.contains("A12")


def test_16c1_battleboard_setup_lines(cat: Catalog) -> None:
    board = cat.battleboard
    assert (board.columns, board.rows, board.land) == ("ABCDEFGHIJKLMNOPQRST", 21, frozenset())
    assert board.areas["night-x"] == {"I11", "L11"} and board.areas["day-x"] == {"H11", "M11"}
    for h in ("K9", "K11", "O11", "Q11"):  # 10b1, 16c2.3
        assert board.contains(h)


# ---------------------------------------------------------------- scenarios


def force(scenario: Scenario, marker: str) -> ForceSetup:
    (found,) = [f for f in scenario.forces if f.marker == marker]
    return found


def test_7b1_7c1_7d1_turns(cat: Catalog) -> None:
    turns = {s.rule: (s.first_turn, s.last_turn) for s in cat.scenarios.values()}
    assert turns["7b"] == (7, 11) and turns["7c"] == (1, 23) and turns["7d"] == (7, 17)
    assert list(cat.scenarios) == [
        *("one", "two", "three", "four"),
        *("coral-sea", "eastern-solomons", "santa-cruz"),  # Pacific Theatre Via Midway
    ]


def test_7b2_setup_lists(cat: Catalog) -> None:
    one = cat.scenarios["one"]
    tf16, tf17, base = force(one, "TF16"), force(one, "TF17"), force(one, "Midway")
    assert tf16.ships == (
        "Enterprise", "Hornet", "Minneapolis", "NewOrleans", "Northampton",
        "Pensacola", "Vincennes", "Atlanta", "DD1", "DD3",
    )  # fmt: skip
    assert tf16.air == (
        ("Enterprise", ("B6", "S6", "T6", "M")),
        ("Hornet", ("B8", "S8", "T8", "N")),
    )
    assert tf17.ships == ("Yorktown", "Astoria", "Portland", "DD2")
    assert tf17.air == (("Yorktown", ("B3", "B5", "T3", "O")),)
    assert (tf16.area, tf17.area, tf16.entry_turn) == ("east-of-dateline", "east-of-dateline", None)
    assert (base.area, base.ships) == ("base", ("Midway",))
    assert base.air == (("Midway", ("2T8", "1SB241", "2SB241", "5AF", "1BG11", "A", "B", "C")),)
    assert base.back == {"1BG11"}


def test_7b3_setup_lists(cat: Catalog) -> None:
    (mobile,) = cat.scenarios["one"].forces_of("japan")
    assert (mobile.marker, mobile.label, mobile.area, mobile.entry_turn) == (
        "MobileForce", "Mobile Force", "II", None,
    )  # fmt: skip
    assert mobile.ships == (
        "Akagi", "Hiryu", "Kaga", "Soryu", "Chikuma", "Tone", "Haruna", "Kirishima", "Nagara",
        "DD1", "DD2",
    )  # fmt: skip
    assert dict(mobile.air) == {
        "Akagi": ("AD", "1AT", "2AT", "A"), "Hiryu": ("HYD", "HYT", "B"),
        "Kaga": ("KD", "1KT", "2KT", "C"), "Soryu": ("SYD", "SYT", "D"),
        "Chikuma": ("M",), "Tone": ("N",),
    }  # fmt: skip


def test_7b4_1_7b4_3_victory_margins_and_free_roll(cat: Catalog) -> None:
    one = cat.scenarios["one"]
    assert (one.japan_wins_margin, one.usa_wins_margin, one.free_roll) == (1, 10, "usa")
    assert one.control_of_midway_points == 0


def test_7b4_2_option14_fighters(cat: Catalog) -> None:
    one = cat.scenarios["one"]
    assert one.option14_fighters == (
        ("Enterprise", ("1F6", "2F6")), ("Hornet", ("1F8", "2F8")), ("Yorktown", ("1F3", "2F3")),
        ("Midway", ("1F221", "2F221")), ("Akagi", ("1AF", "2AF")), ("Hiryu", ("1HYF", "2HYF")),
        ("Kaga", ("1KF", "2KF")), ("Soryu", ("1SYF", "2SYF")),
    )  # fmt: skip
    assert [c for c, _ in one.option14_fighters_of("usa")] == [
        "Enterprise", "Hornet", "Yorktown", "Midway",
    ]  # fmt: skip
    others = [s for s in cat.scenarios.values() if s.id != "one"]
    assert all(s.option14_fighters == () for s in others)


def test_7c2_us_setup(cat: Catalog) -> None:
    two = cat.scenarios["two"]
    tf1 = force(two, "TF1")
    assert (tf1.area, tf1.entry_turn, tf1.optional, tf1.air) == ("T", 5, True, ())
    assert tf1.ships == (
        "Colorado", "Maryland", "Idaho", "Mississippi", "Tennessee", "Detroit", "Raleigh",
        "DD4", "DD5",
    )  # fmt: skip
    assert dict(force(two, "TF16").air)["Enterprise"] == ("1F6", "2F6", "B6", "S6", "T6", "M")
    assert dict(force(two, "TF17").air)["Yorktown"] == ("1F3", "2F3", "B3", "B5", "T3", "O")
    base_air = dict(force(two, "Midway").air)["Midway"]
    assert base_air == ("2T8", "1F221", "2F221", "1SB241", "2SB241", "5AF", "1BG11", *"ABCDEFGH")


def test_7c3_japanese_entries(cat: Catalog) -> None:
    two = cat.scenarios["two"]
    entries = {f.marker: (f.area, f.entry_turn, f.optional) for f in two.forces_of("japan")}
    assert entries == {
        "EscortForce": ("VI", 1, False),
        "FirstFleet": ("I", 8, False),
        "MobileForce": ("I", 2, False),
        "SecondFleet": ("VI", 2, False),
        "ScreenForce": ("I", 8, True),  # reconstructed, CATALOG.md 1c
    }
    assert force(two, "EscortForce").ships == ("Jintsu", "AP1", "AP2", "AP3", "DD4", "DD5")
    first = force(two, "FirstFleet")
    assert first.ships == ("Hosho", "Mutsu", "Nagato", "Yamato", "Sendai", "DD3", "DD7")
    assert first.air == (("Hosho", ("HG", "H")),)
    assert force(two, "SecondFleet").air == (("Zuiho", ("ZHF", "ZHT", "I")),)
    assert dict(force(two, "MobileForce").air)["Kaga"] == ("1KF", "2KF", "KD", "1KT", "2KT", "C")


def test_7c4_victory_bonuses_and_free_roll(cat: Catalog) -> None:
    two = cat.scenarios["two"]
    assert (two.japan_wins_margin, two.usa_wins_margin, two.free_roll) == (1, 1, "japan")
    assert two.control_of_midway_points == 35
    bonus = table(two.special["optional_force_bonus"])
    assert bonus["TF1"] == {"side": "usa", "points_to": "japan", "points": 15}
    assert bonus["ScreenForce"] == {"side": "japan", "points_to": "usa", "points": 10}
    control = table(two.special["midway_control"])
    assert (control["hex"], control["unit_type"], control["consecutive_turns"]) == ("M5", "AP", 3)


def test_7c4_4_7d4_2_japanese_scout_o_enters_f11_or_h11_on_turns_9_and_15(cat: Catalog) -> None:
    for scenario in (cat.scenarios["two"], cat.scenarios["three"]):
        entry = table(scenario.special["scout_entry"])
        assert (entry["side"], entry["unit"], entry["turns"]) == ("japan", "O", (9, 15))
        assert cat.searchboard.areas[entry["area"]] == {"F11", "H11"}
        assert cat.airunit("japan", "O").is_scout


def test_7d2_7d3_setup(cat: Catalog) -> None:
    three = cat.scenarios["three"]
    base_air = dict(force(three, "Midway").air)["Midway"]
    assert base_air[-7:] == tuple("ABCDEFG") and "H" not in base_air
    escort = force(three, "EscortForce")
    assert (escort.area, escort.entry_turn, escort.back) == ("IV", None, {"AP1", "AP2", "AP3"})
    starts = {f.marker: (f.area, f.entry_turn) for f in three.forces_of("japan")}
    assert starts == {
        "EscortForce": ("IV", None),
        "FirstFleet": ("I", 8),
        "MobileForce": ("II", None),
        "SecondFleet": ("III", None),
    }
    assert not any(f.optional for f in three.forces)


def test_7d4_victory_and_free_roll(cat: Catalog) -> None:
    three = cat.scenarios["three"]
    assert (three.japan_wins_margin, three.usa_wins_margin, three.free_roll) == (1, 10, "usa")
    assert three.control_of_midway_points == 35


def test_7e2_7e3_night_surface_action_setup(cat: Catalog) -> None:
    four = cat.scenarios["four"]
    usa, japan = four.forces_of("usa"), four.forces_of("japan")
    assert usa[0].ships == (
        "Minneapolis",
        "NewOrleans",
        "Northampton",
        "Pensacola",
        "Vincennes",
        "DD3",
    )
    assert japan[0].ships == ("Kumano", "Mikuma", "Mogami", "Suzuya", "DD10")
    assert (japan[0].back, japan[0].one_hit) == ({"Mikuma"}, {"Mogami"})
    assert {f.area for f in four.forces} == {"battleboard"}
    assert four.special["surface_side"] == {"usa": "B", "japan": "A"}


def test_7e4_special_rules(cat: Catalog) -> None:
    four = cat.scenarios["four"]
    assert (four.usa_wins_margin, four.free_roll) == (5, "usa")
    # 7e4.1 contradicts itself ("more" / "two or more"): one reading in each place
    assert (four.japan_wins_margin, four.special["japan_wins_margin_other_reading"]) == (2, 1)
    assert four.special["breakoff_not_before_end_of_surface_turn"] == 4
    assert four.special["facing"] == "same" and four.special["full_vp_units"] == ("Mikuma",)
    assert four.special["searchboards_used"] is False


def test_7a2_every_unit_a_scenario_names_exists(cat: Catalog) -> None:
    for scenario in cat.scenarios.values():
        for f in scenario.forces:
            for unit in f.ships:
                assert cat.ship(f.side, unit).side == f.side
            for carrier, ids in f.air:
                assert carrier in f.ships
                for unit in ids:
                    cat.airunit(f.side, unit)
            assert f.back | f.one_hit <= set(f.ships) | set(f.air_ids())


def capacity_use(scenario: Scenario, with_option14: bool) -> Counter[tuple[Side, str]]:
    """Air units per carrier, AV or base, each counting 1 (Basic Game, no 12b1 halving)."""
    use: Counter[tuple[Side, str]] = Counter()
    for f in scenario.forces:
        for carrier, ids in f.air:
            use[(f.side, carrier)] += len(ids)
    if with_option14:
        for side in SIDES:
            for carrier, ids in scenario.option14_fighters_of(side):
                use[(side, carrier)] += len(ids)
    return use


def test_2c4_every_scenario_fits_capacities(cat: Catalog) -> None:
    for scenario in cat.scenarios.values():
        for with_option14 in (False, True):
            for (side, carrier), count in capacity_use(scenario, with_option14).items():
                capacity = cat.ship(side, carrier).capacity
                assert capacity is not None and count <= capacity, (scenario.id, carrier, count)


def test_7c2_midway_holds_15_of_its_16(cat: Catalog) -> None:
    use = capacity_use(cat.scenarios["two"], with_option14=False)
    assert (use[("usa", "Midway")], cat.ship("usa", "Midway").capacity) == (15, 16)


def test_5a1_every_air_unit_starts_where_its_basing_lets_it_land(cat: Catalog) -> None:
    allowed = {"white": {"CV", "CVL", "base"}, "green": {"base"}, "yellow": {"AV"}}
    for scenario in cat.scenarios.values():
        placements: list[tuple[Side, str, tuple[str, ...]]] = [
            (f.side, c, ids) for f in scenario.forces for c, ids in f.air
        ]
        placements += [
            (side, c, ids) for side in SIDES for c, ids in scenario.option14_fighters_of(side)
        ]
        for side, carrier, ids in placements:
            kind = cat.ship(side, carrier).type
            for unit in ids:
                basing = cat.airunit(side, unit).basing
                assert kind in allowed[basing], (scenario.id, unit, carrier)


def test_4e1_spare_markers_are_distinct_from_setup_markers(cat: Catalog) -> None:
    for scenario in cat.scenarios.values():
        for side in SIDES:
            used = {f.marker for f in scenario.forces_of(side)}
            assert not used & set(scenario.spare_markers[side])
    assert cat.scenarios["one"].spare_markers["usa"] == ("TF-A", "TF-B", "TF-C")


def test_catalog_5_4_counters_no_scenario_places(cat: Catalog) -> None:
    midway = [s for s in cat.scenarios.values() if s.board == "searchboard"]
    placed = {(f.side, u) for s in midway for f in s.forces for u in f.ships}
    unplaced = sorted(
        u for (side, u), unit in cat.ships.items() if (side, u) not in placed and midway_unit(unit)
    )
    assert unplaced == ["Atago", "Chokai", "DD6"]
