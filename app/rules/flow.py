"""The engine's public functions: legal_actions, apply, replay.

`apply` checks the action against `legal_actions`, refuses it with the rule that forbids
it, and otherwise works on a copy of the state: the step's handler, then "done" ends the
seat's part of the step, then steps with nothing to choose are passed automatically.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# The step modules register themselves in STEPS on import.
from app.rules import (  # noqa: F401
    action_phase,
    air_attack,
    air_movement,
    air_return,
    aircraft_damage,
    battle,
    battle_setup,
    fighters,
    patrols,
    setup,
    submarines,
    surface,
    takeback,
    victory,
)
from app.rules.actions import DONE, Action
from app.rules.errors import IllegalAction
from app.rules.events import Event
from app.rules.setup import new_game
from app.rules.state import SIDES, Side, State
from app.rules.steps import STEPS, Step, acting

SEATS: tuple[str, ...] = SIDES


def legal_actions(state: State, seat: str) -> list[Action]:
    """Every action `seat` may take now, in a stable sorted order."""
    if seat not in acting(state):
        return []
    side: Side = "japan" if seat == "japan" else "usa"
    return sorted(set(STEPS[state.step].actions(state, side)), key=_order)


def _order(action: Action) -> tuple[str, tuple[str, ...]]:
    return action.kind, action.values


def apply(
    state: State, seat: str, action: Action | Mapping[str, object]
) -> tuple[State, list[Event]]:
    """Apply one action of `seat`; returns the next state and what happened."""
    if not isinstance(action, Action):
        action = Action.from_json(action)
    if action not in legal_actions(state, seat):
        raise _refusal(state, seat, action)
    side: Side = "japan" if seat == "japan" else "usa"
    nxt = state.clone()
    out: list[Event] = []
    _take(nxt, side, action, out)
    _pass_automatically(nxt, out)
    takeback.record(state, nxt, side, out)
    return nxt, out


def _take(state: State, side: Side, action: Action, out: list[Event]) -> None:
    step = STEPS[state.step]
    if action == DONE:
        if step.on_done is not None:
            step.on_done(state, side, action, out)
        state.waiting.remove(side)
        if not state.waiting:
            step.finish(state, out)
    else:
        step.handle(state, side, action, out)


def _pass_automatically(state: State, out: list[Event]) -> None:
    """Take a seat's only choice for it: "done", or a lone battle or bombing combat."""
    while state.status != "finished" and not state.simultaneous and state.waiting:
        side = state.waiting[0]
        acts = legal_actions(state, side)
        step = STEPS[state.step]
        if len(acts) == 1 and (
            (acts[0] == DONE and not step.always_asks) or acts[0].kind in step.auto
        ):
            _take(state, side, acts[0], out)
        else:
            return


def _refusal(state: State, seat: str, action: Action) -> IllegalAction:
    if state.status == "finished":
        return IllegalAction("7a3", "the game is over")
    if seat not in SIDES:
        return IllegalAction("2a", f"{seat!r} is not a side of this game")
    step: Step = STEPS[state.step]
    if seat not in acting(state):
        who = " and ".join(acting(state)) or "nobody"
        return IllegalAction("3", f"it is not your move: the {state.step} step waits for {who}")
    side: Side = "japan" if seat == "japan" else "usa"
    reason = step.why(state, side, action)
    if reason is not None:
        rule, message = reason
        return IllegalAction(rule, f"{action.text()!r} is not legal now: {message}")
    return IllegalAction(step.rule, f"{action.text()!r} is not an action of the {state.step} step")


def replay(
    scenario: str,
    options: Iterable[str],
    seed: int,
    log: Iterable[tuple[str, Mapping[str, object]]],
    mode: str = "two-player",
) -> tuple[State, list[Event]]:
    """Rebuild a game from its creation record and action log."""
    state = new_game(scenario, frozenset(options), seed, mode)
    events: list[Event] = []
    for seat, action in log:
        state, out = apply(state, seat, action)
        events += out
    return state, events
