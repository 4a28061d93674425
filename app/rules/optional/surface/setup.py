"""16c: surface combat setup - setup lines and battlelines.

Side B of the Turn sets up all its ships first, choosing its setup line and facing
(16c1, 16c2.1); Side A sets up on the other line, facing the same or the opposite way as
16b decided. Ships stand in battlelines, each ship directly behind the one before it; the
first battleline's lead ship is in the X hex. Five ships or fewer make one battleline; a
larger side may form up to four, each two columns further back with its lead even with
the first one's and at least three ships in each (16c2.3). Ships dead in the water go at
the backs of battlelines (16c2.4).
"""

from __future__ import annotations

from app.rules.board.boards import battleboard
from app.rules.board.grid import DIRECTIONS
from app.rules.engine.actions import Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import Side, State, other
from app.rules.engine.steps import Step, StepId, advance, nothing, register
from app.rules.optional.surface.fleet import dead
from app.rules.optional.surface.geometry import (
    MAX_BATTLELINES,
    MIN_BATTLELINE,
    NORTH,
    SMALL_SIDE,
    SOUTH,
    X_ROW,
    battleline_columns,
    other_line,
    setup_lines,
)
from app.rules.optional.surface.model import SurfaceCombat, combat

STEP = StepId.SURFACE_SETUP
HEADINGS = {"N": NORTH, "S": SOUTH}


def line_of(c: SurfaceCombat, side: Side) -> str:
    assert c.line is not None
    return c.line if side == c.setup_b else other_line(c.line, c.night)


def facing_of(c: SurfaceCombat, side: Side) -> int:
    """16c2.1, 16b2: Side A faces as Side B does, or the opposite way."""
    assert c.heading is not None
    if side == c.setup_b or c.facing == "same":
        return c.heading
    return (c.heading + 3) % 6


def _setting_up(c: SurfaceCombat) -> Side:
    placed = len(c.hexes[c.setup_b]) == len(c.ships[c.setup_b])
    return other(c.setup_b) if placed and c.line is not None else c.setup_b


def unplaced(c: SurfaceCombat, side: Side) -> list[str]:
    return [u for u in c.ships[side] if u not in c.hexes[side]]


def _capacity(c: SurfaceCombat, side: Side) -> int:
    """16c2.2: a battleline reaches no further than the Battleboard's edge."""
    lead = f"{line_of(c, side)}{X_ROW}"
    return 1 + len(battleboard().line(lead, (facing_of(c, side) + 3) % 6, 99))


def _feasible(counts: list[int], left: int, movers: int, total: int, cap: int) -> bool:
    """Can `left` more ships complete battelines of `counts` under 16c2.2 and 16c2.3?"""
    most_new = 0 if total <= SMALL_SIDE else MAX_BATTLELINES - len(counts)
    for new in range(0, min(most_new, movers) + 1):
        if len(counts) + new == 1:
            if counts[0] + left <= cap:
                return True
            continue
        need = sum(max(0, MIN_BATTLELINE - n) for n in counts) + MIN_BATTLELINE * new
        room = sum(cap - n for n in counts) + cap * new
        if need <= left <= room:
            return True
    return False


def candidates(state: State, c: SurfaceCombat, side: Side, uid: str) -> list[str]:
    """The hexes where ship `uid` may be placed next."""
    grid = battleboard()
    lines, total, cap = c.lines[side], len(c.ships[side]), _capacity(c, side)
    rest = [u for u in unplaced(c, side) if u != uid]
    movers = sum(1 for u in rest if not dead(state, side, uid=u))
    is_dead = dead(state, side, uid)
    if is_dead and movers:
        return []  # 16c2.4: moving ships first, so the dead ones end at the backs
    columns = battleline_columns(line_of(c, side), c.night)
    if not lines:
        return [f"{columns[0]}{X_ROW}"]
    behind = (facing_of(c, side) + 3) % 6
    out = []
    counts = [len(line) for line in lines]
    for k, line in enumerate(lines):
        nxt = grid.step(c.hexes[side][line[-1]], behind)
        grown = [*counts[:k], counts[k] + 1, *counts[k + 1 :]]
        if nxt is not None and _feasible(grown, len(rest), movers, total, cap):
            out.append(nxt)
    starts = not is_dead or not any(not dead(state, side, u) for u in c.ships[side])
    more = starts and total > SMALL_SIDE and len(lines) < MAX_BATTLELINES
    if more and _feasible([*counts, 1], len(rest), movers, total, cap):
        out.append(f"{columns[len(lines)]}{X_ROW}")
    return out


def _place(state: State, c: SurfaceCombat, side: Side, uid: str, hex_: str) -> None:
    c.hexes[side][uid] = hex_
    c.facings[side][uid] = facing_of(c, side)
    for line in c.lines[side]:
        last = c.hexes[side][line[-1]]
        if battleboard().step(last, (facing_of(c, side) + 3) % 6) == hex_:
            line.append(uid)
            return
    c.lines[side].append([uid])


def _formation(state: State, c: SurfaceCombat, side: Side) -> None:
    """The remaining ships in battlelines: short battlelines first, then the first one."""
    while rest := unplaced(c, side):
        order = sorted(rest, key=lambda u: dead(state, side, u))
        uid = order[0]
        options = candidates(state, c, side, uid)
        counts = {h: k for k, line in enumerate(c.lines[side]) for h in [_next_hex(c, side, line)]}

        def rank(h: str, counts: dict[str, int] = counts) -> tuple[int, int]:
            k = counts.get(h)
            if k is None:
                return (2, 0)
            short = len(c.lines[side][k]) < MIN_BATTLELINE and len(c.lines[side]) > 1
            return (0 if short else 1, k)

        _place(state, c, side, uid, min(options, key=rank))


def _next_hex(c: SurfaceCombat, side: Side, line: list[str]) -> str:
    nxt = battleboard().step(c.hexes[side][line[-1]], (facing_of(c, side) + 3) % 6)
    return nxt or ""


def _actions(state: State, side: Side) -> list[Action]:
    c = combat(state)
    if c.line is None:
        return [Action("line", (col, d)) for col in setup_lines(c.night) for d in HEADINGS]
    acts = [
        Action("position", (uid, h))
        for uid in unplaced(c, side)
        for h in candidates(state, c, side, uid)
    ]
    return [Action("formation"), *acts]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    c = combat(state)
    if action.kind == "line":
        c.line, c.heading = action.get("column"), HEADINGS[action.get("direction")]
        chosen = {"side": side, "line": c.line, "facing": action.get("direction")}
        out.append(Event("setup-line", ALL, state.turn, STEP, chosen))
        return
    if action.kind == "position":
        _place(state, c, side, action.get("unit"), action.get("hex"))
    else:
        _formation(state, c, side)
    if unplaced(c, side):
        return
    data: dict[str, object] = {
        "side": side,
        "line": line_of(c, side),
        "facing": DIRECTIONS[facing_of(c, side)],
        "battlelines": [list(line) for line in c.lines[side]],
        "hexes": dict(c.hexes[side]),
    }
    out.append(Event("surface-set-up", ALL, state.turn, STEP, data))
    if side == c.setup_b:
        state.waiting = [other(side)]
    else:
        advance(state, out)


def _enter(state: State, out: list[Event]) -> None:
    state.waiting = [_setting_up(combat(state))]


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    c = combat(state)
    if action.kind == "line":
        return "16c1", "Side B chooses the setup line (and facing) before placing any ship"
    if action.kind == "position" and c.line is None:
        return "16c1", "the setup line is chosen first"
    if action.kind == "position":
        uid = action.get("unit")
        if uid not in c.ships[side] or uid in c.hexes[side]:
            return "16c", f"{uid} is not one of your ships still to be set up"
        if dead(state, side, uid):
            return "16c2.4", "ships dead in the water go at the backs of battlelines"
        return (
            "16c2.3",
            "the lead ship in the X hex, the others each directly behind another "
            "(five ships or fewer: one battleline; else up to four, three ships or more each)",
        )
    return None


register(
    Step(
        STEP,
        "16c",
        "Surface combat setup: choose your setup line, then place your ships in battlelines",
        _actions,
        _handle,
        _enter,
        nothing,
        _why,
    )
)
