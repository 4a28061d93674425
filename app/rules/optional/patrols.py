"""12d: patrolling scout air units, and shadowing.

12d1: in the Air Return Phase a scout with PATROL on its back may be flipped to it and
left flying instead of landing; next Turn it moves normally and must land or patrol again.
12d2: a patrolling scout in the same hex as an enemy task force may be announced to shadow
that marker before any sea movement (a "shadowing" step after the Ready Step, Side B then
Side A); when the marker moves the scout goes with it and its side is told where. That
uses all its movement for the Turn (12d2.3).

# RULES? 12d2.3: shadowing "is considered to expend all of the air unit's movement factors,
# ... although its remaining movement factors may be converted to search modifiers": the
# scout does not fly in the Air Movement and Search Step, but may search its hex and circle
# (15a1.1) with its movement factor less the hexes it moved with the marker.
# RULES? 3a1: a patrolling scout stays up through a night Turn but does not move then.
"""

from __future__ import annotations

from app.rules.base.units import air_record
from app.rules.board.boards import searchboard_of, ships_in
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import FLYING, SIDES, Side, Spotting, State, Unit, other
from app.rules.engine.steps import Step, StepId, advance, b_then_a, register
from app.rules.modes import hooks as mode_hooks

PATROL = OptionId.PATROLS


def may_patrol(state: State, u: Unit) -> bool:
    return PATROL in state.options and u.box == FLYING and air_record(u).back_label == "PATROL"


def patrols(state: State, side: Side) -> list[Action]:
    """12d1: the patrol choice, for flying PATROL scouts not yet patrolling."""
    flights = state.boards[side].flights
    return [
        Action("patrol", (u.id,))
        for u in state.units[side].values()
        if may_patrol(state, u) and not flights[u.id].patrol
    ]


def _patrollers(state: State, side: Side) -> list[Unit]:
    flights = state.boards[side].flights
    return [u for u in state.units[side].values() if u.box == FLYING and flights[u.id].patrol]


def _known_markers(state: State, side: Side, hex_: str) -> list[str]:
    """Enemy markers this side last saw in the hex, this Turn or the one before, still afloat."""
    enemy = other(side)
    seen = {
        m
        for s in state.boards[side].intel
        if s.hex == hex_ and s.turn >= state.turn - 1 and s.level == "exact"
        for m in s.forces
    }
    return sorted(m for m in seen if ships_in(state, enemy, m))


def _actions(state: State, side: Side) -> list[Action]:
    if PATROL not in state.options:
        return [DONE]
    flights = state.boards[side].flights
    acts = [
        Action("shadow", (u.id, m))
        for u in _patrollers(state, side)
        if flights[u.id].shadowing is None
        for m in _known_markers(state, side, flights[u.id].hex)
    ]
    return [*acts, DONE]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    uid, marker = action.get("unit"), action.get("force")
    state.boards[side].flights[uid].shadowing = marker
    out.append(
        Event("shadow", "all", state.turn, state.step, {"side": side, "unit": uid, "force": marker})
    )


def report_moves(state: State, mover: Side, out: list[Event]) -> None:
    """12d2.1: shadowed markers take their scouts along; the shadowing side is told."""
    side = other(mover)
    for uid, flight in state.boards[side].flights.items():
        marker = flight.shadowing
        if marker is None:
            continue
        hex_ = state.boards[mover].forces.get(marker)
        if hex_ is None:
            continue
        flight.moved += searchboard_of(state).distance(flight.hex, hex_)  # 12d2.3: what remains
        flight.hex = hex_
        flight.path.append(hex_)
        ships = [u.id for u in ships_in(state, mover, marker)]
        state.boards[side].intel.append(Spotting(state.turn, hex_, {marker: ships}, "shadowing"))
        out.append(
            Event(
                "shadowed",
                side,
                state.turn,
                state.step,
                {"unit": uid, "force": marker, "hex": hex_},
            )
        )


def new_turn(state: State) -> None:
    for side in SIDES:
        for flight in state.boards[side].flights.values():
            flight.moved, flight.shadowing, flight.path = 0, None, [flight.hex]


def _enter(state: State, out: list[Event]) -> None:
    if mode_hooks.of(state).at_once(state) and PATROL in state.options:
        # 18c1: both sides at once, and both asked: whom the step waits for must not tell
        # the enemy that a side has a patrolling scout over a task force it knows of
        state.waiting, state.simultaneous = b_then_a(state), True
        return
    sides = [s for s in b_then_a(state) if _actions(state, s) != [DONE]]
    if sides:
        state.waiting = sides
    else:
        advance(state, out)


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "12d2", "a patrolling scout shadows an enemy task force known to be in its hex"


register(
    Step(
        StepId.SHADOWING,
        "12d2",
        "Shadowing: your patrolling scouts may shadow enemy task forces in their hexes",
        _actions,
        _handle,
        _enter,
        advance,
        _why,
    )
)
