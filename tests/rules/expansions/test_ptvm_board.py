"""The boards behind the one `Board` interface (grid.py): Midway's hex Searchboard (1a) and
the square-zone theatre map of "Pacific Theatre Via Midway" (RULES-NOTES.md: eight
neighbours, a diagonal step costs one, zones named area-and-zone, "F4F")."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.data import SCENARIOS_DIR, catalog
from app.data.loader import load_catalog
from app.rules import IllegalAction, apply, legal_actions, new_game
from app.rules.board import boards
from app.rules.board.boards import area_hexes, land_hexes, searchboard, searchboard_of, theatre
from app.rules.board.grid import DIRECTIONS, SQUARE_DIRECTIONS, Board, HexGrid, SquareGrid
from tests.rules.helpers import play


def test_ptvm_map_zone_names_area_and_zone() -> None:
    grid = theatre()
    assert isinstance(grid, SquareGrid) and len(grid.hexes()) == 27 * 21
    assert grid.xy("F4F") == (17, 10) and grid.at(17, 10) == "F4F"
    assert grid.area("F4F") == "F4" and grid.hexes()[:4] == ("A1A", "A1B", "A1C", "B1A")
    assert not grid.contains("J1A") and not grid.contains("A8A") and not grid.contains("F4")


def test_ptvm_map_eight_neighbours_diagonals_count_one() -> None:
    grid = theatre()
    assert set(grid.neighbours("F4E")) == {"F4A", "F4B", "F4C", "F4D", "F4F", "F4G", "F4H", "F4I"}
    assert set(grid.neighbours("F4C")) >= {"G4A", "G4D", "F3I", "G3G"}  # across area lines
    assert len(grid.neighbours("A1A")) == 3 and len(grid.neighbours("E1B")) == 5
    assert grid.distance("A1A", "I7I") == 26  # 26 diagonal steps
    assert grid.distance("D3C", "F4F") == 6  # Buin to Henderson: max(6, 4)
    assert len(grid.within("F4E", 2)) == 25 and len(grid.within("A1A", 2)) == 9
    assert all(grid.distance("F4E", z) <= 2 for z in grid.within("F4E", 2))
    assert grid.step("F4E", SQUARE_DIRECTIONS.index("NE")) == "F4C"
    assert grid.step("A1A", SQUARE_DIRECTIONS.index("W")) is None


def test_ptvm_map_edges() -> None:
    grid = theatre()
    assert grid.edges("A1A") == {"north", "west"} and grid.edges("I7I") == {"south", "east"}
    assert grid.edges("I1F") == {"east"} and grid.edges("F4E") == set()
    assert sum(grid.on_edge(z) for z in grid.hexes()) == 2 * 27 + 2 * 21 - 4
    spec = catalog().theatre
    assert spec is not None
    for name, base in spec.offboard.items():
        assert all(base.edge in grid.edges(z) for z in base.squares), name


def test_1a_hex_searchboard_edges_are_where_neighbours_are_missing() -> None:
    grid = searchboard()
    assert all(grid.on_edge(h) == (len(grid.neighbours(h)) < 6) for h in grid.hexes())
    assert grid.edges("A1") == {"north", "west"} and grid.edges("T11") == {"south", "east"}
    assert grid.edges("M5") == set() and grid.directions == DIRECTIONS


def test_1a_midway_scenarios_use_the_hex_searchboard() -> None:
    for sid in ("one", "two", "three"):
        state = new_game(sid, frozenset(), 1)
        board: Board = searchboard_of(state)
        assert board is searchboard() and isinstance(board, HexGrid)
        assert area_hexes(state, "II") == ("H1", "H2", "I1", "I2", "I3", "J1", "J2")


def test_ptvm_a_scenario_names_the_theatre_board(tmp_path: Path) -> None:
    """A scenario that names the theatre board has its areas checked against the map's."""
    folder = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS_DIR, folder)
    path = folder / "scenario-one.toml"
    text = path.read_text().replace("usa_wins_margin", 'board = "theatre"\nusa_wins_margin', 1)
    text = text.replace('area = "east-of-dateline"', 'area = "east-edge-row-1"')
    path.write_text(text.replace('area = "II"', 'area = "north-edge"'))
    scenario = load_catalog(folder).scenarios["one"]
    assert scenario.board == "theatre"
    assert {f.area for f in scenario.forces} <= {"east-edge-row-1", "north-edge", "base"}


@pytest.fixture
def on_the_theatre(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Scenario One's state read as if its scenario named the theatre board (no theatre
    scenario exists yet): what `boards` gives the Searchboard code for such a scenario."""
    cached = (boards.board_of, boards.area_hexes_of, boards._land_of)
    for f in cached:
        f.cache_clear()
    monkeypatch.setattr(boards, "_theatre_of", lambda scenario: True)
    yield
    monkeypatch.undo()
    for f in cached:
        f.cache_clear()


def test_ptvm_searchboard_code_gets_the_theatre_board(on_the_theatre: None) -> None:
    state = new_game("one", frozenset(), 1)
    assert searchboard_of(state) is theatre()
    assert area_hexes(state, "east-edge-row-1") == ("I1C", "I1F", "I1I")
    land = land_hexes(state)  # 15a1.1 on the theatre map: land, mountain and reef zones
    assert {"F4F", "A4A", "C5A"} <= land and "A1G" not in land


def test_15a1_1_midway_land_hexes_unchanged() -> None:
    state = new_game("one", frozenset(), 1)
    assert land_hexes(state) == {"L5", "M5", "N6", "P7", "Q8", "T8"}


# ---------------------------------------------------------------- task forces and land


def test_ptvm_setup_land_no_task_force_sets_up_on_a_land_zone() -> None:
    """Coral Sea's Carrier Striking Force may set up "anywhere in rows 1, 2 or 3", but not on
    A1A, a land zone of the map (Manus): it is not offered, and asked for, the refusal names
    the terrain. Rabaul's coastal zone C2B is offered (coastal land, as the map data says)."""
    state = new_game("coral-sea", frozenset(), 1)
    offered = {a.text() for a in legal_actions(state, "japan")}
    assert boards.landlocked(state) >= {"A1A", "A1B", "C1F"}
    assert "place StrikingForce A1A" not in offered
    assert not {
        a for a in offered if a.startswith("place ") and a.split()[-1] in boards.landlocked(state)
    }
    assert "place StrikingForce C2B" in offered and "place StrikingForce A1C" not in offered
    assert "place StrikingForce D1B" in offered  # sea
    with pytest.raises(IllegalAction) as refused:
        apply(state, "japan", {"kind": "place", "force": "StrikingForce", "hex": "A1A"})
    assert refused.value.rule == "Terrain" and "A1A is a land zone" in str(refused.value)
    assert catalog().theatre is not None and "C2B" in catalog().theatre.coastal


def test_ptvm_setup_land_no_task_force_moves_into_a_land_zone() -> None:
    """3c on the theatre map: a task force beside land (B1A, between Mussau's B1B and the
    Admiralties' A1C, land zones not coastal) is offered the sea zones around it, never B1B;
    asked, the refusal names the terrain."""
    state = new_game("coral-sea", frozenset(), 1)
    state, _ = play(
        state, "japan", "place StrikingForce B1A", "place CoveringGroup C2B",
        "place InvasionForce C2B", "place SupportGroup C2B", "done",
    )  # fmt: skip
    state, _ = play(state, "usa", "place TF17 H7H", "place TF44 H7G", "done")
    for _ in range(200):
        if state.step == "sea movement" and state.waiting[:1] == ["japan"]:
            break
        state, _ = apply(state, state.waiting[0], {"kind": "done"})
    moves = {a.values[1] for a in legal_actions(state, "japan") if a.kind == "move"}
    assert {"B1B", "A1C"} <= set(theatre().neighbours("B1A")) & boards.landlocked(state)
    assert "B1B" not in moves and "A1C" not in moves
    assert not moves & boards.landlocked(state)
    assert {"B1D", "B1E"} <= moves
    with pytest.raises(IllegalAction) as refused:
        apply(state, "japan", {"kind": "move", "force": "StrikingForce", "hex": "B1B"})
    assert refused.value.rule == "Terrain" and "B1B is a land zone" in str(refused.value)


def test_ptvm_setup_land_reinforcement_areas_are_sea_zones() -> None:
    """A task force entering during a game ("enter", 3c) is placed from the same sea zones of
    its area as at setup: the land zones of an area are left out for both."""
    state = new_game("coral-sea", frozenset(), 1)
    whole = area_hexes(state, "north-edge-or-Rabaul")
    sea = boards.sea_area_hexes_of("coral-sea", "north-edge-or-Rabaul")
    assert "A1A" in whole and "A1A" not in sea
    assert set(sea) == set(whole) - boards.landlocked(state)
    assert boards.landlocked(new_game("one", frozenset(), 1)) == frozenset()  # Midway: none
