"""Issue 17: the bounded memos (app/rules/engine/kept.py) keep the values in use. A thousand live
games keep asking for their cards, tallies and counters while other games' new ones are
made: the least recently used goes first, never one just asked for."""

from __future__ import annotations

from app.rules.engine.kept import Kept


def test_17_a_memo_holds_at_most_its_number() -> None:
    kept: Kept[int, str] = Kept(3)
    for i in range(10):
        assert kept.put(i, str(i)) == str(i)
    assert len(kept) == 3
    assert [i for i in range(10) if i in kept] == [7, 8, 9]
    assert kept.get(3) is None


def test_17_the_value_asked_for_outlives_those_made_since() -> None:
    kept: Kept[str, int] = Kept(3)
    kept.put("in use", 1)
    for i in range(100):
        assert kept.get("in use") == 1  # a live game's card, asked for on every push
        kept.put(f"other {i}", i)
    assert "in use" in kept and len(kept) == 3
    assert "other 0" not in kept
