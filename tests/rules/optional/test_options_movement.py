"""Options 11c, 11f, 12a and 12b1: dead in the water, ship intervals, variable sea
movement, small air units."""

from __future__ import annotations

from dataclasses import replace

from app.rules import legal_actions
from app.rules.base.air_return import may_land
from app.rules.base.battle_setup import _ship_hexes
from app.rules.board.boards import battleboard, searchboard
from app.rules.engine.state import FLYING, Battle, Flight, State

from ..base.test_basic_rules import refused
from ..helpers import kinds, play, position

TF17 = ("Yorktown", "Astoria", "Portland", "DD2")


def at_sea_movement(turn: int, options: set[str], damage: dict[str, int] | None = None) -> State:
    s = position(
        turn,
        {"usa": {"TF17": ("N5", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H2", [])}},
        dice=[6, 4],  # the US is Side A, so Japan moves first
        options=frozenset(options),
    )
    for uid, points in (damage or {}).items():
        s.put(replace(s.units["usa"][uid], damage=points))
    while s.step != "sea movement":
        s, _ = play(s, s.waiting[0], "done")
    s, _ = play(s, "japan", "done")
    assert s.waiting == ["usa"]
    return s


def moves(s: State, force: str) -> set[str]:
    return {
        a.get("hex")
        for a in legal_actions(s, "usa")
        if a.kind == "move" and a.get("force") == force
    }


def test_3c_basic_game_one_hex() -> None:
    s = at_sea_movement(9, set())
    assert moves(s, "TF17") == set(searchboard().neighbours("N5"))


def test_12a3_movement_3_task_force_moves_two_hexes_on_dot_turns_only() -> None:
    two = set(searchboard().within("N5", 2)) - {"N5"}
    assert moves(at_sea_movement(9, {"12a"}), "TF17") == two  # Turn 9: a dot Turn
    assert moves(at_sea_movement(10, {"12a"}), "TF17") == set(searchboard().neighbours("N5"))


def test_12a2_the_slowest_ship_sets_the_rate() -> None:
    """12a2: flipped, Yorktown moves 2 (CATALOG 1a): two hexes on triangle Turn 9 only."""
    two = set(searchboard().within("N5", 2)) - {"N5"}
    assert moves(at_sea_movement(9, {"12a"}, {"Yorktown": 3}), "TF17") == two
    assert moves(at_sea_movement(11, {"12a"}, {"Yorktown": 3}), "TF17") == set(
        searchboard().neighbours("N5")
    )


def test_11c_a_ship_dead_in_the_water_is_towed_at_one_hex() -> None:
    s = at_sea_movement(9, {"11c", "12a"}, {"Yorktown": 5})
    assert moves(s, "TF17") == set(searchboard().neighbours("N5"))  # 12a4.2: movement 1


def test_12a4_2_an_untowed_ship_holds_its_task_force() -> None:
    s = position(
        9,
        {
            "usa": {"TF17": ("N5", ["Yorktown"]), "TF16": ("P3", [])},
            "japan": {"MobileForce": ("H2", [])},
        },
        dice=[6, 4],
        options=frozenset({"11c"}),
    )
    for uid in ("Astoria", "Portland", "DD2"):
        s.put(replace(s.units["usa"][uid], area="TF16"))
    s.put(replace(s.units["usa"]["Yorktown"], damage=5))
    while s.step != "sea movement":
        s, _ = play(s, s.waiting[0], "done")
    s, _ = play(s, "japan", "done")
    assert moves(s, "TF17") == set()
    assert "scuttle Yorktown" in [a.text() for a in legal_actions(s, "usa")]  # 11c3
    s, _ = play(s, "usa", "move TF16 P4")
    assert "scuttle Yorktown" not in [a.text() for a in legal_actions(s, "usa")]


def test_11c2_no_take_off_from_a_carrier_dead_in_the_water() -> None:
    s = position(
        8,
        {"usa": {"TF17": ("N5", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H2", [])}},
        dice=[6, 4],
        options=frozenset({"11c"}),
    )
    s.put(replace(s.units["usa"]["Yorktown"], damage=5))
    while s.waiting[0] != "usa":
        s, _ = play(s, s.waiting[0], "done")
    launches = {a.get("unit") for a in legal_actions(s, "usa") if a.kind == "launch"}
    assert "B5" not in launches and "B6" in launches


def test_12b1_two_scouts_fit_a_capacity_1_av() -> None:
    """12b1's example: Chikuma (capacity 1) may hold two scout air units."""
    for options, allowed in ((set(), "5a3"), ({"12b1"}, None)):
        s = position(
            8, {"usa": {}, "japan": {"MobileForce": ("H2", [])}}, options=frozenset(options)
        )
        scout = s.units["japan"]["N"]
        scout = s.put(replace(scout, box=FLYING, area=""))
        s.boards["japan"].flights["N"] = Flight(hex="H2")
        assert may_land(s, scout, s.units["japan"]["Chikuma"]) == allowed


def test_11f_japanese_ships_two_empty_hexes_apart() -> None:
    grid = battleboard()
    for options, gap in ((set(), 1), ({"11f"}, 2)):
        s = position(8, {"usa": {}, "japan": {}}, options=frozenset(options))
        b = Battle(hex="H2", attacker="usa", ships=["Akagi", "Kaga"], air=[], facing=0)
        b.positions["Akagi"] = "J11"
        hexes = _ship_hexes(s, b)
        assert min(grid.distance("J11", h) for h in hexes) == gap + 1
        assert all(len(grid.within(h, gap)) == 1 + 3 * gap * (gap + 1) for h in hexes)
        us = Battle(hex="H2", attacker="japan", ships=["Yorktown", "Astoria"], air=[], facing=0)
        us.positions["Yorktown"] = "J11"
        assert min(grid.distance("J11", h) for h in _ship_hexes(s, us)) == 2  # 11f: US unchanged


def _tf17_on_the_east_edge(tf17: list[str]) -> State:
    """TF 17 in T5 (the US edge, 12a4.3) with Yorktown dead in the water (11c), at the US's
    Sea Movement Step; the other TF 17 ships in TF 16."""
    s = position(
        9,
        {
            "usa": {"TF17": ("T5", tf17), "TF16": ("P3", [u for u in TF17 if u not in tf17])},
            "japan": {"MobileForce": ("H2", [])},
        },
        dice=[6, 4],
        options=frozenset({"11c"}),
    )
    s.put(replace(s.units["usa"]["Yorktown"], damage=5))
    while s.step != "sea movement":
        s, _ = play(s, s.waiting[0], "done")
    s, _ = play(s, "japan", "done")
    return s


def test_12a4_3_towed_exit_takes_only_the_towed_ship_and_the_tower_the_player_picks() -> None:
    """12a4.3: "Only a towed ship unit and the ship unit that tows it may exit ... Their task
    force marker is not considered to exit with them": the others stay under the marker;
    12a4.1: the player picks the tower, never a BB, CV or CVL."""
    s = _tf17_on_the_east_edge(list(TF17))
    tows = sorted(a.text() for a in legal_actions(s, "usa") if a.kind == "tow-out")
    assert tows == ["tow-out Yorktown Astoria", "tow-out Yorktown DD2", "tow-out Yorktown Portland"]
    s, ev = play(s, "usa", "tow-out Yorktown Portland")
    assert [e.data["unit"] for e in kinds(ev, "exited")] == ["Yorktown", "Portland"]
    assert not kinds(ev, "eliminated")
    usa = s.units["usa"]
    assert (usa["Yorktown"].box, usa["Portland"].box) == ("exited", "exited")
    assert usa["Yorktown"].damage == 5  # its damage still counts (7a3)
    assert [(usa[u].box, usa[u].area) for u in ("Astoria", "DD2")] == [("ships", "TF17")] * 2
    assert s.boards["usa"].forces["TF17"] == "T5"
    assert "move TF17 S5" in [a.text() for a in legal_actions(s, "usa")]  # no longer held
    assert not [a for a in legal_actions(s, "usa") if a.kind == "tow-out"]  # one towed ship


def test_12a4_3_marker_removed_when_all_its_ships_exit() -> None:
    s = _tf17_on_the_east_edge(["Yorktown", "DD2"])
    s, _ = play(s, "usa", "tow-out Yorktown DD2")
    assert s.boards["usa"].forces["TF17"] is None
    assert s.units["usa"]["Yorktown"].box == s.units["usa"]["DD2"].box == "exited"


def test_12a4_3_no_towed_exit_after_the_task_force_moved() -> None:
    s = _tf17_on_the_east_edge(list(TF17))
    assert refused(s, "usa", "tow-out Astoria Portland").rule == "12a4.3"  # not towed
    s, _ = play(s, "usa", "move TF17 S5")
    assert refused(s, "usa", "tow-out Yorktown Astoria").rule == "12a4.3"
