"""18c: the umpire's reports (app/rules/modes/reports.py) - every report the rules make to a side
is a draft the umpire releases as it is, edits (18d) or holds; in double-blind the server
releases each at once. A draft reaches no player's view or log before it is released."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import apply, can_take_back, legal_actions, new_game, view
from app.rules.engine.errors import IllegalAction
from app.rules.engine.events import Event, visible_to
from app.rules.engine.state import FLIP, STRIKE, State
from app.rules.engine.steps import StepId, goto
from app.rules.modes.reports import report_damage, told_versus_truth

from ..helpers import kinds, play, position
from .test_rule_18_umpired import MOBILE_FORCE_SHIPS, PATH, aa_on_b5, scout_over_h4

EXACT = [9, 4]  # 15a1.2: 12 vs 4, three times: exact
PLAYERS = ("japan", "usa")
H4 = "r5"  # 18c1: scout O's route K3-H3-H4, a report for each hex: H4's is the fifth


def searched(mode: str = "umpired") -> tuple[State, list[Event]]:
    """The United States' scout O, flown along its route (18c1), searches H4, where the
    Mobile Force is, spending no more factors there (15a: exact); K3-H3 were empty."""
    return play(scout_over_h4(EXACT, mode), "usa", "spend O 0")


def umpire(s: State, action: dict[str, str]) -> tuple[State, list[Event]]:
    return apply(s, "umpire", action)


def seen_by(events: list[Event], seat: str) -> list[Event]:
    return [e for e in events if visible_to(e, seat)]


def test_18c1_a_spotting_report_waits_as_a_draft_only_the_umpire_sees() -> None:
    s, ev = searched()
    assert not kinds(ev, "search")  # nothing reaches the side yet
    draft = kinds(ev, "report-draft")[0]
    assert draft.audience == "umpire" and draft.data["report"] == H4
    assert [f["force"] for f in draft.data["data"]["found"]] == ["MobileForce"]
    assert not any(e.kind.startswith("report") for e in seen_by(ev, "usa"))
    assert view(s, "usa")["searchboard"]["spotted"] == []
    reports = view(s, "umpire")["umpire"]["reports"]
    # the flown route's reports too: each hex it entered, waiting for the umpire (18c1)
    assert [(r["report"], r["status"], r["side"], r["data"]["hex"]) for r in reports] == [
        (f"r{n}", "waiting", "usa", h) for n, h in enumerate(PATH, 1)
    ]
    assert [r["data"]["level"] for r in reports] == ["nothing"] * 4 + ["exact"]
    offered = {a.text() for a in legal_actions(s, "umpire")}
    assert {f"release-report {H4}", f"hold-report {H4}", f"edit-report {H4} "} <= offered


def test_18c1_a_released_report_reaches_the_side_as_the_rules_made_it() -> None:
    s, _ = searched()
    s, ev = umpire(s, {"kind": "release-report", "report": H4})
    spot = kinds(ev, "search")[0]
    assert spot.audience == "usa" and spot.data["level"] == "exact"
    assert not visible_to(spot, "japan")
    spotted = view(s, "usa")["searchboard"]["spotted"]
    assert [(x["hex"], x["level"], list(x["forces"])) for x in spotted] == [
        ("H4", "exact", ["MobileForce"])
    ]
    statuses = [r["status"] for r in view(s, "umpire")["umpire"]["reports"]]
    assert statuses == ["waiting"] * 4 + ["released"]  # K3-H3's still his
    assert f"release-report {H4}" not in {a.text() for a in legal_actions(s, "umpire")}


def test_18d_an_edited_report_is_what_the_side_is_told_and_the_edit_is_logged() -> None:
    s, _ = searched()
    words = "12 ships, heading east"
    s, ev = umpire(s, {"kind": "edit-report", "report": H4, "text": words})
    told = kinds(ev, "search")[0]
    assert told.audience == "usa"
    assert (told.data["level"], told.data["ships"], told.data["said"]) == ("number", 12, words)
    assert told.data["found"] == []  # the Mobile Force is not named
    logged = kinds(ev, "report-edited")[0]
    assert logged.audience == "umpire"
    assert logged.data["before"]["level"] == "exact" and logged.data["after"]["ships"] == 12
    spotted = view(s, "usa")["searchboard"]["spotted"][-1]
    assert (spotted["level"], spotted["ships"], spotted["said"], spotted["forces"]) == (
        "number",
        12,
        words,
        {},
    )
    assert "MobileForce" not in str(view(s, "usa")["searchboard"])
    assert not any(visible_to(e, "japan") for e in ev)


def test_18d_edited_words_that_are_no_number_are_the_umpires_own_report() -> None:
    s, _ = searched()
    s, ev = umpire(s, {"kind": "edit-report", "report": H4, "text": "Smoke on the horizon"})
    assert kinds(ev, "search")[0].data["level"] == "report"
    assert view(s, "usa")["searchboard"]["spotted"][-1]["said"] == "Smoke on the horizon"


def test_18d_an_edit_naming_the_task_force_puts_its_marker_on_the_board() -> None:
    """Issue 30: the umpire's words name the Mobile Force: its marker goes on the US
    Searchboard at H4 (3d3.3), without the ships the rules' report listed."""
    s, _ = searched()
    words = "Mobile Force, 4 carriers, heading east"
    s, ev = umpire(s, {"kind": "edit-report", "report": H4, "text": words})
    assert kinds(ev, "search")[0].data["found"] == [{"force": "MobileForce", "ships": []}]
    spotted = view(s, "usa")["searchboard"]["spotted"][-1]
    assert (spotted["hex"], spotted["forces"], spotted["said"]) == (
        "H4",
        {"MobileForce": []},
        words,
    )
    assert "Akagi" not in str(view(s, "usa")["searchboard"])
    s2, _ = searched()
    s2, _ = umpire(s2, {"kind": "edit-report", "report": "r1", "text": "Mobile Force here"})
    assert view(s2, "usa")["searchboard"]["spotted"][-1]["forces"] == {}  # not in K3


def test_18c_a_held_report_stays_held_and_may_be_released_later() -> None:
    s, _ = searched()
    s, ev = umpire(s, {"kind": "hold-report", "report": H4})
    assert [(e.kind, e.audience) for e in ev] == [("report-held", "umpire")]
    assert view(s, "usa")["searchboard"]["spotted"] == []
    assert view(s, "umpire")["umpire"]["reports"][-1]["status"] == "held"
    with pytest.raises(IllegalAction) as err:
        umpire(s, {"kind": "hold-report", "report": H4})
    assert "held already" in str(err.value)
    s, _ = play(s, "usa", "done")  # the players go on: nobody waits for the umpire
    s, ev = umpire(s, {"kind": "release-report", "report": H4})
    assert kinds(ev, "search")[0].data["level"] == "exact"
    assert view(s, "usa")["searchboard"]["spotted"][-1]["turn"] == 8  # the Turn it was made


def test_18c_a_report_released_twice_is_refused_naming_why() -> None:
    s, _ = searched()
    s, _ = umpire(s, {"kind": "release-report", "report": H4})
    for action in (
        {"kind": "release-report", "report": H4},
        {"kind": "edit-report", "report": H4, "text": "nothing"},
        {"kind": "hold-report", "report": H4},
    ):
        with pytest.raises(IllegalAction) as err:
            umpire(s, action)
        assert err.value.rule == "18c1" and "released on Turn 8" in str(err.value)
    with pytest.raises(IllegalAction) as err:
        umpire(s, {"kind": "release-report", "report": "r9"})
    assert "no report 'r9'" in str(err.value)


@pytest.mark.parametrize("seat", PLAYERS)
def test_18_a_players_umpire_action_is_refused_naming_18(seat: str) -> None:
    s, _ = searched()
    for action in (
        {"kind": "release-report", "report": H4},
        {"kind": "message", "to": "usa", "text": "hello"},
        {"kind": "auto-release", "reports": "spotting", "setting": "on"},
    ):
        with pytest.raises(IllegalAction) as err:
            apply(s, seat, action)
        assert err.value.rule == "18"
        assert "MobileForce" not in str(err.value)


def test_18_the_umpire_taking_a_players_action_is_refused() -> None:
    s, _ = searched()
    with pytest.raises(IllegalAction) as err:
        apply(s, "umpire", {"kind": "done"})
    assert err.value.rule == "18" and "plays no side" in str(err.value)


def scrambled(s: State) -> State:
    """The same position with every open draft's contents changed (not the hex its
    side's scout entered, nor the unit its side attacked: the side knows those)."""
    t = s.clone()
    for d in t.drafts:
        if d.status != "released":
            d.data = {**d.data, "level": "nothing", "found": [], "damage": 5}
            d.truth = {"scrambled": True}
    return t


@pytest.mark.parametrize("seat", PLAYERS)
def test_18c_non_interference_a_held_draft_changes_no_players_view(seat: str) -> None:
    """DESIGN.md: what a seat may not know changes nothing it sees - the contents of a
    waiting or held report, of a spotting (18c1) or a damage report (18c2)."""
    s, _ = searched()
    held, _ = umpire(s, {"kind": "hold-report", "report": H4})
    damaged, _ = aa_on_b5([2, 1, 1], "umpired")
    for state in (s, held, damaged):
        assert view(state, seat) == view(scrambled(state), seat)
        assert legal_actions(state, seat) == legal_actions(scrambled(state), seat)
    assert view(s, "umpire") != view(scrambled(s), "umpire")


def test_18c2_a_damage_report_waits_and_the_side_believes_what_it_saw() -> None:
    """B5 (one hit) flipped by Haruna's AA; the report die 1 underreports by two hits
    (front side, two hits). Until the umpire releases it Japan sees B5 as before: one hit."""
    s, ev = aa_on_b5([2, 1, 1], "umpired")
    assert not kinds(ev, "damage-report")
    b5 = view(s, "japan")["operations_cards"]["usa"]["units"]["B5"]
    assert (b5["face"], b5["hits"]) == ("front", 1)
    s, ev = umpire(s, {"kind": "release-report", "report": "r1"})
    report = kinds(ev, "damage-report")[0]
    assert report.audience == "japan" and (report.data["face"], report.data["hits"]) == ("front", 2)
    b5 = view(s, "japan")["operations_cards"]["usa"]["units"]["B5"]
    assert (b5["face"], b5["hits"]) == ("front", 2)


def test_18d_a_damage_report_in_the_umpires_own_words_keeps_the_unit_and_its_damage() -> None:
    """Issue 30: 18d leaves the words to the umpire - any words are taken; the report
    still names B5, and what Japan believes of B5 stays as it saw it (one hit)."""
    s, _ = aa_on_b5([2, 1, 1], "umpired")
    s, ev = umpire(s, {"kind": "edit-report", "report": "r1", "text": "badly hurt, trailing oil"})
    told = kinds(ev, "damage-report")[0]
    assert told.audience == "japan"
    assert (told.data["target"], told.data["said"]) == ("B5", "badly hurt, trailing oil")
    b5 = view(s, "japan")["operations_cards"]["usa"]["units"]["B5"]
    assert (b5["face"], b5["hits"]) == ("front", 1)
    logged = kinds(ev, "report-edited")[0].data
    assert logged["before"]["damage"] != logged["after"]["damage"] == 1
    pair = told_versus_truth(s)[0]
    assert pair["edited"] == "badly hurt, trailing oil"
    assert pair["truth"]["damage"] == s.units["usa"]["B5"].damage > 1


def test_18c2_an_edited_damage_report_is_told_as_the_umpire_words_it() -> None:
    s, _ = aa_on_b5([2, 1, 1], "umpired")
    s, ev = umpire(s, {"kind": "edit-report", "report": "r1", "text": "flipped and 1 hit"})
    assert kinds(ev, "damage-report")[0].data["damage"] == FLIP + 1
    b5 = view(s, "japan")["operations_cards"]["usa"]["units"]["B5"]
    assert (b5["face"], b5["hits"]) == ("back", 1)


def test_18c_auto_release_lets_a_kind_of_report_through_at_once() -> None:
    s = scout_over_h4(EXACT)  # K3-H3's reports made, waiting
    s, ev = umpire(s, {"kind": "auto-release", "reports": "spotting", "setting": "on"})
    assert [(e.kind, e.audience) for e in ev] == [("auto-release", "umpire")]
    assert view(s, "umpire")["umpire"]["auto_release"] == {"spotting": True, "damage": False}
    s, ev = play(s, "usa", "spend O 0")
    assert [(e.data["hex"], e.audience) for e in kinds(ev, "search")] == [("H4", "usa")]
    assert [e.data["auto"] for e in kinds(ev, "report-released")] == [True]
    assert view(s, "usa")["searchboard"]["spotted"][-1]["level"] == "exact"
    assert [d.status for d in s.drafts] == ["waiting"] * 4 + ["released"]  # made before
    with pytest.raises(IllegalAction):
        umpire(s, {"kind": "auto-release", "reports": "spotting", "setting": "on"})
    s, _ = umpire(s, {"kind": "auto-release", "reports": "spotting", "setting": "off"})
    assert s.auto_release == []


@pytest.mark.parametrize("kind", ["spotting", "damage"])
def test_18_double_blind_releases_every_report_at_once(kind: str) -> None:
    if kind == "spotting":
        s, ev = searched("double-blind")
        assert kinds(ev, "search")[0].audience == "usa"
        made = len(PATH)  # 18c1: the route's hexes, each reported as the scout entered it
    else:
        s, ev = aa_on_b5([2, 1, 1], "double-blind")
        assert kinds(ev, "damage-report")[0].audience == "japan"
        made = 1
    assert not kinds(ev, "report-draft")
    assert [d.status for d in s.drafts] == ["released"] * made
    assert legal_actions(s, "umpire") == []  # no umpire's seat: the server is he


def test_18c_a_message_goes_to_its_side_and_a_note_to_nobody_else() -> None:
    s, _ = searched()
    s, ev = umpire(s, {"kind": "message", "to": "usa", "text": "Heavy weather in the north"})
    assert [(e.kind, e.audience, e.data["text"]) for e in ev] == [
        ("umpire-message", "usa", "Heavy weather in the north")
    ]
    assert visible_to(ev[0], "usa") and not visible_to(ev[0], "japan")
    s, ev = umpire(s, {"kind": "umpire-note", "text": "the lie die favours Japan"})
    assert [e.audience for e in ev] == ["umpire"]
    assert not any(visible_to(e, seat) for e in ev for seat in (*PLAYERS, "spectator"))
    with pytest.raises(IllegalAction) as err:
        umpire(s, {"kind": "message", "to": "usa-tf16", "text": "x"})
    assert "japan, usa" in str(err.value)


def test_18_told_versus_truth_pairs_each_report_with_the_truth() -> None:
    s, _ = searched()
    s, _ = umpire(s, {"kind": "edit-report", "report": H4, "text": "3 ships"})
    *empty, pair = told_versus_truth(s)
    assert [(p["rules_said"]["hex"], p["told"]) for p in empty] == [(h, None) for h in PATH[:-1]]
    assert pair["told"]["ships"] == 3 and pair["edited"] == "3 ships"
    assert pair["rules_said"]["level"] == "exact"
    assert pair["truth"]["ships"] == MOBILE_FORCE_SHIPS
    assert list(pair["truth"]["found"]) == ["MobileForce"]
    assert "told_versus_truth" not in view(s, "usa")
    assert view(s, "umpire")["told_versus_truth"] == told_versus_truth(s)


@pytest.mark.parametrize("mode", ["umpired", "double-blind"])
def test_18c_a_search_the_umpire_has_to_answer_may_not_be_taken_back(mode: str) -> None:
    """Issue 14 with 18c: a search of the basic game rolls no die, and its answer goes to
    the searching side only; once the umpire has it to answer it stands (take-back ends
    at a reveal). 18c1: the search is the flown route's, once both sides are done."""
    s = position(
        8, {"usa": {"TF17": ("L3", [])}, "japan": {"MobileForce": ("K3", [])}}, dice=[4, 6]
    )
    s.mode = mode
    o = s.units["usa"]["O"]
    o = s.put(replace(o, box=STRIKE, area="TF17"))
    goto(s, StepId.AIR_MOVEMENT_AND_SEARCH, [])
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "route O K3")
    assert can_take_back(s, "usa").actions == 1
    s, ev = play(s, "usa", "done")  # the umpire flies it: K3 searched
    assert [d.data["hex"] for d in s.drafts] == ["K3"] and not s.forced_dice  # no die
    assert kinds(ev, "report-draft" if mode == "umpired" else "search")
    taken = can_take_back(s, "usa")
    assert (taken.actions, taken.rule) == (0, "18c")


def test_18c_the_umpire_writes_to_one_player_of_a_team() -> None:
    """17a with 18c: a message to one player reaches him, not his teammate nor the enemy."""
    s = new_game("two", frozenset(), 1, "umpired", True)
    s, ev = umpire(s, {"kind": "message", "to": "usa-tf16", "text": "Only for Spruance"})
    seen = {x: visible_to(ev[0], x) for x in ("usa-tf16", "usa-tf17", "japan-i", "japan-vi")}
    assert seen == {"usa-tf16": True, "usa-tf17": False, "japan-i": False, "japan-vi": False}


def test_18c2_a_report_goes_on_from_the_one_before_released_or_not() -> None:
    """Two damage reports of B5 held: the second goes on from the first (two hits told,
    one more hit, die 5: actual, so flipped); released last, the first takes back nothing
    (RULES? 18c2: a report never takes back damage told before)."""
    s, _ = aa_on_b5([2, 1, 1], "umpired")
    b5 = s.units["usa"]["B5"]
    before = b5.damage
    b5 = s.put(replace(b5, damage=b5.damage + 1))
    s.forced_dice = [5]
    out: list[Event] = []
    report_damage(s, b5, before, "anti-aircraft", out)
    assert [d.data["damage"] for d in s.drafts] == [2, FLIP]
    s, _ = umpire(s, {"kind": "release-report", "report": "r2"})
    s, ev = umpire(s, {"kind": "release-report", "report": "r1"})
    assert kinds(ev, "damage-report")[0].data["damage"] == FLIP
    told = view(s, "japan")["operations_cards"]["usa"]["units"]["B5"]
    assert (told["face"], told["hits"]) == ("back", 0)
