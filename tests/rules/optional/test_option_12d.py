"""Option 12d: patrolling scouts and shadowing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import IllegalAction, apply, legal_actions
from app.rules.base.units import air_movement
from app.rules.engine.state import FLYING, Flight, Spotting, State

from ..helpers import kinds, play, position


def patrolling_a_over_h4(options: set[str]) -> State:
    """US scout A (PBY, PATROL on its back) patrols over the Mobile Force, seen in H4 last Turn."""
    s = position(
        8,
        {"usa": {"TF17": ("N5", []), "TF16": ("P3", [])}, "japan": {"MobileForce": ("H4", [])}},
        dice=[4, 6],
        options=frozenset(options),
    )
    a = s.units["usa"]["A"]
    a = s.put(replace(a, box=FLYING, area=""))
    s.boards["usa"].flights["A"] = Flight(hex="H4", path=["H4"], patrol=True)
    s.boards["usa"].intel.append(Spotting(7, "H4", {"MobileForce": ["Akagi"]}, "air search"))
    for seat in ("usa", "japan", "usa", "japan"):  # assembly, ready
        s, _ = play(s, seat, "done")
    return s


def test_12d2_a_patrolling_scout_shadows_and_follows_the_task_force() -> None:
    s = patrolling_a_over_h4({"12d"})
    assert s.step == "shadowing" and s.waiting == ["usa"]
    assert [a.text() for a in legal_actions(s, "usa")] == ["done", "shadow A MobileForce"]
    s, ev = play(s, "usa", "shadow A MobileForce")  # nothing else to choose: the step passes
    assert kinds(ev, "shadow")[0].audience == "all"  # the opponent is told which marker (12d2)
    s, _ = play(s, "usa", "done")  # sea movement: the US (Side B) first
    s, ev = play(s, "japan", "move MobileForce H5", "done")
    told = kinds(ev, "shadowed")
    assert told and told[0].audience == "usa" and told[0].data["hex"] == "H5"  # 12d2.1
    assert s.boards["usa"].flights["A"].hex == "H5"
    # 12d2.3: the shadow used all its movement - it may search, not fly.
    acts = [a.text() for a in legal_actions(s, "usa")]
    assert "search H5" in acts and not [t for t in acts if t.startswith("fly A")]


def test_12d2_3_a_shadowing_scout_circles_with_its_remaining_movement_factors() -> None:
    """12d2.3: "its remaining movement factors may be converted to search modifiers (see
    option 15a1.1)": scout A (movement factor 8 less the hex it moved with the Mobile Force)
    may circle over H5 with 1 to 7 factors, +2 each to its search roll."""
    s = patrolling_a_over_h4({"12d", "15a"})
    s, _ = play(s, "usa", "shadow A MobileForce", "done")
    s, _ = play(s, "japan", "move MobileForce H5", "done")
    factor = air_movement(s.units["usa"]["A"])
    circles = sorted(int(a.get("factors")) for a in legal_actions(s, "usa") if a.kind == "circle")
    assert circles == list(range(1, factor))  # one factor went with the marker
    plain = s.clone()
    plain.forced_dice = [3, 9]
    plain, ev = play(plain, "usa", "search H5")
    before = kinds(ev, "search-roll")[0].data["modifier"]
    s.forced_dice = [3, 9]
    s, ev = play(s, "usa", "circle H5 3")
    assert kinds(ev, "search-roll")[0].data["modifier"] == before + 2 * 3  # 15a1.1
    assert s.boards["usa"].flights["A"].moved == 4 and not s.forced_dice
    assert not [a for a in legal_actions(s, "usa") if a.kind in ("fly", "circle")]


def test_12d1_a_patrol_scout_may_stay_up_instead_of_landing() -> None:
    s = patrolling_a_over_h4({"12d"})
    s, _ = play(s, "usa", "done", "done")  # no shadow; then sea movement
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "done")
    s, _ = play(s, "japan", "done")
    assert s.step == "air return"
    assert "patrol A" in [a.text() for a in legal_actions(s, "usa")]
    s, _ = play(s, "usa", "patrol A")
    assert s.units["usa"]["A"].box == FLYING
    with pytest.raises(IllegalAction):
        apply(s, "usa", {"kind": "patrol", "unit": "B5"})  # not a PATROL scout, not flying


def test_12d_off_no_patrol_and_no_shadowing() -> None:
    s = patrolling_a_over_h4(set())
    assert s.step == "sea movement"
