"""3: The Action Phase - assembly (3a), ready (3b), sea movement (3c, 2e), air movement and
search (3d). Positions and helpers are in test_basic_rules.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules.engine.state import ARMING, FLIP, FLYING, GONE, READY, STRIKE, UnitKey

from ..helpers import kinds, play, started
from .test_basic_rules import (
    JAPAN_B,
    JAPAN_REST,
    action_phase,
    eliminated,
    fly,
    game,
    launch,
    refused,
    texts,
    through,
)

# ---------------------------------------------------------------- 3a assembly


def test_3a1_no_take_off_on_a_night_turn() -> None:
    s = game(turn=7)  # 7b1, CATALOG.md 4: Scenario One starts on Turn 7, a night Turn
    assert (s.step, s.waiting) == ("assembly", ["usa", "japan"])
    assert texts(s, "usa") == ["done"]
    assert refused(s, "usa", "launch B5").rule == "3a1"
    # In a game, the Assembly Step with nothing to choose passes by itself.
    g = started()
    assert (g.turn, g.step) == (7, "ready")
    assert all(u.box in (READY, ARMING) for side in g.units.values() for u in side.values()
               if not u.ship)  # fmt: skip


def test_3a2_only_ready_box_units_take_off() -> None:
    s = game(arming=[("usa", "B3")])
    assert "launch B3" not in texts(s, "usa")
    assert refused(s, "usa", "launch B3").rule == "3a2"
    s, _ = play(s, "usa", "launch B5")
    assert (s.units["usa"]["B5"].box, s.units["usa"]["B3"].box) == (STRIKE, ARMING)


def test_3a3_take_off_goes_to_the_normal_strike_box_of_the_task_force_or_midway() -> None:
    s = game()
    s, ev = play(s, "usa", "launch B5", "launch 1SB241")
    assert (s.units["usa"]["B5"].box, s.units["usa"]["B5"].area) == (STRIKE, "TF17")
    assert (s.units["usa"]["1SB241"].box, s.units["usa"]["1SB241"].area) == (STRIKE, "Midway")
    assert [(e.data["unit"], e.data["from"]) for e in kinds(ev, "launch")] == [
        ("B5", "Yorktown"),
        ("1SB241", "Midway"),
    ]


@pytest.mark.parametrize("hits", [0, 2])  # 4b5: hit markers never lower a launch number
def test_3a4_launch_number_yorktown_front_is_4(hits: int) -> None:
    s = game(damage={("usa", "Yorktown"): hits})
    # a fifth air unit in Yorktown's Ready box
    s.put(replace(s.units["usa"]["B6"], area="Yorktown"))
    s, _ = play(s, "usa", *launch("B3", "B5", "T3", "O"))
    assert "launch B6" not in texts(s, "usa")
    assert refused(s, "usa", "launch B6").rule == "3a4"
    # Other carriers and the base have launch numbers of their own.
    s, _ = play(s, "usa", "launch S6", "launch 2T8")
    assert s.launched == {
        UnitKey("usa", "Yorktown"): 4,
        UnitKey("usa", "Enterprise"): 1,
        UnitKey("usa", "Midway"): 1,
    }


def test_3a4_launch_number_yorktown_back_is_2() -> None:
    s = game(damage={("usa", "Yorktown"): FLIP})
    s, _ = play(s, "usa", "launch B3", "launch B5")
    assert "launch T3" not in texts(s, "usa") and "launch O" not in texts(s, "usa")
    assert refused(s, "usa", "launch T3").rule == "3a4"


@pytest.mark.parametrize(("damage", "number"), [(0, 6), (FLIP, 3)])
def test_3a4_launch_number_midway_base(damage: int, number: int) -> None:
    s = game(damage={("usa", "Midway"): damage})
    s.put(replace(s.units["usa"]["B6"], area="Midway"))  # 9 air units in Midway's Ready box
    order = ["2T8", "1SB241", "2SB241", "5AF", "1BG11", "A", "B", "C", "B6"]
    s, _ = play(s, "usa", *launch(*order[:number]))
    assert s.launched == {UnitKey("usa", "Midway"): number}
    assert refused(s, "usa", f"launch {order[number]}").rule == "3a4"


def test_3a4_launch_number_of_an_av_is_1() -> None:
    s = game(sides=JAPAN_B)  # Japan is Side B and goes first
    s.put(replace(s.units["japan"]["N"], area="Chikuma"))  # two scouts in Chikuma's Ready box
    s, _ = play(s, "japan", "launch M")
    assert refused(s, "japan", "launch N").rule == "3a4"


# ---------------------------------------------------------------- 3b ready


def test_3b_shift_between_arming_and_ready_once_a_ready_step() -> None:
    s = game(arming=[("usa", "B3")])
    s, _ = through(s, "assembly")
    s, _ = play(s, "usa", "ready B3", "arm B5")
    assert (s.units["usa"]["B3"].box, s.units["usa"]["B5"].box) == (READY, ARMING)
    assert refused(s, "usa", "arm B3").rule == "3b"
    assert refused(s, "usa", "ready B5").rule == "3b"


# ---------------------------------------------------------------- 3c sea movement, 2e


def test_3c_task_force_moves_at_most_one_hex() -> None:
    s = game()
    s, _ = through(s, "assembly")
    s, _ = through(s, "ready")
    moves = {t.split()[2] for t in texts(s, "usa") if t.startswith("move TF17")}
    assert moves == {"L2", "M3", "M4", "L4", "K4", "K3"}  # the six neighbours of L3
    assert refused(s, "usa", "move TF17 J3").rule == "3c"
    s, _ = play(s, "usa", "move TF17 K3")
    # A second move may only change the one-hex move, never extend it.
    assert refused(s, "usa", "move TF17 J3").rule == "3c"
    s, ev = play(s, "usa", "move TF17 L3", "move TF17 M4", "done")
    assert s.boards["usa"].forces["TF17"] == "M4"
    assert {e.audience for e in kinds(ev, "move")} == {"usa"}  # secret from Japan


def test_2e_task_force_leaving_the_searchboard_is_eliminated_with_its_units() -> None:
    s = game(
        usa={"TF17": ("T5", []), "TF16": ("N3", [])},  # T is the east edge
        arming=[("usa", "B3")],
    )
    s, _ = through(s, "assembly", usa=["launch B5"])
    s, _ = through(s, "ready")
    assert refused(s, "usa", "exit TF16").rule == "2e"  # N3 is not on the edge
    s, ev = play(s, "usa", "exit TF17")
    gone = {"Yorktown", "Astoria", "Portland", "DD2", "B3", "T3", "O", "B5"}
    assert set(eliminated(ev)) == gone
    assert {u.id for u in s.units["usa"].values() if u.box == GONE} == gone
    assert s.boards["usa"].forces["TF17"] is None
    assert s.boards["usa"].forces["TF16"] == "N3"


# ---------------------------------------------------------------- 3d air movement


def test_3d1_air_units_move_up_to_their_movement_factor() -> None:
    s = game()
    for step in ("assembly", "ready", "sea movement"):
        s, _ = through(s, step, usa=launch("B5") if step == "assembly" else ())
    s, _ = play(s, "usa", *fly("L3-strike", "M3", "N3", "O3", "P3", "Q3"))  # B5 moves 5
    assert s.boards["usa"].flights["B5"].moved == 5
    assert not [t for t in texts(s, "usa") if t.startswith("fly")]
    assert refused(s, "usa", "fly L3-strike R3").rule == "3d1"


def test_3d_flying_units_start_from_their_task_force_after_sea_movement() -> None:
    s = game()
    s, _ = through(s, "assembly", usa=["launch B5", "launch O", "launch 1SB241"])
    s, _ = through(s, "ready")
    s, _ = through(s, "sea movement", usa=["move TF17 M4"])
    flights = s.boards["usa"].flights
    assert {u: (f.hex, f.group) for u, f in flights.items()} == {
        "B5": ("M4", "M4-strike"),
        "O": ("M4", "O"),  # scouts move one by one (3d2)
        "1SB241": ("M5", "M5-strike"),
    }
    assert {u: s.units["usa"][u].box for u in flights} == dict.fromkeys(flights, FLYING)


def test_3d2_strike_moves_together_and_t3_is_dropped_off() -> None:
    """10a: B5 and T3 fly L3-K4-J4-I5-H4; T3 (movement 3) stays in I5 and cannot attack."""
    s = game(
        japan={"MobileForce": ("H4", ["Haruna", "Nagara"]), "Group-A": ("I2", JAPAN_REST)},
    )
    s, _ = action_phase(s, usa=["B5", "T3"], usa_fly=fly("L3-strike", "K4", "J4", "I5", "H4"))
    flights = s.boards["usa"].flights
    assert (flights["B5"].hex, flights["T3"].hex) == ("H4", "I5")
    assert flights["B5"].path == ["L3", "K4", "J4", "I5", "H4"]
    assert s.battle is not None and (s.battle.hex, s.battle.air) == ("H4", ["B5"])


def test_3d3_2_air_search_reveals_the_exact_ships_or_nothing() -> None:
    s = game(
        japan={
            "MobileForce": ("K3", ["Haruna", "Nagara"]),
            "Group-A": ("K3", ["Akagi", "Chikuma"]),
            "Group-B": ("I2", [u for u in JAPAN_REST if u not in ("Akagi", "Chikuma")]),
        },
    )
    s, ev = action_phase(s, usa=["O"], usa_fly=["fly O K4", "search K4", "fly O K3", "search K3"])
    found = {e.data["hex"]: e.data["found"] for e in kinds(ev, "search")}
    assert found == {
        "K4": [],  # nothing there: the opponent says so
        "K3": [
            {"force": "Group-A", "ships": ["Akagi", "Chikuma"]},
            {"force": "MobileForce", "ships": ["Haruna", "Nagara"]},
        ],  # the exact ship units; nothing about the air units aboard (3d3.3)
    }
    spotted = [(i.hex, i.forces, i.how) for i in s.boards["usa"].intel]
    assert spotted == [
        ("K4", {}, "air search"),
        (
            "K3",
            {"MobileForce": ["Haruna", "Nagara"], "Group-A": ["Akagi", "Chikuma"]},
            "air search",
        ),
    ]


def test_3d3_1_search_only_the_hex_just_entered_once() -> None:
    s = game()
    for step in ("assembly", "ready", "sea movement"):
        s, _ = through(s, step, usa=launch("O") if step == "assembly" else ())
    s, _ = play(s, "usa", "fly O K4", "fly O J4")
    assert refused(s, "usa", "search K4").rule == "3d3.1"  # left behind
    s, _ = play(s, "usa", "search J4")
    assert refused(s, "usa", "search J4").rule == "3d3.1"


def test_3d5_sea_search_only_own_hexes_and_no_flying_after_it() -> None:
    s = game(
        usa={"TF17": ("L3", []), "TF16": ("K3", [])},
        japan={"MobileForce": ("K3", ["Haruna", "Nagara"]), "Group-A": ("I2", JAPAN_REST)},
    )
    for step in ("assembly", "ready", "sea movement"):
        s, _ = through(s, step, usa=launch("O") if step == "assembly" else ())
    sea = sorted(t for t in texts(s, "usa") if t.startswith("sea-search"))
    assert sea == ["sea-search K3", "sea-search L3", "sea-search M5"]  # task forces and base
    assert refused(s, "usa", "sea-search I2").rule == "3d5"
    s, ev = play(s, "usa", "sea-search K3")
    assert [e.data["found"] for e in kinds(ev, "search")] == [
        [{"force": "MobileForce", "ships": ["Haruna", "Nagara"]}]
    ]
    assert s.boards["usa"].intel[-1].how == "sea search"
    assert refused(s, "usa", "fly O K4").rule == "3d5"
    assert not [t for t in texts(s, "usa") if t.startswith(("fly", "search"))]
    s, _ = play(s, "usa", "sea-search M5", "done")
    # Japan has no base: only its own task force hexes.
    assert sorted(t for t in texts(s, "japan") if t.startswith("sea-search")) == [
        "sea-search I2",
        "sea-search K3",
    ]


def test_3d4_a_scout_ending_on_an_enemy_task_force_makes_no_battle() -> None:
    s = game()
    s, _ = action_phase(s, usa=["O"], usa_fly=["fly O K3"])
    assert s.boards["usa"].flights["O"].hex == "K3" and s.units["usa"]["O"].box == FLYING
    assert s.battle is None and s.step == "air return"
