"""The data of "Pacific Theatre Via Midway" (scenarios/theatre.toml, theatre-bases.toml)
against the printed expansion (shared/rulebook/pacific-theatre-via-midway.txt), and the
loader's checks on it. Values the expansion does not print (every zone but the eight printed
base zones, the off-board squares) are reconstructed: tests check only what the
reconstruction promises (RULES-NOTES.md, "Pacific Theatre Via Midway"; theatre-map.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.data import SCENARIOS_DIR, catalog
from app.data.loader import load_catalog
from app.data.records import TheatreBases, TheatreSpec, theatre_zones
from app.rules import new_game
from app.rules.engine.state import BASE

# Bases 1: the zones the expansion prints.
PRINTED_ZONES = {
    "Gili-Gili": "B4H",
    "Henderson": "F4F",
    "Ndeni": "I4G",
    "Espiritu Santo": "I6G",
    "Buka": "D2E",
    "Buin": "D3C",
    "Buna": "A4C",
    "Gasmata": "B3B",
}

# Each scenario's Bases, as printed: capacity (None: unlimited), AA (0: none printed),
# bomber readying time (None: none printed), prohibited types.
U = None
PRINTED_BASES: dict[str, dict[str, tuple[int | None, int, int | None, str]]] = {
    "coral-sea": {
        "New Caledonia": (U, 0, 4, ""),
        "Australia": (U, 0, 2, ""),
        "Port Moresby": (50, 4, 3, ""),
        "Rabaul": (60, 4, 3, ""),
        "Lae": (40, 2, 5, ""),
        "Shortlands": (12, 2, None, "BD"),
        "Kavieng": (8, 1, None, "B"),
        "Tulagi": (6, 1, None, "BD"),
    },
    "eastern-solomons": {
        "New Caledonia": (U, 0, 3, ""),
        "Australia": (U, 0, 2, ""),
        "Espiritu Santo": (10, 2, 5, ""),
        "Ndeni": (6, 1, None, "BD"),
        "Henderson": (25, 2, 5, ""),
        "Gili-Gili": (8, 1, None, "B"),
        "Port Moresby": (50, 4, 3, ""),
        "Rabaul": (60, 4, 3, ""),
        "Lae": (40, 4, 4, ""),
        "Buka": (8, 1, None, "B"),
        "Buna": (12, 1, None, "B"),
        "Gasmata": (10, 2, 5, ""),
        "Shortlands": (12, 2, None, "BD"),
        "Kavieng": (8, 1, None, "B"),  # printed out of place (test_ptvm_kavieng_...)
    },
    "santa-cruz": {
        "New Caledonia": (U, 0, 3, ""),
        "Australia": (U, 0, 2, ""),
        "Espiritu Santo": (30, 4, 4, ""),
        "Henderson": (35, 3, 4, ""),
        "Gili-Gili": (20, 2, None, "B"),
        "Port Moresby": (50, 4, 3, ""),
        "Rabaul": (60, 4, 3, ""),
        "Lae": (40, 4, 4, ""),
        "Buin": (40, 3, 4, ""),
        "Buna": (25, 3, 5, ""),
        "Buka": (8, 1, None, ""),
        "Gasmata": (10, 2, 5, ""),
        "Shortlands": (12, 2, None, "BD"),
        "Kavieng": (8, 1, None, "B"),  # printed out of place (test_ptvm_kavieng_...)
    },
}

# Base Knockout Numbers, as printed (1964 hits); Santa Cruz's own where it has one.
KNOCKOUT = {
    "Rabaul": 25,
    "Port Moresby": 25,
    "Lae": 18,
    "Henderson": 18,
    "Buin": 18,
    "Espiritu Santo": 12,
    "Buna": 5,
    "Buka": 5,
    "Tulagi": 5,
    "Shortlands": 5,
    "Ndeni": 5,
    "Gili-Gili": 5,
    "Gasmata": 5,
    "Kavieng": 5,
}
KNOCKOUT_SANTA_CRUZ = {"Espiritu Santo": 18, "Buna": 12}


def theatre() -> TheatreSpec:
    spec = catalog().theatre
    assert spec is not None
    return spec


def bases() -> TheatreBases:
    spec = catalog().theatre_bases
    assert spec is not None
    return spec


def test_ptvm_map_grid_areas_a_to_i_by_1_to_7_of_3x3_zones() -> None:
    zones = theatre_zones(theatre().columns, theatre().rows)
    assert len(zones) == 27 * 21
    assert zones["A1A"] == (0, 0) and zones["I7I"] == (26, 20) and zones["F4F"] == (17, 10)
    assert zones["B4H"] == (4, 11) and zones["I6G"] == (24, 17)  # MAP.md's true x, y


def test_ptvm_bases_1_printed_zones() -> None:
    for name, zone in PRINTED_ZONES.items():
        assert theatre().bases[name] == zone, name
    assert theatre().printed_bases == set(PRINTED_ZONES)
    for name in theatre().bases:
        assert theatre().base_provenance[name]
        assert theatre().terrain_of(theatre().bases[name]) == "land", name  # MAP.md: invariant


def test_ptvm_bases_2_as_printed_per_scenario() -> None:
    assert set(bases().scenarios) == set(PRINTED_BASES)
    for sid, printed in PRINTED_BASES.items():
        listed = bases().scenarios[sid]
        # the printed order; Truk (Off-Board Bases 3) is in none of the printed lists
        assert [n for n in listed if n != "Truk"] == list(printed), sid
        for name, (capacity, aa, readying, prohibited) in printed.items():
            b = listed[name]
            got = (b.capacity, b.aa, b.bomber_readying, "".join(sorted(b.prohibited)))
            assert got == (capacity, aa, readying, prohibited), (sid, name)
    assert not bases().scenarios["santa-cruz"]["Buka"].bombers_take_off
    assert all(
        b.bombers_take_off
        for s in ("coral-sea", "eastern-solomons")
        for b in bases().scenarios[s].values()
    )


def test_ptvm_base_knockout_numbers_as_printed() -> None:
    for sid, listed in bases().scenarios.items():
        for name, b in listed.items():
            if b.zone is None:  # Off-Board Bases 4: never attacked
                assert b.knockout_hits is None and name in theatre().offboard
                continue
            want = (
                KNOCKOUT_SANTA_CRUZ.get(name, KNOCKOUT[name])
                if sid == "santa-cruz"
                else KNOCKOUT[name]
            )
            assert b.knockout_hits == want, (sid, name)
            assert b.knockout == {25: 5, 18: 4, 12: 2, 5: 1}[want]  # RULES-NOTES: 5 hits a point


def test_ptvm_bases_4_aa_table() -> None:
    assert bases().aa_table == (
        (0, 0, 0, 0),
        (0, 0, 0, 1),
        (0, 1, 1, 1),
        (1, 1, 1, 2),
        (1, 1, 2, 2),
        (1, 2, 2, 2),
    )
    assert "stray lines" in bases().provenance  # the die-6 row's source is said


def test_ptvm_map_zones_say_how_they_were_made() -> None:
    spec = theatre()
    assert set(spec.terrain.values()) == {"land", "mountain", "reef"}
    assert set(spec.zone_provenance) == set(spec.terrain)
    assert all(how.startswith("measured: ") for how in spec.zone_provenance.values())
    # MAP.md 4: the four Owen Stanley mountain zones; Lae's zone holds a base, so land.
    assert {z for z, t in spec.terrain.items() if t == "mountain"} == {"A3G", "A4A", "A4E", "A4F"}
    assert spec.terrain_of("A3A") == "land" and spec.terrain_of("A1G") == "sea"
    assert spec.coastal <= {z for z, t in spec.terrain.items() if t in ("land", "mountain")}
    assert "GLOBE" in spec.provenance


def test_ptvm_offboard_bases_1_edge_squares() -> None:
    spec = theatre()
    assert {b: o.edge for b, o in spec.offboard.items()} == {
        "Truk": "north",
        "Australia": "west",
        "New Caledonia": "south",
    }
    assert dict(spec.offboard["Australia"].squares) == {"A6G": 7, "A7A": 6, "A7D": 5, "A7G": 4}
    assert all(o.provenance.startswith("reconstructed") for o in spec.offboard.values())


def test_ptvm_starting_positions_and_sighting_rows() -> None:
    areas = theatre().areas
    assert areas["east-edge-row-1"] == {"I1C", "I1F", "I1I"}
    assert len(areas["north-edge"]) == 27 and "I1C" in areas["north-edge"]
    assert areas["south-edge-GHI"] == {f"{c}7{z}" for c in "GHI" for z in "GHI"}
    assert len(areas["rows-1-3"]) == 27 * 9 and len(areas["rows-5-7"]) == 27 * 9
    assert "F4F" not in areas["rows-1-3"] | areas["rows-5-7"]  # Henderson is row 4
    assert areas["Guadalcanal"] == {"F4B", "F4E", "F4F"}


def test_ptvm_scenarios_name_their_board() -> None:
    boards = {s.id: s.board for s in catalog().scenarios.values()}
    assert {sid for sid, board in boards.items() if board == "theatre"} == set(PRINTED_BASES)


# ---------------------------------------------------------------- the loader's checks


def _broken(tmp_path: Path, name: str, old: str, new: str) -> str:
    folder = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS_DIR, folder)
    path = folder / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ValueError) as err:
        load_catalog(folder)
    return str(err.value)


@pytest.mark.parametrize(
    ("name", "old", "new", "message"),
    [
        ("theatre.toml", 'zone = "F4F"', 'zone = "F4G"', "is sea"),
        ("theatre.toml", 'zone = "F4F"', 'zone = "J4F"', "not on the theatre map"),
        ("theatre.toml", "A7G = 4", "A7H = 4", "not a zone on the west edge"),
        ("theatre.toml", '["C1E", "C1G"]', '["C1E", "C2E"]', "not neighbours"),
        ("theatre.toml", "area_rows = [5, 6, 7]", "area_rows = [5, 6, 8]", "area rows 1-7"),
        (
            "theatre.toml",
            'A3G = { terrain = "mountain"',
            'A3G = { terrain = "hill"',
            "expected one of",
        ),
        ("theatre-bases.toml", '{ name = "Tulagi"', '{ name = "Tulagy"', "no base 'Tulagy'"),
        ("theatre-bases.toml", 'prohibited = ["B"] }', 'prohibited = ["S"] }', "F, B, D or T"),
        (
            "theatre-bases.toml",
            'capacity = "unlimited", bomber_readying = 4',
            'capacity = "unlimited", aa = 1, bomber_readying = 4',
            "Off-Board Bases 4",
        ),
        (
            "theatre-bases.toml",
            'aa = 2, bomber_readying = 5 },\n  { name = "Shortlands"',
            'aa = 2 },\n  { name = "Shortlands"',
            "readying time",
        ),
        (
            "theatre-bases.toml",
            '"Buna (santa-cruz)"',
            '"Buna (guadalcanal)"',
            "no theatre scenario",
        ),
        ("theatre-bases.toml", "[1, 2, 2, 2],", "[1, 2, 2],", "six rows"),
        (
            "scenario-one.toml",
            "usa_wins_margin",
            'board = "theatre"\nusa_wins_margin',
            "expected one of",
        ),
        (
            "scenario-one.toml",
            "usa_wins_margin",
            'board = "hexes"\nusa_wins_margin',
            "board: expected one of searchboard, theatre",
        ),
    ],
)
def test_ptvm_loader_names_the_problem(
    tmp_path: Path, name: str, old: str, new: str, message: str
) -> None:
    assert message in _broken(tmp_path, name, old, new)


def test_ptvm_kavieng_stray_lines_are_eastern_solomons_and_santa_cruz_entries() -> None:
    """The two stray lines after the AA table ("Kavieng (maximum capacity 8): AA 1. May not
    accept bombers.") belong to the Eastern Solomons and Santa Cruz base lists, which lack
    Kavieng (Coral Sea's list has the same line in place): a Japanese base at C1D in both,
    capacity 8, AA 1, no bombers, knockout number 5, its provenance marked RULES?."""
    coral = bases().scenarios["coral-sea"]["Kavieng"]
    for sid in ("eastern-solomons", "santa-cruz"):
        kavieng = bases().scenarios[sid]["Kavieng"]
        assert (kavieng.zone, kavieng.capacity, kavieng.aa) == ("C1D", 8, 1), sid
        assert kavieng.prohibited == frozenset({"B"}) and kavieng.bomber_readying is None
        assert kavieng.knockout_hits == 5 and kavieng.zone == coral.zone
        assert kavieng.provenance.startswith("RULES?") and "stray" in kavieng.provenance
        state = new_game(sid, frozenset(), 1)
        assert state.units["japan"]["Kavieng"].box == BASE, sid
    assert not coral.provenance.startswith("RULES?")  # printed in place there
