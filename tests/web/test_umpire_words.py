"""Issue 30, 18d: the umpire's edits on the pages - a damage report in his own words
still names the unit, and an edited sighting is marked on the player's Searchboard (a
named task force's marker, or an enemy marker "?" for his other words)."""

from __future__ import annotations

from typing import Any

from rules.modes.test_rule_18_reports import H4, searched
from rules.modes.test_rule_18_umpired import aa_on_b5

from app.rules import apply, view
from app.rules.engine.state import State
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


def test_ptvm_bases_3_a_base_report_in_words_on_the_console_and_the_log_18c2() -> None:
    """18c2 with the expansion's Bases 3: a base report waiting on the console says the base,
    its hits today and its knockout in words (not "something"), as the log line the
    attacker reads once it is released; an edit in the umpire's words names the base."""
    from rules.expansions.test_ptvm_strikes import BOMBERS, base_reports, kinds, on_base

    from app.web.console import console

    s, _ = on_base("Tulagi", "F4C", BOMBERS[:2], dice=[1, 1, 5], mode="umpired")
    (draft,) = base_reports(s)
    card = console(view(s, "umpire"), [])
    assert card is not None
    (waiting,) = [d for d in card["drafts"] if d.kind == "Base report"]
    assert waiting.said == "Tulagi 6 hits today, knocked out"
    assert waiting.suggestion == "6 hits today, knocked out"
    _, out = apply(s, "umpire", {"kind": "release-report", "report": draft.id})
    (told,) = kinds(out, "base-report")
    line = UmpireLines()._base_report(told.to_json())
    assert line == "The umpire reports (18c2, Bases 3): Tulagi 6 hits today, knocked out"
    _, out = apply(s, "umpire", {"kind": "edit-report", "report": draft.id, "text": "Smoke"})
    (told,) = kinds(out, "base-report")
    assert UmpireLines()._base_report(told.to_json()).endswith("Tulagi: “Smoke”")
    assert said("base", {"base": "Tulagi", "hits_today": None, "knocked_out": False}) == (
        "Tulagi not knocked out"
    )


def test_ptvm_bases_3_the_attacker_marks_the_hits_the_umpire_reported_18c2() -> None:
    """Bases 3 under 18c2: in an umpired game the attacker sees no enemy Operations Card,
    so his theatre map marks an enemy base's hits today and knockout from the umpire's
    last report of the day once it is released (as told: an edit's words), never before."""
    from rules.expansions.test_ptvm_strikes import BOMBERS, base_reports, on_base

    from app.web.theatre import bases

    def tulagi(s: State) -> tuple[int | None, bool]:
        (mark,) = [b for b in bases(view(s, "usa")) if b.name == "Tulagi"]
        return mark.damage, mark.knocked_out

    s, _ = on_base("Tulagi", "F4C", BOMBERS[:2], dice=[1, 1, 5], mode="umpired")
    (draft,) = base_reports(s)
    assert tulagi(s) == (None, False)  # awaited: the umpire has not told him yet
    released, _ = apply(s, "umpire", {"kind": "release-report", "report": draft.id})
    assert tulagi(released) == (6, True)
    edited, _ = apply(s, "umpire", {"kind": "edit-report", "report": draft.id, "text": "2 hits"})
    assert tulagi(edited) == (2, False)
