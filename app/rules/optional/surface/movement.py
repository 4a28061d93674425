"""16e: surface movement on the Battleboard.

Each ship may spend its movement factors: one to enter the hex ahead (16e1), one to turn
a hexside (16e2). It may move through another ship but never end its movement in the
same hex (16e3): a ship that enters an occupied hex must move on before anything else is
done. No ship leaves the Battleboard (16e4); when a ship would need to, the moving side
may shift every ship on the Battleboard one hex the same way, keeping their places
relative to each other. Ships dead in the water do not move (11c1). Under surprise
(16k2), Surface Side B's ships are all moved one hex straight ahead.
"""

from __future__ import annotations

from app.rules.board.boards import battleboard
from app.rules.board.grid import DIRECTIONS
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import SIDES, Side, State, other
from app.rules.engine.steps import Step, StepId, advance, register
from app.rules.optional.surface.fleet import afloat, b_then_a, crowded, dead, movement, occupant
from app.rules.optional.surface.geometry import ahead
from app.rules.optional.surface.model import SurfaceCombat, combat

STEP = StepId.SURFACE_MOVEMENT
WAYS = {"port": -1, "starboard": 1}


def remaining(state: State, c: SurfaceCombat, side: Side, uid: str) -> int:
    return movement(state, side, uid) - c.spent[side].get(uid, 0)


def _free_ahead(state: State, c: SurfaceCombat, side: Side, uid: str) -> bool:
    """16e3: some hex ahead, within the ship's movement left, where it may stop."""
    left = remaining(state, c, side, uid)
    path = battleboard().line(c.hexes[side][uid], c.facings[side][uid], left)
    return any(occupant(state, c, h) is None for h in path)


def can_advance(state: State, c: SurfaceCombat, side: Side, uid: str) -> bool:
    return (
        not dead(state, side, uid)
        and remaining(state, c, side, uid) > 0
        and _free_ahead(state, c, side, uid)
    )


def _in_transit(state: State, c: SurfaceCombat, side: Side) -> str | None:
    """16e3: the side's ship passing through another ship's hex, if any."""
    shared = crowded(state, c)
    return next((u for u, h in sorted(afloat(state, c, side).items()) if h in shared), None)


def _shifts(state: State, c: SurfaceCombat, side: Side) -> list[int]:
    """16e4: directions all ships may be shifted, when a ship of the side faces the edge.

    # RULES? "If necessary": offered once per side each Surface Turn, when one of its ships
    # with movement left faces the Battleboard's edge.
    """
    if side in c.shifted:
        return []
    mine = afloat(state, c, side)
    if not any(
        ahead(h, c.facings[side][u]) is None
        for u, h in mine.items()
        if remaining(state, c, side, u) > 0 and not dead(state, side, u)
    ):
        return []
    every = [h for s in SIDES for h in afloat(state, c, s).values()]
    grid = battleboard()
    return [d for d in range(6) if all(grid.step(h, d) is not None for h in every)]


def _actions(state: State, side: Side) -> list[Action]:
    c = combat(state)
    moving = _in_transit(state, c, side)
    if moving is not None:
        # RULES? A ship that must move on (16e3) but faces the Battleboard's edge turns first.
        if ahead(afloat(state, c, side)[moving], c.facings[side][moving]) is None:
            return [Action("turn", (moving, way)) for way in sorted(WAYS)]
        return [Action("advance", (moving,))]
    acts: list[Action] = []
    for uid in sorted(afloat(state, c, side)):
        if dead(state, side, uid) or remaining(state, c, side, uid) <= 0:
            continue
        if can_advance(state, c, side, uid):
            acts.append(Action("advance", (uid,)))
        acts += [Action("turn", (uid, way)) for way in WAYS]
    acts += [Action("shift", (DIRECTIONS[d],)) for d in _shifts(state, c, side)]
    return [*acts, DONE]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    c = combat(state)
    if action.kind == "shift":
        d = DIRECTIONS.index(action.get("direction"))
        for s in SIDES:
            for uid, h in afloat(state, c, s).items():
                nxt = battleboard().step(h, d)
                assert nxt is not None
                c.hexes[s][uid] = nxt
        c.shifted.append(side)
        data = {"side": side, "direction": action.get("direction")}
        out.append(Event("surface-shift", ALL, state.turn, STEP, data))
        return
    uid = action.get("ship")
    c.spent[side][uid] = c.spent[side].get(uid, 0) + 1
    if action.kind == "advance":
        nxt = ahead(c.hexes[side][uid], c.facings[side][uid])
        assert nxt is not None
        c.hexes[side][uid] = nxt
    else:
        c.facings[side][uid] = (c.facings[side][uid] + WAYS[action.get("way")]) % 6
    data = {
        "side": side,
        "ship": uid,
        "hex": c.hexes[side][uid],
        "facing": DIRECTIONS[c.facings[side][uid]],
    }
    out.append(Event("surface-" + action.kind, ALL, state.turn, STEP, data))


def surprised_move(state: State, c: SurfaceCombat, side: Side, out: list[Event]) -> None:
    """16k2.1: every ship of Surface Side B moves one hex straight ahead.

    # RULES? A ship whose hex ahead is off the Battleboard or holds a ship (after the ships
    # ahead of it have moved) stays where it is.
    """
    moved: list[str] = []
    progress = True
    while progress:
        progress = False
        for uid, h in sorted(afloat(state, c, side).items()):
            nxt = ahead(h, c.facings[side][uid])
            if uid in moved or dead(state, side, uid) or nxt is None:
                continue
            if occupant(state, c, nxt) is None:
                c.hexes[side][uid] = nxt
                moved.append(uid)
                progress = True
    data = {"side": side, "moved": sorted(moved), "hexes": dict(c.hexes[side])}
    out.append(Event("surprised-move", ALL, state.turn, STEP, data))


def _enter(state: State, out: list[Event]) -> None:
    c = combat(state)
    if c.surprise in ("attack", "delay"):
        assert c.side_a is not None
        surprised_move(state, c, other(c.side_a), out)
        state.waiting = [c.side_a]
    else:
        state.waiting = b_then_a(c)


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind not in ("advance", "turn", "shift", "done"):
        return None
    c = combat(state)
    moving = _in_transit(state, c, side)
    if moving is not None:
        return "16e3", f"{moving} shares a hex and must move on before anything else"
    if action.kind == "done":
        return "16e3", "a ship may never end its movement in the same hex as another"
    if action.kind == "shift":
        return "16e4", "a shift only when a ship faces the edge, once a Surface Turn, all aboard"
    uid = action.get("ship")
    if uid not in afloat(state, c, side):
        return "16e", f"{uid} is not one of your ships on the Battleboard"
    if dead(state, side, uid):
        return "11c1", f"{uid} is dead in the water and may not be moved"
    if remaining(state, c, side, uid) <= 0:
        return "16e", f"{uid} has spent all its movement factors"
    if ahead(c.hexes[side][uid], c.facings[side][uid]) is None:
        return "16e4", "no ship may leave the Battleboard during a surface combat"
    return "16e3", f"{uid} could not end its movement clear of other ships"


register(
    Step(
        STEP,
        "16e",
        "Surface movement: move ships ahead and turn them, one movement factor each",
        _actions,
        _handle,
        _enter,
        advance,
        _why,
    )
)
