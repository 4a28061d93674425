"""Issue 30, 18c1: a report the umpire has not released is not "nothing found". The
player's Searchboard marks each hex his scout searched whose report awaits the umpire
("awaited"), and says nothing of what the report will say; once released, the hex shows
the report as any other."""

from __future__ import annotations

import re
from typing import Any

from rules.modes.test_rule_18_reports import H4, searched
from rules.modes.test_rule_18_umpired import PATH

from app.rules import State, apply, view
from app.web import render

CELL = re.compile(r'<g id="sbc-[^"]+" class="hex([^"]*)" data-hex="(\w+)"[^>]*aria-label="([^"]*)"')


def cells(s: State, seat: str) -> dict[str, tuple[str, str]]:
    """Each hex of the seat's Searchboard as drawn: its classes and its words."""
    doc: dict[str, Any] = {**view(s, seat), "id": "g", "version": 1}
    board = render.board_of(doc, seat)
    assert board is not None
    svg = str(render.cells_svg(board))
    return {m.group(2): (m.group(1), m.group(3)) for m in CELL.finditer(svg)}


def test_18c1_a_report_awaited_is_marked_on_the_searchboard_without_its_contents() -> None:
    s, _ = searched()
    drawn = cells(s, "usa")
    awaited = {h for h, (classes, _) in drawn.items() if "report-awaited" in classes}
    assert awaited == set(PATH)
    assert "awaits the umpire (18c1)" in drawn["H4"][1]
    # H4's report found the Mobile Force, K3's nothing: both are drawn alike
    assert drawn["H4"][0] == drawn["K3"][0]
    assert drawn["H4"][1].replace("H4", "K3") == drawn["K3"][1]
    assert not any("report-awaited" in c for c, _ in cells(s, "japan").values())
    board = render.board_of({**view(s, "usa"), "id": "g", "version": 1}, "usa")
    assert board is not None and any("awaited" in line for line in board.legend)


def test_18c1_a_report_released_is_no_longer_awaited() -> None:
    s, _ = searched()
    s, _ = apply(s, "umpire", {"kind": "release-report", "report": H4})
    drawn = cells(s, "usa")
    assert "report-awaited" not in drawn["H4"][0]
    assert "report-awaited" in drawn["K3"][0]
