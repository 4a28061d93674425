"""The surface combat part of view(): built field by field, public to both sides.

Once a surface contact is made both sides see every ship present (16a), so the combat on
the Battleboard - ships, facings, torpedo markers, breakoffs, a bombardment - is shown
to everyone. Nothing else of option 16's record is shown: the direction each task force
marker moved (16b1) and the contacts a side may still decline (16a) stay secret.

In the umpired modes of 18 a player sees the enemy's ships where they are on the
Battleboard, but not the state they are in: their factors, damage and movement left come
from the umpire's reports (18c2; the Operations Card part of the view). `exact` names the
sides whose ships are shown with all that.
"""

from __future__ import annotations

from typing import Any

from app.rules.base.units import ship_face
from app.rules.board.grid import DIRECTIONS
from app.rules.engine.state import SIDES, Side, State
from app.rules.optional.surface.fleet import afloat, dead, movement
from app.rules.optional.surface.geometry import (
    GUN_HALF_RANGE,
    TORPEDO_HALF_RANGE,
    TORPEDO_RANGE,
    sector_hexes,
    torpedo_hexes,
    torpedo_line,
)
from app.rules.optional.surface.gunnery import gun_range
from app.rules.optional.surface.model import Bombardment, Surface, SurfaceCombat
from app.rules.optional.surface.sequence import SURFACE_TURNS
from app.rules.optional.surface.torpedoes import may_fire


def surface_view(state: State, seat: str, exact: tuple[Side, ...] = SIDES) -> dict[str, Any] | None:
    rec = state.surface
    if not isinstance(rec, Surface) or (rec.combat is None and rec.bombardment is None):
        return None
    return {
        "combat": None if rec.combat is None else _combat(state, rec.combat, exact),
        "bombardment": None if rec.bombardment is None else _bombardment(state, rec.bombardment),
    }


def _combat(state: State, c: SurfaceCombat, exact: tuple[Side, ...]) -> dict[str, Any]:
    return {
        "hex": c.hex,
        "night": c.night,
        "facing_rule": c.facing,
        "setup_side_b": c.setup_b,
        "setup_line": c.line,
        "surface_turn": c.turn,
        "surface_turns": SURFACE_TURNS,
        "sides": None if c.side_a is None else {"A": c.side_a, "B": _other(c.side_a)},
        "surprise": {"state": c.surprise, "side": c.surprised_by},
        "battlelines": {s: [list(line) for line in c.lines[s]] for s in SIDES},
        "ships": [
            _ship(state, c, s, uid) if s in exact else _seen_ship(state, c, s, uid)
            for s in SIDES
            for uid in c.ships[s]
        ],
        "torpedoes": [
            {
                "side": t.side,
                "ship": t.ship,
                "hex": t.hex,
                "facing": DIRECTIONS[t.direction],
                "range": TORPEDO_RANGE[t.side],
                "run": t.reach,
            }
            for t in c.torpedoes
        ],
        "breakoffs": {s: [list(g) for g in c.designated[s]] for s in SIDES},
        "broke_off": {s: list(c.broke_off[s]) for s in SIDES},
        "ended": c.ended,
    }


def _seen_ship(state: State, c: SurfaceCombat, side: Side, uid: str) -> dict[str, Any]:
    """18b, 18c2: an enemy ship as a player of an umpired game sees it: where it is."""
    on_board = uid in afloat(state, c, side)
    return {
        "side": side,
        "id": uid,
        "hex": c.hexes[side].get(uid) if on_board else None,
        "facing": DIRECTIONS[c.facings[side][uid]] if uid in c.facings[side] else None,
        "broke_off": uid in c.broke_off[side],
        "movement_spent": c.spent[side].get(uid, 0),
        "gunned": uid in c.gunned[side],
        "reported": True,
    }


def _ship(state: State, c: SurfaceCombat, side: Side, uid: str) -> dict[str, Any]:
    u = state.units[side][uid]
    face = ship_face(u)
    on_board = uid in afloat(state, c, side)
    reach = gun_range(u)
    out: dict[str, Any] = {
        "side": side,
        "id": uid,
        "hex": c.hexes[side].get(uid) if on_board else None,
        "facing": DIRECTIONS[c.facings[side][uid]] if uid in c.facings[side] else None,
        "eliminated": u.box == "eliminated",
        "broke_off": uid in c.broke_off[side],
        "dead_in_the_water": dead(state, side, uid),
        "movement": movement(state, side, uid),
        "movement_spent": c.spent[side].get(uid, 0),
        "gun": None
        if not reach
        else {"letter": face.gun, "range": reach, "half_range": GUN_HALF_RANGE[face.gun or "d"]},
        "gunned": uid in c.gunned[side],
        "torpedo": None
        if face.torpedo is None
        else {
            "range": TORPEDO_RANGE[side],
            "half_range": TORPEDO_HALF_RANGE[side],
            "may_fire": may_fire(state, c, side, uid),
        },
    }
    where, facing = out["hex"], c.facings[side].get(uid)
    if where is not None and facing is not None:
        front, rear = sector_hexes(where, facing, reach)
        out["sectors"] = {"front": list(front), "rear": list(rear)}  # 16g2, within gun range
    if where is not None and facing is not None and face.torpedo is not None:
        out["torpedo_lines"] = [  # 16f2: from each marker hex, out to the torpedoes' range
            list(torpedo_line(where, d, TORPEDO_RANGE[side]))
            for _, d in torpedo_hexes(where, facing)
        ]
    return out


def _bombardment(state: State, b: Bombardment) -> dict[str, Any]:
    return {
        "hex": b.hex,
        "stacks": {k: list(v) for k, v in sorted(b.stacks.items())},
        "positions": dict(b.positions),
        "base_fired": b.base_fired,
        "fired": list(b.fired),
    }


def _other(side: Side) -> Side:
    return "usa" if side == "japan" else "japan"
