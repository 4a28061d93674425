"""12c2: staging - air units that took off fly, in the Ready Step, to another ship or base
within their movement factor (one less from a Max. Strike box, 12b3.2), without searching,
and land straight into its Ready box, to take off again as early as the next Turn. A unit
staging does not also use unequal legs (12c1): it does not fly in the Air Movement Step.

# RULES? "Flying to another closer base or ship": at least one hex away, so never back onto
# the carrier it took off from, nor onto another ship in the same hex (no flight at all).
"""

from __future__ import annotations

from dataclasses import replace

from app.rules import hooks
from app.rules.base.landing import basing_refusal, distance, holds_planes, room, takes
from app.rules.base.units import air_movement
from app.rules.board.boards import unit_hex
from app.rules.engine.actions import Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import MAX_STRIKE, READY, STRIKE, Side, State, Unit

STAGING = OptionId.STAGING


def _reach(u: Unit) -> int:
    return air_movement(u) - (1 if u.box == MAX_STRIKE else 0)


def _may_stage(state: State, u: Unit, c: Unit) -> bool:
    if not hooks.of(state).may_stage(state, u):
        return False  # RULES? Bombers 8: a land bomber does not ready by staging either
    # 5a1 basing, 18a a teammate's carrier out of sight, 11c2, Bases 2-3, 5a3 capacity
    if not holds_planes(state, c) or basing_refusal(state, u, c) is not None:
        return False
    if takes(state, u) > room(state, c):
        return False
    here = unit_hex(state, u)
    far = None if here is None else distance(state, here, c)
    return far is not None and 0 < far <= _reach(u)


def stagings(state: State, side: Side) -> list[Action]:
    if STAGING not in state.options:
        return []
    units = state.units[side]
    flying = [u for u in units.values() if u.box in (STRIKE, MAX_STRIKE)]
    return [
        Action("stage", (u.id, c.id))
        for u in flying
        for c in units.values()
        if _may_stage(state, u, c)
    ]


def stage(state: State, side: Side, action: Action, out: list[Event]) -> None:
    u = state.put(replace(state.units[side][action.get("unit")], box=READY, area=action.get("at")))
    out.append(
        Event("stage", ALL, state.turn, state.step, {"side": side, "unit": u.id, "at": u.area})
    )
