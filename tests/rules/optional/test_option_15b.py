"""Option 15b (with 14): loss of scout air units to enemy CAP."""

from __future__ import annotations

from app.rules import legal_actions
from app.rules.engine.state import State

from ..helpers import kinds, play, position


def scout_toward_cap(dice: list[int], options: set[str]) -> State:
    """Japan flies 1KF as High CAP over the Mobile Force in K3; scout O leaves TF 17 in L3."""
    s = position(
        8,
        {"usa": {"TF17": ("L3", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("K3", [])}},
        dice=[4, 6, *dice],
        options=frozenset({"14", *options}),
    )
    s, _ = play(s, "usa", "launch O", "done")
    s, _ = play(s, "japan", "cap 1KF high", "done")
    for seat in ("usa", "japan", "usa", "japan"):
        s, _ = play(s, seat, "done")
    return s


def test_15b1_three_times_the_scouts_roll_eliminates_it_after_its_search() -> None:
    s = scout_toward_cap([1, 3], {"15b", "15a"})
    s, ev = play(s, "usa", "fly O K3")
    meet = kinds(ev, "scout-meets-cap")[0].data
    assert (meet["scout_roll"], meet["cap_roll"], meet["lost"]) == (1, 3, True)
    assert s.units["usa"]["O"].eliminated
    texts = [a.text() for a in legal_actions(s, "usa")]
    assert "search K3" in texts and not [t for t in texts if t.startswith("circle")]  # 15b2


def test_15b1_less_than_three_times_nothing_happens() -> None:
    s = scout_toward_cap([2, 5], {"15b"})
    s, ev = play(s, "usa", "fly O K3")
    assert not kinds(ev, "scout-meets-cap")[0].data["lost"] and not s.units["usa"]["O"].eliminated


def test_15b_needs_the_option() -> None:
    s = scout_toward_cap([], set())
    s, ev = play(s, "usa", "fly O K3")
    assert not kinds(ev, "scout-meets-cap")
