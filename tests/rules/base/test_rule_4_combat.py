"""4: The Combat Phase - battle setup (4a), combat resolution (4b), anti-aircraft (4c),
bombing (4d) and the battle's end (4e), with forced dice.

US strikes fly from TF 17 (L3) and Midway (M5) onto the Mobile Force marker in K3, where
Japan sets up Haruna in Battleboard hex K9 facing N (its neighbours: ahead K8, starboard bow
L8, starboard quarter L9, astern K10, port quarter J9, port bow J8). Japanese strikes fly
from I2 onto Yorktown alone in L3, set up in J11 (ahead J10, starboard bow K11, starboard
quarter K12, astern J12, port quarter I12, port bow I11 when facing N).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable

import pytest

from app.rules import IllegalAction, State, apply, legal_actions, view
from app.rules.engine.actions import Action
from app.rules.engine.events import Event
from app.rules.engine.state import ARMING, FLIP, FLYING, GONE, READY, Side, UnitKey

from ..helpers import kinds, play
from .test_basic_rules import (
    JAPAN_REST,
    JAPAN_SHIPS,
    action_phase,
    eliminated,
    fly,
    game,
    outcomes,
    refused,
    texts,
    through,
)

MIDWAY_AIR = {"2T8", "1SB241", "2SB241", "5AF", "1BG11"}
MISS = [1, 10]  # attacker rolls 1, defender 10: a miss for every modifier used here


def us_strike(
    dice: Iterable[int] = (),
    units: Iterable[str] = ("B5",),
    *,
    ships: Iterable[str] = ("Haruna K9", "Nagara K11"),
    japan: dict[str, tuple[str, list[str]]] | None = None,
    damage: dict[tuple[Side, str], int] | None = None,
    facing: str = "N",
) -> State:
    """US air units from TF 17 and Midway reach K3; Japan has set up its ships there."""
    units = list(units)
    s = game(dice, japan=japan, damage=damage)
    flights = []
    if any(u not in MIDWAY_AIR for u in units):
        flights += fly("L3-strike", "K3")
    if any(u in MIDWAY_AIR for u in units):
        flights += fly("M5-strike", "L4", "K4", "K3")
    s, _ = action_phase(s, usa=units, usa_fly=flights)
    assert s.battle is not None and s.battle.hex == "K3"
    s, _ = play(s, "japan", f"face {facing}", *(f"position {p}" for p in ships))
    assert s.step == "air attack setup"
    return s


def japan_strike(
    dice: Iterable[int] = (),
    units: Iterable[str] = ("AD",),
    *,
    ships: Iterable[str] = ("Yorktown J11",),
    facing: str = "N",
    tf17: list[str] | None = None,
    arming: Iterable[tuple[Side, str]] = (),
    usa_launch: Iterable[str] = (),
    usa_fly: Iterable[str] = (),
) -> State:
    """Japanese air units from Group-A in I2 reach TF 17 in L3; the US has set up there."""
    tf17 = ["Yorktown"] if tf17 is None else tf17
    others = [u for u in ("Yorktown", "Astoria", "Portland", "DD2") if u not in tf17]
    s = game(
        dice,
        usa={"TF17": ("L3", tf17), "TF-A": ("T1", others), "TF16": ("T11", [])},
        arming=arming,
    )
    s, _ = action_phase(
        s,
        usa=usa_launch,
        usa_fly=usa_fly,
        japan=units,
        japan_fly=fly("I2-strike", "J2", "K3", "L3"),
    )
    assert s.battle is not None and s.battle.hex == "L3"
    s, _ = play(s, "usa", f"face {facing}", *(f"position {p}" for p in ships))
    assert s.step == "air attack setup"
    return s


def on_haruna(*units: str, torpedo_hex: str = "L9") -> list[str]:
    """4a3: dive, heavy and medium bombers stack on Haruna; torpedo bombers approach it."""
    return [
        f"approach {u} Haruna {torpedo_hex}" if u in ("T3", "2T8", "5AF") else f"target {u} Haruna"
        for u in units
    ]


def anti_aircraft(s: State, seat: str, *actions: str) -> tuple[State, list[Event]]:
    """4c: fire the given AA combats, then finish (passed by itself once no target is left)."""
    s, ev = play(s, seat, *actions)
    if s.step == "anti-aircraft combat" and s.waiting == [seat]:
        s, more = play(s, seat, "done")
        ev += more
    return s, ev


def bombing_modifiers(events: list[Event]) -> list[tuple[str, str, int, list[str]]]:
    return [
        (e.data["target"], e.data["category"], e.data["attacker_modifier"], e.data["modifiers"])
        for e in kinds(events, "bombing")
    ]


# ---------------------------------------------------------------- 4a battle setup


def test_4a1_base_alone_is_set_up_near_the_centre() -> None:
    s = game(japan={"MobileForce": ("K3", JAPAN_SHIPS)})
    s, _ = action_phase(s, japan=["1AT"], japan_fly=fly("K3-strike", "K4", "L4", "M5"))
    assert s.battle is not None and (s.battle.ships, s.battle.positions) == (
        ["Midway"],
        {"Midway": "J11"},
    )
    assert (s.step, s.waiting) == ("air attack setup", ["japan"])


def test_4a2_ships_face_one_way_one_a_hex_with_space_around_and_off_the_edge() -> None:
    s = game()
    s, _ = action_phase(s, usa=["B5"], usa_fly=fly("L3-strike", "K3"))
    assert (s.step, s.waiting) == ("battle setup", ["japan"])
    assert texts(s, "japan") == [f"face {d}" for d in ("N", "NE", "NW", "S", "SE", "SW")]
    assert refused(s, "japan", "position Haruna K9").rule == "4a2"  # the facing comes first
    s, _ = play(s, "japan", "face N")
    assert refused(s, "japan", "face S").rule == "4a2"  # one common facing
    for edge in ("A5", "J1", "T11", "J21"):
        assert refused(s, "japan", f"position Haruna {edge}").rule == "4a2"
    assert "position Haruna B2" in texts(s, "japan")  # next to the edge is fine
    s, _ = play(s, "japan", "position Haruna K9")
    nagara = {t.split()[2] for t in texts(s, "japan") if t.startswith("position Nagara")}
    for near in ("K9", "K8", "L8", "L9", "K10", "J9", "J8"):
        assert near not in nagara
        assert refused(s, "japan", f"position Nagara {near}").rule == "4a2"
    assert "K11" in nagara  # one empty hex between
    s, ev = play(s, "japan", "position Nagara K11")
    assert [e.data for e in kinds(ev, "ships-set-up")] == [
        {"facing": "N", "positions": {"Haruna": "K9", "Nagara": "K11"}}
    ]


def test_4a2_formation_places_the_remaining_ships_legally() -> None:
    s = game(japan={"MobileForce": ("K3", JAPAN_SHIPS)})
    s, _ = action_phase(s, usa=["B5"], usa_fly=fly("L3-strike", "K3"))
    s, _ = play(s, "japan", "face S", "position Akagi K9", "formation")
    assert s.battle is not None
    hexes = list(s.battle.positions.values())
    assert len(hexes) == len(set(hexes)) == 11
    from app.rules.board.boards import battleboard

    grid = battleboard()
    assert all(not grid.on_edge(h) for h in hexes)
    assert all(grid.distance(a, b) >= 2 for i, a in enumerate(hexes) for b in hexes[i + 1 :])
    assert s.battle.positions["Akagi"] == "K9" and s.battle.facing == 3


def test_4a3_1_dive_heavy_medium_bombers_stack_on_their_target() -> None:
    s = us_strike([], ["B5", "1BG11", "1SB241"])
    s, _ = play(s, "usa", "target B5 Haruna", "target 1BG11 Nagara", "target 1SB241 Haruna")
    assert s.battle is not None
    assert s.battle.air_hexes == {"B5": "K9", "1BG11": "K11", "1SB241": "K9"}
    assert not [t for t in texts(s, "japan") if "approach" in t]


def test_4a3_2_torpedo_bombers_approach_from_a_free_adjacent_hex() -> None:
    s = japan_strike(
        [], ["1AT", "2AT"], tf17=["Yorktown", "Astoria"], ships=("Yorktown J11", "Astoria L11")
    )
    hexes = {t.split()[3] for t in texts(s, "japan") if t.startswith("approach 1AT Yorktown")}
    assert hexes == {"J10", "K11", "K12", "J12", "I12", "I11"}
    assert not [t for t in texts(s, "japan") if t.startswith("target 1AT")]
    s, _ = play(s, "japan", "approach 1AT Yorktown K11")
    # K11 is next to both ships; a stack of torpedo bombers faces one way, so 2AT may join
    # 1AT there only against Yorktown.
    assert refused(s, "japan", "approach 2AT Astoria K11").rule == "4a3.2"
    astoria = {t.split()[3] for t in texts(s, "japan") if t.startswith("approach 2AT Astoria")}
    assert astoria == {"L10", "M11", "M12", "L12", "K12"}
    assert "approach 2AT Yorktown K11" in texts(s, "japan")


def test_4a3_2_torpedo_bomber_stacked_on_a_ship_is_refused_naming_4a3_2() -> None:
    s = japan_strike([], ["1AT"])
    assert refused(s, "japan", "target 1AT Yorktown").rule == "4a3.2"


def test_4a3_1_dive_bomber_approaching_is_refused_naming_4a3_1() -> None:
    s = japan_strike([], ["AD"])
    assert refused(s, "japan", "approach AD Yorktown K11").rule == "4a3.1"


def test_4d1_4_torpedo_bombers_against_the_base_stack_and_bomb_at_medium_level() -> None:
    s = game([*MISS, 3, 1], japan={"MobileForce": ("K3", JAPAN_SHIPS)})
    s, _ = action_phase(s, japan=["1AT"], japan_fly=fly("K3-strike", "K4", "L4", "M5"))
    assert texts(s, "japan") == ["target 1AT Midway"]  # no approach against the base
    s, _ = play(s, "japan", "target 1AT Midway")
    assert s.battle is not None and s.battle.air_hexes == {"1AT": "J11"}
    s, ev = anti_aircraft(s, "usa", "aa Midway 1AT", "fire")
    # AA 4 - 1 (medium level, 4c2.2) = 3; bombing 7 against Midway's defense 8.
    assert outcomes(ev, "anti-aircraft") == [(3, 4, 2, 12, "miss")]
    assert bombing_modifiers(ev) == [("Midway", "medium", 7, [])]
    assert outcomes(ev, "bombing") == [(7, 10, 8, 9, "hit")]
    assert s.units["usa"]["Midway"].damage == 1
    assert not s.forced_dice


# ---------------------------------------------------------------- 4b general combat rules


@pytest.mark.parametrize("roll", [1, 2])
def test_4b3_combat_number_below_1_counts_as_1(roll: int) -> None:
    # Nagara's AA 1, lowered to 0 by two hits, and -2 against high level bombing (4c2.1):
    # roll 1 -> -1, roll 2 -> 0; both count as 1.
    s = us_strike([roll, 1, *MISS], ["1BG11"], damage={("japan", "Nagara"): 2})
    s, _ = play(s, "usa", "target 1BG11 Haruna")
    s, ev = play(s, "japan", "aa Nagara 1BG11", "fire")
    assert outcomes(ev, "anti-aircraft") == [(-2, 1, 3, 4, "miss")]
    assert kinds(ev, "anti-aircraft")[0].data["attacker_roll"] == roll


@pytest.mark.parametrize(
    ("attacker_roll", "defender_roll", "outcome", "damage"),
    [
        (2, 2, "miss", 0),  # 4 vs 4: defender equal
        (3, 2, "hit", 1),  # 5 vs 4: more
        (5, 2, "hit", 1),  # 7 vs 4: just under two times
        (6, 2, "flip", FLIP),  # 8 vs 4: exactly two times
        (9, 2, "flip", FLIP),  # 11 vs 4: just under three times
        (10, 2, "eliminated", 6),  # 12 vs 4: exactly three times
        (3, 1, "hit", 1),  # 5 vs 3: under two times
        (4, 1, "flip", FLIP),  # 6 vs 3: exactly two times
        (6, 1, "flip", FLIP),  # 8 vs 3: just under three times
        (7, 1, "eliminated", 6),  # 9 vs 3: exactly three times
    ],
)
def test_4b4_combat_resolution(
    attacker_roll: int, defender_roll: int, outcome: str, damage: int
) -> None:
    # Haruna's AA 2 against B5's defense 2.
    dice = [attacker_roll, defender_roll, *([] if outcome == "eliminated" else MISS)]
    s = us_strike(dice, ["B5"])
    s, _ = play(s, "usa", "target B5 Haruna")
    s, ev = anti_aircraft(s, "japan", "aa Haruna B5", "fire")
    a, d = attacker_roll + 2, defender_roll + 2
    assert outcomes(ev, "anti-aircraft") == [(2, a, 2, d, outcome)]
    b5 = s.units["usa"]["B5"]
    assert b5.damage == damage
    assert (b5.box == GONE) == (outcome == "eliminated")
    assert len(kinds(ev, "bombing")) == (0 if outcome == "eliminated" else 1)
    assert not s.forced_dice


# ---------------------------------------------------------------- 4b5 damage


def _aa_on(unit: str, dice: list[int], damage: int) -> tuple[State, list[Event]]:
    """Haruna (AA 2) fires at `unit`, which starts with `damage` points."""
    s = us_strike(dice, [unit], damage={("usa", unit): damage})
    s, _ = play(s, "usa", *on_haruna(unit))
    return anti_aircraft(s, "japan", f"aa Haruna {unit}", "fire")


def test_4b5_a_flip_on_the_back_side_eliminates() -> None:
    s, ev = _aa_on("B5", [2, 1], FLIP)  # back defense 1: 4 vs 2
    assert outcomes(ev, "anti-aircraft") == [(2, 4, 1, 2, "eliminated")]
    assert s.units["usa"]["B5"].box == GONE and not kinds(ev, "bombing")


def test_4b5_a_flip_on_a_started_back_unit_eliminates() -> None:
    s, ev = _aa_on("1BG11", [10, 2], FLIP)  # AA 2 - 2 (high) = 0; back defense 3: 10 vs 5
    assert outcomes(ev, "anti-aircraft") == [(0, 10, 3, 5, "eliminated")]
    assert s.units["usa"]["1BG11"].box == GONE


def test_4b5_a_third_hit_flips() -> None:
    s, ev = _aa_on("B5", [2, 3, *MISS], 2)  # defense 2 - 2 hits = 0: 4 vs 3
    assert outcomes(ev, "anti-aircraft") == [(2, 4, 0, 3, "flip")]
    b5 = s.units["usa"]["B5"]
    assert (b5.flipped, b5.hits, b5.damage) == (True, 0, FLIP)
    assert bombing_modifiers(ev) == [("Haruna", "dive", 5, [])]  # the back's bombing 5


def test_4b5_a_flip_on_a_unit_with_a_hit_leaves_the_hit() -> None:
    s, ev = _aa_on("B5", [2, 1, *MISS], 1)  # defense 2 - 1 = 1: 4 vs 2
    assert outcomes(ev, "anti-aircraft") == [(2, 4, 1, 2, "flip")]
    b5 = s.units["usa"]["B5"]
    assert (b5.flipped, b5.hits) == (True, 1)
    assert bombing_modifiers(ev) == [("Haruna", "dive", 4, [])]  # back 5, one hit


def test_4b5_a_hit_on_a_flipped_unit_with_two_hits_eliminates() -> None:
    s, ev = _aa_on("B5", [2, 3], FLIP + 2)  # back defense 1 - 2 hits = 0: 4 vs 3
    assert outcomes(ev, "anti-aircraft") == [(2, 4, 0, 3, "eliminated")]
    assert s.units["usa"]["B5"].box == GONE


@pytest.mark.parametrize("unit", ["2T8", "5AF"])
def test_4b5_elim_back_unit_is_eliminated_by_a_flip(unit: str) -> None:
    s, ev = _aa_on(unit, [6, 1], 0)  # defense 3: 8 vs 4, two times
    assert outcomes(ev, "anti-aircraft") == [(2, 8, 3, 4, "eliminated")]
    assert s.units["usa"][unit].box == GONE


def test_4b5_elim_back_unit_is_eliminated_by_a_third_hit() -> None:
    s, ev = _aa_on("2T8", [1, 1], 2)  # defense 3 - 2 = 1: 3 vs 2, one hit
    assert outcomes(ev, "anti-aircraft") == [(2, 3, 1, 2, "eliminated")]
    assert s.units["usa"]["2T8"].box == GONE


@pytest.mark.parametrize(
    ("unit", "damage", "bombing"),
    [
        ("B5", 0, 7),
        ("B5", 1, 6),  # 10b1: bombing 7 becomes 6
        ("B5", 2, 5),
        ("B5", FLIP, 5),
        ("B5", FLIP + 2, 3),
        ("1BG11", FLIP + 1, 0),  # back bombing 1, one hit
        ("1BG11", FLIP + 2, 0),  # two hits: never below 0
    ],
)
def test_4b5_hit_markers_lower_bombing(unit: str, damage: int, bombing: int) -> None:
    s = us_strike(MISS, [unit], damage={("usa", unit): damage})
    s, _ = play(s, "usa", f"target {unit} Haruna")
    s, ev = play(s, "japan", "done")
    cat = "high" if unit == "1BG11" else "dive"
    assert bombing_modifiers(ev) == [("Haruna", cat, bombing, [])]


@pytest.mark.parametrize(
    ("unit", "damage", "defense"),
    [("B5", 0, 2), ("B5", 1, 1), ("B5", 2, 0), ("2SB241", FLIP + 1, 0), ("2SB241", FLIP + 2, 0)],
)
def test_4b5_hit_markers_lower_air_defense(unit: str, damage: int, defense: int) -> None:
    s = us_strike([*MISS, *MISS], [unit], damage={("usa", unit): damage})
    s, _ = play(s, "usa", f"target {unit} Haruna")
    s, ev = play(s, "japan", f"aa Haruna {unit}", "fire")
    assert [e.data["defender_modifier"] for e in kinds(ev, "anti-aircraft")] == [defense]


@pytest.mark.parametrize(
    ("ship", "damage", "aa"),
    [
        ("Haruna", 0, 2),
        ("Haruna", 1, 1),
        ("Haruna", 2, 0),
        ("Haruna", FLIP + 1, 0),  # back AA 1, one hit
        ("Nagara", 2, 0),  # AA 1, two hits: never below 0
    ],
)
def test_4b5_hit_markers_lower_aa(ship: str, damage: int, aa: int) -> None:
    s = us_strike([*MISS, *MISS], ["B5"], damage={("japan", ship): damage})
    s, _ = play(s, "usa", "target B5 Haruna")
    s, ev = play(s, "japan", f"aa {ship} B5", "fire")
    assert [e.data["attacker_modifier"] for e in kinds(ev, "anti-aircraft")] == [aa]


@pytest.mark.parametrize(("damage", "defense"), [(0, 5), (1, 4), (FLIP, 4), (FLIP + 2, 2)])
def test_4d4_target_defends_with_its_current_defense_factor(damage: int, defense: int) -> None:
    s = us_strike(MISS, ["B5"], damage={("japan", "Haruna"): damage})
    s, _ = play(s, "usa", "target B5 Haruna")
    s, ev = play(s, "japan", "done")
    assert [e.data["defender_modifier"] for e in kinds(ev, "bombing")] == [defense]


def test_4b5_eliminated_carrier_takes_its_ready_and_arming_air_units() -> None:
    s = japan_strike(
        [10, 1],  # AD: 10 + 7 + 4 = 21 against 1 + 3 = 4, three times or more
        ["AD"],
        arming=[("usa", "B3")],
        usa_launch=["O"],
        usa_fly=fly("O", "K3", "J3", "I3", "H3", "G3", "F3"),
    )
    s, _ = play(s, "japan", "target AD Yorktown")
    s, ev = play(s, "usa", "done")
    assert outcomes(ev, "bombing") == [(11, 21, 3, 4, "eliminated")]
    assert eliminated(ev) == ["Yorktown", "B3", "B5", "T3"]
    assert {e.data["cause"] for e in kinds(ev, "eliminated")[1:]} == {"aboard Yorktown"}
    assert s.units["usa"]["O"].box == FLYING  # flying, not aboard: it survives the sinking
    assert s.boards["usa"].forces["TF17"] is None  # 4e1: no ships left, marker removed
    # 5: O, six hexes out in F3, can reach no carrier or base (Midway is 7 away): eliminated.
    # The US goes first; with nothing to land, it is told O is lost before its "done"
    # (issue 13), and its "done" is not taken for it.
    s, ev = through(s, "reorganization")
    assert (s.step, s.waiting) == ("air return", ["usa", "japan"])
    assert view(s, "usa")["prompt"]["lost_if_done"] == [{"unit": "O", "rule": "5a2"}]
    s, ev = play(s, "usa", "done")
    assert [(e.data["unit"], e.data["cause"]) for e in kinds(ev, "eliminated")] == [
        ("O", "could not land (5a)")
    ]
    assert s.units["usa"]["O"].box == GONE
    s, _ = play(s, "japan", "land AD Akagi")
    assert s.turn == 9


def test_4b5_eliminated_base_takes_its_ready_and_arming_air_units() -> None:
    s = game(
        [10, 1],  # AD: 10 + 7 = 17 against 1 + (7 - 2 hits) = 6, two times: a flip
        japan={"MobileForce": ("K3", JAPAN_SHIPS)},
        damage={("usa", "Midway"): FLIP + 2},
    )
    s, _ = action_phase(
        s,
        usa=["1SB241"],
        usa_fly=fly("M5-strike", "M4"),
        japan=["AD"],
        japan_fly=fly("K3-strike", "K4", "L4", "M5"),
    )
    s, _ = play(s, "japan", "target AD Midway")
    s, ev = play(s, "usa", "done")
    assert outcomes(ev, "bombing") == [(7, 17, 5, 6, "eliminated")]  # a flip on the back
    assert eliminated(ev) == ["Midway", "2T8", "2SB241", "5AF", "1BG11", "A", "B", "C"]
    # 5a1: the green 1SB241, flying, has no base left to land on: lost on "done".
    s, ev = through(s, "reorganization")
    assert view(s, "usa")["prompt"]["lost_if_done"] == [{"unit": "1SB241", "rule": "5a1"}]
    s, ev = play(s, "usa", "done")
    assert [(e.data["unit"], e.data["cause"]) for e in kinds(ev, "eliminated")] == [
        ("1SB241", "could not land (5a)")
    ]


def test_4_apply_never_mutates_its_input_across_a_roll() -> None:
    s = us_strike([6, 2, *MISS], ["B5"])
    s, _ = play(s, "usa", "target B5 Haruna")
    s, _ = play(s, "japan", "aa Haruna B5")
    before = pickle.dumps(s)
    nxt, ev = apply(s, "japan", Action.from_text("fire"))
    assert outcomes(ev, "anti-aircraft") == [(2, 8, 2, 4, "flip")]
    assert pickle.dumps(s) == before
    assert (s.forced_dice, s.units["usa"]["B5"].damage, s.aa_used) == ([6, 2, *MISS], 0, [])
    assert (nxt.forced_dice, nxt.units["usa"]["B5"].damage, nxt.aa_used) == (
        MISS,
        FLIP,
        [UnitKey("japan", "Haruna")],
    )


# ---------------------------------------------------------------- 4c anti-aircraft


@pytest.mark.parametrize(("nagara", "in_range"), [("K12", True), ("K13", False)])
def test_4c1_aa_range_is_three_hexes(nagara: str, in_range: bool) -> None:
    s = us_strike([], ["B5", "T3"], ships=("Haruna K9", f"Nagara {nagara}"))
    s, _ = play(s, "usa", "target B5 Haruna", "approach T3 Haruna K10")
    assert ("aa Nagara B5" in texts(s, "japan")) == in_range
    assert "aa Nagara T3" in texts(s, "japan")  # from K10: 2 or 3 hexes
    if not in_range:
        refused(s, "japan", "aa Nagara B5")


def test_4c1_out_of_range_refusal_names_4c1() -> None:
    s = us_strike([], ["B5"], ships=("Haruna K9", "Nagara K13"))
    s, _ = play(s, "usa", "target B5 Haruna")
    assert refused(s, "japan", "aa Nagara B5").rule == "4c1"


def test_4c2_each_ship_fires_aa_once_per_combat_phase() -> None:
    dice = [*MISS, *MISS, *MISS, 1, 2, *MISS, *MISS]  # turn 8: 2 AA, 1 bombing; turn 9
    s = us_strike(
        dice,
        ["B3", "B5"],
        japan={
            "MobileForce": ("K3", ["Haruna", "Kirishima", "Nagara"]),
            "Group-A": ("I2", [u for u in JAPAN_REST if u != "Kirishima"]),
        },
        ships=("Haruna K9", "Kirishima M9", "Nagara K11"),
    )
    s, _ = play(s, "usa", "target B3 Haruna", "target B5 Haruna")
    s, _ = play(s, "japan", "aa Nagara B3", "cancel")  # nothing fired: Nagara stays free
    s, ev1 = play(s, "japan", "aa Haruna B5", "aa Kirishima B5", "fire")
    for ship in ("Haruna", "Kirishima"):
        assert refused(s, "japan", f"aa {ship} B3").rule == "4c2"
    assert texts(s, "japan") == ["aa Nagara B3", "aa Nagara B5", "done"]
    s, ev2 = play(s, "japan", "aa Nagara B3", "fire")  # no AA factor left: "done" by itself
    assert [(e.data["ships"], e.data["attacker_modifier"])
            for e in kinds(ev1 + ev2, "anti-aircraft")] == [
        (["Haruna", "Kirishima"], 4),  # factors added together
        (["Nagara"], 1),
    ]  # fmt: skip
    assert s.step == "reorganization"
    # The next Turn's Combat Phase: Haruna may fire again.
    s, _ = through(s, "reorganization")
    s, _ = through(s, "air return", usa=["land B3 Yorktown", "land B5 Yorktown"])
    assert s.turn == 9
    s, _ = action_phase(s, usa=["T3"], usa_fly=fly("L3-strike", "K3"))
    s, _ = play(s, "japan", "face N", "position Haruna K9", "position Kirishima M9")
    s, _ = play(s, "japan", "position Nagara K11")
    s, _ = play(s, "usa", "approach T3 Haruna L9")
    assert "aa Haruna T3" in texts(s, "japan")
    s, ev = play(s, "japan", "aa Haruna T3", "fire", "done")
    assert len(kinds(ev, "anti-aircraft")) == 1
    assert not s.forced_dice


def test_4c2_1_aa_minus_2_against_high_level_bombing() -> None:
    s = us_strike([*MISS, *MISS], ["1BG11"])
    s, _ = play(s, "usa", "target 1BG11 Haruna")
    s, ev = play(s, "japan", "aa Haruna 1BG11", "fire")
    assert outcomes(ev, "anti-aircraft") == [(0, 1, 3, 13, "miss")]  # AA 2 - 2


@pytest.mark.parametrize(("unit", "aa"), [("1SB241", 1), ("2SB241", 1)])
def test_4c2_2_aa_minus_1_against_medium_level_bombing(unit: str, aa: int) -> None:
    s = us_strike([*MISS, *MISS], [unit])
    s, _ = play(s, "usa", f"target {unit} Haruna")
    s, ev = play(s, "japan", f"aa Haruna {unit}", "fire")
    assert [e.data["attacker_modifier"] for e in kinds(ev, "anti-aircraft")] == [aa]


def test_4c2_2_aa_minus_1_against_torpedo_bombers_attacking_the_base() -> None:
    s = game([*MISS, *MISS], japan={"MobileForce": ("K3", JAPAN_SHIPS)})
    s, _ = action_phase(s, japan=["1AT"], japan_fly=fly("K3-strike", "K4", "L4", "M5"))
    s, _ = play(s, "japan", "target 1AT Midway")
    s, ev = play(s, "usa", "aa Midway 1AT", "fire")
    assert [e.data["attacker_modifier"] for e in kinds(ev, "anti-aircraft")] == [4 - 1]
    # The same unit attacking a ship drops a torpedo: no modifier (Yorktown's AA 3).
    s = japan_strike([*MISS, *MISS], ["1AT"])
    s, _ = play(s, "japan", "approach 1AT Yorktown K12")
    s, ev = play(s, "usa", "aa Yorktown 1AT", "fire")
    assert [e.data["attacker_modifier"] for e in kinds(ev, "anti-aircraft")] == [3]


@pytest.mark.parametrize("unit", ["B5", "T3", "5AF"])
def test_4c2_no_level_modifier_against_dive_and_torpedo_bombing(unit: str) -> None:
    s = us_strike([*MISS, *MISS], [unit])
    s, _ = play(s, "usa", *on_haruna(unit))
    s, ev = play(s, "japan", f"aa Haruna {unit}", "fire")
    assert [e.data["attacker_modifier"] for e in kinds(ev, "anti-aircraft")] == [2]


# ---------------------------------------------------------------- 4d bombing


def test_4d2_each_category_against_each_target_is_a_separate_combat() -> None:
    s = us_strike([*MISS] * 4, ["B3", "B5", "T3", "1SB241", "1BG11"])
    s, _ = play(s, "usa", *on_haruna("B3", "B5", "T3"), "target 1SB241 Nagara")
    s, _ = play(s, "usa", "target 1BG11 Nagara")
    s, _ = play(s, "japan", "done")
    assert texts(s, "usa") == [
        "bomb Haruna dive",
        "bomb Haruna torpedo",
        "bomb Nagara high",
        "bomb Nagara medium",
    ]
    s, ev1 = play(s, "usa", "bomb Haruna torpedo")  # in the attacker's order
    assert refused(s, "usa", "bomb Haruna torpedo").rule == "4d2"  # fought once
    s, ev2 = play(s, "usa", "bomb Nagara medium", "bomb Haruna dive")
    ev = ev1 + ev2
    assert [
        (e.data["target"], e.data["category"], e.data["units"]) for e in kinds(ev, "bombing")
    ] == [
        ("Haruna", "torpedo", ["T3"]),
        ("Nagara", "medium", ["1SB241"]),
        ("Haruna", "dive", ["B3", "B5"]),  # same category, same target: factors added
        ("Nagara", "high", ["1BG11"]),  # the last one resolves itself
    ]
    assert [e.data["attacker_modifier"] for e in kinds(ev, "bombing")] == [5, 5, 14, 1]
    assert not s.forced_dice


def test_4d2_no_combat_against_a_target_already_eliminated() -> None:
    s = us_strike([10, 1, *MISS], ["B3", "B5", "T3", "1SB241"])
    s, _ = play(s, "usa", *on_haruna("B3", "B5", "T3"), "target 1SB241 Nagara")
    s, _ = play(s, "japan", "done")
    s, ev = play(s, "usa", "bomb Haruna dive")  # 24 vs 6: eliminated
    assert [(e.data["target"], e.data["category"], e.data["outcome"])
            for e in kinds(ev, "bombing")] == [
        ("Haruna", "dive", "eliminated"),
        ("Nagara", "medium", "miss"),
    ]  # fmt: skip
    assert s.step == "reorganization" and not s.forced_dice


@pytest.mark.parametrize(
    ("facing", "approaches", "modifier", "notes"),
    [
        ("N", {"1AT": "K11", "2AT": "I11"}, 17, ["anvil (4d3.1)"]),  # 10b2
        ("N", {"1AT": "K11", "2AT": "K11"}, 14, []),  # one bow only
        ("N", {"1AT": "K12", "2AT": "I12"}, 14, []),  # both quarters: no anvil
        ("N", {"1AT": "J10"}, 5, ["threading (4d3.2)"]),  # dead ahead
        ("N", {"1AT": "J12"}, 5, ["threading (4d3.2)"]),  # dead astern
        ("N", {"1AT": "K11", "2AT": "I11", "1KT": "J10"}, 22,
         ["anvil (4d3.1)", "threading (4d3.2)"]),  # both at once
        ("S", {"1AT": "J10"}, 5, ["threading (4d3.2)"]),  # facing S, J10 is astern
        ("S", {"1AT": "K11", "2AT": "I11"}, 14, []),  # facing S, those are the quarters
        ("NE", {"1AT": "K12", "2AT": "J10"}, 17, ["anvil (4d3.1)"]),  # facing NE: bows
        ("NE", {"1AT": "K11"}, 5, ["threading (4d3.2)"]),  # facing NE, K11 is ahead
    ],
    ids=["anvil", "one-bow", "quarters", "ahead", "astern", "anvil-and-threading",
         "S-astern", "S-quarters", "NE-anvil", "NE-ahead"],
)  # fmt: skip
def test_4d3_1_anvil_and_4d3_2_threading(
    facing: str, approaches: dict[str, str], modifier: int, notes: list[str]
) -> None:
    s = japan_strike(MISS, list(approaches), facing=facing)
    s, _ = play(s, "japan", *(f"approach {u} Yorktown {h}" for u, h in approaches.items()))
    s, ev = play(s, "usa", "done")
    assert bombing_modifiers(ev) == [("Yorktown", "torpedo", modifier, notes)]


@pytest.mark.parametrize(
    ("arming", "attack", "modifier", "notes"),
    [
        # B5, T3 (combat units) and O (a scout) in Yorktown's Ready box: +4 (10b2).
        (["B3"], "target AD Yorktown", 11, ["combat air unit in Ready box (4d3.3)"]),
        # Only the scout O in the Ready box: no +4.
        (["B3", "B5", "T3"], "target AD Yorktown", 7, []),
        # Everything in the Arming box: no +4.
        (["B3", "B5", "T3", "O"], "target AD Yorktown", 7, []),
        # Torpedo bombing never gets it (10b2: 7 + 7 + 5 + 3 = 22).
        (["B3"], "approach 1AT Yorktown K12", 7, []),
    ],
    ids=["combat-unit-ready", "scout-ready", "all-arming", "torpedo"],
)
def test_4d3_3_dive_bombing_plus_4_with_a_combat_air_unit_in_the_ready_box(
    arming: list[str], attack: str, modifier: int, notes: list[str]
) -> None:
    unit = attack.split()[1]
    s = japan_strike(MISS, [unit], arming=[("usa", u) for u in arming])
    assert all(s.units["usa"][u].box == ARMING for u in arming)
    s, _ = play(s, "japan", attack)
    s, ev = play(s, "usa", "done")
    assert bombing_modifiers(ev)[0][2:] == (modifier, notes)


def test_4d3_3_no_ready_box_bonus_against_the_base() -> None:
    s = game(MISS, japan={"MobileForce": ("K3", JAPAN_SHIPS)})
    s, _ = action_phase(s, japan=["AD"], japan_fly=fly("K3-strike", "K4", "L4", "M5"))
    assert s.units["usa"]["1SB241"].box == READY  # combat air units in Midway's Ready box
    s, _ = play(s, "japan", "target AD Midway")
    s, ev = play(s, "usa", "done")
    assert bombing_modifiers(ev) == [("Midway", "dive", 7, [])]


# ---------------------------------------------------------------- 4e battle's end


def test_4e1_empty_task_force_marker_removed_and_reorganisation() -> None:
    s = us_strike(
        [10, 1],  # B3 + B5 dive on Haruna: 24 vs 6, eliminated
        ["B3", "B5"],
        japan={
            "MobileForce": ("K3", ["Haruna"]),
            "Group-A": ("K3", ["Nagara"]),
            "Group-B": ("I2", JAPAN_REST),
        },
        ships=("Nagara K11", "Haruna K9"),  # Group-A's ships are set up first
    )
    s, _ = play(s, "usa", "target B3 Haruna", "target B5 Haruna")
    s, ev = play(s, "japan", "done")
    assert eliminated(ev) == ["Haruna"]
    forces = s.boards["japan"].forces
    assert (forces["MobileForce"], forces["Group-A"], forces["Group-B"]) == (None, "K3", "I2")
    # 4e3: the air units are back in the battle hex.
    assert {u: f.hex for u, f in s.boards["usa"].flights.items()} == {"B3": "K3", "B5": "K3"}
    assert (s.step, s.waiting) == ("reorganization", ["usa", "japan"])
    s, _ = play(s, "usa", "done")
    nagara = sorted(t for t in texts(s, "japan") if t.startswith("transfer Nagara"))
    assert nagara == ["transfer Nagara Group-C", "transfer Nagara MobileForce"]
    assert refused(s, "japan", "transfer Nagara Group-B").rule == "4e1"  # another hex
    s, _ = play(s, "japan", "transfer Nagara MobileForce")  # even the marker just removed
    assert (forces := s.boards["japan"].forces)["MobileForce"] == "K3"
    assert forces["Group-A"] is None  # its last ship left
    assert s.units["japan"]["Nagara"].area == "MobileForce"
    s, _ = play(s, "japan", "transfer Akagi Group-C", "done")
    assert (s.boards["japan"].forces["Group-C"], s.boards["japan"].forces["Group-B"]) == (
        "I2",
        "I2",
    )
    assert s.step == "air return"


def test_4e1_no_reorganisation_in_a_hex_whose_battle_is_still_to_come() -> None:
    """4e1: reorganisation "may be performed both on units just in battle and, also, in
    other hexes that were uninvolved, and may not be performed at any other time": after
    the battle in L3, Japan may not reorganise K3, whose battle is still to come, but may
    reorganise I2, which has none; after K3's battle, K3 too."""
    s = game(
        [*MISS, *MISS, *MISS],
        usa={"TF17": ("L3", ["Yorktown"]), "TF-A": ("T1", ["Astoria", "Portland", "DD2"]),
             "TF16": ("T11", [])},
        japan={"MobileForce": ("K3", ["Haruna"]), "Group-A": ("K3", ["Nagara"]),
               "Group-B": ("I2", JAPAN_REST)},
    )  # fmt: skip
    s, _ = action_phase(
        s,
        usa=["B5"],
        usa_fly=fly("L3-strike", "K3"),
        japan=["AD"],
        japan_fly=fly("I2-strike", "J2", "K3", "L3"),
    )
    s, _ = play(s, "japan", "battle L3")
    s, _ = play(s, "usa", "face N", "position Yorktown J11")
    s, _ = play(s, "japan", "target AD Yorktown")
    s, _ = anti_aircraft(s, "usa", "aa Yorktown AD", "fire")
    assert s.step == "reorganization" and s.battles == [("K3", "usa")]
    s, _ = play(s, "usa", "done")
    moves = texts(s, "japan")
    assert "transfer Akagi Group-C" in moves  # I2: not involved in battle
    assert not [t for t in moves if t.startswith(("transfer Nagara", "transfer Haruna"))]
    assert refused(s, "japan", "transfer Nagara MobileForce").rule == "4e1"  # K3: to come
    s, ev = play(s, "japan", "done")
    assert [(e.data["hex"], e.data["attacker"]) for e in kinds(ev, "battle")] == [("K3", "usa")]
    s, _ = play(s, "japan", "face N", "position Nagara K11", "position Haruna K9")
    s, _ = play(s, "usa", "target B5 Haruna")
    s, _ = anti_aircraft(s, "japan")
    assert s.step == "reorganization" and not s.forced_dice
    s, _ = play(s, "usa", "done")
    moves = texts(s, "japan")
    assert "transfer Nagara MobileForce" in moves  # K3: its battle just ended
    assert "transfer Akagi Group-C" in moves  # I2: still uninvolved


# ---------------------------------------------------------------- 4: several battles


def test_4_side_a_orders_the_battles_and_spent_aa_stays_spent_between_them() -> None:
    """2b2, 4: Side A (Japan) orders the battles; 4c2: AA used in the first battle of the
    Combat Phase is still spent in the second. (In the Basic Game a ship defends in one
    battle only, so "once per Combat Phase" shows as the record kept across battles.)"""
    s = game(
        [*MISS, *MISS, *MISS, *MISS],
        usa={"TF17": ("L3", ["Yorktown"]), "TF-A": ("T1", ["Astoria", "Portland", "DD2"]),
             "TF16": ("T11", [])},
    )  # fmt: skip
    s, _ = action_phase(
        s,
        usa=["B5"],
        usa_fly=fly("L3-strike", "K3"),
        japan=["AD"],
        japan_fly=fly("I2-strike", "J2", "K3", "L3"),
    )
    assert (s.step, s.waiting) == ("combat", ["japan"])
    assert texts(s, "japan") == ["battle K3", "battle L3"]
    assert refused(s, "usa", "battle K3").rule == "3"
    s, ev = play(s, "japan", "battle L3")
    assert [(e.data["hex"], e.data["attacker"]) for e in kinds(ev, "battle")] == [("L3", "japan")]
    s, _ = play(s, "usa", "face N", "position Yorktown J11")
    s, _ = play(s, "japan", "target AD Yorktown")
    s, ev = anti_aircraft(s, "usa", "aa Yorktown AD", "fire")
    assert len(kinds(ev, "bombing")) == 1 and s.step == "reorganization"
    assert s.aa_used == [UnitKey("usa", "Yorktown")]
    s, ev = through(s, "reorganization")
    # The last battle starts by itself.
    assert [(e.data["hex"], e.data["attacker"]) for e in kinds(ev, "battle")] == [("K3", "usa")]
    s, _ = play(s, "japan", "face N", "position Haruna K9", "position Nagara K11")
    s, _ = play(s, "usa", "target B5 Haruna")
    s, _ = play(s, "japan", "aa Haruna B5", "fire")
    assert s.aa_used == [UnitKey("usa", "Yorktown"), UnitKey("japan", "Haruna")]
    s, _ = play(s, "japan", "done")
    assert s.step == "reorganization" and not s.forced_dice


def test_4a3_done_before_every_air_unit_is_set_up_is_refused_naming_the_rule() -> None:
    """4a3: the attacker sets up every air unit of the strike before the attack; "done"
    with one still to set up is refused with the rule and the units left, not an error."""
    s = us_strike(units=("B5",))
    assert Action("done") not in legal_actions(s, "usa")
    with pytest.raises(IllegalAction) as refused:
        apply(s, "usa", Action("done"))
    assert refused.value.rule == "4a3" and "B5" in str(refused.value)
