"""The theatre map of "Pacific Theatre Via Midway" as the seat page draws it, rendered
without a browser from the map's data (scenarios/theatre.toml) and a hand-built seat view:
no theatre scenario can be played yet, so the board is drawn through its layout directly.
Checked: 567 zones with their terrain, every base in its zone with its side and its state
today (Bases 3), the off-board bases' boxes beyond their edges with their squares' numbers
(Off-Board Bases 1), each cell's coordinates for the reach shading (eight neighbours, a
diagonal counting one), the bases' areas on the Operations Cards (Bases 2) - and that
Midway's hex Searchboard and Midway's base area are drawn as before."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app import rules
from app.data import catalog
from app.data.records import TheatreSpec
from app.rules.board.boards import searchboard as hex_grid
from app.rules.board.boards import theatre as square_grid
from app.rules.expansions.ptvm.bases import BaseDamage
from app.rules.expansions.ptvm.record import record
from app.web import cards, render, searchboard, theatre
from app.web.render import Seat

CELL = re.compile(
    r'<g id="sbc-[^"]+" class="hex([^"]*)" data-hex="([^"]+)"[^>]* data-c="([^"]+)" data-xy="'
)
BASE = re.compile(
    r'<g class="base-mark ([^"]*)" data-base="([^"]+)" data-zone="([^"]+)" '
    r'transform="translate\(([\d.]+),([\d.]+)\)">(.*?)</g>'
)
TITLE = re.compile(r'data-hex="([^"]+)"[^>]*><use href="#hx"/><title>([^<]*)</title>')


def spec() -> TheatreSpec:
    found = catalog().theatre
    assert found is not None
    return found


def seat_view(**extra: Any) -> dict[str, Any]:
    """A minimal view of the United States seat in a Coral Sea game (theatre-bases.toml
    lists its bases), with the states of two bases today."""
    return {
        "scenario": {"id": "coral-sea"},
        "seats": [{"seat": "usa", "side": "usa"}, {"seat": "japan", "side": "japan"}],
        "searchboard": {"forces": {"TF17": "H6E"}},
        "operations_cards": {
            "usa": {
                "forces": [{"force": "TF17", "label": "TF 17", "ships": []}],
                "carriers": [],
                "units": {},
            },
            "japan": {
                "carriers": [{"id": "Rabaul", "name": "Rabaul", "ready": [], "arming": []}],
                "units": {"Rabaul": {"id": "Rabaul", "side": "japan", "type": "base"}},
            },
        },
        **extra,
    }


def board_html(view: dict[str, Any]) -> str:
    board = searchboard.searchboard(view, "usa", grid=theatre.layout())
    ctx = {
        "board": board,
        "who": Seat("g", "usa", "usa"),
        "replay": False,
        "umpire_boards": [],
        "v": 1,
    }
    return render.env().get_template("regions/searchboard.html").render(ctx)


def test_ptvm_map_567_zones_with_their_terrain_and_codes_on_hover() -> None:
    html = board_html(seat_view())
    cells = {name: classes.split() for classes, name, _ in CELL.findall(html)}
    assert len(cells) == 567 == 27 * 21
    s = spec()
    for zone, classes in cells.items():
        kind = s.terrain_of(zone)
        assert ("mountain" in classes) == (kind == "mountain"), zone
        assert ("reef" in classes) == (kind == "reef"), zone
        assert ("land" in classes) == (kind in ("land", "mountain")), zone
        assert ("coastal" in classes) == (zone in s.coastal), zone
    assert {z for z, c in cells.items() if "mountain" in c} == {"A3G", "A4A", "A4E", "A4F"}
    titles = dict(TITLE.findall(html))
    assert set(titles) == set(cells) and titles["A4A"].startswith("Zone A4A, mountain")
    assert "fighters may not fly through it (Terrain)" in titles["A4A"]
    assert 'class="code"' not in html  # codes on hover, not printed in 567 zones
    areas = re.findall(r'<text x="[\d.]+" y="[\d.]+">([A-I][1-7])</text>', html)
    assert len(areas) == 63 and areas[0] == "A1" and areas[-1] == "I7"
    assert 'class="area-lines"' in html and "mountain zone: fighters may not fly" in html
    assert "International Dateline" not in html


def coral_sea_view(damaged: dict[str, BaseDamage]) -> dict[str, Any]:
    """The United States seat's view of a new Coral Sea game whose bases have suffered
    `damaged` today (Bases 3)."""
    state = rules.new_game("coral-sea", frozenset(), 1)
    record(state).base_damage.update(damaged)
    return rules.view(state, "usa")


def test_ptvm_bases_1_every_base_in_its_zone_with_side_and_state() -> None:
    view = coral_sea_view({"Rabaul": BaseDamage(3), "PortMoresby": BaseDamage(6, True)})
    html = board_html(view)
    grid = theatre.layout()
    drawn = {
        name: (cls.split(), zone, (float(x), float(y)), inner)
        for cls, name, zone, x, y, inner in BASE.findall(html)
    }
    assert set(drawn) == set(spec().bases)
    for name, zone in spec().bases.items():
        assert drawn[name][1] == zone and drawn[name][2] == grid.centre(zone), name
    rabaul, moresby, lae = drawn["Rabaul"], drawn["Port Moresby"], drawn["Lae"]
    assert "japan" in rabaul[0] and ">IJN<" in rabaul[3] and ">damage 3<" in rabaul[3]
    assert "usa" in moresby[0] and "ko" in moresby[0] and ">KO till 0700<" in moresby[3]
    assert "japan" in lae[0] and 'class="base-state"' not in lae[3]  # no damage today
    assert "absent" in drawn["Henderson"][0] and "absent" not in lae[0]  # not in Coral Sea
    titles = dict(TITLE.findall(html))
    assert "Port Moresby base (United States), knocked out till 0700" in titles["A4D"]
    assert "Rabaul base (Japan), 3 hits today (Bases 3)" in titles["C2B"]
    assert "Henderson base, not in this scenario" in titles["F4F"]


def test_ptvm_bases_3_a_view_without_base_states_draws_bases_without_state() -> None:
    html = board_html(coral_sea_view({}))
    assert len(BASE.findall(html)) == len(spec().bases)
    assert 'class="base-state"' not in html and "hits today" not in html
    assert "base-mark japan" in html and "base-mark usa" in html


def test_ptvm_off_board_bases_1_boxes_beyond_the_edge_with_their_numbers() -> None:
    html = board_html(seat_view())
    grid = theatre.layout()
    boxes = re.findall(
        r'<g class="offboard[^"]*" data-offboard="([^"]+)".*?<rect class="offboard-box" '
        r'x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"(.*?)</g>\n',
        html,
    )
    found = {name: tuple(map(float, xywh)) for name, *xywh, _ in boxes}
    assert set(found) == {"Truk", "Australia", "New Caledonia"}
    x, y, w, h = found["Truk"]
    assert y + h < grid.top  # north of the map
    x, y, w, h = found["Australia"]
    assert x + w < grid.left  # west
    x, y, w, h = found["New Caledonia"]
    assert y > grid.bottom  # south
    numbers = dict(
        re.findall(r'data-square="([A-I][1-7][A-I])"[^>]*><circle r="9"/><text y="4">(\d+)<', html)
    )
    expected = {z: str(n) for b in spec().offboard.values() for z, n in b.squares.items()}
    assert numbers == expected and numbers["C1B"] == "13" and numbers["A7G"] == "4"
    assert "Truk: off the north edge" in html


def test_ptvm_map_cells_carry_coordinates_whose_largest_difference_is_the_distance() -> None:
    """The page's reach shading counts steps with each cell's data-c: on the theatre map a
    diagonal step counts one (RULES-NOTES.md), on the hex Searchboard 1a's hex steps."""
    coords = {n: tuple(map(int, c.split(","))) for _, n, c in CELL.findall(board_html(seat_view()))}

    def far(a: str, b: str) -> int:
        return max(abs(p - q) for p, q in zip(coords[a], coords[b], strict=True))

    grid = square_grid()
    for a, b in (("A1A", "I7I"), ("D3C", "F4F"), ("F4E", "F4C"), ("A4D", "C2B")):
        assert far(a, b) == grid.distance(a, b) == theatre.layout().distance(a, b)
    layout = searchboard.layout()
    hexes = hex_grid()
    for a, b in (("A1", "T11"), ("M5", "K2"), ("B3", "C3")):
        assert max(
            abs(p - q) for p, q in zip(layout.coords(a), layout.coords(b), strict=True)
        ) == hexes.distance(a, b)


@pytest.fixture
def theatre_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenario One's view read as if its scenario were played on the theatre map."""
    monkeypatch.setattr(theatre, "on_theatre", lambda view: True)


def test_ptvm_off_board_bases_1_reach_from_and_home_to_an_off_board_base(
    theatre_game: None,
) -> None:
    """An air unit at Australia flies from its marked squares, each with its number."""
    view = seat_view()
    view["operations_cards"]["usa"] = {
        "forces": [],
        "carriers": [{"id": "AUS", "name": "Australia", "ready": ["F1"], "arming": []}],
        "units": {
            "AUS": {"id": "AUS", "name": "Australia", "side": "usa", "type": "base"},
            "F1": {"id": "F1", "side": "usa", "basing": "green", "factors": {"movement": 5}},
        },
    }
    data = searchboard.reach_data(view, "usa")
    squares = [[z, n] for z, n in spec().offboard["Australia"].squares.items()]
    assert data["units"]["u:usa:F1"]["from"] == squares
    assert data["sites"]["green"] == squares


def test_ptvm_seat_page_regions_render_on_the_theatre_map(theatre_game: None) -> None:
    state = rules.new_game("one", frozenset(), 1)
    view = rules.view(state, "usa")
    html = render.regions(view, [], Seat("g", "usa"), ("searchboard", "cards"))["searchboard"]
    assert len(CELL.findall(html)) == 567 and "United States theatre map" in html
    assert 'data-grid="square"' in html and "Off-board bases" in html


def test_ptvm_bases_2_each_base_unit_has_its_own_card_area() -> None:
    view = seat_view()
    view["operations_cards"]["japan"] = {
        "carriers": [
            {"id": "Rabaul", "name": "Rabaul", "ready": ["F1"], "arming": [], "capacity": 20},
            {"id": "Shortlands", "name": "Shortlands", "ready": [], "arming": []},
        ],
        "base_strikes": {"Rabaul": ["D1"]},
        "units": {
            "Rabaul": {
                "id": "Rabaul",
                "name": "Rabaul",
                "side": "japan",
                "type": "base",
                "damage_today": 3,
                "knocked_out": False,
            },
            "Shortlands": {"id": "Shortlands", "side": "japan", "type": "base"},
            "F1": {"id": "F1", "side": "japan", "basing": "white", "type": "F"},
            "D1": {"id": "D1", "side": "japan", "basing": "white", "type": "D"},
        },
    }
    card = cards.card(view, "japan", "usa")
    areas = {a.name: a for a in card.ships}
    assert set(areas) == {"Rabaul base area", "Shortlands base area"}
    rabaul, shortlands = areas["Rabaul base area"], areas["Shortlands base area"]
    assert rabaul.info == (
        "1 air unit aboard; capacity 60 planes, AA 4, bombers ready 3 Turns after landing"
        " (Bombers 8); 3 hits today (Bases 3)"
    )
    # issue 30: the readying time the README promises; a base bombers may not use says none
    assert shortlands.info == "0 air units aboard; capacity 12 planes, AA 2, may not accept B or D"
    boxes = [(b.key, b.title, [c.id for c in b.counters]) for b in rabaul.boxes]
    assert boxes == [
        ("box:japan:Rabaul:base", "Base unit", ["Rabaul"]),
        ("box:japan:Rabaul:ready", "Ready", ["F1"]),
        ("box:japan:Rabaul:arming", "Arming", []),
        ("box:japan:Rabaul:strike", "Normal Strike", ["D1"]),
    ]
    shortlands_unit = view["operations_cards"]["japan"]["units"]["Shortlands"]
    shortlands_unit |= {"name": "Shortlands", "damage_today": 2, "knocked_out": True}
    knocked = {a.name: a for a in cards.card(view, "japan", "usa").ships}
    assert knocked["Shortlands base area"].info.endswith("; knocked out till 0700 (Bases 3)")


def test_2c_midway_base_area_and_hex_searchboard_as_before() -> None:
    state = rules.new_game("one", frozenset(), 1)
    view = rules.view(state, "usa")
    usa = cards.card(view, "usa", "usa")
    midway = next(a for a in usa.ships if a.name == "Midway base area")
    assert [b.title for b in midway.boxes] == ["Base unit", "Ready", "Arming", "Normal Strike"]
    assert midway.info.startswith("capacity ") and "planes" not in midway.info
    html = render.regions(view, [], Seat("g", "usa"), ("searchboard",))["searchboard"]
    cells = CELL.findall(html)
    assert len(cells) == 20 * 11 and html.count('class="code"') == 220
    assert "International Dateline" in html and "theatre" not in html
    assert dict((n, c) for _, n, c in cells)["M5"] == ",".join(
        map(str, searchboard.layout().cube("M5"))
    )


def test_ptvm_choices_in_board_order_area_by_area_on_the_theatre_map() -> None:
    """The folded list of choices is in board order: a zone by its area, then its letter."""
    from app.web.choices import Choice
    from app.web.prompt_bar import board_order

    codes = ["F4F", "A1B", "F4A", "A1A", "B1I", "A2A", "I7I"]
    picks = [Choice({"kind": "place", "hex": c}, f"Place in {c}", "tf:usa:TF16") for c in codes]
    ordered = sorted([Choice({"kind": "done"}, "Done"), *picks], key=board_order)
    order = [c.action.get("hex") for c in ordered]
    assert order == ["A1A", "A1B", "A2A", "B1I", "F4A", "F4F", "I7I", None]


def test_18b_both_sides_on_one_theatre_map() -> None:
    """The umpire's (and a finished game's) board of both sides, on the theatre map."""
    view = seat_view(searchboards={"usa": {"forces": {"TF17": "H6E"}}, "japan": {}})
    del view["searchboard"]
    board = searchboard.both_sides(view, grid=theatre.layout())
    assert board is not None and board.grid == "square" and len(board.cells) == 567
    assert [s.hex for s in board.stacks] == ["H6E"] and len(board.bases) == len(spec().bases)
    assert {o.name for o in board.offboard} == {"Truk", "Australia", "New Caledonia"}
