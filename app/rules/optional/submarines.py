"""11e: submarine attacks, at the end of every Air Return Phase (night Turns too).

11e1: both sides roll a die; a side whose number is three times the other's or more may
attack. 11e2: only a task force on which it has exact information (3d3.2, or 15a's
exact answer) this Turn, at one ship unit of its choosing. 11e3: the attacker adds +3 at
night, -1 against a DD unit, +4 against a ship dead in the water; the defender adds +1 for
each destroyer in that task force marker (ships, not units).
"""

from __future__ import annotations

from app.rules.base.units import ship_record
from app.rules.board.boards import ships_in
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import DONE, Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import PendingCombat, Side, State, other
from app.rules.engine.steps import Step, StepId, advance, register
from app.rules.optional.free_roll import CONTINUATIONS, fight
from app.rules.optional.ship_movement import dead_in_the_water

NIGHT = 3  # 11e3.1
AGAINST_DD = -1
DEAD_IN_THE_WATER = 4
KIND = "submarine attack"


def _enter(state: State, out: list[Event]) -> None:
    state.submarine = None
    if OptionId.SUBMARINES not in state.options:
        advance(state, out)
        return
    usa, japan = roll_d10(state), roll_d10(state)
    if usa >= 3 * japan:
        state.submarine = "usa"
    elif japan >= 3 * usa:
        state.submarine = "japan"
    data = {"usa": usa, "japan": japan, "attacker": state.submarine}
    out.append(Event("submarine-roll", ALL, state.turn, StepId.SUBMARINE_ATTACK, data))
    if state.submarine is not None and _targets(state, state.submarine):
        state.waiting = [state.submarine]
    else:
        advance(state, out)


def _exact_forces(state: State, side: Side) -> list[str]:
    """11e2: enemy task forces on which the side has exact information this Turn."""
    enemy = other(side)
    forces = {
        m
        for s in state.boards[side].intel
        if s.turn == state.turn and s.level == "exact"
        for m in s.forces
    }
    return sorted(m for m in forces if ships_in(state, enemy, m))


def _targets(state: State, side: Side) -> list[Action]:
    enemy = other(side)
    return [
        Action("submarine", (m, u.id))
        for m in _exact_forces(state, side)
        for u in ships_in(state, enemy, m)
    ]


def _actions(state: State, side: Side) -> list[Action]:
    return [*_targets(state, side), DONE]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    enemy = other(side)
    marker, target = action.get("force"), action.get("ship")
    ship = state.units[enemy][target]
    attack = NIGHT if turn_box(state).night else 0
    if ship_record(ship).type == "DD":
        attack += AGAINST_DD
    if dead_in_the_water(state, ship):
        attack += DEAD_IN_THE_WATER
    destroyers = sum(
        ship_record(u).ships for u in ships_in(state, enemy, marker) if ship_record(u).type == "DD"
    )
    state.waiting = []
    data: dict[str, object] = {"side": side, "force": marker, "target": target}
    fight(
        state,
        PendingCombat(KIND, enemy, target, attack, destroyers, 0, 0, "submarine (11e)", data),
        out,
    )


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "11e2", "only a ship in an enemy task force with exact information this Turn"


CONTINUATIONS[KIND] = advance

register(
    Step(
        StepId.SUBMARINE_ATTACK,
        "11e",
        "Submarine attack: choose a ship in a task force you have exact information on, or pass",
        _actions,
        _handle,
        _enter,
        advance,
        _why,
    )
)
