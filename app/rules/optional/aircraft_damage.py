"""11b: aircraft damage on damaged base and ship units.

A base or ship unit that took a hit or was flipped during the Combat Phase has each air
unit in its Arming and Ready boxes checked at the end of the phase: one combat roll a
unit, the opponent attacking with no modifier, the owner defending with +2 on board a
ship (11b1) or +3 on the ground at Midway (11b2). A scout ignores a hit and is
eliminated by two times or more (11b3). Eliminated ships and bases took theirs already
(11b4, 4b5).
"""

from __future__ import annotations

from app.rules.base.units import aboard, eliminate, is_scout
from app.rules.engine.events import Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import BASE, GONE, PendingCombat, State, Unit
from app.rules.engine.steps import StepId, advance, automatic
from app.rules.optional.free_roll import CONTINUATIONS, MARKINGS, fight, mark

ON_BOARD = 2  # 11b1
ON_GROUND = 3  # 11b2
KIND = "aircraft damage"


def _enter(state: State, out: list[Event]) -> None:
    state.checks = []
    if OptionId.AIRCRAFT_DAMAGE in state.options:
        for key in state.damaged:
            carrier = state.unit_of(key)
            if carrier.box == GONE:
                continue
            bonus = ON_GROUND if carrier.box == BASE else ON_BOARD
            state.checks += [(a.key, bonus) for a in aboard(state, carrier)]
    state.damaged = []
    _next(state, out)


def _next(state: State, out: list[Event]) -> None:
    if not state.checks:
        advance(state, out)
        return
    (side, uid), bonus = state.checks.pop(0)
    data: dict[str, object] = {"target": uid, "side": side}
    fight(
        state,
        PendingCombat(KIND, side, uid, 0, bonus, 0, 0, "aircraft damage (11b)", data),
        out,
    )


def _mark(state: State, target: Unit, result: str, out: list[Event], cause: str) -> str:
    """11b3: a scout ignores a hit, and two times or more eliminates it."""
    if not is_scout(target):
        return mark(state, target, result, out, cause)
    if result == "hit":
        return "no effect"
    eliminate(state, target, out, cause)
    return "eliminated"


CONTINUATIONS[KIND] = _next
MARKINGS[KIND] = _mark


automatic(StepId.AIRCRAFT_DAMAGE, "11b", _enter)
