"""Issue 17: an Operations Card (2c) and its counters are made once for the view's data
they show. The engine shares a card's dict while nothing on it changed, and a unit's dict
while the unit shows alike; a page pushed a view whose card is that same dict is given the
very Card made before, and a counter made from the same unit's dict is the same Counter.
What the card holds is what making it afresh gives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app import rules
from app.web import cards, counters
from tests.web.games import KINDS, played


def test_17_a_card_is_made_once_for_the_card_it_shows() -> None:
    """What is measured: whether the cards of two views holding the same card dicts are
    the same objects (both seats' views of one state share them), and whether a copy
    of a view (equal dicts, not the same) gives equal cards made anew."""
    shared = 0
    for _step, state, logs in played(KINDS[0], 7, 7, 30):
        views = rules.views(state, tuple(logs))
        first, second = (views[s] for s in logs)
        for side in first["operations_cards"]:
            a = cards.card(first, side, "japan")
            if first["operations_cards"][side] is second["operations_cards"][side]:
                assert cards.card(second, side, "japan") is a
                shared += 1
            copy: dict[str, Any] = json.loads(json.dumps(first))
            fresh = cards.card(copy, side, "japan")
            assert fresh is not a and fresh == a
            assert cards.card(first, side, "usa") is not a  # whose card it is counts
    assert shared > 20


def test_17_a_counter_is_made_once_for_the_unit_it_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is measured: how many times a counter is worked out from a unit's dict (its
    factors read, its printed values looked up): once for each dict, none when the same
    dict is shown again; a copy of the dict is worked out anew, into an equal counter."""
    view = rules.view(rules.new_game("one", frozenset(), 5), "usa")
    units = view["operations_cards"]["usa"]["units"]
    made: list[str] = []
    make = counters._counter

    def counted(side: str, uid: str, *rest: Any) -> counters.Counter:
        made.append(uid)
        return make(side, uid, *rest)

    monkeypatch.setattr(counters, "_counter", counted)
    first = {uid: counters.counter(d) for uid, d in units.items()}
    made.clear()
    assert counters.counters_of(view, "usa") == first and made == []
    for uid, unit in units.items():
        assert counters.counter(unit) is first[uid]
        assert counters.counter(dict(unit)) == first[uid]
    assert sorted(made) == sorted(units)
