"""Issue 33: every step the rules name is a registered step (tools/step_names.py reads
them from the source), every step is registered under a step id, and every step id has
its step (checked when the engine is imported)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from app.rules.engine.steps import (
    SEQUENCE,
    STEPS,
    After,
    Step,
    StepId,
    UnknownStep,
    automatic,
    check_registered,
    check_sequence,
    nothing,
    register,
)
from tools.step_names import gone_on_to, named_steps, names_in, problems

FAKE = """
from app.rules.engine.steps import StepId; AFTER_AIR_BATTLES = StepId.AIRCRAFT_DAMAGE

STEP = "combta"
EARLY = ("sides", "asembly")


def pick(c):
    return "battle setup" if c else "batle setup"


def go(state, out, c):
    goto(state, STEP, out)
    goto(state, "surface contact" if c else "aircraft damge", out)
    goto(state, AFTER_AIR_BATTLES, out)
    goto(state, pick(c), out)
    goto(state, back.step, out)
    state.step, state.waiting = "turn recrod", []
    if state.step in EARLY or state.step == "free rol":
        out.append(Event("x", "all", 1, "combat", {}))
    out.append(Event("x", "all", 1, "bombing combatt", {}))
"""


def test_issue_33_every_step_the_rules_name_is_registered() -> None:
    """Each name of a step in the engine's source is a registered step, and every
    registered step is gone on to: by the sequences of play (app/rules/base/sequence.py,
    optional/surface/sequence.py), as the first step or a step called (11a, 15a1.2)."""
    named = named_steps()
    assert problems(named) == []
    called = {n.step for n in named if n.how == "call"}
    assert called == {"free roll", "search report"}  # 11a, 15a1.2: interruptions
    assert gone_on_to() == set(STEPS) - called
    assert not [n for n in named if n.how == "goto"]  # only the engine goes to a step


def test_issue_33_a_misnamed_step_is_found_with_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Misspelt steps in a goto (a literal, a constant, a conditional's branch, a
    function's return), a step set, compared and named by an event are each told with
    their line; a value only passed on (a saved step) names nothing."""
    path = tmp_path / "fake_steps.py"
    path.write_text(FAKE)
    spec = importlib.util.spec_from_file_location("app.rules.fake_steps", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "app.rules.fake_steps", module)
    spec.loader.exec_module(module)
    named = names_in(module, FAKE)
    wrong = [p for p in problems(named) if "no step is registered" in p]
    said = "\n".join(wrong)
    for typo, line, how in (
        ("combta", 13, "goto"),
        ("aircraft damge", 14, "goto"),
        ("batle setup", 16, "goto"),
        ("turn recrod", 18, "state.step ="),
        ("asembly", 19, "state.step =="),
        ("free rol", 19, "state.step =="),
        ("bombing combatt", 21, "Event"),
    ):
        assert f"fake_steps.py:{line}: {how} {typo!r}" in said
    assert len(wrong) == 7, said
    steps = {n.step for n in named}
    assert {"surface contact", "aircraft damage", "battle setup", "sides", "combat"} <= steps


def test_issue_33_a_misspelt_target_in_the_engine_is_found() -> None:
    """The base game's sequence with one target a misspelt string (mypy refuses a
    string there, and test_issue_33_step_ids.py any string): the check on import names
    it and the step it comes after."""
    wrong: dict[StepId, After] = {**SEQUENCE}
    wrong[StepId.REORGANIZATION] = "reorganisation"  # type: ignore[assignment]
    with pytest.raises(UnknownStep, match=r"after 'reorganization' .* 'reorganisation'"):
        check_sequence(wrong)


def test_issue_33_a_step_is_registered_under_its_id_only() -> None:
    """`register` refuses a name that is no step id, and leaves the registry alone."""
    before = dict(STEPS)
    with pytest.raises(UnknownStep, match=r"'cobmat'.*StepId"):
        automatic("cobmat", "4", nothing)
    with pytest.raises(UnknownStep):
        register(
            Step(
                "air  return",
                "5",
                "",
                STEPS["combat"].actions,
                STEPS["combat"].handle,
                nothing,
                nothing,
            )
        )
    assert before == STEPS


def test_issue_33_the_step_ids_are_the_registered_steps() -> None:
    """Checked when the engine is imported: a step id without its step fails."""
    assert set(StepId) == set(STEPS)  # a new step is counted by its id, not here
    check_registered()
    fewer = {name: step for name, step in STEPS.items() if name != "surprise"}
    with pytest.raises(UnknownStep, match="surprise"):
        check_registered(fewer)
