"""Option 12c2: staging in the Ready Step."""

from __future__ import annotations

from app.rules import legal_actions
from app.rules.engine.state import State

from ..base.test_basic_rules import refused
from ..helpers import play, position


def after_take_off(options: set[str]) -> State:
    s = position(
        8,
        {"usa": {"TF17": ("N5", []), "TF16": ("T5", [])}, "japan": {"MobileForce": ("H2", [])}},
        dice=[4, 6],
        options=frozenset(options),
    )
    s, _ = play(s, "usa", "launch B5", "done")
    s, _ = play(s, "japan", "done")
    assert s.step == "ready" and s.waiting[0] == "usa"
    return s


def test_12c2_staging_lands_in_the_ready_box_of_a_ship_or_base_in_reach() -> None:
    s = after_take_off({"12c2"})
    stages = {a.get("at") for a in legal_actions(s, "usa") if a.kind == "stage"}
    # Midway is one hex away; TF 16 in T5 is six, beyond B5's movement factor of 5.
    assert stages == {"Midway"}
    s, _ = play(s, "usa", "stage B5 Midway")
    b5 = s.units["usa"]["B5"]
    assert (b5.box, b5.area) == ("ready", "Midway")


def test_12c2_no_staging_back_onto_the_carrier_it_left() -> None:
    """12c2: staging is "flying to another closer base or ship": B5, just off Yorktown in
    N5, may not stage at distance 0 back onto Yorktown (or any ship in its own hex)."""
    s = after_take_off({"12c2"})
    assert "stage B5 Yorktown" not in [a.text() for a in legal_actions(s, "usa")]
    assert refused(s, "usa", "stage B5 Yorktown").rule == "12c2"


def test_12c2_off_no_staging() -> None:
    s = after_take_off(set())
    assert not [a for a in legal_actions(s, "usa") if a.kind == "stage"]
