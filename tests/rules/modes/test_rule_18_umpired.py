"""18: umpired games - the `umpired` mode (a human umpire's seat) and `double-blind` (the
server is the umpire), with forced dice.

The positions are the Basic Game's test positions (tests/rules/base/test_basic_rules.py,
test_option_15.py) played in an umpired mode: the mode is part of the creation record, so
a position built for the two-player game is switched before its first action.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

from app.rules import apply, can_take_back, describe_scenarios, legal_actions, new_game, view
from app.rules.engine.errors import NotOffered
from app.rules.engine.events import ALL, Event, visible_to
from app.rules.engine.state import FLIP, STRIKE, State
from app.rules.engine.steps import StepId, goto
from app.rules.modes.seats import acting, seats
from app.rules.modes.umpire import lie, told_damage, umpired_audience
from tools.fuzz import play_game

from ..base.test_basic_rules import action_phase, fly, game
from ..helpers import kinds, play, position

UMPIRED = ("umpired", "double-blind")
PATH = ["K3", "J2", "I3", "H3", "H4"]  # 10a: scout O from L3 to the Mobile Force in H4
MOBILE_FORCE_SHIPS = 21  # nine named ships and DD #1 and #2 (six ships each)


def umpired(s: State, mode: str = "umpired") -> State:
    s.mode = mode
    return s


def released(s: State, ev: list[Event]) -> tuple[State, list[Event]]:
    """18c: in the umpired mode the umpire releases every report waiting, as it is."""
    for a in legal_actions(s, "umpire"):
        if a.kind == "release-report":
            s, out = apply(s, "umpire", a)
            ev = [*ev, *out]
    return s, ev


def audiences(events: list[Event], kind: str) -> list[str]:
    return [e.audience for e in kinds(events, kind)]


# ---------------------------------------------------------------- the modes and their seats


def test_18_every_scenario_offers_both_umpired_modes_and_their_seats() -> None:
    """18a: `umpired` adds the umpire's seat; `double-blind` has none (the server umpires);
    both with teams wherever 17 offers them."""
    for scenario in describe_scenarios():
        modes = {m["mode"]: m for m in scenario["modes"]}
        assert set(UMPIRED) <= set(modes)
        for seating in modes["umpired"]["seatings"]:
            ids = [s["seat"] for s in seating["seats"]]
            assert ids[-1] == "umpire" and ids.count("umpire") == 1
            assert seating["seats"][-1]["side"] is None
        for seating in modes["double-blind"]["seatings"]:
            assert "umpire" not in [s["seat"] for s in seating["seats"]]
        teams = [s["teams"] for s in modes["umpired"]["seatings"]]
        assert teams == ([False, True] if scenario["teams"] else [False])


def test_18_team_game_umpired_has_four_players_and_the_umpire() -> None:
    s = new_game("two", frozenset(), 1, "umpired", True)
    assert [x.id for x in seats(s)] == ["japan-i", "japan-vi", "usa-tf16", "usa-tf17", "umpire"]
    # 18c: the umpire plays no side: his actions are his own (app/rules/modes/reports.py)
    assert {a.kind for a in legal_actions(s, "umpire")} == {
        "message",
        "umpire-note",
        "auto-release",
    }
    to = {a.get("to") for a in legal_actions(s, "umpire") if a.kind == "message"}
    assert to == {"all", "japan", "usa", "japan-i", "japan-vi", "usa-tf16", "usa-tf17"}


@pytest.mark.parametrize("mode", UMPIRED)
def test_18c2_the_free_roll_marker_is_not_offered(mode: str) -> None:
    """RULES? 18c2: the umpire makes every roll; a holder of 11a's marker would see them."""
    with pytest.raises(NotOffered) as err:
        new_game("one", frozenset({"11a"}), 1, mode)
    assert err.value.rule == "11a" and "18c2" in str(err.value)


# ---------------------------------------------------------------- 18b game copies


@pytest.mark.parametrize("mode", UMPIRED)
def test_18b_a_player_sees_his_own_operations_card_only(mode: str) -> None:
    s = new_game("one", frozenset(), 1, mode)
    for side, enemy in (("usa", "japan"), ("japan", "usa")):
        v = view(s, side)
        assert v["operations_cards"][side]["units"]
        assert v["operations_cards"][enemy]["units"] == {}
        assert v["operations_cards"][enemy]["forces"] == []
        assert v["operations_cards"][enemy]["carriers"] == []
        assert "searchboards" not in v
    assert view(s, "spectator")["operations_cards"] == {}


def test_18b_the_umpires_copy_displays_everything() -> None:
    s = new_game("one", frozenset(), 1, "umpired")
    v = view(s, "umpire")
    assert v["viewer"]["seat"] == "umpire"
    assert set(v["operations_cards"]) == {"japan", "usa"}
    assert set(v["searchboards"]) == {"japan", "usa"}
    assert (
        v["operations_cards"]["japan"]["units"]
        == view(s, "japan")["operations_cards"]["japan"]["units"]
    )


def test_18b_no_umpire_seat_in_double_blind() -> None:
    s = new_game("one", frozenset(), 1, "double-blind")
    assert "searchboards" not in view(s, "umpire")  # nobody's seat: a spectator's view
    assert view(s, "umpire")["operations_cards"] == {}


def test_18b_two_player_mode_keeps_both_cards_open() -> None:
    """2c: the rulebook's own game is unchanged."""
    s = new_game("one", frozenset(), 1, "two-player")
    assert view(s, "usa")["operations_cards"]["japan"]["units"]


@pytest.mark.parametrize(
    ("scenario", "mode", "teams"),
    [
        ("one", "umpired", False),
        ("one", "double-blind", False),
        ("three", "umpired", True),
        ("three", "double-blind", True),
    ],
)
def test_18b_non_interference_for_every_seat(scenario: str, mode: str, teams: bool) -> None:
    """DESIGN.md: what a seat may not know (the enemy's card, his Searchboard, the dice)
    changes nothing in its view; checked for every seat, the umpire's and a spectator's
    too, in complete random games (tools/fuzz.py)."""
    checked: dict[str, int] = {}
    for seed in range(2):
        result = play_game(scenario, seed, options=frozenset({"14", "15a"}), teams=teams, mode=mode)
        for seat, n in result.checked.items():
            checked[seat] = checked.get(seat, 0) + n
    expected = {x.id for x in seats(new_game(scenario, frozenset(), 0, mode, teams))}
    assert set(checked) == expected | {"spectator"}
    assert min(checked.values()) > 20


# ---------------------------------------------------------------- 18c1 searches and lies


def scout_routed(
    dice: Iterable[int], mode: str = "umpired", options: frozenset[str] = frozenset({"15a"})
) -> State:
    """Scout O from TF 17 in L3 (10a), in the air; both sides are asked for routes (18c1)."""
    s = position(
        8,
        {"usa": {"TF17": ("L3", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H4", [])}},
        dice=[4, 6, *dice],
        options=options,
    )
    s = umpired(s, mode)
    o = s.units["usa"]["O"]
    o = s.put(replace(o, box=STRIKE, area="TF17"))
    goto(s, StepId.AIR_MOVEMENT_AND_SEARCH, [])
    return s


def scout_over_h4(dice: Iterable[int], mode: str = "umpired") -> State:
    """Scout O's route to the Mobile Force in H4 handed in (10a), option 15a: the umpire
    flies it, and asks the United States how many factors O spends over H4."""
    s = scout_routed(dice, mode)
    s, _ = play(s, "usa", *(f"route O {h}" for h in PATH), "done")
    s, _ = play(s, "japan", "done")
    assert s.step == "scouting"
    return s


@pytest.mark.parametrize(
    ("die", "stated"),
    [(1, 11), (3, 11), (4, 21), (7, 21), (8, 42), (10, 42)],
)
def test_18c1_a_lie_is_the_umpires_secret_die(die: int, stated: int) -> None:
    """18c1: 1-3 halve (rounded up, 15a1.2), 4-7 actual, 8-10 double - no player states it."""
    s = scout_over_h4([3, 5, die])  # 6 vs 5: exceeded, not two times (15a1.2)
    s, ev = play(s, "usa", "spend O 0")
    assert s.step == "scouting"  # nobody is asked to state a number
    lied = s.drafts[-1]  # 18c: the stated number is the umpire's draft until he releases it
    assert not kinds(ev, "search") and (lied.data["ships"], lied.status) == (stated, "waiting")
    assert lied.truth["ships"] == MOBILE_FORCE_SHIPS
    s, ev = released(s, ev)
    *empty, spot = kinds(ev, "search")  # the umpire releases the route's reports in order
    assert [e.data["hex"] for e in empty] == PATH[:-1]
    assert (spot.data["hex"], spot.data["level"], spot.data["ships"]) == ("H4", "number", stated)
    assert spot.audience == "usa"
    secret = kinds(ev, "umpire-die")
    assert [(e.audience, e.data["for"], e.data["die"]) for e in secret] == [("umpire", "lie", die)]
    assert secret[0].data["actual"] == MOBILE_FORCE_SHIPS
    assert audiences(ev, "search-roll") == ["umpire"]  # 18c1: the umpire's competing rolls
    assert not s.forced_dice
    assert view(s, "usa")["searchboard"]["spotted"][-1]["ships"] == stated


def test_18c1_lie_table() -> None:
    assert [lie(d, 5) for d in range(1, 11)] == [3, 3, 3, 5, 5, 5, 5, 10, 10, 10]


def test_18c1_the_searched_side_is_not_told_of_the_search() -> None:
    """18c: all information goes through the umpire - Japan hears nothing of the search,
    and the hex is not announced to it."""
    s = scout_over_h4([9, 4])  # 12 vs 4: exact
    s, ev = play(s, "usa", "spend O 0")
    assert not any(visible_to(e, "japan") for e in ev)
    assert view(s, "japan")["announcements"] == []
    searched = [{"side": "usa", "how": "air search", "hex": h} for h in PATH]
    assert view(s, "usa")["announcements"] == searched  # 18c1: every hex of the route


def test_18c1_spotting_reports_go_to_every_player_of_the_side() -> None:
    """18c1: "spotting reports go to all players on a side in multi-player games"."""
    s = new_game("two", frozenset(), 1, "umpired", True)
    report = Event("search", ALL, 8, "air movement and search", {"side": "usa", "hex": "H4"})
    heard = umpired_audience(report)
    assert heard == "usa"
    seen = {x.id: visible_to(Event("search", heard, 8, "", {}), x.id) for x in seats(s)}
    assert seen == {
        "japan-i": False,
        "japan-vi": False,
        "usa-tf16": True,
        "usa-tf17": True,
        "umpire": True,
    }


# ---------------------------------------------------------------- 18c2 damage reports


@pytest.mark.parametrize(
    ("die", "told"),
    [(1, 0), (2, 0), (3, 0), (4, 0), (5, 1), (6, 1), (7, 2), (8, 2), (9, FLIP), (10, FLIP)],
)
def test_18c2_report_die_on_a_hit(die: int, told: int) -> None:
    """18c2: 1-2 two hits under, 3-4 one under, 5-6 actual, 7-8 one over, 9-10 two over;
    never below nothing (RULES?)."""
    assert told_damage(0, 1, die, 1) == told


def test_18c2_overreport_past_the_flip_is_just_flipped() -> None:
    """18c2's example: one hit on a unit with one hit marked, two over, is "flipped"."""
    assert told_damage(1, 1, 9, 2) == FLIP
    assert told_damage(1, FLIP, 5, 1 + FLIP) == 1 + FLIP  # the truth stands


@pytest.mark.parametrize("die", range(1, 11))
def test_18c2_eliminated_is_reported_eliminated_and_a_survivor_never(die: int) -> None:
    """18c2: no impossible report (RULES? a unit leaves, or stays on, the Battleboard in
    both sides' sight)."""
    assert told_damage(0, 6, die, 6) == 6
    assert told_damage(FLIP + 1, 1, die, FLIP + 2) <= FLIP + 2
    assert told_damage(2, 0, die, 2) >= 2  # a report never takes back damage told before


def aa_on_b5(dice: Iterable[int], mode: str) -> tuple[State, list[Event]]:
    """B5 (one hit) from TF 17 attacks Haruna in K3; Haruna's AA fires at it (4c)."""
    s = umpired(game(dice, damage={("usa", "B5"): 1}), mode)
    s, _ = action_phase(s, usa=["B5"], usa_fly=fly("L3-strike", "K3"))
    assert s.battle is not None
    s, _ = play(s, "japan", "face N", "position Haruna K9", "position Nagara K11")
    s, _ = play(s, "usa", "target B5 Haruna")
    return play(s, "japan", "aa Haruna B5", "fire")


@pytest.mark.parametrize("mode", UMPIRED)
def test_18c2_players_learn_their_own_damage_exactly_the_enemy_by_report(mode: str) -> None:
    """AA 2 - 2 + ... : 4 vs 2, B5 flipped with its hit kept (4b5); the report die 1
    underreports by two hits: Japan is told B5 has two hits, front side up."""
    s, ev = released(*aa_on_b5([2, 1, 1], mode))
    aa = kinds(ev, "anti-aircraft")[0]
    assert (aa.data["outcome"], aa.audience) == ("flip", "usa")
    b5 = s.units["usa"]["B5"]
    assert (b5.flipped, b5.hits) == (True, 1)
    secret = kinds(ev, "umpire-die")
    assert [(e.audience, e.data["for"], e.data["die"], e.data["points"]) for e in secret] == [
        ("umpire", "damage report", 1, FLIP)
    ]
    report = kinds(ev, "damage-report")[0]
    assert report.audience == "japan"
    assert (report.data["target"], report.data["face"], report.data["hits"]) == ("B5", "front", 2)
    told = view(s, "japan")["operations_cards"]["usa"]["units"]["B5"]
    assert (told["face"], told["hits"]) == ("front", 2)
    own = view(s, "usa")["operations_cards"]["usa"]["units"]["B5"]
    assert (own["face"], own["hits"]) == ("back", 1)
    assert not any(visible_to(e, "usa") for e in [*secret, report])
    assert not visible_to(aa, "japan")


def test_18c2_secret_dice_are_shown_in_the_replay_when_the_game_ends() -> None:
    _, ev = aa_on_b5([2, 1, 1], "double-blind")
    secret = kinds(ev, "umpire-die")[0]
    assert not any(visible_to(secret, seat) for seat in ("usa", "japan", "spectator"))
    assert visible_to(secret, "spectator", finished=True)


# ---------------------------------------------------------------- 18c3 at once


@pytest.mark.parametrize("mode", UMPIRED)
def test_18c3_air_return_is_simultaneous(mode: str) -> None:
    """18c3: both sides do their Air Return at once, in either order."""
    s = scout_over_h4([1, 4], mode)  # 4 vs 4: something
    s, _ = play(s, "usa", "spend O 0", "done")
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "done")  # 3d: no air strikes to move
    s, _ = play(s, "japan", "done")
    assert s.step == "air return"
    assert sorted(acting(s)) == ["japan", "usa"]
    japan_first, _ = apply(s, "japan", {"kind": "done"})
    assert acting(japan_first) == ["usa"]  # Japan done first, the United States still lands
    assert "land" in {a.kind for a in legal_actions(japan_first, "usa")}


def test_18c3_two_player_air_return_is_side_b_then_side_a() -> None:
    s = scout_routed([1, 4], "two-player")
    s, _ = play(s, "usa", *(f"fly O {h}" for h in PATH), "search H4", "done")
    s, _ = play(s, "japan", "done")
    assert s.step == "air return" and len(acting(s)) == 1


@pytest.mark.parametrize(("mode", "taken_back"), [*((m, 1) for m in UMPIRED), ("two-player", 0)])
def test_18_a_launch_only_the_umpire_saw_may_be_taken_back(mode: str, taken_back: int) -> None:
    """Issue 14 with 18 (RULES? 18c1: players notify the umpire of what they have done, so
    his seeing a move does not stop its take-back): a launch, which in an umpired game
    only the umpire and the player's own side hear of, may be taken back; in the
    two-player game the enemy sees it on the open Operations Card (2c), and it may not."""
    s = umpired(game(), mode)
    assert s.step == "assembly" and acting(s) == ["usa"]
    s, ev = play(s, "usa", "launch B5")
    assert audiences(ev, "launch") == ["usa" if mode in UMPIRED else ALL]
    assert can_take_back(s, "usa").actions == taken_back


@pytest.mark.parametrize("mode", UMPIRED)
def test_18c1_assembly_ready_and_sea_movement_are_simultaneous(mode: str) -> None:
    """18c1: "the players on both sides should then perform all other activities in the
    Action Phase simultaneously, except for moving air strikes": Side A (Japan) may act
    before Side B (the United States) is done, in assembly, readying and sea movement."""
    s = umpired(game(), mode)
    goto(s, StepId.ASSEMBLY, [])  # entered again, now in the umpired mode
    for step in ("assembly", "ready", "sea movement"):
        assert s.step == step and sorted(acting(s)) == ["japan", "usa"], step
        s, _ = play(s, "japan", "done")
        assert s.step == step and acting(s) == ["usa"]
        s, _ = play(s, "usa", "done")
    assert s.step == "scout routes" and sorted(acting(s)) == ["japan", "usa"]  # 18c1
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "done")
    assert s.step == "air movement and search"
    assert acting(s) == ["usa"]  # air strikes still move Side B, then Side A (RULES?)


def test_18c1_two_player_action_phase_is_side_b_then_side_a() -> None:
    s = game()
    assert s.step == "assembly" and acting(s) == ["usa"]


def test_18c1_the_shadowing_step_asks_both_sides_with_12d() -> None:
    """12d2 in an umpired game: both sides are asked at once whether to shadow, so whom
    the step waits for does not tell the enemy that a side has a scout to shadow with."""
    s = umpired(game(), "umpired")
    s.options = ("12d",)
    goto(s, StepId.SHADOWING, [])
    assert sorted(acting(s)) == ["japan", "usa"]
    assert [a.kind for a in legal_actions(s, "usa")] == ["done"]
