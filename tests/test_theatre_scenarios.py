"""The three scenarios of "Pacific Theatre Via Midway" (scenarios/coral-sea.toml,
eastern-solomons.toml, santa-cruz.toml and theatre-units.toml) read through the catalogue and
checked against the expansion's printed tables (shared/rulebook/pacific-theatre-via-midway.txt):
ships and their points, Carrier Capacity, Land-Based Planes, the planes available on a sighting,
the Time Record, Victory Points; and the loader's checks on these files. The bases' capacity, AA,
readying and knockout numbers are tested in tests/test_ptvm_data.py."""

from __future__ import annotations

import math
import shutil
from collections import Counter, defaultdict
from collections.abc import Mapping
from pathlib import Path

import pytest

from app.data import SCENARIOS_DIR, Scenario, Side, catalog
from app.data.loader import load_catalog
from app.data.records import TheatreBases, TheatreRules, TheatreSpec

CS, ES, SC = "coral-sea", "eastern-solomons", "santa-cruz"
AP = {f"AP{i}": 4 for i in range(1, 6)}  # AP One to AP Five: 4 points, 1 after landing

# Allied Ships / American Ships and Japanese Ships: each ship's points, as printed.
PRINTED_SHIPS: dict[str, dict[Side, dict[str, int]]] = {
    CS: {
        "usa": {
            **{"Lexington": 10, "Yorktown": 10, "NewOrleans": 3, "Minneapolis": 3},
            **{"HMASAustralia": 3, "Portland": 3, "Chester": 3, "Chicago": 3, "Astoria": 3},
            "Hobart": 2,
        },
        "japan": {
            **{"Shokaku": 10, "Zuikaku": 10, "Shoho": 6, "Kamikawa": 5, "Myoko": 3},
            **{"Haguro": 3, "Aoba": 3, "Kinugasa": 3, "Furutaka": 3, "Yubari": 2},
            **{"Tenryu": 2, "Tatsuta": 2},
            **AP,
        },
    },
    ES: {
        "usa": {
            **{"Saratoga": 10, "Enterprise": 10, "Wasp": 10, "Minneapolis": 3},
            **{"NewOrleans": 3, "Portland": 3, "SanFrancisco": 3, "SaltLakeCity": 3},
            **{"NorthCarolina": 9, "SanJuan": 2, "Atlanta": 2},
        },
        "japan": {
            **{"Shokaku": 10, "Zuikaku": 10, "Ryujo": 7, "Chitose": 5, "Tone": 4},
            **{"Chikuma": 4, "Suzuya": 3, "Kumano": 3, "Kirishima": 6, "Hiei": 6},
            **{"Atago": 3, "Maya": 3, "Takao": 3, "Myoko": 3, "Haguro": 3, "Mutsu": 8},
            **{"Kinugasa": 3, "Aoba": 3, "Chokai": 3, "Furutaka": 3, "Nagara": 2},
            **{"Yura": 2, "Jintsu": 2, "Tatsuta": 2, "Tenryu": 2},
            **AP,
        },
    },
    SC: {
        "usa": {
            **{"Enterprise": 10, "Hornet": 10, "SouthDakota": 9, "Washington": 9},
            **{"Portland": 3, "Northampton": 3, "Pensacola": 3, "SanFrancisco": 3},
            **{"SanDiego": 2, "SanJuan": 2, "Juneau": 2, "Helena": 2, "Atlanta": 2},
        },
        "japan": {
            **{"Shokaku": 10, "Zuikaku": 10, "Junyo": 8, "Zuiho": 6, "Tone": 4},
            **{"Chikuma": 4, "Kongo": 6, "Haruna": 6, "Hiei": 6, "Kirishima": 6},
            **{"Atago": 3, "Myoko": 3, "Takao": 3, "Maya": 3, "Kumano": 3, "Suzuya": 3},
            **{"Chokai": 3, "Isuzu": 2, "Nagara": 2, "Yura": 2},
        },
    },
}

# Carrier Capacity: (maximum capacity in planes or None, complement, types it may not accept).
PRINTED_CARRIERS: dict[str, dict[str, tuple[int | None, dict[str, int], str]]] = {
    CS: {
        "Lexington": (26, {"F": 7, "D": 12, "T": 4}, ""),
        "Yorktown": (26, {"F": 7, "D": 13, "T": 4}, ""),
        "Shokaku": (24, {"F": 7, "D": 6, "T": 7}, ""),
        "Zuikaku": (24, {"F": 7, "D": 6, "T": 7}, ""),
        "Shoho": (9, {"F": 2, "D": 3, "T": 3}, ""),
        "Kamikawa": (None, {"F": 3}, "D"),  # may not accept dive bombers
    },
    ES: {
        "Saratoga": (28, {"F": 11, "D": 12, "T": 5}, ""),
        "Enterprise": (28, {"F": 11, "D": 12, "T": 5}, ""),
        "Wasp": (24, {"F": 10, "D": 9, "T": 5}, ""),
        "Shokaku": (24, {"F": 10, "D": 6, "T": 7}, ""),
        "Zuikaku": (24, {"F": 10, "D": 6, "T": 7}, ""),
        "Ryujo": (14, {"F": 5, "D": 6, "T": 3}, ""),
        "Chitose": (None, {"F": 6}, "D"),
        "Tone": (1, {}, "DT"),  # fighter only
        "Chikuma": (1, {}, "DT"),
    },
    SC: {
        "Enterprise": (28, {"F": 12, "D": 12, "T": 4}, ""),
        "Hornet": (28, {"F": 11, "D": 12, "T": 5}, ""),
        "Shokaku": (24, {"F": 10, "D": 7, "T": 7}, ""),
        "Zuikaku": (24, {"F": 10, "D": 7, "T": 7}, ""),
        "Junyo": (16, {"F": 8, "D": 5, "T": 3}, ""),
        "Zuiho": (9, {"F": 4, "D": 3, "T": 1}, ""),
        "Tone": (1, {}, "DT"),
        "Chikuma": (1, {}, "DT"),
    },
}

# Land-Based Planes "available from the start", per side and type, as printed.
PRINTED_LAND: dict[str, dict[Side, dict[str, int]]] = {
    CS: {"usa": {"B": 24, "D": 3, "T": 5, "F": 14}, "japan": {"B": 12, "F": 25, "T": 16}},
    ES: {"usa": {"B": 47, "F": 40, "D": 6, "T": 7}, "japan": {"F": 26, "B": 8, "T": 6, "D": 2}},
    SC: {"usa": {"B": 66, "D": 6, "T": 9, "F": 43}, "japan": {"B": 11, "F": 33, "D": 15, "T": 21}},
}

# Land-Based Planes on a sighting: (side, base, rows of the sighting area, planes).
PRINTED_REINFORCEMENTS: dict[str, list[tuple[Side, str, str, dict[str, int]]]] = {
    CS: [
        ("usa", "Australia", "rows-5-7", {"B": 5, "D": 3, "F": 6}),
        ("japan", "Truk", "rows-1-3", {"B": 10, "F": 10}),
    ],
    ES: [
        ("usa", "Australia", "rows-5-7", {"D": 7, "B": 7, "F": 16}),
        ("japan", "Truk", "rows-1-3", {"F": 20, "B": 6}),
    ],
    SC: [
        ("usa", "Australia", "rows-5-7", {"F": 18, "B": 5}),
        ("japan", "Truk", "rows-1-3", {"B": 15, "D": 10}),
    ],
}

# Time Record: the first and last Turns' date and time (0500 ... 1700).
PRINTED_SPAN = {
    CS: ("May 4, 1942", "May 7, 1942"),
    ES: ("August 24, 1942", "August 26, 1942"),
    SC: ("October 25, 1942", "October 27, 1942"),
}

# Victory Points: landings (area, points, Turns stationary after arrival).
PRINTED_LANDINGS = {
    CS: [("Port Moresby", 20, 2), ("Guadalcanal", 5, 1)],
    ES: [("Gili-Gili", 10, 1), ("Guadalcanal", 10, 1)],
    SC: [],
}

# The base sides (not printed; RULES? chosen historically in theatre-units.toml).
ALLIED_BASES = {"Port Moresby", "Australia", "New Caledonia", "Espiritu Santo", "Ndeni"}
ALLIED_BASES |= {"Henderson", "Gili-Gili"}


def theatre() -> TheatreSpec:
    spec = catalog().theatre
    assert spec is not None
    return spec


def theatre_bases() -> TheatreBases:
    spec = catalog().theatre_bases
    assert spec is not None
    return spec


def scenario(sid: str) -> Scenario:
    return catalog().scenarios[sid]


def rules(sid: str) -> TheatreRules:
    found = scenario(sid).theatre
    assert found is not None, sid
    return found


def planes(side: Side, ids: tuple[str, ...]) -> dict[str, int]:
    """The expansion's planes per type (F, B, D, T) the air units stand for."""
    out: Counter[str] = Counter()
    for uid in ids:
        unit = catalog().airunit(side, uid)
        assert unit.planes is not None and unit.ptvm_type is not None, uid
        out[unit.ptvm_type] += unit.planes
    return dict(out)


def ships_of(sid: str, side: Side) -> list[str]:
    return [s for f in scenario(sid).forces_of(side) if f.area != "base" for s in f.ships]


# ---------------------------------------------------------------- ships and points


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_scenario_ships_and_points_as_printed(sid: str) -> None:
    for side, printed in PRINTED_SHIPS[sid].items():
        assert sorted(ships_of(sid, side)) == sorted(printed), (sid, side)
        for uid, points in printed.items():
            assert rules(sid).points[(side, uid)] == points, (sid, uid)
    after = {uid: n for (_, uid), n in rules(sid).points_after_landing.items()}
    assert after == ({f"AP{i}": 1 for i in range(1, 6)} if sid != SC else {})


def test_ptvm_coral_sea_ships_reuse_midway_counters_and_australia_is_a_base_too() -> None:
    cat = catalog()
    assert cat.ship("usa", "HMASAustralia").name == "Australia"
    assert cat.ship("usa", "Australia").is_base
    assert cat.ship("japan", "AP1").name == "AP I" and cat.ship("japan", "AP5").name == "AP V"
    assert cat.ship("japan", "Kamikawa").type == cat.ship("japan", "Chitose").type == "AV"


# ---------------------------------------------------------------- Carrier Capacity


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_carrier_capacity_and_complement_as_printed(sid: str) -> None:
    carriers = rules(sid).carriers
    assert set(carriers) == set(PRINTED_CARRIERS[sid])
    on_board = {c: ids for f in scenario(sid).forces if f.area != "base" for c, ids in f.air}
    for name, (cap, complement, refuses) in PRINTED_CARRIERS[sid].items():
        c = carriers[name]
        assert (c.planes, dict(c.complement), "".join(sorted(c.refuses))) == (
            cap,
            complement,
            refuses,
        ), name
        assert planes(c.side, on_board.get(name, ())) == complement, (sid, name)
        assert not c.accepts("B")  # Bombers 2: never on a carrier


def test_ptvm_coral_sea_carrier_capacity_lexington_f7_d12_t4_is_2_2_1_units() -> None:
    cs = scenario(CS)
    (tf17,) = [f for f in cs.forces if f.marker == "TF17"]
    lex = dict(tf17.air)["Lexington"]
    assert [catalog().airunit("usa", u).planes for u in lex] == [4, 3, 6, 6, 4]  # F 4+3, D 6+6
    york = dict(tf17.air)["Yorktown"]
    assert [catalog().airunit("usa", u).planes for u in york] == [4, 3, 5, 4, 4, 4]


def test_ptvm_air_units_up_to_six_planes_split_evenly() -> None:
    """RULES-NOTES.md: per type, units of up to 6 plane factors, rounding up, split evenly."""
    for sid in (CS, ES, SC):
        s = scenario(sid)
        groups: list[tuple[Side, tuple[str, ...]]] = [
            (f.side, ids) for f in s.forces for _, ids in f.air
        ]
        groups += [(r.side, r.air) for r in rules(sid).reinforcements]
        for side, ids in groups:
            by_type: defaultdict[str, list[int]] = defaultdict(list)
            for uid in ids:
                unit = catalog().airunit(side, uid)
                assert unit.planes is not None and unit.ptvm_type is not None
                by_type[unit.ptvm_type].append(unit.planes)
            for kind, sizes in by_type.items():
                assert len(sizes) == math.ceil(sum(sizes) / 6), (sid, ids, kind)
                assert max(sizes) - min(sizes) <= 1 and max(sizes) <= 6, (sid, ids, kind)


def test_ptvm_midway_air_units_have_no_planes() -> None:
    units: list[tuple[Side, str]] = [("usa", "B3"), ("japan", "AD"), ("usa", "1BG11")]
    for side, uid in units:
        assert catalog().airunit(side, uid).planes is None


# ---------------------------------------------------------------- Land-Based Planes


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_land_based_planes_from_the_start_as_printed(sid: str) -> None:
    for side, printed in PRINTED_LAND[sid].items():
        (bases,) = [f for f in scenario(sid).forces_of(side) if f.area == "base"]
        assert planes(side, bases.air_ids()) == printed, (sid, side)
        assert dict(rules(sid).land_based[side]) == printed


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_land_based_planes_fit_each_base(sid: str) -> None:
    """Bases 2: within each base's capacity and its prohibited types (RULES? placement)."""
    listed = theatre_bases().scenarios[sid]
    for f in scenario(sid).forces:
        if f.area != "base":
            continue
        for base_id, ids in f.air:
            spec = listed[catalog().ship(f.side, base_id).name]
            assert spec.capacity is None or sum(planes(f.side, ids).values()) <= spec.capacity
            assert all(spec.accepts(catalog().airunit(f.side, u).type) for u in ids)


def test_ptvm_bombers_1_land_based_bombers_move_10_and_are_h_or_m() -> None:
    for (side, _), unit in catalog().air.items():
        if unit.planes is None:
            continue
        if unit.ptvm_type == "B":
            assert unit.type == ("H" if side == "usa" else "M") and unit.basing == "green"
            assert unit.front.movement == 10, unit.id  # range 20 zones (RULES-NOTES.md)


def test_ptvm_5a1_land_based_allied_planes_green_carrier_planes_white() -> None:
    for sid in (CS, ES, SC):
        for f in scenario(sid).forces:
            for holder, ids in f.air:
                kind = catalog().ship(f.side, holder).type
                want = {"base": "green", "AV": "yellow"}.get(kind, "white")
                for uid in ids:
                    assert catalog().airunit(f.side, uid).basing == want, (sid, uid)


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_land_based_planes_on_a_sighting_as_printed(sid: str) -> None:
    got = [
        (r.side, catalog().ship(r.side, r.at).name, r.sighted, planes(r.side, r.air))
        for r in rules(sid).reinforcements
    ]
    assert got == PRINTED_REINFORCEMENTS[sid]
    for r in rules(sid).reinforcements:
        assert dict(r.planes) == planes(r.side, r.air)
        assert catalog().ship(r.side, r.at).name in theatre().offboard


# ---------------------------------------------------------------- bases


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_bases_2_base_forces_hold_the_scenarios_bases(sid: str) -> None:
    listed = theatre_bases().scenarios[sid]
    held: dict[str, Side] = {}
    for f in scenario(sid).forces:
        if f.area == "base":
            for uid in f.ships:
                unit = catalog().ship(f.side, uid)
                assert unit.is_base and " " not in uid and unit.ships == 0
                held[unit.name] = f.side
    assert set(held) == set(listed)
    assert {n for n, side in held.items() if side == "usa"} == ALLIED_BASES & set(listed)
    # Off-Board Bases 3: Japan's Truk, off the board, in every scenario; its planes never
    # fly again once landed there (bombers never take off from it)
    assert held["Truk"] == "japan" and listed["Truk"].zone is None
    assert not listed["Truk"].fly_again and listed["Truk"].bombers_take_off


# ---------------------------------------------------------------- Time Record


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_time_record_span_and_two_night_turns_a_day(sid: str) -> None:
    s = scenario(sid)
    assert s.time_record is not None
    boxes = s.time_record.turns
    first, last = PRINTED_SPAN[sid]
    assert (s.first_turn, s.last_turn) == (1, len(boxes))
    assert (boxes[0].date, boxes[0].time, boxes[0].night) == (first, "0500", False)
    assert (boxes[-1].date, boxes[-1].time, boxes[-1].night) == (last, "1700", False)
    by_day: defaultdict[str, list[tuple[str, bool]]] = defaultdict(list)
    for b in boxes:
        by_day[b.date].append((b.time, b.night))
    days = list(by_day)
    assert len(days) == (4 if sid == CS else 3)  # May 4-7; August 24-26; October 25-27
    for day in days:
        day_turns = [t for t, night in by_day[day] if not night]
        assert day_turns == ["0500", "0700", "0900", "1100", "1300", "1500", "1700"], day
        nights = [t for t, night in by_day[day] if night]
        assert nights == ([] if day == days[-1] else ["1900", "2400"]), day
    assert s.time_record.box(len(boxes)).turn == len(boxes)


def test_ptvm_coral_sea_aps_cannot_move_until_the_night_may_4_turn() -> None:
    cs = scenario(CS)
    turn = rules(CS).ap_moves_from_turn
    assert turn is not None and cs.time_record is not None
    box = cs.time_record.box(turn)
    assert (box.date, box.night) == ("May 4, 1942", True)
    assert rules(ES).ap_moves_from_turn is None and rules(SC).ap_moves_from_turn is None


def test_ptvm_midway_scenarios_keep_the_midway_track() -> None:
    for sid in ("one", "two", "three", "four"):
        assert scenario(sid).time_record is None and scenario(sid).theatre is None


# ---------------------------------------------------------------- Starting Positions


def test_ptvm_starting_positions() -> None:
    areas = theatre().areas
    either = areas["row-1-east-or-south-GHI"]
    assert either == areas["east-edge-row-1"] | areas["south-edge-GHI"]
    assert areas["north-edge-or-Rabaul"] == areas["north-edge"] | {"C2B"}
    assert areas["Rabaul"] == {theatre().bases["Rabaul"]}
    want = {
        CS: {"usa": {"row-1-east-or-south-GHI"}, "japan": {"north-edge-or-Rabaul", "Rabaul"}},
        ES: {"usa": {"east-edge-row-1"}, "japan": {"north-edge-or-Rabaul"}},
        SC: {"usa": {"row-1-east-or-south-GHI"}, "japan": {"rows-1-3"}},
    }
    for sid, per_side in want.items():
        for side, allowed in per_side.items():
            got = {f.area for f in scenario(sid).forces_of(side) if f.area != "base"}
            assert got == allowed, (sid, side)
    aps = [f for f in scenario(CS).forces if "AP1" in f.ships]
    assert [f.area for f in aps] == ["Rabaul"]  # APs must start at Rabaul


# ---------------------------------------------------------------- Victory Points


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_victory_points_landings_and_plane_points(sid: str) -> None:
    r = rules(sid)
    assert r.planes_per_point == 3
    got = [(x.area, x.points, x.stay_turns) for x in r.landings]
    assert got == PRINTED_LANDINGS[sid]
    for x in r.landings:
        assert x.side == "japan" and x.units == "AP*"
        assert x.zones == theatre().areas.get(x.area, {theatre().bases.get(x.area)})


def test_ptvm_victory_points_allied_bonuses_and_santa_cruz_minimum() -> None:
    cs = [(b.side, b.points, b.condition, b.area, b.units) for b in rules(CS).bonuses]
    assert cs == [
        ("usa", 5, "no-landing", "Port Moresby", None),
        ("usa", 10, "all-destroyed-before-landing", None, "AP*"),
    ]
    es = [(b.side, b.points, b.condition) for b in rules(ES).bonuses]
    assert es == [("usa", 10, "all-destroyed-before-landing")]
    assert rules(SC).bonuses == () and rules(SC).minimum_points == 50
    assert rules(CS).minimum_points is None and rules(ES).minimum_points is None


@pytest.mark.parametrize("sid", [CS, ES, SC])
def test_ptvm_special_rules_searches_destroyers_replacements_terrain(sid: str) -> None:
    special = scenario(sid).special
    assert special["searches"] == 3  # Searches 1
    assert (special["search_range_ships"], special["search_range_bases"]) == (12, 5)
    assert special["no_search_from"] == ("NewCaledonia", "Australia", "Truk")
    assert special["destroyer_aa_bonus"] == {"side": "japan", "aa": 2, "per_turn": 1, "ships": 1}
    replacements = special["replacements"]
    assert isinstance(replacements, Mapping)
    assert replacements["per_destroyed"] == 4 and replacements["carriers_one_in"] == 3
    assert special["fighters_through_mountains"] is False  # Terrain
    assert special["one_way_missions"] is False  # Suicide Missions
    assert scenario(sid).board == "theatre" and scenario(sid).rule == f"ptvm-{sid}"


# ---------------------------------------------------------------- the loader's checks


def broken(tmp_path: Path, name: str, *edits: tuple[str, str]) -> str:
    folder = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS_DIR, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as err:
        load_catalog(folder)
    return str(err.value)


def test_ptvm_loader_air_unit_planes_one_to_six(tmp_path: Path) -> None:
    msg = broken(tmp_path, "theatre-units.toml", ("planes = 4\n", "planes = 7\n"))
    assert msg.startswith("scenarios/theatre-units.toml: air[0] (CS-YorkF1).planes:")


def test_ptvm_loader_theatre_air_unit_needs_planes(tmp_path: Path) -> None:
    msg = broken(tmp_path, "theatre-units.toml", ("planes = 4\n", "\n"))
    assert (
        msg == "scenarios/theatre-units.toml: air[0] (CS-YorkF1).planes: expected its planes (1-6)"
    )


def test_ptvm_loader_id_repeated_across_unit_files(tmp_path: Path) -> None:
    msg = broken(tmp_path, "theatre-units.toml", ('id = "Lexington"', 'id = "Yorktown"'))
    assert msg.startswith("scenarios/theatre-units.toml: ship[0] (Yorktown).id: duplicate usa id")


def test_ptvm_loader_carrier_air_must_carry_the_complement(tmp_path: Path) -> None:
    msg = broken(
        tmp_path, "coral-sea.toml", ("complement = { F = 7, D = 12", "complement = { F = 8, D = 12")
    )
    assert msg.startswith(
        "scenarios/coral-sea.toml: force (TF17).air.Lexington: the air units carry"
    )


def test_ptvm_loader_carrier_refuses_a_type(tmp_path: Path) -> None:
    msg = broken(
        tmp_path, "coral-sea.toml", ("complement = { F = 3 }", "complement = { F = 3, D = 1 }")
    )
    assert msg.startswith("scenarios/coral-sea.toml: carrier.Kamikawa.complement: Kamikawa may not")


def test_ptvm_loader_complement_over_maximum_capacity(tmp_path: Path) -> None:
    msg = broken(tmp_path, "coral-sea.toml", ("planes = 9\n", "planes = 7\n"))
    assert msg.startswith("scenarios/coral-sea.toml: carrier.Shoho.complement: more planes than")


def test_ptvm_loader_every_carrier_has_an_entry(tmp_path: Path) -> None:
    msg = broken(tmp_path, "coral-sea.toml", ("[carrier.Shoho]", "[carrier.Hobart]"))
    assert msg.startswith("scenarios/coral-sea.toml: carrier.Hobart: no carrier or seaplane tender")
    msg = broken(
        tmp_path / "2",
        "coral-sea.toml",
        ("[carrier.Shoho]\nplanes = 9\ncomplement = { F = 2, D = 3, T = 3 }\n", ""),
        ('air.Shoho = ["CS-ShoF1", "CS-ShoD1", "CS-ShoT1"]\n', ""),
    )
    assert msg.startswith("scenarios/coral-sea.toml: carrier.Shoho: Carrier Capacity: Shoho")


def test_ptvm_loader_planes_not_of_the_expansion(tmp_path: Path) -> None:
    msg = broken(
        tmp_path, "coral-sea.toml", ('air.Lexington = ["CS-LexF1"', 'air.Lexington = ["1F3"')
    )
    assert msg.startswith("scenarios/coral-sea.toml: force (TF17).air.Lexington: '1F3' is no air")


def test_ptvm_loader_base_capacity_in_planes(tmp_path: Path) -> None:
    msg = broken(
        tmp_path,
        "theatre-bases.toml",
        ('name = "Port Moresby", capacity = 50', 'name = "Port Moresby", capacity = 40'),
    )
    assert msg.startswith("scenarios/coral-sea.toml: force (Bases).air.PortMoresby: Bases 2: 46")


def test_ptvm_loader_base_prohibited_type(tmp_path: Path) -> None:
    msg = broken(
        tmp_path,
        "eastern-solomons.toml",
        ('air.GiliGili = ["ES-GiliF1"]', 'air.GiliGili = ["ES-GiliF1", "ES-SantoB1"]'),
        ('air.EspirituSanto = ["ES-SantoB1"]\n', ""),
    )
    assert msg.startswith("scenarios/eastern-solomons.toml: force (Bases).air.GiliGili: Bases 2:")


def test_ptvm_loader_base_forces_hold_the_listed_bases(tmp_path: Path) -> None:
    msg = broken(tmp_path, "coral-sea.toml", ('"Kavieng", "Tulagi"]', '"Kavieng"]'))
    assert msg.startswith("scenarios/coral-sea.toml: force: the base forces hold the bases")
    assert "['Tulagi']" in msg


def test_ptvm_loader_land_based_totals(tmp_path: Path) -> None:
    msg = broken(
        tmp_path,
        "coral-sea.toml",
        ("usa = { B = 24, D = 3, T = 5, F = 14 }", "usa = { B = 24, D = 3, T = 5, F = 15 }"),
    )
    assert msg.startswith("scenarios/coral-sea.toml: land_based.usa: the air units carry")


def test_ptvm_loader_reinforcement_base_and_totals(tmp_path: Path) -> None:
    msg = broken(tmp_path, "coral-sea.toml", ('at = "Australia"', 'at = "PortMoresby"'))
    assert msg.startswith("scenarios/coral-sea.toml: reinforcement[0].at: Land-Based Planes:")
    msg = broken(
        tmp_path / "2",
        "coral-sea.toml",
        ("planes = { B = 5, D = 3, F = 6 }", "planes = { B = 5, D = 3, F = 7 }"),
    )
    assert msg.startswith("scenarios/coral-sea.toml: reinforcement[0].air: the air units carry")


def test_ptvm_loader_points_for_every_ship_and_only_those(tmp_path: Path) -> None:
    msg = broken(tmp_path, "coral-sea.toml", ("Hobart = 2\n", ""))
    assert msg.startswith("scenarios/coral-sea.toml: points.usa: no points for 'Hobart'")
    msg = broken(tmp_path / "2", "coral-sea.toml", ("Hobart = 2\n", "Hobart = 2\nHornet = 10\n"))
    assert msg.startswith("scenarios/coral-sea.toml: points.usa.Hornet: no usa ship 'Hornet'")


def test_ptvm_loader_landing_area_and_bonus(tmp_path: Path) -> None:
    msg = broken(tmp_path, "coral-sea.toml", ('area = "Guadalcanal"', 'area = "Tokyo"'))
    assert msg.startswith("scenarios/coral-sea.toml: landing[1].area: 'Tokyo' is neither")
    msg = broken(
        tmp_path / "2",
        "coral-sea.toml",
        (
            'condition = "no-landing"\narea = "Port Moresby"',
            'condition = "no-landing"\narea = "Lae"',
        ),
    )
    assert msg.startswith("scenarios/coral-sea.toml: bonus[0].area: no-landing:")


def test_ptvm_loader_time_record_and_turns(tmp_path: Path) -> None:
    msg = broken(tmp_path, "coral-sea.toml", ("[[turn]]\nturn = 2\n", "[[turn]]\nturn = 3\n"))
    assert msg.startswith("scenarios/coral-sea.toml: turn[1].turn: expected Turn 2")
    msg = broken(tmp_path / "2", "coral-sea.toml", ("last_turn = 34", "last_turn = 35"))
    assert msg == "scenarios/coral-sea.toml: last_turn: expected 1 <= last_turn <= 34"
    msg = broken(
        tmp_path / "3", "coral-sea.toml", ("ap_moves_from_turn = 8", "ap_moves_from_turn = 40")
    )
    assert msg.startswith("scenarios/coral-sea.toml: ap_moves_from_turn: Turn 40 is not in 1-34")


def test_ptvm_loader_theatre_scenario_keys_and_id(tmp_path: Path) -> None:
    msg = broken(tmp_path, "santa-cruz.toml", ("planes_per_point = 3", "planes_a_point = 3"))
    assert msg == "scenarios/santa-cruz.toml: planes_per_point: missing"
    msg = broken(tmp_path / "2", "santa-cruz.toml", ('id = "santa-cruz"', 'id = "santa"'))
    assert msg.startswith(
        "scenarios/santa-cruz.toml: id: no [scenario.santa] in theatre-bases.toml"
    )
