"""Issue 33: the rule the page prints beside a step (the status line, the replay's
"Turn 3, combat (4)") is the rule the step declares, for every step."""

from __future__ import annotations

from app.rules.engine.steps import STEPS, StepId
from app.web.events import STEP_RULE
from app.web.replay_nav import where


def test_issue_33_step_rule_is_each_steps_own() -> None:
    """Every registered step, its own rule: before, 27 of 37 steps were listed by hand,
    and the Surprise step said 16k where it is 16k2."""
    assert {name: step.rule for name, step in STEPS.items()} == STEP_RULE
    assert set(STEP_RULE) == {name.value for name in StepId}  # every step, a new one too
    assert STEP_RULE["surprise"] == "16k2"
    assert STEP_RULE["shadowing"] == "12d2"
    assert STEP_RULE["free roll"] == "11a"
    assert STEP_RULE["air combat"] == "14c"


class _Mark:
    turn, step, battle = 3, "surprise", 0


def test_issue_33_replay_says_surprise_is_16k2() -> None:
    """The replay's place in words gives the step's own rule (16k2: the Surprise step)."""
    assert where(_Mark()) == "Turn 3, surprise (16k2)"
