"""18c, issue 30: what a player hears of the umpire (modes/r18_umpired/heard.py) - his messages,
the reports awaited for the side and how many it has had - is part of the player's view,
so that a message, or a report released where nothing on the board changes, reaches the
player's page as it happens, and a held report does not look like "nothing found"."""

from __future__ import annotations

import pytest

from app.rules import apply, new_game, view
from app.rules.engine.errors import IllegalAction

from .test_rule_18_reports import H4, searched, umpire
from .test_rule_18_umpired import PATH, aa_on_b5

PLAYERS = ("japan-i", "japan-vi", "usa-tf16", "usa-tf17")


def test_18c_the_umpires_message_is_in_its_audiences_views_only() -> None:
    s = new_game("three", frozenset(), 1, "umpired", True)
    s, _ = apply(s, "umpire", {"kind": "message", "to": "usa-tf16", "text": "north"})
    s, _ = apply(s, "umpire", {"kind": "message", "to": "japan", "text": "west"})
    s, _ = apply(s, "umpire", {"kind": "message", "to": "all", "text": "clear skies"})
    got = {seat: [m["text"] for m in view(s, seat)["heard"]["messages"]] for seat in PLAYERS}
    assert got == {
        "usa-tf16": ["north", "clear skies"],
        "usa-tf17": ["clear skies"],
        "japan-i": ["west", "clear skies"],
        "japan-vi": ["west", "clear skies"],
    }


def test_18c_the_umpire_writes_to_all_and_to_nobody_else() -> None:
    s = new_game("one", frozenset(), 1, "umpired", False)
    with pytest.raises(IllegalAction) as err:
        apply(s, "umpire", {"kind": "message", "to": "usa-tf16", "text": "north"})
    assert err.value.rule == "18c" and "all, japan, usa" in str(err.value)


def test_18c1_a_report_awaited_shows_where_the_scout_went_and_nothing_it_found() -> None:
    """Scout O's route K3-J2-I3-H3-H4 made five reports; the United States know a scout
    went to each hex and that the answers wait for the umpire - not what they say."""
    s, _ = searched()
    heard = view(s, "usa")["heard"]
    assert [a["hex"] for a in heard["awaited"]] == PATH
    assert all(set(a) == {"reports", "rule", "turn", "hex"} for a in heard["awaited"])
    assert heard["released"] == 0 and view(s, "japan")["heard"]["awaited"] == []
    held, _ = umpire(s, {"kind": "hold-report", "report": H4})
    assert view(held, "usa")["heard"] == heard  # held or waiting: the player cannot tell
    done, _ = umpire(held, {"kind": "release-report", "report": H4})
    after = view(done, "usa")["heard"]
    assert [a["hex"] for a in after["awaited"]] == PATH[:-1] and after["released"] == 1


@pytest.mark.parametrize("mode", ["umpired", "double-blind"])
def test_18c2_a_released_damage_report_changes_the_players_view(mode: str) -> None:
    """However the report reads, its release is news to the side (even one that tells
    what the side saw already)."""
    s, _ = aa_on_b5([2, 1, 1], mode)
    drafts = [d for d in s.drafts if d.kind == "damage"]
    assert drafts
    if mode == "umpired":
        assert view(s, "japan")["heard"]["awaited"][-1]["target"] == "B5"
        before = view(s, "japan")["heard"]["released"]
        s, _ = umpire(s, {"kind": "release-report", "report": drafts[-1].id})
        assert view(s, "japan")["heard"]["released"] == before + 1
    assert view(s, "japan")["heard"]["awaited"] == []
