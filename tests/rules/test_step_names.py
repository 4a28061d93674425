"""Issue 33: every step the rules name is a registered step (tools/step_names.py reads
them from the source), every step is registered under a step id, and every step id has
its step (checked when the engine is imported)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from app.rules.base import battle
from app.rules.engine.steps import (
    STEPS,
    Step,
    StepId,
    UnknownStep,
    automatic,
    check_registered,
    nothing,
    register,
)
from tools.step_names import ROOT, named_steps, names_in, problems

FAKE = """
from app.rules.base.battle import AFTER_AIR_BATTLES

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
    registered step is gone on to; the names read include a module's constant
    (battle.AFTER_AIR_BATTLES), a function's returns (radio.next_step, battle.setup_step)
    and both branches of a conditional."""
    named = named_steps()
    assert problems(named) == []
    begun = {(n.step, n.where.split(":")[0]) for n in named if n.how == "goto"}
    contact = "app/rules/optional/surface/contact.py"
    assert ("aircraft damage", contact) in begun  # AFTER_AIR_BATTLES
    assert ("radio", "app/rules/base/action_phase.py") in begun  # next_step(state)
    assert ("assembly", "app/rules/base/action_phase.py") in begun
    assert ("battle setup", "app/rules/base/battle.py") in begun  # setup_step(b)
    assert ("surface contact", "app/rules/base/battle.py") in begun  # "..." if 16 else ...
    assert {n.step for n in named if n.how in ("goto", "call", "state.step =")} >= set(STEPS)


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
    """battle.py with one `goto` target a misspelt string (mypy refuses a string there,
    and test_issue_33_step_ids.py any string): the check names it and its line."""
    source = (ROOT / "base" / "battle.py").read_text()
    assert source.count("goto(state, StepId.REORGANIZATION, out)") == 1
    wrong = source.replace("StepId.REORGANIZATION, out)", '"reorganisation", out)')
    line = wrong.splitlines().index('    goto(state, "reorganisation", out)') + 1
    found = problems(names_in(battle, wrong))
    assert f"app/rules/base/battle.py:{line}: goto 'reorganisation': no step is registered" in (
        "\n".join(found)
    )


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
    assert set(StepId) == set(STEPS)
    assert len(STEPS) == 37
    check_registered()
    fewer = {name: step for name, step in STEPS.items() if name != "surprise"}
    with pytest.raises(UnknownStep, match="surprise"):
        check_registered(fewer)
