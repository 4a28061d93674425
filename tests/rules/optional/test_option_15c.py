"""Option 15c: creating new scout air units."""

from __future__ import annotations

from dataclasses import replace

from app.rules import legal_actions
from app.rules.engine.state import State
from app.rules.optional.repairs import repairs

from ..helpers import play, position


def assembly(options: frozenset[str]) -> State:
    s = position(
        8,
        {"usa": {"TF17": ("N5", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H2", [])}},
        dice=[4, 6],
        options=options,
    )
    assert s.step == "assembly" and s.waiting[0] == "usa"
    return s


def texts(s: State, seat: str) -> list[str]:
    return [a.text() for a in legal_actions(s, seat)]


def test_15c1_a_parent_marked_with_hits_creates_scouts_of_its_type() -> None:
    s = assembly(frozenset({"15c"}))
    # 15c2: D units make M, N, O, P, Q; M, N, O are in play, so P and Q are free.
    assert "create B5 2" in texts(s, "usa") and "create T3 1" not in texts(s, "usa")  # no T scouts
    s, _ = play(s, "usa", "create B5 2")
    b5 = s.units["usa"]["B5"]
    assert b5.hits == 2 and not b5.flipped
    assert {u: (s.units["usa"][u].box, s.units["usa"][u].area) for u in ("P", "Q")} == {
        "P": ("ready", "Yorktown"),
        "Q": ("ready", "Yorktown"),
    }
    assert not [t for t in texts(s, "usa") if t.startswith("create B3")]  # no D scouts left


def test_15c1_only_undamaged_parents_at_the_start_of_the_step() -> None:
    s = assembly(frozenset({"15c"}))
    s.put(replace(s.units["usa"]["B6"], damage=1))
    assert not [t for t in texts(s, "usa") if t.startswith("create B6")]
    s, _ = play(s, "usa", "launch B3")
    assert not [t for t in texts(s, "usa") if t.startswith("create")]


def test_15c1_capacity_is_not_exceeded() -> None:
    s = assembly(frozenset({"15c"}))
    for uid in ("B6", "S6", "T6", "M"):  # Enterprise: 4 aboard, capacity 8 (CATALOG 1a)
        assert s.units["usa"][uid].area == "Enterprise"
    for uid in ("B8", "S8", "T8"):
        s.put(replace(s.units["usa"][uid], area="Enterprise"))
    s.put(replace(s.units["usa"]["N"], area="Enterprise"))  # now 8 aboard
    assert not [t for t in texts(s, "usa") if t.startswith("create B6")]


def test_11d_a_scout_parent_is_never_repaired() -> None:
    """11d1, 11d2: after two quiet nights a parent keeps its hit; another unit loses it."""
    s = assembly(frozenset({"15c", "11d"}))
    s, _ = play(s, "usa", "create B5 1")
    s.put(replace(s.units["usa"]["B3"], damage=1))
    s.turn = 6  # a night Turn: tonight's positions are recorded
    repairs(s, [])
    s.turn = 7  # the second night Turn
    repairs(s, [])
    assert s.units["usa"]["B5"].hits == 1 and s.units["usa"]["B3"].hits == 0


def test_15c_off_no_creation() -> None:
    assert not [t for t in texts(assembly(frozenset()), "usa") if t.startswith("create")]
