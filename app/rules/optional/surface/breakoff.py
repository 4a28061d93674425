"""16i: breakoff attempts.

A group is a ship with empty hexes all round it, or ships in an unbroken chain of
adjacent hexes (16i1); it breaks off whole or not at all, and never with a ship dead in
the water in it (16i1, 11c1). Surface Side B designates its groups, then Side A; then B's
attempts are resolved, then A's (16i2). Both sides roll a die; the side breaking off adds
-5 at night or -7 by day and +1 for each Surface Turn completed, and succeeds if its
number is higher (16i2.1, 16i2.2): the group leaves the Battleboard. Scenario Four: not
before the end of Surface Turn 4 (7e4.3).
"""

from __future__ import annotations

from app.rules.base.setup import scenario_of
from app.rules.board.boards import battleboard
from app.rules.engine.actions import DONE, Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import Side, State
from app.rules.engine.steps import Step, StepId, register
from app.rules.optional.surface.fleet import afloat, b_then_a, dead
from app.rules.optional.surface.model import SurfaceCombat, combat
from app.rules.optional.surface.sequence import end_surface_turn

STEP = StepId.BREAKOFF
NIGHT, DAY = -5, -7  # 16i2.1
PER_TURN = 1  # 16i2.1: each Surface Turn completed
NOT_BEFORE = "breakoff_not_before_end_of_surface_turn"  # 7e4.3 (scenario data)


def groups(state: State, c: SurfaceCombat, side: Side) -> list[list[str]]:
    """16i1: the side's ships in chains of adjacent hexes, each sorted, in order."""
    hexes = afloat(state, c, side)
    by_hex = {h: u for u, h in hexes.items()}
    seen: set[str] = set()
    out = []
    for start in sorted(hexes):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            uid = todo.pop()
            group.append(uid)
            for n in battleboard().neighbours(hexes[uid]):
                other_ship = by_hex.get(n)
                if other_ship is not None and other_ship not in seen:
                    seen.add(other_ship)
                    todo.append(other_ship)
        out.append(sorted(group))
    return out


def too_early(state: State, c: SurfaceCombat) -> bool:
    """7e4.3: attempts may not begin before the end of Surface Turn 4.

    # RULES? "Before the end of Surface Turn 4": the breakoff step of Surface Turn 4 is at its
    # end, so attempts are allowed from then on.
    """
    limit = scenario_of(state).special.get(NOT_BEFORE)
    return isinstance(limit, int) and c.turn < limit


def may_break_off(state: State, c: SurfaceCombat, side: Side, group: list[str]) -> bool:
    return (
        not too_early(state, c)
        and group not in c.designated[side]
        and not any(dead(state, side, u) for u in group)
    )


def _actions(state: State, side: Side) -> list[Action]:
    c = combat(state)
    eligible = [g for g in groups(state, c, side) if may_break_off(state, c, side, g)]
    acts = [Action("breakoff", (g[0],)) for g in eligible]
    return [*acts, DONE]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    c = combat(state)
    group = next(g for g in groups(state, c, side) if g[0] == action.get("ship"))
    c.designated[side].append(group)
    data = {"side": side, "group": list(group), "surface_turn": c.turn}
    out.append(Event("breakoff-designated", ALL, state.turn, STEP, data))


def modifier(c: SurfaceCombat) -> int:
    """16i2.1: -5 night or -7 day, +1 per Surface Turn before this one."""
    return (NIGHT if c.night else DAY) + PER_TURN * (c.turn - 1)


def _resolve(state: State, out: list[Event]) -> None:
    """16i2: Side B's attempts, then Side A's; a success removes the whole group."""
    c = combat(state)
    for side in b_then_a(c):
        for group in c.designated[side]:
            roll, against = roll_d10(state), roll_d10(state)
            number = roll + modifier(c)
            success = number > against
            data = {
                "side": side,
                "group": list(group),
                "roll": roll,
                "modifier": modifier(c),
                "number": number,
                "opponent_roll": against,
                "success": success,
            }
            out.append(Event("breakoff", ALL, state.turn, STEP, data))
            if success:
                for uid in group:
                    del c.hexes[side][uid]
                    del c.facings[side][uid]
                    c.broke_off[side].append(uid)
    end_surface_turn(state, out)


def _enter(state: State, out: list[Event]) -> None:
    state.waiting = b_then_a(combat(state))


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != "breakoff":
        return None
    c = combat(state)
    if too_early(state, c):
        return "7e4.3", "breakoff attempts may not begin before the end of Surface Turn 4"
    for g in groups(state, c, side):
        if action.get("ship") in g:
            if any(dead(state, side, u) for u in g):
                return "11c1", "a group with a ship dead in the water may not break off"
            if g in c.designated[side]:
                return "16i2", "one breakoff attempt per group per Surface Turn"
            return "16i1", f"a group is named by its first ship in order: {g[0]}"
    return "16i1", f"{action.get('ship')} is not one of your ships on the Battleboard"


register(
    Step(
        STEP,
        "16i",
        "Breakoffs: designate groups of your ships that try to break off, then finish",
        _actions,
        _handle,
        _enter,
        _resolve,
        _why,
    )
)
