"""The Basic Game (rules 1-7a and 10), rule by rule, with forced dice.

This module holds the shared position builders and the tests of rules that span the whole
game: sides (3), setup (7a2.2), the turn record (6), victory (7a3, 7b4.1), and the contract
that an illegal action names its rule and leaves the state untouched. The other steps are
in test_rule_3_action_phase.py, test_rule_4_combat.py and test_rule_5_air_return.py.

Positions are Scenario One (7b) at the start of a Turn (tests/rules/helpers.position). The
first two forced dice are the sides roll (3): US_B makes Japan Side A, so the US (Side B)
acts first in every step.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterable
from dataclasses import replace

import pytest

from app.rules import IllegalAction, State, apply, legal_actions, new_game
from app.rules.base.units import eliminate
from app.rules.base.victory import victory_points
from app.rules.engine.actions import Action
from app.rules.engine.events import Event
from app.rules.engine.state import ELIMINATED, FLIP, Side

from ..helpers import kinds, play, position

US_B = [1, 2]  # 3: the US rolls 1, Japan 2 -> Japan is Side A, the US goes first
JAPAN_B = [2, 1]  # the US rolls 2, Japan 1 -> the US is Side A, Japan goes first

# Scenario One's Japanese ships other than Haruna and Nagara (7b3).
JAPAN_REST = ["Akagi", "Hiryu", "Kaga", "Soryu", "Chikuma", "Tone", "Kirishima", "DD1", "DD2"]
JAPAN_SHIPS = ["Haruna", "Nagara", *JAPAN_REST]

Forces = dict[str, tuple[str, list[str]]]


def game(
    dice: Iterable[int] = (),
    *,
    turn: int = 8,
    usa: Forces | None = None,
    japan: Forces | None = None,
    arming: Iterable[tuple[Side, str]] = (),
    damage: dict[tuple[Side, str], int] | None = None,
    sides: Iterable[int] = US_B,
) -> State:
    """A Scenario One position at the start of `turn` (a day Turn by default).

    By default TF 17 (Yorktown, Astoria, Portland, DD #2) is in L3, TF 16 far off in T11,
    the Mobile Force marker (Haruna, Nagara) in K3 next to TF 17, and Group-A (every other
    Japanese ship) in I2. `damage` sets damage points (4b5: a hit is 1, a flip 3).
    """
    usa = {"TF17": ("L3", []), "TF16": ("T11", [])} if usa is None else usa
    japan = (
        {"MobileForce": ("K3", ["Haruna", "Nagara"]), "Group-A": ("I2", JAPAN_REST)}
        if japan is None
        else japan
    )
    s = position(turn, {"usa": usa, "japan": japan}, arming, [*sides, *dice])
    for (side, uid), points in (damage or {}).items():
        s.put(replace(s.units[side][uid], damage=points))
    return s


def through(
    s: State, step: str, usa: Iterable[str] = (), japan: Iterable[str] = ()
) -> tuple[State, list[Event]]:
    """Play one step: each waiting seat, in turn order, takes its actions, then "done"."""
    plans = {"usa": list(usa), "japan": list(japan)}
    events: list[Event] = []
    assert s.step == step, f"expected the {step} step, got {s.step}"
    while s.step == step and s.waiting:
        seat = s.waiting[0]
        if plans[seat]:
            s, out = play(s, seat, *plans[seat])
            events += out
            plans[seat] = []
        if s.step == step and s.waiting and s.waiting[0] == seat:
            s, out = play(s, seat, "done")
            events += out
    assert not plans["usa"] and not plans["japan"], f"unplayed actions in {step}: {plans}"
    return s, events


def fly(group: str, *hexes: str) -> list[str]:
    return [f"fly {group} {h}" for h in hexes]


def launch(*units: str) -> list[str]:
    return [f"launch {u}" for u in units]


def action_phase(
    s: State,
    *,
    usa: Iterable[str] = (),
    japan: Iterable[str] = (),
    usa_fly: Iterable[str] = (),
    japan_fly: Iterable[str] = (),
    usa_ready: Iterable[str] = (),
    japan_ready: Iterable[str] = (),
) -> tuple[State, list[Event]]:
    """3a-3d: launch `usa` / `japan` units, no sea movement, then the given flights."""
    events: list[Event] = []
    for step, u, j in [
        ("assembly", launch(*usa), launch(*japan)),
        ("ready", usa_ready, japan_ready),
        ("sea movement", (), ()),
        ("air movement and search", usa_fly, japan_fly),
    ]:
        for scouting in ("scout routes", "scouting"):  # 18c1: umpired games, no routes
            if step == "air movement and search" and s.step == scouting:
                s, out = through(s, scouting)
                events += out
        s, out = through(s, step, u, j)
        events += out
    return s, events


def refused(s: State, seat: str, text: str) -> IllegalAction:
    """Apply an illegal action: it raises, and the state is left exactly as it was."""
    before = pickle.dumps(s)
    snapshot = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as info:
        apply(s, seat, Action.from_text(text))
    assert pickle.dumps(s) == before
    assert s == snapshot
    return info.value


def texts(s: State, seat: str) -> list[str]:
    return [a.text() for a in legal_actions(s, seat)]


def outcomes(events: list[Event], kind: str) -> list[tuple[int, int, int, int, str]]:
    """(attacker modifier, attacker number, defender modifier, defender number, outcome)."""
    return [
        (
            e.data["attacker_modifier"],
            e.data["attacker_number"],
            e.data["defender_modifier"],
            e.data["defender_number"],
            e.data["outcome"],
        )
        for e in kinds(events, kind)
    ]


def eliminated(events: list[Event]) -> list[str]:
    return [e.data["unit"] for e in kinds(events, "eliminated")]


# ---------------------------------------------------------------- 3: sides


def _set_up(dice: list[int]) -> tuple[State, list[Event]]:
    s = new_game("one", frozenset(), 0)
    s.forced_dice = dice
    s, _ = play(s, "usa", "place TF16 N3", "place TF17 N4", "done")
    return play(s, "japan", "place MobileForce H2", "done")


def test_3_sides_rolled_ties_rolled_again_and_side_b_acts_first() -> None:
    s, ev = _set_up([5, 5, 3, 7])
    rolls = [(e.data["usa"], e.data["japan"]) for e in kinds(ev, "sides-roll")]
    assert rolls == [(5, 5), (3, 7)]  # the tie is rolled again
    assert (s.side_a, s.side_b) == ("japan", "usa")  # the high roll is Side A
    # Turn 7 is a night Turn: the Assembly Step has nothing to do (3a1); in the Ready Step
    # Side B (the US) goes first, then Side A.
    assert (s.step, s.waiting) == ("ready", ["usa", "japan"])
    assert not s.forced_dice
    err = refused(s, "japan", "arm AD")
    assert err.rule == "3"


def test_3_high_roll_is_side_a() -> None:
    s, _ = _set_up([9, 2])
    assert (s.side_a, s.side_b, s.waiting) == ("usa", "japan", ["japan", "usa"])


# ---------------------------------------------------------------- 7a2.2: setup areas


def test_7a2_2_us_task_forces_set_up_east_of_the_dateline() -> None:
    s = new_game("one", frozenset(), 0)
    places = {a.values[1] for a in legal_actions(s, "usa") if a.kind == "place"}
    assert places == {f"{c}{r}" for c in "LMNOPQRST" for r in range(1, 12)}
    west = refused(s, "usa", "place TF16 K3")  # K is west of the dateline
    assert west.rule == "7b2" and "hex rows L through T" in west.message
    assert refused(s, "usa", "done").rule == "7a2.2"  # every marker placed first
    s, _ = play(s, "usa", "place TF16 L3", "place TF17 T11", "done")
    assert s.boards["usa"].forces["TF16"] == "L3" and s.boards["usa"].forces["TF17"] == "T11"


def test_7a2_2_mobile_force_sets_up_in_area_ii() -> None:
    s = new_game("one", frozenset(), 0)
    places = {a.values[1] for a in legal_actions(s, "japan") if a.kind == "place"}
    assert places == {"H1", "H2", "I1", "I2", "I3", "J1", "J2"}
    assert refused(s, "japan", "place MobileForce H3").rule == "7b3"
    assert "any area II hex, not in M5" in refused(s, "japan", "place MobileForce M5").message


def test_7a2_3_air_units_start_in_ready_or_arming_as_chosen() -> None:
    s = new_game("one", frozenset(), 0)
    assert s.units["usa"]["1BG11"].damage == FLIP  # 7b2: "1BG11 (back)"
    assert s.units["usa"]["1BG11"].started_back
    s, _ = play(s, "usa", "arm B3", "place TF16 N3", "place TF17 N4", "done")
    assert (s.units["usa"]["B3"].box, s.units["usa"]["B3"].area) == ("arming", "Yorktown")


# ---------------------------------------------------------------- 6 and 7a3: the end


def _final_turn(changes: dict[tuple[Side, str], int]) -> State:
    """Turn 11, the last of Scenario One, with damage points set (6 = eliminated)."""
    s = game(turn=11)
    for (side, uid), points in changes.items():
        u = s.units[side][uid]
        if points >= ELIMINATED:
            eliminate(s, u, [], "test")
        else:
            u = s.put(replace(u, damage=points))
    return s


def _play_out(s: State) -> State:
    for step in ("assembly", "ready", "sea movement", "air movement and search"):
        s, _ = through(s, step)
    return s


def test_6_turn_record_advances_the_turn() -> None:
    s = _play_out(game(turn=8))
    assert (s.turn, s.step, s.status) == (9, "assembly", "playing")


def test_7a3_victory_points_at_the_end_of_the_last_turn() -> None:
    s = _final_turn(
        {
            # Japan loses:
            ("japan", "Akagi"): 6,  # CV eliminated 25, with AD, 1AT, 2AT (2 each) and scout A (0)
            ("japan", "Haruna"): FLIP + 1,  # BB flipped 5; its hit marker is worth 0 (7a3.3)
            ("japan", "Kirishima"): 2,  # 2 hits, not flipped: 0
            ("japan", "DD1"): 6,  # DD eliminated 14
            ("japan", "HYT"): FLIP,  # air unit flipped, not eliminated: 0 (7a3.1)
            # The US loses:
            ("usa", "Yorktown"): FLIP + 2,  # CV flipped 10, hit markers 0
            ("usa", "1BG11"): 6,  # started on its back: 1 (7a3.2)
            ("usa", "2T8"): 6,  # ELIM on its back: 1
            ("usa", "5AF"): 6,  # ELIM on its back: 1
            ("usa", "B5"): 6,  # air combat unit: 2
            ("usa", "A"): 6,  # scout: 0
            ("usa", "DD2"): FLIP,  # DD flipped: 0
        }
    )
    # A DD that started the scenario on its back, like DD #10 with ELIM: half of 14.
    s.put(replace(s.units["japan"]["DD2"], started_back=True))
    eliminate(s, s.units["japan"]["DD2"], [], "test")
    s = _play_out(s)
    assert (s.status, s.step) == ("finished", "finished")
    assert s.turn == 11
    assert s.victory is not None
    assert s.victory["points"] == {"usa": 25 + 6 + 5 + 14 + 7, "japan": 10 + 1 + 1 + 1 + 2}
    by_side = s.victory["lines"]
    assert isinstance(by_side, dict)
    lines = {(line["unit"], line["points"]) for line in by_side["usa"]}
    assert lines == {
        ("Akagi", 25),
        ("AD", 2),
        ("1AT", 2),
        ("2AT", 2),
        ("Haruna", 5),
        ("DD1", 14),
        ("DD2", 7),
    }
    assert s.victory["winner"] == "usa"
    assert refused(s, "usa", "done").rule == "7a3"  # the game is over


@pytest.mark.parametrize(
    ("losses", "points", "winner"),
    [
        # Yorktown flipped (10) against Haruna flipped (5): Japan has more (10d).
        ({("usa", "Yorktown"): FLIP, ("japan", "Haruna"): FLIP}, (10, 5), "japan"),
        # Japan one more.
        (
            {("usa", "Yorktown"): FLIP, ("usa", "5AF"): 6, ("japan", "Akagi"): FLIP},
            (11, 10),
            "japan",
        ),
        # Equal: a tie.
        ({("usa", "Yorktown"): FLIP, ("japan", "Akagi"): FLIP}, (10, 10), "tie"),
        # The US 9 more: still a tie.
        (
            {
                ("usa", "Yorktown"): FLIP,
                ("japan", "Akagi"): FLIP,
                ("japan", "Haruna"): FLIP,
                ("japan", "HYD"): 6,
                ("japan", "KD"): 6,
            },
            (10, 19),
            "tie",
        ),
        # The US exactly 10 more: the US wins.
        (
            {
                ("usa", "Yorktown"): FLIP,
                ("japan", "Akagi"): FLIP,
                ("japan", "Haruna"): FLIP,
                ("japan", "Kirishima"): FLIP,
            },
            (10, 20),
            "usa",
        ),
    ],
    ids=["japan-more", "japan-one-more", "equal", "usa-nine-more", "usa-ten-more"],
)
def test_7b4_1_scenario_one_result(
    losses: dict[tuple[Side, str], int], points: tuple[int, int], winner: str
) -> None:
    result = victory_points(_final_turn(losses))
    assert (result["points"], result["winner"]) == (
        {"japan": points[0], "usa": points[1]},
        winner,
    )


# ---------------------------------------------------------------- illegal actions


def _assembly() -> State:
    return game(arming=[("usa", "B3")])


def _ready() -> State:
    s = game()
    s, _ = through(s, "assembly")
    return play(s, "usa", "arm B3")[0]


def _sea() -> State:
    s = game()
    for step in ("assembly", "ready"):
        s, _ = through(s, step)
    return s


def _air() -> State:
    s = game()
    for step in ("assembly", "ready", "sea movement"):
        s, _ = through(s, step, usa=launch("B5") if step == "assembly" else ())
    return s


@pytest.mark.parametrize(
    ("build", "seat", "text", "rule"),
    [
        (lambda: new_game("one", frozenset(), 0), "usa", "place TF17 A1", "7b2"),
        (lambda: game(turn=7), "usa", "launch B5", "3a1"),
        (_assembly, "usa", "launch B3", "3a2"),
        (_assembly, "japan", "launch AD", "3"),
        (_ready, "usa", "ready B3", "3b"),
        (_sea, "usa", "move TF17 J3", "3c"),
        (_sea, "usa", "exit TF17", "2e"),
        (_air, "usa", "fly L3-strike J3", "3d1"),
        (_air, "usa", "search H4", "3d3.1"),
        (_air, "usa", "sea-search K3", "3d5"),
    ],
    ids=["setup", "night", "arming", "not-your-move", "ready-twice", "sea-2-hexes", "exit",
         "fly-2-hexes", "search-not-entered", "sea-search-not-own"],
)  # fmt: skip
def test_illegal_action_names_its_rule_and_leaves_the_state_unchanged(
    build: Callable[[], State], seat: str, text: str, rule: str
) -> None:
    s = build()
    assert Action.from_text(text) not in legal_actions(s, seat)
    assert refused(s, seat, text).rule == rule


def test_apply_never_mutates_its_input() -> None:
    s = _air()
    before = pickle.dumps(s)
    nxt, _ = apply(s, "usa", Action.from_text("fly L3-strike K3"))
    assert pickle.dumps(s) == before
    assert nxt.boards["usa"].flights["B5"].hex == "K3"
    assert s.boards["usa"].flights["B5"].hex == "L3"
