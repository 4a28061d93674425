"""Option 16 (surface combats) in Scenario Four (7e): setup, Surface Turns, forced dice.

Scenario Four after setup with the default `four()`: the Americans (Side B) on night
setup line I facing north, I11 (Minneapolis) to I16 (DD3); the Japanese (Side A) on L,
L11 (Kumano) to L15 (DD10), facing the same way (7e4.2). `arrange` then puts chosen ships
on hand-picked hexes (the others leave the Battleboard) for hand-checked geometry.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, view
from app.rules.base.victory import victory_points
from app.rules.board.grid import DIRECTIONS
from app.rules.engine.state import SIDES, State
from app.rules.optional.surface.geometry import sector, torpedo_hexes, torpedo_line
from app.rules.optional.surface.model import Surface, SurfaceCombat

from ..helpers import edited, kinds, play

USA_LINE = ["Minneapolis", "NewOrleans", "Northampton", "Pensacola", "Vincennes", "DD3"]
JAPAN_LINE = ["Kumano", "Mikuma", "Mogami", "Suzuya", "DD10"]


def four(options: frozenset[str] = frozenset(), sides: tuple[int, int] = (3, 7)) -> State:
    """Scenario Four set up; `sides` are the first 16d1 rolls (American, Japanese)."""
    s = new_game("four", options, 1)
    s, _ = play(s, "usa", "line I N", "formation")
    s.forced_dice = list(sides)
    s, _ = play(s, "japan", "formation")
    return s


def combat(s: State) -> SurfaceCombat:
    assert isinstance(s.surface, Surface) and s.surface.combat is not None
    return s.surface.combat


def arrange(s: State, ships: dict[str, tuple[str, str]]) -> State:
    """Only these ships on the Battleboard: {"usa/Minneapolis": ("J12", "N")}."""
    c = combat(s)
    for side in SIDES:
        c.hexes[side].clear()
        c.facings[side].clear()
    for name, (hex_, facing) in ships.items():
        side, uid = name.split("/")
        assert side in SIDES
        c.hexes[side][uid] = hex_  # type: ignore[index]
        c.facings[side][uid] = DIRECTIONS.index(facing)  # type: ignore[index]
    return edited(s)


def done_until(s: State, step: str) -> State:
    """Finish each waiting side's part until `step` is reached."""
    while s.step != step:
        assert s.status != "finished", f"the game ended before {step}"
        seat = s.waiting[0]
        s, _ = play(s, seat, "done")
    return s


def done(s: State, seat: str) -> State:
    """Finish `seat`'s part if it still has one (a lone "done" is taken automatically)."""
    if seat in s.waiting[:1]:
        s, _ = play(s, seat, "done")
    return s


def refused(s: State, seat: str, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(s, seat, {"kind": text.split()[0], **_fields(text)})
    return err.value.rule


def _fields(text: str) -> dict[str, str]:
    from app.rules.engine.actions import FIELDS

    kind, *values = text.split()
    return dict(zip(FIELDS[kind], values, strict=True))


# ---------------------------------------------------------------- 7e, 16c setup


def test_7e_scenario_four_starts_on_the_battleboard_with_side_b_setting_up() -> None:
    s = new_game("four", frozenset(), 1)
    assert s.status == "playing" and s.step == "surface setup" and s.waiting == ["usa"]
    assert "16" in s.options  # 7e: option 16 must be used
    assert [a.text() for a in legal_actions(s, "usa")] == [
        "line I N", "line I S", "line L N", "line L S",
    ]  # fmt: skip
    c = combat(s)
    assert c.night and c.facing == "same" and c.setup_b == "usa" and s.side_a == "japan"
    assert c.ships == {"usa": USA_LINE, "japan": JAPAN_LINE}
    assert s.units["japan"]["Mikuma"].flipped and s.units["japan"]["Mogami"].hits == 1


def test_16c1_the_lead_ship_goes_in_the_x_hex_and_the_others_behind() -> None:
    s = new_game("four", frozenset(), 1)
    s, _ = play(s, "usa", "line I N")
    assert {a.get("hex") for a in legal_actions(s, "usa") if a.kind == "position"} == {"I11"}
    s, _ = play(s, "usa", "position Vincennes I11")
    # Six ships: a second battleline two columns back (G11) is possible, 3 + 3 (16c2.3).
    assert {a.get("hex") for a in legal_actions(s, "usa") if a.kind == "position"} == {
        "I12",
        "G11",
    }
    s, _ = play(s, "usa", "position Minneapolis I12", "position NewOrleans I13")
    s, _ = play(s, "usa", "position Northampton I14")
    # Four in the first battleline leave two: too few for another (16c2.3).
    assert refused(s, "usa", "position Pensacola G11") == "16c2.3"
    s, _ = play(s, "usa", "formation")
    assert combat(s).hexes["usa"]["DD3"] == "I16" and s.waiting == ["japan"]
    # Side A: the other night line, facing the same way (7e4.2), five ships in one line.
    assert {a.get("hex") for a in legal_actions(s, "japan") if a.kind == "position"} == {"L11"}
    s, _ = play(s, "japan", "position DD10 L11")
    assert {a.get("hex") for a in legal_actions(s, "japan") if a.kind == "position"} == {"L12"}


def test_16c2_3_two_battlelines_of_three() -> None:
    s = new_game("four", frozenset(), 1)
    s, _ = play(s, "usa", "line L S", "position Minneapolis L11", "position NewOrleans N11")
    # Facing south, each ship is behind (north of) the one before it.
    s, _ = play(s, "usa", "position Northampton L10", "position Pensacola N10")
    s, _ = play(s, "usa", "formation")
    c = combat(s)
    assert [len(line) for line in c.lines["usa"]] == [3, 3]
    assert {c.facings["usa"][u] for u in USA_LINE} == {DIRECTIONS.index("S")}
    s, _ = play(s, "japan", "formation")
    assert set(combat(s).hexes["japan"].values()) == {"I11", "I10", "I9", "I8", "I7"}


def test_16c2_4_ships_dead_in_the_water_go_at_the_back() -> None:
    s = new_game("four", frozenset({"11c"}), 1)
    # flipped, with a 2 hits marker: dead in the water
    s.put(replace(s.units["usa"]["Minneapolis"], damage=5))
    s, _ = play(s, "usa", "line I N")
    assert refused(s, "usa", "position Minneapolis I11") == "16c2.4"
    s, _ = play(s, "usa", "formation")
    assert combat(s).lines["usa"][-1][-1] == "Minneapolis"


def test_16b_7e4_2_variant_sets_the_japanese_facing_the_other_way() -> None:
    s = new_game("four", frozenset(), 1)
    c = combat(s)
    c.facing = "opposite"  # 7e4.2 "for variety" (16b2.2)
    s, _ = play(s, "usa", "line I N", "formation")
    s, _ = play(s, "japan", "formation")
    c = combat(s)
    assert {c.facings["japan"][u] for u in JAPAN_LINE} == {DIRECTIONS.index("S")}
    assert c.hexes["japan"]["DD10"] == "L7"


# ---------------------------------------------------------------- 16d1 sides


def test_16d1_high_roll_is_surface_side_a_ties_rolled_again() -> None:
    s = new_game("four", frozenset(), 1)
    s, _ = play(s, "usa", "line I N", "formation")
    s.forced_dice = [5, 5, 8, 2]
    s, ev = play(s, "japan", "formation")
    assert [e.data["rolls"] for e in kinds(ev, "surface-sides-roll")] == [
        {"usa": 5, "japan": 5},
        {"usa": 8, "japan": 2},
    ]
    assert combat(s).side_a == "usa" and s.step == "surface movement"
    assert s.waiting == ["japan", "usa"]  # 16d2: Surface Side B moves first


# ---------------------------------------------------------------- 16e movement


def test_16e_moving_ahead_and_turning_each_cost_a_movement_factor() -> None:
    s = four()
    s, _ = play(s, "usa", "advance Minneapolis", "turn Minneapolis starboard")
    c = combat(s)
    assert (
        c.hexes["usa"]["Minneapolis"] == "I10"
        and DIRECTIONS[c.facings["usa"]["Minneapolis"]] == "NE"
    )
    s, _ = play(s, "usa", "advance Minneapolis")
    assert combat(s).hexes["usa"]["Minneapolis"] == "J9"  # from I10 (even column) NE is J9
    assert refused(s, "usa", "advance Minneapolis") == "16e"  # three factors spent
    assert refused(s, "usa", "turn Minneapolis port") == "16e"
    assert refused(s, "usa", "advance Kumano") == "16e"


def test_16e3_a_ship_moves_through_another_but_never_stops_in_its_hex() -> None:
    s = arrange(
        four(),
        {"usa/Minneapolis": ("I11", "N"), "usa/DD3": ("I12", "N"), "japan/Kumano": ("L11", "N")},
    )
    s, _ = play(s, "usa", "advance DD3")  # into Minneapolis's hex
    assert [a.text() for a in legal_actions(s, "usa")] == ["advance DD3"]
    assert refused(s, "usa", "done") == "16e3"
    s, _ = play(s, "usa", "advance DD3", "done")
    assert combat(s).hexes["usa"]["DD3"] == "I10"
    # Blocked with one factor left: a ship ahead and nowhere beyond it to stop.
    s = arrange(
        four(),
        {"usa/Minneapolis": ("I11", "N"), "usa/DD3": ("I12", "N"), "japan/Kumano": ("L11", "N")},
    )
    s, _ = play(s, "usa", "turn DD3 port", "turn DD3 starboard")
    assert refused(s, "usa", "advance DD3") == "16e3"


def test_11c1_a_ship_dead_in_the_water_may_not_move() -> None:
    s = four(frozenset({"11c"}))
    s.put(replace(s.units["usa"]["Minneapolis"], damage=5))
    s = edited(s)
    assert refused(s, "usa", "advance Minneapolis") == "11c1"
    assert refused(s, "usa", "turn Minneapolis port") == "11c1"


def test_16e4_no_ship_leaves_the_battleboard_the_ships_may_be_shifted() -> None:
    s = arrange(four(), {"usa/Minneapolis": ("I1", "N"), "japan/Kumano": ("L11", "N")})
    assert refused(s, "usa", "advance Minneapolis") == "16e4"
    shifts = {a.get("direction") for a in legal_actions(s, "usa") if a.kind == "shift"}
    assert "S" in shifts and "N" not in shifts
    s, _ = play(s, "usa", "shift S", "advance Minneapolis")
    c = combat(s)
    assert c.hexes["usa"]["Minneapolis"] == "I1" and c.hexes["japan"]["Kumano"] == "L12"
    assert refused(s, "usa", "shift S") == "16e4"  # once a Surface Turn


# ---------------------------------------------------------------- 16g gunnery


def test_16g2_sectors_hand_checked() -> None:
    """A ship in K11 facing north: the 60 degree front wedge, edge hexes in the side sector."""
    front = ["K10", "K9", "K8", "L8", "J8", "K6", "M6", "I6"]
    edge = ["L9", "J9", "M8", "I8"]  # on the wedge's edge lines (N+NE, N+NW)
    side = ["L11", "J11", "L10", "J10", "L12", "J12", "M11", "I11"]
    rear = ["K12", "K13", "L13", "J13", "K16"]
    assert [sector("K11", 0, h) for h in front] == ["front"] * len(front)
    assert [sector("K11", 0, h) for h in edge + side] == ["side"] * len(edge + side)
    assert [sector("K11", 0, h) for h in rear] == ["rear"] * len(rear)
    # Facing south-east the wedges turn with the ship: ahead is L11, M12, N12 ...
    assert [sector("K11", 2, h) for h in ("L11", "M12", "N12", "J10", "I10")] == [
        "front", "front", "front", "rear", "rear",
    ]  # fmt: skip
    assert sector("K11", 2, "K12") == "side"


def _gun(s: State, seat: str, text: str, dice: list[int]) -> dict[str, object]:
    s.forced_dice = dice
    _, ev = play(s, seat, text)
    return next(e.data for e in ev if e.kind == "gunnery")


def test_16g_gunnery_modifiers_range_sectors_and_armour() -> None:
    s = arrange(
        four(),
        {
            "japan/Kumano": ("L11", "N"),
            "usa/Minneapolis": ("L9", "N"),
            "usa/NewOrleans": ("I11", "N"),
            "usa/Northampton": ("L14", "N"),
            "usa/DD3": ("K11", "N"),
        },
    )
    s = done_until(s, "gunnery")
    assert s.waiting == ["usa", "japan"]
    # DD3 (2d) at Kumano (3b), next to it on its beam: 2 + 2 half range - 4 (d guns, b armour).
    d = _gun(s, "usa", "gun DD3 Kumano", [5, 5])
    assert d["attacker_modifier"] == 0 and d["defender_modifier"] == 3
    s, _ = play(s, "usa", "done")
    # Kumano (3b): ahead at half range 3 + 2 - 2 (front sector); abeam 3; astern 3 - 2.
    assert _gun(s, "japan", "gun Kumano Minneapolis", [5, 5])["attacker_modifier"] == 3
    assert _gun(s, "japan", "gun Kumano NewOrleans", [5, 5])["attacker_modifier"] == 3
    assert _gun(s, "japan", "gun Kumano Northampton", [5, 5])["attacker_modifier"] == 1
    d = _gun(s, "japan", "gun Kumano NewOrleans", [8, 2])  # 11 against 5: flipped (4b4)
    assert d["outcome"] == "flip"


def test_16g_one_attack_per_ship_each_surface_turn_within_gun_range() -> None:
    s = arrange(
        four(),
        {
            "japan/Kumano": ("L11", "N"),
            "usa/DD3": ("I11", "N"),
            "usa/NewOrleans": ("I12", "N"),
            "usa/Minneapolis": ("R11", "N"),
        },
    )
    s = done_until(s, "gunnery")
    assert refused(s, "usa", "gun Minneapolis Kumano") == "16g1"  # b guns: 5 hexes, it is 6
    s.forced_dice = [1, 10]
    s, _ = play(s, "usa", "gun DD3 Kumano")
    assert refused(s, "usa", "gun DD3 Kumano") == "16g"
    assert [a.text() for a in legal_actions(s, "usa")] == ["done", "gun NewOrleans Kumano"]


def test_16g_minneapolis_five_hexes_is_in_range() -> None:
    s = arrange(four(), {"japan/Kumano": ("L11", "N"), "usa/Minneapolis": ("L16", "N")})
    s = done_until(s, "gunnery")
    assert [a.text() for a in legal_actions(s, "usa")] == ["done", "gun Minneapolis Kumano"]


# ---------------------------------------------------------------- 16f, 16h torpedoes


def test_16f_torpedo_marker_hexes_and_lines_hand_checked() -> None:
    assert torpedo_hexes("L11", 0) == [("M11", 1), ("M12", 2), ("K12", 4), ("K11", 5)]
    assert torpedo_line("L11", 4, 5) == ("K12", "J12", "I13", "H13", "G14")
    assert torpedo_line("L11", 5, 5) == ("K11", "J10", "I10", "H9", "G9")
    assert torpedo_line("I11", 1, 5) == ("J10", "K10", "L9", "M9", "N8")
    s = four()
    s = done_until(s, "torpedo fire")
    # The Americans have only DD3 with torpedoes (range 2): nothing in range, so they pass.
    assert s.waiting == ["japan"]
    # Kumano in L11: the line through K12 reaches Northampton in I13 (3 hexes); the line
    # through K11 meets nobody within five hexes; the others point away.
    kumano = [a.text() for a in legal_actions(s, "japan") if a.values[:1] == ("Kumano",)]
    assert kumano == ["torpedo Kumano K12"]


def test_16f3_no_marker_on_a_ship_nor_with_a_friendly_ship_first_in_line() -> None:
    s = arrange(
        four(),
        {
            "japan/Kumano": ("L11", "N"),
            "japan/Suzuya": ("J12", "N"),
            "usa/Northampton": ("I13", "N"),
            "usa/Minneapolis": ("K11", "N"),
            "usa/Pensacola": ("G11", "N"),
        },
    )
    s = done_until(s, "torpedo fire")
    assert [a.text() for a in legal_actions(s, "japan")] == ["done", "torpedo Suzuya I12"]
    assert refused(s, "japan", "torpedo Kumano K12") == "16f3"  # Suzuya is nearer
    assert refused(s, "japan", "torpedo Kumano K11") == "16f3"  # Minneapolis is in the hex


def test_16f4_torpedoes_once_per_combat_and_once_per_game_16f5_reloads() -> None:
    s = four(frozenset({"16f5"}))
    s = done_until(s, "torpedo fire")
    s, _ = play(s, "japan", "torpedo Kumano K12")
    assert refused(s, "japan", "torpedo Kumano K12") == "16f4"
    assert isinstance(s.surface, Surface) and s.surface.fired["japan"] == ["Kumano"]
    from app.rules.optional.surface.torpedoes import may_fire

    later = SurfaceCombat("H4", True, "same", "usa")  # a later combat: Kumano may fire again
    assert may_fire(s, later, "japan", "Kumano")
    s.surface.fired["usa"] = ["DD3"]
    assert not may_fire(s, later, "usa", "DD3")  # 16f5 is for Japanese ships only
    s.options = tuple(o for o in s.options if o != "16f5")
    assert not may_fire(s, later, "japan", "Kumano")


def test_16h2_a_miss_runs_on_friendly_ships_included_the_attacker_rolling_both_dice() -> None:
    s = arrange(
        four(),
        {
            "japan/Kumano": ("L11", "N"),
            "usa/Minneapolis": ("J12", "N"),
            "japan/Suzuya": ("I13", "N"),
            "usa/Northampton": ("H13", "N"),
        },
    )
    s = done_until(s, "torpedo fire")
    s, _ = play(s, "japan", "torpedo Kumano K12")
    s, _ = play(s, "usa", "done")
    s.forced_dice = [1, 10, 1, 10, 10, 1]
    s, ev = play(s, "japan", "done")
    combats = [e.data for e in kinds(ev, "torpedo")]
    assert [c["target"] for c in combats] == ["usa/Minneapolis", "japan/Suzuya", "usa/Northampton"]
    # Minneapolis, two hexes: torpedo 2, night +2, half range +2; then on down the line.
    assert [c["attacker_modifier"] for c in combats] == [6, 4, 4]
    assert combats[0]["modifiers"] == ["night (16h1.1)", "half range (16h1.3)"]
    assert [c["outcome"] for c in combats] == ["miss", "miss", "eliminated"]
    assert combats[1]["friendly"] is True and combats[1]["rolled_by"] == "japan"
    assert s.units["usa"]["Northampton"].eliminated and not combat(s).torpedoes


def test_16h_a_hit_stops_the_torpedoes() -> None:
    s = arrange(
        four(),
        {
            "japan/Kumano": ("L11", "N"),
            "usa/Minneapolis": ("J12", "N"),
            "usa/Northampton": ("I13", "N"),
        },
    )
    s = done_until(s, "torpedo fire")
    s, _ = play(s, "japan", "torpedo Kumano K12")
    s, _ = play(s, "usa", "done")
    s.forced_dice = [10, 8]  # 16 against 11: a hit
    s, ev = play(s, "japan", "done")
    assert [e.data["outcome"] for e in kinds(ev, "torpedo")] == ["hit"]
    assert s.units["usa"]["Minneapolis"].hits == 1 and s.units["usa"]["Northampton"].hits == 0


def test_16h1_2_anvil_two_markers_on_both_bows_combine() -> None:
    s = arrange(
        four(),
        {
            "usa/Minneapolis": ("J14", "N"),
            "japan/Kumano": ("M13", "N"),
            "japan/Suzuya": ("G13", "N"),
        },
    )
    s = done_until(s, "torpedo fire")
    s, _ = play(s, "japan", "torpedo Kumano L13", "torpedo Suzuya H13")
    s = done(s, "usa")
    s.forced_dice = [1, 10]
    s, ev = play(s, "japan", "done")
    (c,) = [e.data for e in kinds(ev, "torpedo")]
    assert c["ships"] == ["Kumano", "Suzuya"] and c["modifiers"] == [
        "night (16h1.1)",
        "anvil (16h1.2)",
    ]
    assert c["attacker_modifier"] == 2 + 2 + 2 + 3


def test_16h1_2_threading_a_torpedo_from_dead_ahead() -> None:
    s = arrange(four(), {"usa/Minneapolis": ("J14", "NE"), "japan/Kumano": ("M13", "N")})
    s = done_until(s, "torpedo fire")
    s, _ = play(s, "japan", "torpedo Kumano L13")
    s = done(s, "usa")
    s.forced_dice = [1, 10]
    s, ev = play(s, "japan", "done")
    (c,) = [e.data for e in kinds(ev, "torpedo")]
    assert c["modifiers"] == ["night (16h1.1)", "threading (16h1.2)"]
    assert c["attacker_modifier"] == 2 + 2 - 2


def test_16h_the_marker_of_an_eliminated_ship_misses_everything() -> None:
    s = arrange(
        four(),
        {"japan/DD10": ("L11", "N"), "usa/Minneapolis": ("J12", "N"), "japan/Kumano": ("T1", "N")},
    )
    s = done_until(s, "torpedo fire")
    s, _ = play(s, "japan", "torpedo DD10 K12")
    s.forced_dice = [10, 1]  # Minneapolis sinks DD10 (ELIM on its back) with its guns
    s, ev = play(s, "usa", "gun Minneapolis DD10")
    assert s.units["japan"]["DD10"].eliminated and combat(s).turn == 2
    assert not kinds(ev, "torpedo") and len(kinds(ev, "torpedo-removed")) == 1


# ---------------------------------------------------------------- 16i breakoffs


def test_7e4_3_no_breakoff_before_the_end_of_surface_turn_4() -> None:
    s = four()
    s = done_until(s, "breakoff")
    assert combat(s).turn == 4  # Surface Turns 1-3 passed their breakoffs: nothing to choose
    assert "breakoff DD3" in [a.text() for a in legal_actions(s, "usa")]
    combat(s).turn = 3
    s = edited(s)
    assert refused(s, "usa", "breakoff DD3") == "7e4.3"


def test_16i_groups_and_the_breakoff_roll() -> None:
    s = four()
    c = combat(s)
    c.turn = 4
    arrange(
        s,
        {
            "usa/Minneapolis": ("I11", "N"),
            "usa/NewOrleans": ("I12", "N"),
            "usa/DD3": ("E11", "N"),
            "japan/Kumano": ("L11", "N"),
        },
    )
    s = done_until(s, "breakoff")
    acts = [a.text() for a in legal_actions(s, "usa")]
    assert acts == ["breakoff DD3", "breakoff Minneapolis", "done"]  # 16i1: two groups
    assert refused(s, "usa", "breakoff NewOrleans") == "16i1"  # named by its first ship
    s, _ = play(s, "usa", "breakoff Minneapolis", "done")
    # Night -5, three Surface Turns completed +3: 8 - 2 = 6 beats 5; DD3 stays.
    s.forced_dice = [8, 5, 7, 3]
    s, ev = play(s, "japan", "done")
    (b,) = kinds(ev, "breakoff")
    assert (b.data["modifier"], b.data["number"], b.data["success"]) == (-2, 6, True)
    c = combat(s)
    assert c.broke_off["usa"] == ["Minneapolis", "NewOrleans"]
    assert set(c.hexes["usa"]) == {"DD3"} and c.turn == 5


def test_16i_a_breakoff_needs_a_higher_number_and_a_side_gone_ends_the_combat() -> None:
    s = four()
    combat(s).turn = 5  # -5 at night, +4 for four Surface Turns completed
    s = done_until(s, "breakoff")
    s, _ = play(s, "usa", "done")
    s.forced_dice = [6, 5]  # 5 against 5: it fails (16i2.2)
    s, ev = play(s, "japan", "breakoff DD10")  # the whole battleline is one group
    b = kinds(ev, "breakoff")[0].data
    assert (b["number"], b["opponent_roll"], b["success"]) == (5, 5, False)
    assert len(combat(s).hexes["japan"]) == 5 and combat(s).turn == 6
    s = done_until(s, "breakoff")
    s, _ = play(s, "usa", "done")
    s.forced_dice = [7, 7]  # -5 +5: 7 against 7 fails; Surface Turn 6
    s, ev = play(s, "japan", "breakoff DD10")
    assert kinds(ev, "breakoff")[0].data["success"] is False
    s = done_until(s, "breakoff")
    s, _ = play(s, "usa", "done")
    s.forced_dice = [3, 2]  # -5 +6: 4 against 2, the Japanese are gone; the game ends
    s, ev = play(s, "japan", "breakoff DD10")
    assert kinds(ev, "breakoff")[0].data["success"] is True
    assert combat(s).broke_off["japan"] == ["DD10", "Kumano", "Mikuma", "Mogami", "Suzuya"]
    assert s.status == "finished" and combat(s).turn == 7


def test_11c1_a_group_with_a_ship_dead_in_the_water_may_not_break_off() -> None:
    s = four(frozenset({"11c"}))
    combat(s).turn = 5
    s.put(replace(s.units["usa"]["Vincennes"], damage=5))
    arrange(
        s,
        {
            "usa/Minneapolis": ("I11", "N"),
            "usa/Vincennes": ("I12", "N"),
            "usa/DD3": ("E11", "N"),
            "japan/Kumano": ("L11", "N"),
        },
    )
    s = done_until(s, "breakoff")
    assert [a.text() for a in legal_actions(s, "usa")] == ["breakoff DD3", "done"]
    assert refused(s, "usa", "breakoff Minneapolis") == "11c1"


# ---------------------------------------------------------------- 16d7 the end, 11c1, 7e4.1


def test_16d7_the_combat_ends_after_surface_turn_10_and_scenario_four_with_it() -> None:
    s = four()
    combat(s).turn = 10
    s = arrange(s, {"usa/Minneapolis": ("A1", "N"), "japan/Kumano": ("T21", "S")})
    events = []
    while s.status != "finished":
        s, ev = play(s, s.waiting[0], "done")
        events += ev
    assert combat(s).turn == 10 and kinds(events, "surface-combat-end")
    assert kinds(events, "game-over")[0].data["rule"] == "7e"


def test_11c1_ships_dead_in_the_water_left_alone_are_eliminated_at_the_end() -> None:
    s = four(frozenset({"11c"}))
    combat(s).turn = 10
    s.put(replace(s.units["usa"]["Minneapolis"], damage=5))
    s = arrange(s, {"usa/Minneapolis": ("A1", "N"), "japan/Kumano": ("T21", "S")})
    while s.status != "finished":
        s, _ = play(s, s.waiting[0], "done")
    assert s.units["usa"]["Minneapolis"].eliminated


def test_16d7_the_combat_ends_when_one_side_has_no_ships_left() -> None:
    s = arrange(four(), {"usa/Minneapolis": ("I11", "N"), "japan/DD10": ("L11", "N")})
    s = done_until(s, "gunnery")
    s.forced_dice = [10, 1]
    s, ev = play(s, "usa", "gun Minneapolis DD10")
    assert s.status == "finished" and combat(s).turn == 1
    assert kinds(ev, "surface-combat-end")[0].data["afloat"] == {
        "japan": [],
        "usa": ["Minneapolis"],
    }


def test_7e4_1_victory_margins() -> None:
    """Japan wins by 2 or more (our reading), the Americans by 5 or more, else a tie."""
    s = four()
    assert victory_points(s)["points"] == {"japan": 0, "usa": 4}  # Mikuma's flip counts
    assert victory_points(s)["winner"] == "tie"
    s.put(replace(s.units["usa"]["Minneapolis"], damage=3))  # flipped CA: 4 to Japan
    assert victory_points(s)["winner"] == "tie"
    s.put(replace(s.units["usa"]["NewOrleans"], damage=3))  # 8 against 4: Japan by 4
    assert victory_points(s)["winner"] == "japan"
    s.put(replace(s.units["usa"]["NewOrleans"], damage=0))
    s.put(replace(s.units["usa"]["Minneapolis"], damage=0))
    s.put(replace(s.units["japan"]["Kumano"], damage=3))  # 8 to the Americans against 0
    assert victory_points(s)["winner"] == "usa"
    s.put(replace(s.units["japan"]["Kumano"], damage=0))
    s.put(replace(s.units["japan"]["Mikuma"], damage=6))
    s.put(replace(s.units["japan"]["Mikuma"], box="eliminated"))
    assert victory_points(s)["points"]["usa"] == 12  # Mikuma counts full (7e4.1)


# ---------------------------------------------------------------- 16k surprise


def test_16k1_surprise_on_twice_the_roll_with_the_japanese_plus_3() -> None:
    s = four(frozenset({"16k"}), sides=(2, 3))  # 2 against 3 + 3 = 6
    assert s.step == "surprise" and s.waiting == ["japan"]
    assert combat(s).surprised_by == "japan"
    s, _ = play(s, "japan", "surprise attack")
    # 16k2.1: the Americans all move one hex straight ahead, and only Japan moves now.
    assert [combat(s).hexes["usa"][u] for u in USA_LINE] == [
        "I10",
        "I11",
        "I12",
        "I13",
        "I14",
        "I15",
    ]
    assert s.waiting == ["japan"]
    s, _ = play(s, "japan", "done")
    assert s.step == "torpedo fire" and s.waiting == ["japan"]  # only Side A
    s, _ = play(s, "japan", "done")
    assert s.step == "gunnery" and s.waiting == ["japan", "usa"]  # Side A fires first


def test_16k_no_surprise_without_twice_the_roll_and_no_more_plus_3() -> None:
    s = four(frozenset({"16k"}), sides=(5, 4))  # 5 against 7: Japan is A, no surprise
    assert s.step == "surface movement" and combat(s).surprise == "over"
    s = done_until(s, "breakoff")
    s.forced_dice = [5, 4]
    s, ev = play(s, "usa", "done")
    s, ev = play(s, "japan", "done")
    roll = kinds(ev, "surface-sides-roll")[0].data
    assert roll["modifiers"] == {"usa": 0, "japan": 0} and combat(s).side_a == "usa"


def test_16k2_2_delay_then_the_surprise_is_lost_when_the_other_side_rolls_higher() -> None:
    s = four(frozenset({"16k"}), sides=(1, 2))
    s, _ = play(s, "japan", "surprise delay")
    s.forced_dice = [9, 1]  # 9 against 1 + 3: the Americans are Side A now
    s, ev = play(s, "japan", "done")
    assert combat(s).turn == 2 and combat(s).side_a == "usa" and combat(s).surprise == "over"
    assert kinds(ev, "surface-sides-roll")[0].data["modifiers"]["japan"] == 3


def test_16k2_2_delay_no_torpedoes_or_gunnery_and_kept_while_japan_stays_side_a() -> None:
    s = four(frozenset({"16k"}), sides=(1, 2))
    s, ev = play(s, "japan", "surprise delay")
    assert s.step == "surface movement" and s.waiting == ["japan"]
    assert kinds(ev, "surprised-move")[0].data["side"] == "usa"
    s.forced_dice = [5, 3]  # 5 against 3 + 3: Japan again - simply higher is enough
    s, ev = play(s, "japan", "done")
    assert {e.step for e in ev}.isdisjoint({"torpedo fire", "gunnery"})
    assert s.step == "surprise" and combat(s).turn == 2


# ---------------------------------------------------------------- 7e4.4 free roll, views


def test_7e4_4_the_americans_hold_the_free_roll_marker() -> None:
    s = arrange(
        four(frozenset({"11a"})), {"usa/Minneapolis": ("I11", "N"), "japan/Kumano": ("L11", "N")}
    )
    assert s.free_roll == "usa"
    s = done_until(s, "gunnery")
    s.forced_dice = [1, 10, 8, 2]
    s, _ = play(s, "usa", "gun Minneapolis Kumano")
    assert s.step == "free roll" and s.waiting == ["usa"]
    s, ev = play(s, "usa", "reroll")  # 3 + 8 against 3 + 2: flipped
    assert kinds(ev, "gunnery")[0].data["outcome"] == "flip"
    assert s.free_roll == "japan" and s.step == "gunnery" and s.waiting == ["japan"]


def test_view_both_sides_see_the_whole_surface_combat() -> None:
    s = four()
    us, jp, spectator = view(s, "usa"), view(s, "japan"), view(s, "spectator")
    assert us["surface"] == jp["surface"] == spectator["surface"]
    ships = {(x["side"], x["id"]): x for x in us["surface"]["combat"]["ships"]}
    assert ships[("japan", "Kumano")]["hex"] == "L11"
    assert ships[("japan", "Kumano")]["gun"] == {"letter": "b", "range": 5, "half_range": 2}
    assert ships[("usa", "DD3")]["torpedo"] == {"range": 2, "half_range": 1, "may_fire": True}
    assert us["surface"]["combat"]["sides"] == {"A": "japan", "B": "usa"}
    kumano = ships[("japan", "Kumano")]
    assert ["K12", "J12", "I13", "H13", "G14"] in kumano["torpedo_lines"]
    assert "L10" in kumano["sectors"]["front"] and "L16" in kumano["sectors"]["rear"]
    assert "L17" not in kumano["sectors"]["rear"]  # beyond b range
    assert "torpedo_lines" not in ships[("usa", "Minneapolis")]  # no torpedoes


def test_apply_never_mutates_a_surface_state() -> None:
    s = four()
    before = s.clone()
    apply(s, "usa", {"kind": "advance", "ship": "Minneapolis"})
    assert s == before


def test_every_wrong_action_in_a_surface_combat_is_refused_with_a_rule() -> None:
    """Any kind, any values, at any step of a random Scenario Four game: IllegalAction."""
    import random

    from app.rules.engine.actions import FIELDS, Action
    from tools.fuzz import choose

    rng = random.Random(4)
    s = new_game("four", frozenset({"11a", "11c", "16k"}), 4)
    words = ["Kumano", "DD3", "Midway", "L11", "A1", "N", "port", "b", "attack", "I", "1"]
    while s.status != "finished":
        seat = s.waiting[0]
        legal = set(legal_actions(s, seat))
        for kind in rng.sample(sorted(FIELDS), 6):
            fields = FIELDS[kind]
            action = Action(kind, tuple(rng.choice(words) for _ in fields))
            if action not in legal:
                with pytest.raises(IllegalAction) as err:
                    apply(s, seat, action)
                assert err.value.rule
        s, _ = apply(s, seat, choose(s, seat, rng))


def test_16e3_a_ship_in_transit_facing_the_edge_turns_first() -> None:
    """Regression (battle-seeking fuzz, Scenario Two seed 10, every option): a ship that
    must move on from another's hex but faces the Battleboard's edge was offered only an
    advance off the board."""
    s = arrange(
        four(),
        {"usa/Minneapolis": ("I1", "N"), "usa/DD3": ("I1", "N"), "japan/Kumano": ("L11", "N")},
    )
    in_transit = sorted(["DD3", "Minneapolis"])[0]
    assert [a.text() for a in legal_actions(s, "usa")] == [
        f"turn {in_transit} port",
        f"turn {in_transit} starboard",
    ]
    # From I1, NE is off the board too; SE (two turns) leads on to J1.
    s, _ = play(s, "usa", *[f"turn {in_transit} starboard"] * 2, f"advance {in_transit}")
    assert combat(s).hexes["usa"][in_transit] != "I1"
