"""18c1: in the umpired modes the scouts' routes are handed in by both sides at once, the
umpire flies them, and over a task force (15a) the player chooses the movement factors
to spend before the umpire's rolls; the reports go to the side. Forced dice throughout.
"""

from __future__ import annotations

import random

import pytest

from app.rules import IllegalAction, State, apply, legal_actions, new_game, view
from app.rules.engine.actions import Action
from app.rules.engine.events import visible_to
from app.rules.modes.seats import acting, seats
from tools.fuzz import choose

from ..helpers import kinds, play
from .test_rule_18_umpired import (
    PATH,
    UMPIRED,
    audiences,
    released,
    scout_over_h4,
    scout_routed,
)


def texts(s: State, seat: str) -> list[str]:
    return [a.text() for a in legal_actions(s, seat)]


@pytest.mark.parametrize("mode", UMPIRED)
def test_18c1_scout_routes_are_handed_in_by_both_sides_at_once(mode: str) -> None:
    """Both sides at once, either first; Japan done first, the United States still routes."""
    s = scout_routed([], mode)
    assert s.step == "scout routes" and sorted(acting(s)) == ["japan", "usa"]
    assert texts(s, "japan") == ["done"]  # whom the step waits for tells Japan nothing
    s, _ = play(s, "japan", "done")
    assert acting(s) == ["usa"]
    assert "route O K3" in texts(s, "usa")


def test_18c1_a_route_goes_hex_by_hex_within_the_movement_factor() -> None:
    """3d1: each hex of the route is next to the last; scout O has six movement factors."""
    s = scout_routed([])
    s, _ = play(s, "usa", "route O K3")
    nexts = {a.get("hex") for a in legal_actions(s, "usa") if a.kind == "route"}
    assert "J2" in nexts and "L3" in nexts and "H4" not in nexts
    with pytest.raises(IllegalAction) as err:
        apply(s, "usa", Action("route", ("O", "H4")))
    assert err.value.rule == "3d1"
    s, _ = play(s, "usa", *(f"route O {h}" for h in PATH[1:]), "route O H3")  # six hexes
    assert not [a for a in legal_actions(s, "usa") if a.kind == "route"]
    assert view(s, "usa")["searchboard"]["routes"] == {"O": [*PATH, "H3"]}
    s, _ = play(s, "usa", "unroute O")  # handed in again from the start
    assert view(s, "usa")["searchboard"]["routes"] == {}
    assert "route O K3" in texts(s, "usa")


def test_18c1_a_route_is_on_its_sides_searchboard_only() -> None:
    s = scout_routed([])
    s, _ = play(s, "usa", "route O K3")
    assert view(s, "usa")["searchboard"]["routes"] == {"O": ["K3"]}
    assert view(s, "japan")["searchboard"]["routes"] == {}
    assert view(s, "umpire")["searchboards"]["usa"]["routes"] == {"O": ["K3"]}


def test_18c1_without_15a_the_umpire_flies_the_routes_once_both_are_in() -> None:
    """3d3.2 answers, exact; every hex of the route searched; the reports to the side once
    the umpire releases them (18c); the scout moves no more (its whole route was handed in)."""
    s = scout_routed([], options=frozenset())
    s, _ = play(s, "usa", *(f"route O {h}" for h in PATH), "done")
    s, ev = play(s, "japan", "done")
    assert s.step == "air movement and search" and acting(s) == ["usa"]
    assert not kinds(ev, "search")  # drafts, for the umpire
    assert [(d.data["hex"], d.status) for d in s.drafts] == [(h, "waiting") for h in PATH]
    s, ev = released(s, ev)
    reports = kinds(ev, "search")
    assert [(e.data["hex"], e.data["level"]) for e in reports] == [
        *((h, "nothing") for h in PATH[:-1]),
        ("H4", "exact"),
    ]
    assert {e.audience for e in reports} == {"usa"}
    o = s.boards["usa"].flights["O"]
    assert (o.hex, o.moved) == ("H4", 5) and "O" not in s.boards["usa"].groups
    assert not [a for a in legal_actions(s, "usa") if a.kind == "fly"]
    assert not any(visible_to(e, "japan") for e in ev if e.kind != "sides")


def test_18c1_a_scout_without_a_route_stays_where_it_is() -> None:
    s = scout_routed([], options=frozenset())
    s, _ = play(s, "usa", "done")
    s, ev = play(s, "japan", "done")
    assert s.boards["usa"].flights["O"].hex == "L3" and not kinds(ev, "search")
    assert "O" not in s.boards["usa"].groups


@pytest.mark.parametrize("mode", UMPIRED)
def test_18c1_over_a_task_force_the_player_chooses_the_factors_to_spend(mode: str) -> None:
    """15a1.1 in 18c1: O enters H4 with one factor left - 0 or 1 to spend; Japan is asked
    only to be done. Spending 1: +3 day +2 = 5; 5 + 5 = 10 is twice 5: the actual number."""
    s = scout_over_h4([5, 5], mode)
    assert texts(s, "usa") == ["spend O 0", "spend O 1"]
    assert texts(s, "japan") == ["done"]
    assert view(s, "japan")["prompt"]["waiting_for"] == view(s, "usa")["prompt"]["waiting_for"]
    with pytest.raises(IllegalAction) as err:
        apply(s, "usa", Action("spend", ("O", "2")))
    assert err.value.rule == "15a1.1"
    s, ev = released(*play(s, "usa", "spend O 1"))
    roll = kinds(ev, "search-roll")[0]
    assert (roll.data["modifier"], roll.data["searcher_number"]) == (5, 10)
    assert audiences(ev, "search-roll") == ["umpire"]
    spot = kinds(ev, "search")[-1]  # umpired: released after K3-H3's
    assert (spot.data["hex"], spot.data["level"], spot.data["ships"], spot.audience) == (
        "H4",
        "actual",
        21,
        "usa",
    )
    assert s.boards["usa"].flights["O"].moved == 6
    assert texts(s, "usa") == ["done"] and not s.forced_dice


@pytest.mark.parametrize("mode", UMPIRED)
def test_18c1_the_searches_before_the_task_force_are_reported_first(mode: str) -> None:
    """The umpire gets back to the player over H4 having K3-H3's reports (empty) made
    (18c1): released at once in double-blind, waiting for the umpire in umpired."""
    s = scout_routed([1, 4], mode)
    s, _ = play(s, "usa", *(f"route O {h}" for h in PATH), "done")
    s, ev = play(s, "japan", "done")
    assert [d.data["hex"] for d in s.drafts] == PATH[:-1]  # not yet H4's
    assert bool(kinds(ev, "search")) == (mode == "double-blind")
    s, ev = released(s, ev)
    assert [e.data["hex"] for e in kinds(ev, "search")] == PATH[:-1]
    assert s.boards["usa"].over == "O" and view(s, "usa")["searchboard"]["over"] == "O"
    assert view(s, "japan")["searchboard"]["over"] is None


def test_18c1_a_route_flies_on_after_the_task_force_and_ends_where_the_factors_do() -> None:
    """RULES? circling spends the route's factors: spend none and O flies on; spend its
    last and the rest of the route is not flown."""
    for spent, where, dice in (("0", "past", [1, 4]), ("1", "H4", [1, 6])):  # 4 v 4, 6 v 6
        s = scout_routed(dice)
        s, _ = play(s, "usa", *(f"route O {h}" for h in PATH))
        beyond = next(
            a.get("hex")
            for a in legal_actions(s, "usa")
            if a.kind == "route" and a.get("hex") not in PATH
        )
        s, _ = play(s, "usa", f"route O {beyond}", "done")
        s, _ = released(*play(s, "japan", "done"))  # K3-H3's reports
        s, ev = released(*play(s, "usa", f"spend O {spent}"))
        o = s.boards["usa"].flights["O"]
        assert o.hex == (beyond if where == "past" else "H4")
        assert [e.data["level"] for e in kinds(ev, "search")] == (
            ["something", "nothing"] if where == "past" else ["something"]
        )
        assert not s.forced_dice


def test_18c1_then_the_strikes_move_side_b_first() -> None:
    s = scout_over_h4([1, 4])
    s, _ = play(s, "usa", "spend O 0", "done")
    assert s.step == "scouting" and acting(s) == ["japan"]
    s, _ = play(s, "japan", "done")
    assert s.step == "air movement and search" and acting(s) == ["usa"]


def test_18c1_spotting_reports_reach_every_player_of_the_side_in_play() -> None:
    """18c1 in a team game played out: every search report the umpire gives is heard by
    both players of the searching side and by neither of the enemy's; the umpire releases
    each report as soon as it is made."""
    s = new_game("two", frozenset({"15a"}), 3, "umpired", True)
    rng = random.Random(3)
    reports = []
    while s.status != "finished" and len(reports) < 5:
        seat = rng.choice([x for x in acting(s) if legal_actions(s, x)])
        s, ev = released(*apply(s, seat, choose(s, seat, rng)))
        reports += kinds(ev, "search")
    assert reports
    players = [x for x in seats(s) if x.side is not None]
    for e in reports:
        heard = {p.id for p in players if visible_to(e, p.id)}
        assert heard == {p.id for p in players if p.side == e.data["side"]}
