"""Issue 17: a live page's log lines are each put in words once (app/web/narration.py)
and used again only while the same event, after the same battle, gets the same answers
from the seat's names. Along random games of every kind of seat, a page's Narration fed
its one growing log (extended in place, as the live page keeps it) and each new view's
names tells, at every version, exactly the lines a fresh telling of the log gives; and
it did use lines again."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app import rules
from app.web import render
from app.web.choices import Namer
from app.web.narration import Narration, log_lines
from tests.web.games import KINDS, Kind, played
from tests.web.test_log_lines import _japanese_battle


@pytest.mark.parametrize("kind", [*KINDS, ("santa-cruz", (), "double-blind", False)])
def test_issue17_a_page_tells_each_line_once_and_alike(kind: Kind) -> None:
    pages: dict[str, Narration] = {}
    last: dict[str, dict[int, Any]] = {}
    told = reused = 0
    for _step, state, logs in played(kind, 7, 31, 300):
        for s in logs:
            view = json.loads(json.dumps(rules.view(state, s)))
            plays = str(view.get("viewer", {}).get("side") or s)
            since = int(view.get("turn") or 0) - render.LOG_TURNS + 1
            lines = pages.setdefault(s, Narration()).lines(Namer(view, plays), logs[s], since)
            assert lines == log_lines(Namer(view, plays), list(logs[s]), since)
            told += len(lines)
            reused += sum(1 for ln in lines if last.get(s, {}).get(ln.n) is ln)
            last[s] = {ln.n: ln for ln in lines}
    assert told > 0 and reused > told // 3  # lines were used again: the check is not vacuous


class Names:
    """A seat's names, one of which the test changes."""

    def __init__(self, force: str) -> None:
        self.other = {"usa": "japan", "japan": "usa"}
        self.seats: dict[str, str] = {}
        self.name = force

    def force(self, marker: str) -> str:
        return self.name

    def kind(self, side: str, uid: str) -> str:
        return ""

    def unit(self, side: str, uid: str) -> str:
        return uid


def test_issue17_a_line_whose_names_changed_is_told_anew() -> None:
    """A task force's name, as the view gives it, changes: its line says the new one."""
    events: list[dict[str, Any]] = [
        {"kind": "move", "turn": 1, "step": "sea movement", "force": "TF16", "hex": "H5"},
        {"kind": "phase", "turn": 1, "step": "setup"},
    ]
    page = Narration()
    first = page.lines(Names("Task Force 16"), events)
    again = page.lines(Names("Task Force 16"), events)
    assert again[0] is first[0] and again[1] is first[1]
    renamed = page.lines(Names("the carriers"), events)
    assert renamed == log_lines(Names("the carriers"), events)
    assert first[0].text.startswith("Task Force 16 moves to H5")
    assert renamed[0] is not first[0] and renamed[0].text.startswith("the carriers moves")
    assert renamed[1] is first[1]  # a line that asked nothing of the names stands


def test_issue17_the_battle_followed_before_the_turns_shown_is_kept_with_them() -> None:
    """A battle begun in a Turn no longer shown (4): the page follows it once, and its
    later pushes still name the attacker as a fresh telling does."""
    found = None
    for seed in range(1, 20):
        found = _japanese_battle(seed)
        if found is not None:
            break
    assert found is not None, "no Japanese battle in 19 games"
    state, events, battles = found
    first = battles[-1]
    turn = int(events[first]["turn"])
    # the battle's own event first, as if of a Turn before those shown
    log = [{**events[first], "turn": turn - 2}, *events[first + 1 :]]
    view = json.loads(json.dumps(rules.view(state, "japan")))
    page = Narration()
    for _ in range(2):  # the second time from what the first followed
        lines = page.lines(Namer(view, "japan"), log, turn)
        assert lines == log_lines(Namer(view, "japan"), list(log), turn)
