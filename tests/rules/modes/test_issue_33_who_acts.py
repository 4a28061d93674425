"""Issue 33 (the turn as data): who acts in a step is declared on the step.

3: "Side B performs each step first, then Side A"; 18c1 and 18c3 have both sides act at
once in the umpired modes in the Action Phase's steps but the moving of air strikes, and
in the Air Return Phase; 7a2.2 (the setup), 17c3 (the radio notes) and 18c1 (the scouts'
routes) have both sides act at once whatever the mode. Each such step says so
(`Step.acts`), `goto` applies it when the step is entered, and no step module reads the
mode for it or sets it in its own enter.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.rules.engine.steps import STEPS, StepId, WhoActs, at_once, goto
from app.rules.modes.seats import acting

from ..base.test_basic_rules import game

RULES = Path(__file__).resolve().parents[3] / "app" / "rules"


def test_issue_33_the_steps_played_at_once_when_umpired_are_18c1s_and_18c3s() -> None:
    """18c1: assembly, readying and sea movement (not air movement: "except for moving air
    strikes"); 18c3: air return. Every other step waits for Side B, then Side A, or for
    whom its own procedure names (setup, radio notes, scout routes)."""
    declared = {n for n, step in STEPS.items() if step.acts is WhoActs.AT_ONCE_WHEN_UMPIRED}
    assert declared == {
        StepId.ASSEMBLY,
        StepId.READY,
        StepId.SEA_MOVEMENT,
        StepId.AIR_RETURN,
    }


@pytest.mark.parametrize(
    ("mode", "together"), [("umpired", True), ("double-blind", True), ("two-player", False)]
)
@pytest.mark.parametrize("step", [StepId.ASSEMBLY, StepId.READY, StepId.AIR_RETURN])
def test_issue_33_entering_a_step_applies_who_acts(mode: str, together: bool, step: StepId) -> None:
    """`goto` sets whom the step waits for at once from its declaration and the mode:
    both sides in the umpired modes (18c1, 18c3), Side B first in the two-player game."""
    s = game()
    s.mode = mode
    goto(s, step, [])
    assert s.step == step and at_once(s, step) is together
    assert s.simultaneous is together
    assert sorted(acting(s)) == (["japan", "usa"] if together else ["usa"])


def test_issue_33_no_step_module_sets_who_acts_from_the_mode() -> None:
    """No module of app/rules sets `state.simultaneous` from the mode's `umpired` (the
    reads that 18c1 and 18c3 made in the assembly, readying, sea movement and air return
    steps are the steps' declarations now)."""
    found = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Assign):
                continue
            targets = [t for n in node.targets for t in ast.walk(n)]
            sets = any(isinstance(t, ast.Attribute) and t.attr == "simultaneous" for t in targets)
            reads = any(
                isinstance(v, ast.Attribute) and v.attr == "umpired" for v in ast.walk(node.value)
            )
            if sets and reads:
                found.append(f"{path.relative_to(RULES)}:{node.lineno}")
    assert found == []


def test_issue_33_the_steps_both_sides_always_play_at_once_declare_it() -> None:
    """7a2.2: both sides set up, each on its own Searchboard; 17c3: no player waits on
    another's radio note; 18c1: each side hands its scouts' routes to the umpire, and
    spends its scouts' factors, "simultaneously". Declared on the step (`WhoActs.AT_ONCE`),
    entered by `goto` in every mode, and set in no step's `enter`."""
    declared = {n for n, step in STEPS.items() if step.acts is WhoActs.AT_ONCE}
    assert declared == {StepId.SETUP, StepId.RADIO, StepId.SCOUT_ROUTES, StepId.SCOUTING}
    for mode in ("two-player", "umpired"):
        s = game()
        s.mode = mode
        goto(s, StepId.RADIO, [])
        assert s.simultaneous and sorted(acting(s)) == ["japan", "usa"]
    setters = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                targets = [t for n in node.targets for t in ast.walk(n)]
                if node.value.value is True and any(
                    isinstance(t, ast.Attribute) and t.attr == "simultaneous" for t in targets
                ):
                    setters.append(f"{path.relative_to(RULES)}:{node.lineno}")
    assert setters == []
