"""Issue 30, 18d: the umpire's edits on the pages - a damage report in his own words
still names the unit, and an edited sighting is marked on the player's Searchboard (a
named task force's marker, or an enemy marker "?" for his other words)."""

from __future__ import annotations

from typing import Any

from rules.test_rule_18_reports import H4, searched
from rules.test_rule_18_umpired import aa_on_b5

from app.rules import apply, view
from app.rules.state import State
from app.web import render
from app.web.console import UmpireLines, said, told_truth


def board_keys(s: State, seat: str) -> set[str]:
    doc: dict[str, Any] = {**view(s, seat), "id": "g", "version": 1}
    board = render.board_of(doc, seat)
    assert board is not None
    return {m.key for stack in board.stacks for m in stack.marks}


def test_18d_a_damage_report_in_his_words_names_the_unit() -> None:
    s, _ = aa_on_b5([2, 1, 1], "umpired")
    s, ev = apply(s, "umpire", {"kind": "edit-report", "report": "r1", "text": "badly hurt"})
    told = next(e for e in ev if e.kind == "damage-report").to_json()
    assert UmpireLines()._damage_report(told) == "The umpire reports (18c2): B5: “badly hurt”"
    s = replace_status_finished(s)
    pair = told_truth(view(s, "umpire"))[0]
    assert pair["told"] == "B5: “badly hurt”" and pair["truth"].startswith("B5 ")
    assert said("damage", {"target": "B5", "face": "back", "hits": 1}) == "B5 flipped and 1 hit"


def replace_status_finished(s: State) -> State:
    t = s.clone()
    t.status = "finished"
    return t


def test_18d_an_edited_sighting_is_marked_on_the_board() -> None:
    s, _ = searched()
    named, _ = apply(s, "umpire", {"kind": "edit-report", "report": H4, "text": "Mobile Force"})
    assert "seen:japan:MobileForce" in board_keys(named, "usa")
    vague, _ = apply(s, "umpire", {"kind": "edit-report", "report": H4, "text": "Smoke, maybe"})
    assert "seen:japan:?H4" in board_keys(vague, "usa")
    none, _ = apply(s, "umpire", {"kind": "edit-report", "report": H4, "text": "nothing seen"})
    assert not any(k.startswith("seen:") for k in board_keys(none, "usa"))
