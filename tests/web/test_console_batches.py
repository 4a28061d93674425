"""Issue 30, 18c: the umpire's console at the pace of a game - after a scout phase every
hex a route entered has its report (18c1), most of them "nothing"; he releases all the
reports of a kind, or all that found nothing, in one click (`release-reports`), and keeps
the others (a find to edit, a report he holds) for one by one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rules.modes.test_rule_18_reports import H4, searched
from rules.modes.test_rule_18_umpired import PATH

from app.rules import apply, legal_actions, view
from app.rules.engine.errors import IllegalAction
from app.rules.engine.state import State
from app.web.render import LiveRegions, Seat


def console_html(s: State) -> str:
    doc: dict[str, Any] = {**view(s, "umpire"), "id": "g", "version": 1}
    html = "".join(LiveRegions().render(doc, [], Seat("g", "umpire")).values())
    found = re.search(r'<section id="r-umpire".*?</section>', html, re.S)
    assert found
    return found.group(0)


def batch_buttons(s: State) -> list[str]:
    return re.findall(r'class="release-all">([^<]*)<', console_html(s))


def test_18c_release_all_that_found_nothing_in_one_click() -> None:
    """Scout O's route K3-J2-I3-H3-H4: four hexes found nothing, H4 the Mobile Force."""
    s, _ = searched()
    assert batch_buttons(s) == [
        "Release all 4 spotting reports that found nothing",
        "Release all 5 spotting reports",
    ]
    s, ev = apply(s, "umpire", {"kind": "release-reports", "reports": "nothing"})
    statuses = {d.data["hex"]: d.status for d in s.drafts}
    assert statuses == {**{h: "released" for h in PATH[:-1]}, "H4": "waiting"}
    assert [e.data["hex"] for e in ev if e.kind == "search"] == PATH[:-1]
    assert all(e.audience == "usa" for e in ev if e.kind == "search")
    assert batch_buttons(s) == ["Release 1 spotting report"]
    assert [a["hex"] for a in view(s, "usa")["heard"]["awaited"]] == ["H4"]


def test_18c_release_all_leaves_a_held_report_held() -> None:
    s, _ = searched()
    s, _ = apply(s, "umpire", {"kind": "hold-report", "report": H4})
    s, _ = apply(s, "umpire", {"kind": "release-reports", "reports": "spotting"})
    assert [d.status for d in s.drafts] == ["released"] * 4 + ["held"]
    offered = {a.text() for a in legal_actions(s, "umpire")}
    assert not any(t.startswith("release-reports") for t in offered)
    with pytest.raises(IllegalAction) as err:
        apply(s, "umpire", {"kind": "release-reports", "reports": "spotting"})
    assert err.value.rule == "18c" and "held" in str(err.value)


def test_18_a_player_may_not_release_all() -> None:
    s, _ = searched()
    with pytest.raises(IllegalAction) as err:
        apply(s, "usa", {"kind": "release-reports", "reports": "nothing"})
    assert err.value.rule == "18"
