"""Issue 33 (the turn as data): steps called as procedures, and their return.

A free roll (11a) interrupts the combat whose dice it may re-roll, and a number of ships
to state (15a1.2) the search that found them: each is a step of its own, called by the
step it interrupts (`steps.call`), which its `end` resumes as it was - whom it waited
for, which seats were done. The callers are kept in the state (`State.calls`), so a
snapshot holds them, and a snapshot stored before they were kept still reads.
"""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app import rules
from app.rules import legal_actions
from app.rules.base import sequence as base_sequence
from app.rules.engine.events import Event
from app.rules.engine.snapshot import restore, snapshot
from app.rules.engine.state import Caller
from app.rules.engine.steps import (
    SEQUENCE,
    STEPS,
    After,
    Branch,
    StepId,
    UnknownStep,
    call,
    check_sequence,
    end,
    follow,
    goto,
    next_step,
)
from app.rules.modes.seats import acting
from app.rules.optional.surface import sequence as surface_sequence
from tools.fuzz import choose

from ..base.test_basic_rules import game
from ..helpers import play, position
from ..optional.test_option_11 import haruna_under_attack
from ..optional.test_option_15 import scout_over_h4

RULES = Path(__file__).resolve().parents[3] / "app" / "rules"


def test_11a_a_called_step_ends_back_in_its_caller_as_it_was() -> None:
    """`call` enters the called step afresh (no seat done in it); `end` gives the caller
    back its step, the sides it waited for, in their order, and its seats done."""
    s = position(8, {"usa": {"TF16": ("H5", [])}, "japan": {"MobileForce": ("H4", [])}})
    s.teams, s.free_roll = True, "usa"
    out: list[Event] = []
    goto(s, StepId.REORGANIZATION, out)
    assert s.waiting == [s.side_b, s.side_a]
    s.done = ["usa-1"]
    call(s, StepId.FREE_ROLL, out)
    assert (s.step, s.waiting, s.done) == (StepId.FREE_ROLL, ["usa"], [])
    assert s.calls == [Caller(StepId.REORGANIZATION, [s.side_b, s.side_a], ["usa-1"], False)]
    assert restore(json.loads(json.dumps(snapshot(s)))) == s  # the callers are JSON
    end(s, out)
    assert (s.step, s.waiting, s.done, s.calls) == (
        StepId.REORGANIZATION,
        [s.side_b, s.side_a],
        ["usa-1"],
        [],
    )


def test_a_call_given_its_next_step_ends_by_entering_it() -> None:
    """`call(..., then=X)`: the called procedure's `end` enters step X afresh."""
    s = position(8, {"usa": {"TF16": ("H5", [])}, "japan": {"MobileForce": ("H4", [])}})
    out: list[Event] = []
    goto(s, StepId.COMBAT, out)
    s.free_roll = "japan"
    call(s, StepId.FREE_ROLL, out, then=StepId.REORGANIZATION)
    assert s.step == StepId.FREE_ROLL and s.waiting == ["japan"]
    end(s, out)
    assert s.step == StepId.REORGANIZATION and s.waiting == [s.side_b, s.side_a]


def test_an_end_with_no_caller_is_an_error() -> None:
    s = position(8, {"usa": {"TF16": ("H5", [])}, "japan": {"MobileForce": ("H4", [])}})
    with pytest.raises(UnknownStep, match="no step called it"):
        end(s, [])


def test_11a_the_free_roll_returns_to_the_combat_it_interrupted() -> None:
    """11a: the holder's choice made, the anti-aircraft combat goes on (4c)."""
    s = _at_free_roll()
    assert s.step == StepId.FREE_ROLL and s.waiting == ["usa"]
    assert [(c.step, c.waiting) for c in s.calls] == [(StepId.ANTI_AIRCRAFT_COMBAT, ["japan"])]
    s, _ = play(s, "usa", "accept")
    assert s.step == StepId.ANTI_AIRCRAFT_COMBAT and s.calls == []


def test_15a1_2_the_number_stated_returns_to_the_search() -> None:
    s = scout_over_h4([3, 5])  # 6 vs 5: a number to state
    s, _ = play(s, "usa", "search H4")
    assert s.step == StepId.SEARCH_REPORT and s.waiting == ["japan"]
    assert [(c.step, c.waiting) for c in s.calls] == [
        (StepId.AIR_MOVEMENT_AND_SEARCH, ["usa", "japan"])
    ]
    s, _ = play(s, "japan", "report 40")
    assert s.step == StepId.AIR_MOVEMENT_AND_SEARCH and s.waiting == ["usa", "japan"]
    assert s.calls == []


def _at_free_roll() -> Any:
    s = haruna_under_attack([6, 5, 1, 10], frozenset({"11a"}))
    s, _ = play(s, "japan", "face N", "formation")
    ships = s.battle.ships if s.battle else []
    s, _ = play(s, "usa", *(f"target {u} {ships[0]}" for u in ("B5", "B6", "S6")))
    s, _ = play(s, "japan", f"aa {ships[0]} B5", "fire")
    return s


def _stored_before_calls(doc: dict[str, Any]) -> dict[str, Any]:
    """The snapshot as written before `State.calls`: no callers; a pending free roll or a
    report to state kept its step to resume itself, and the caller's seats done and who
    acted at once stayed the state's own."""
    body = json.loads(json.dumps(doc["state"]))
    calls = body.pop("calls")
    assert len(calls) <= 1
    for back in calls:
        held = body["pending"]
        if held is None:
            held = next(b["report"] for b in body["boards"].values() if b["report"])
        held["resume_step"], held["resume_waiting"] = back["step"], back["waiting"]
        body["done"], body["simultaneous"] = back["done"], back["simultaneous"]
    return {"format": doc["format"], "state": body}


@pytest.mark.parametrize("where", ["free roll", "search report", "no call"])
def test_a_snapshot_stored_before_the_calls_were_kept_is_read(where: str) -> None:
    """A stored game reads as it was: with no caller, an empty stack; a free roll's or a
    search report's step to resume becomes its call, and the game goes on the same."""
    if where == "free roll":
        s, seat, action = _at_free_roll(), "usa", "reroll"
    elif where == "search report":
        s, seat, action = scout_over_h4([3, 5]), "usa", "search H4"
        s, _ = play(s, seat, action)
        seat, action = "japan", "report 40"
    else:
        s, seat, action = scout_over_h4([3, 5]), "usa", "search H4"
    doc = snapshot(s)
    old = _stored_before_calls(doc)
    assert "calls" not in old["state"]
    kept = json.dumps(old, sort_keys=True)
    back = restore(old)
    assert json.dumps(old, sort_keys=True) == kept  # the stored document is left as it was
    assert back == s and snapshot(back) == doc
    assert [a.text() for a in legal_actions(back, seat)] == [
        a.text() for a in legal_actions(s, seat)
    ]
    assert play(back, seat, action) == play(s, seat, action)


def _random_play_to(scenario: str, mode: str, seed: int, steps: frozenset[str]) -> Any:
    """A random game (tools.fuzz's choices) played to a state in one of `steps`."""
    rng = random.Random(seed)
    s = rules.new_game(scenario, frozenset(), seed, mode)
    while s.step not in steps:
        assert s.status != "finished", f"no state in {sorted(steps)}"
        seat = rng.choice(acting(s))
        s, _ = rules.apply(s, seat, choose(s, seat, rng))
    return s


@pytest.mark.parametrize(
    ("scenario", "mode", "steps", "called_by"),
    [
        # 18c1: the umpired scouts' routes went back to the strikes' movement by name
        ("one", "umpired", frozenset({"scout routes"}), "air movement and search"),
        # 16d, 7e: Scenario Four's one surface combat went on to the Turn Record by name
        ("four", "two-player", frozenset({"surface movement", "gunnery"}), "turn record"),
    ],
)
def test_a_snapshot_stored_in_a_procedure_before_the_calls_were_kept_is_read(
    scenario: str, mode: str, steps: frozenset[str], called_by: str
) -> None:
    """A game stored in a procedure that once went on to its caller's step by name (a
    surface combat, the umpired scouts' routes) reads with that caller as its call: it
    ends as it did, not with "no step called it"."""
    s = _random_play_to(scenario, mode, 7, steps)
    doc = snapshot(s)
    assert [c["step"] for c in doc["state"]["calls"]] == [called_by]
    old = {"format": doc["format"], "state": dict(doc["state"])}
    del old["state"]["calls"]
    back = restore(old)
    assert back == s and snapshot(back) == doc
    rng_a, rng_b = random.Random(1), random.Random(1)
    a, b = s, back
    for _ in range(400):  # on to the end of the procedure and past it, alike
        if a.status == "finished":
            break
        seat = rng_a.choice(acting(a))
        assert seat == rng_b.choice(acting(b))
        a, _ = rules.apply(a, seat, choose(a, seat, rng_a))
        b, _ = rules.apply(b, seat, choose(b, seat, rng_b))
        assert snapshot(a) == snapshot(b)
    assert a.calls == [] or a.status == "finished"


# ---------------------------------------------------------------- the sequence of play (2b)


def test_2b_every_step_has_what_comes_after_it_in_a_sequence() -> None:
    """The sequences (the base game's, 16's surface combat's) together cover every step."""
    assert set(SEQUENCE) == set(StepId)
    assert set(base_sequence.SEQUENCE) | set(surface_sequence.SEQUENCE) == set(StepId)
    assert not set(base_sequence.SEQUENCE) & set(surface_sequence.SEQUENCE)
    check_sequence()


def test_2b_a_turn_with_no_battle_and_no_option_goes_in_the_rulebooks_order() -> None:
    """2b1-2b4 read off the table: the Action Phase's steps, the Combat Phase (no battle),
    aircraft damage (11b, off), the Air Return Phase, the submarine attack (11e, off), the
    Turn Record Phase, and the next Turn's sides."""
    s = game()
    order = [StepId.SIDES]
    for _ in range(11):
        s.step = order[-1].value
        way = "combat" if order[-1] == StepId.AIR_MOVEMENT_AND_SEARCH else None
        after = next_step(s, way)
        assert isinstance(after, StepId)
        order.append(after)
    assert order == [
        StepId.SIDES,
        StepId.ASSEMBLY,
        StepId.READY,
        StepId.SHADOWING,
        StepId.SEA_MOVEMENT,
        StepId.AIR_MOVEMENT_AND_SEARCH,
        StepId.COMBAT,
        StepId.AIRCRAFT_DAMAGE,
        StepId.AIR_RETURN,
        StepId.SUBMARINE_ATTACK,
        StepId.TURN_RECORD,
        StepId.SIDES,
    ]


def test_2b_the_sequence_branches_where_the_rulebook_does() -> None:
    """17c3: radio notes first in a team game; 16: the surface contacts after the last
    battle, with option 16."""
    s = game()
    s.step = StepId.SIDES.value
    assert next_step(s) == StepId.ASSEMBLY
    s.teams = True
    assert next_step(s) == StepId.RADIO
    s.step = StepId.COMBAT.value
    assert next_step(s) == StepId.AIRCRAFT_DAMAGE
    s.options = ("16",)
    assert next_step(s) == StepId.SURFACE_CONTACT


def test_a_sequence_with_an_unknown_target_fails_its_check() -> None:
    """A target that is no step id, or a step id with no registered step, or a step with
    nothing after it: the check (run when the engine is imported) names it."""
    bad: dict[StepId, After] = dict(SEQUENCE)
    bad[StepId.RADIO] = "asembly"  # type: ignore[assignment]
    with pytest.raises(UnknownStep, match=r"after 'radio' .* 'asembly'"):
        check_sequence(bad)
    bad = dict(SEQUENCE)
    bad[StepId.COMBAT] = Branch("4", (StepId.AIRCRAFT_DAMAGE, "batle setup"), lambda s: "x")  # type: ignore[arg-type, return-value]
    with pytest.raises(UnknownStep, match="'batle setup'"):
        check_sequence(bad)
    unregistered = {k: v for k, v in STEPS.items() if k != StepId.BREAKOFF}
    with pytest.raises(UnknownStep, match="'breakoff'"):
        check_sequence(SEQUENCE, unregistered)
    with pytest.raises(UnknownStep, match=r"does not go on from.*'turn record'"):
        check_sequence({k: v for k, v in SEQUENCE.items() if k != StepId.TURN_RECORD})
    with pytest.raises(UnknownStep, match="no step id"):
        follow({"cobmat": StepId.COMBAT})  # type: ignore[dict-item]
    with pytest.raises(UnknownStep, match="two sequences"):
        follow({StepId.COMBAT: StepId.REORGANIZATION})
    assert SEQUENCE[StepId.COMBAT] is base_sequence.SEQUENCE[StepId.COMBAT]


def test_a_branch_choosing_none_of_its_targets_is_an_error() -> None:
    s = game()
    s.step = StepId.RADIO.value
    wrong = Branch("17c3", (StepId.ASSEMBLY,), lambda state: StepId.READY)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SEQUENCE, StepId.RADIO, wrong)
        with pytest.raises(UnknownStep, match="none of"):
            next_step(s)


def test_import_fails_on_an_unknown_target() -> None:
    """`import app.rules` checks the sequence (app/rules/game.py, once every step
    module is imported): with a target misspelt, importing it again fails."""
    code = (
        "import importlib\n"
        "import app.rules.game as game\n"
        "from app.rules.engine.steps import SEQUENCE, StepId, UnknownStep\n"
        "SEQUENCE[StepId.RADIO] = 'asembly'\n"
        "try:\n"
        "    importlib.reload(game)\n"
        "except UnknownStep as e:\n"
        "    print('refused:', e)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "refused: after 'radio' the sequence goes on to 'asembly'" in run.stdout


# ---------------------------------------------------------------- who names a next step


def _calls(name: str) -> set[str]:
    """The modules of app/rules that call `name(...)` (by that name or as an attribute)."""
    found = set()
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    found.add(str(path.relative_to(RULES)))
    return found


def test_only_the_engine_goes_to_a_step_the_sequences_say_which() -> None:
    """No step module names the step after it: they `advance`, and the sequences of play
    say where. `goto` is the engine's; `call` is the engine's and the two interruptions
    that may come in any step (11a's free roll in a combat, 15a1.2's number stated in a
    search)."""
    assert _calls("goto") == {"engine/steps.py"}
    assert _calls("begin") == set()
    assert _calls("call") == {"engine/steps.py", "optional/free_roll.py", "base/search.py"}
    assert _calls("end") == {"engine/steps.py"}
    assert _calls("follow") == {"base/sequence.py", "optional/surface/sequence.py"}
    assert len(_calls("advance")) > 15  # every step module goes on by the sequence


def _assigned(attr: str) -> set[str]:
    """The modules of app/rules that assign `<something>.attr = ...` (alone or in a tuple)."""
    found = set()
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                names = [t for target in node.targets for t in _targets(target)]
                if any(isinstance(t, ast.Attribute) and t.attr == attr for t in names):
                    found.add(str(path.relative_to(RULES)))
    return found


def _targets(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.Tuple):
        return [t for elt in node.elts for t in _targets(elt)]
    return [node]


def test_only_the_engine_sets_the_state_s_step() -> None:
    """The state's step changes by the sequences only: `goto`, `end` and the game's end
    (7a3) are the engine's; no rule module sets it (16a's next contact and 6's game over
    used to)."""
    assert _assigned("step") == {"engine/steps.py"}


def test_7a3_after_the_last_turn_the_sequence_ends_the_game() -> None:
    """6, 7a3: the Turn Record Phase of the scenario's last Turn counts the victory, and
    the sequence of play goes on to the game's end, not to another Turn."""
    s = game()
    s.step = StepId.TURN_RECORD.value
    assert next_step(s) == StepId.SIDES
    s.turn = 11  # 7b1: Scenario One's last Turn, whose Turn Record Phase counts the victory
    s.waiting = ["usa"]
    out: list[Event] = []
    goto(s, StepId.TURN_RECORD, out)
    assert s.victory is not None
    assert (s.status, s.step, s.waiting) == ("finished", "finished", [])
    assert [e.kind for e in out][-1] == "game-over"
