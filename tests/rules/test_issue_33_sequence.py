"""Issue 33 (the turn as data): steps called as procedures, and their return.

A free roll (11a) interrupts the combat whose dice it may re-roll, and a number of ships
to state (15a1.2) the search that found them: each is a step of its own, called by the
step it interrupts (`steps.call`), which its `end` resumes as it was - whom it waited
for, which seats were done. The callers are kept in the state (`State.calls`), so a
snapshot holds them, and a snapshot stored before they were kept still reads.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules import legal_actions
from app.rules.engine.events import Event
from app.rules.engine.snapshot import restore, snapshot
from app.rules.engine.state import Call
from app.rules.engine.steps import StepId, UnknownStep, call, end, goto

from .helpers import play, position
from .test_option_11 import haruna_under_attack
from .test_option_15 import scout_over_h4


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
    assert s.calls == [Call(StepId.REORGANIZATION, [s.side_b, s.side_a], ["usa-1"], False)]
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
