"""Resolving a combat, and 11a: the free roll marker.

`fight` rolls a combat (4b3). Without option 11a, or with no holder, the result is
applied at once (4b4, 4b5). With 11a the holder of the free roll marker sees the dice and
may have both re-rolled for this one combat; the marker then passes to the other player.
Rolls other than combat rolls never offer it.
"""

from __future__ import annotations

from collections.abc import Callable

from app.rules.base.combat import CombatRoll, roll_combat
from app.rules.base.units import add_damage, engage
from app.rules.engine.actions import Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import PendingCombat, Side, State, Unit, UnitKey, other
from app.rules.engine.steps import Step, StepId, advance, call, nothing, register
from app.rules.modes import hooks as mode_hooks

POINTS = {"hit": 1, "flip": 3, "eliminated": 6}
FREE_ROLL = OptionId.FREE_ROLL

# What a combat step does once its combat is settled, by event kind.
Continuation = Callable[[State, list[Event]], None]
CONTINUATIONS: dict[str, Continuation] = {}
# How a result is marked, where a rule marks it otherwise than 4b5 (11b3), by event kind.
Marking = Callable[[State, Unit, str, list[Event], str], str]
MARKINGS: dict[str, Marking] = {}


def mark(state: State, target: Unit, result: str, out: list[Event], cause: str) -> str:
    """4b4, 4b5: a hit, a flip or elimination."""
    return add_damage(state, target, POINTS[result], out, cause)


def fight(state: State, pending: PendingCombat, out: list[Event]) -> None:
    """Roll a combat; settle it now, or let the free roll marker's holder choose (11a)."""
    roll = roll_combat(state, pending.attacker_modifier, pending.defender_modifier)
    pending.attacker_roll, pending.defender_roll = roll.attacker_roll, roll.defender_roll
    holder = state.free_roll if FREE_ROLL in state.options else None
    if holder is None:
        _settle(state, pending, roll, out)
        return
    out.append(
        Event("dice", ALL, state.turn, state.step, {"combat": pending.kind, **roll.to_json()})
    )
    state.pending = pending
    call(state, StepId.FREE_ROLL, out)  # back to this combat's step once it is settled


def _settle(state: State, pending: PendingCombat, roll: CombatRoll, out: list[Event]) -> None:
    """4b4, 4b5: apply the result and report the combat."""
    engage(state, [UnitKey(pending.target_side, pending.target)])
    result = roll.result
    target = state.units[pending.target_side][pending.target]
    before = target.damage
    if result != "miss":
        result = MARKINGS.get(pending.kind, mark)(state, target, result, out, pending.cause)
    data = {
        "target": pending.target,
        "target_side": pending.target_side,
        **pending.data,
        **roll.to_json(),
        "outcome": result,
    }
    out.append(Event(pending.kind, ALL, state.turn, state.step, data))
    mode_hooks.of(state).damage_done(state, target, before, pending.kind, out)  # 18c2
    CONTINUATIONS[pending.kind](state, out)


def _actions(state: State, side: Side) -> list[Action]:
    return [Action("accept"), Action("reroll")]


def _enter(state: State, out: list[Event]) -> None:
    """11a: the holder of the marker chooses."""
    assert state.free_roll is not None
    state.waiting = [state.free_roll]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    state.pending = None
    advance(state, out)  # back in the combat's step (11a: a Return), to settle it
    if action.kind == "reroll":
        state.free_roll = other(side)
        a, d = roll_d10(state), roll_d10(state)
        pending.attacker_roll, pending.defender_roll = a, d
        out.append(
            Event(
                "free-roll",
                ALL,
                state.turn,
                state.step,
                {"used_by": side, "passes_to": other(side)},
            )
        )
    roll = CombatRoll(
        pending.attacker_roll,
        pending.attacker_modifier,
        pending.defender_roll,
        pending.defender_modifier,
    )
    _settle(state, pending, roll, out)


register(
    Step(
        StepId.FREE_ROLL,
        "11a",
        "Free roll: keep these dice, or use the free roll marker to roll this combat again",
        _actions,
        _handle,
        _enter,
        nothing,
    )
)
