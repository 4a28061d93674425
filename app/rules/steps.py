"""The sequence of play (2b) as a table of named steps.

Each step has the rule it implements, the seats it waits for, its legal actions, its
handler, and what comes after it. Modules register their steps here; `flow` drives them.
"Side B first, then Side A" (3) is `b_then_a`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.rules.actions import Action
from app.rules.events import Event
from app.rules.seats import side_of_seat, side_seats
from app.rules.state import Side, State

Actions = Callable[[State, Side], list[Action]]
Handler = Callable[[State, Side, Action, list[Event]], None]
Hook = Callable[[State, list[Event]], None]
Why = Callable[[State, Side, Action], tuple[str, str] | None]


def nothing(state: State, out: list[Event]) -> None:
    """A hook with nothing to do."""
    return None


def _no_actions(state: State, side: Side) -> list[Action]:
    return []


def _no_handler(state: State, side: Side, action: Action, out: list[Event]) -> None:
    return None


def _no_reason(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return None


@dataclass(frozen=True)
class Step:
    name: str  # in the rulebook's words: "assembly", "sea movement", ...
    rule: str  # "3a"
    prompt: str  # what is asked of the acting seat
    actions: Actions
    handle: Handler
    enter: Hook  # sets state.waiting, or does the step's automatic work
    finish: Hook  # called when every waiting seat is done: goes to the next step
    why: Why = _no_reason  # the rule that forbids an action that is not legal
    auto: frozenset[str] = frozenset()  # action kinds taken for a seat when it is the only one
    on_done: Handler | None = None  # what "done" does besides ending the seat's part
    # Never pass a seat's "done" for it: whether it had a choice must not show (hidden info).
    always_asks: bool = False
    # Where "done" waits for things the side must do first (place, enter, land, fight):
    # those actions. With teams (17a) a player whose share of them is done may be done.
    owes: Actions | None = None
    # Issue 13: what the side loses if it says "done" now - (unit, rule) - shown before
    # the commitment (5: air units that cannot land).
    lost_if_done: Callable[[State, Side], list[tuple[str, str]]] | None = None


STEPS: dict[str, Step] = {}


def automatic(name: str, rule: str, enter: Hook) -> Step:
    """A step no seat acts in: entering it does its work and moves on (sides, turn record)."""
    return register(Step(name, rule, "", _no_actions, _no_handler, enter, nothing))


def register(step: Step) -> Step:
    STEPS[step.name] = step
    return step


def acting(state: State) -> list[str]:
    """The seats that may act now: those of every waiting side in a simultaneous step,
    else of the first; with teams (17a), those of its seats not yet done with the step."""
    if state.status == "finished" or not state.waiting:
        return []
    sides = list(state.waiting) if state.simultaneous else state.waiting[:1]
    if not state.teams:
        return list[str](sides)  # one seat a side: its id is the side's
    return [s.id for side in sides for s in side_seats(state, side) if s.id not in state.done]


def waiting_for(state: State, side: Side | None) -> list[str]:
    """Whom the game waits for, as `side`'s seats may know it: the seats of their own side,
    and of another only the side (17a: which enemy player is done with a step is not told:
    it may tell what he commands)."""
    out: list[str] = []
    for seat in acting(state):
        shown = seat if side is not None and side_of_seat(seat) == side else side_of_seat(seat)
        if shown not in out:
            out.append(shown)
    return out


def begin(state: State, name: str, out: list[Event]) -> None:
    """Enter step `name`: it sets whom it waits for, or runs and moves on."""
    state.step = name
    state.waiting = []
    state.done = []
    state.simultaneous = False
    STEPS[name].enter(state, out)


def b_then_a(state: State) -> list[Side]:
    """3: Side B performs each step first, then Side A."""
    assert state.side_a is not None and state.side_b is not None
    return [state.side_b, state.side_a]


def wait_for(state: State, sides: list[Side], out: list[Event], then: str) -> None:
    """Wait for `sides` in order; with none, go straight on to step `then`."""
    if sides:
        state.waiting = list(sides)
    else:
        begin(state, then, out)


__all__ = [
    "STEPS",
    "Step",
    "acting",
    "automatic",
    "b_then_a",
    "begin",
    "nothing",
    "register",
    "wait_for",
]
