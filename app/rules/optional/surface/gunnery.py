"""16g: gunnery combats.

One ship fires at one enemy ship within the range of its guns' letter (16g1), once each
Surface Turn, in any order, counting range through any units. The attacker's modifier is
the ship's current surface factor, +2 at half range (16g1), -2 if the target is in the
firing ship's front or rear sector (16g2), and -2 to -6 for smaller guns against thicker
armour (16g3); the defender's is the target's current defense factor.
"""

from __future__ import annotations

from app.rules.base.units import defense, lowered, ship_face
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import Event
from app.rules.engine.state import PendingCombat, Side, State, Unit, other
from app.rules.engine.steps import Step, StepId, advance, register
from app.rules.optional.free_roll import CONTINUATIONS, fight
from app.rules.optional.surface.fleet import afloat, b_then_a, key
from app.rules.optional.surface.geometry import GUN_HALF_RANGE, GUN_RANGE, distance, sector
from app.rules.optional.surface.model import SurfaceCombat, combat

STEP = StepId.GUNNERY
KIND = "gunnery"
HALF_RANGE = 2  # 16g1
SECTOR = -2  # 16g2: front or rear sector
# 16g3: (gun letter, armour letter) -> modifier; every other pair is 0.
ARMOUR = {
    ("d", "a"): -6,
    ("d", "b"): -4,
    ("c", "a"): -4,
    ("d", "c"): -2,
    ("c", "b"): -2,
    ("b", "a"): -2,
}


def surface_factor(u: Unit) -> int:
    return lowered(ship_face(u).surface, u.hits) or 0


def gun_range(u: Unit) -> int:
    gun = ship_face(u).gun
    return 0 if gun is None or ship_face(u).surface is None else GUN_RANGE[gun]


def armour_modifier(gun: str | None, target: Unit) -> tuple[int, list[str]]:
    """16g3: smaller guns against thicker armour."""
    value = ARMOUR.get((gun or "", ship_face(target).armour), 0)
    note = f"{gun} guns against {ship_face(target).armour} armour (16g3)"
    return value, ([note] if value else [])


def gun_modifier(
    shooter: Unit, where: str, facing: int | None, target: Unit, at: str
) -> tuple[int, list[str]]:
    """16g: surface factor, half range, front or rear sector, guns against armour.

    `facing` None: the firer ignores sectors (the Midway base, 16j3).
    """
    gun = ship_face(shooter).gun
    total, notes = surface_factor(shooter), list[str]()
    if gun is not None and distance(where, at) <= GUN_HALF_RANGE[gun]:
        total, notes = total + HALF_RANGE, [*notes, "half range (16g1)"]
    if facing is not None and sector(where, facing, at) in ("front", "rear"):
        total, notes = total + SECTOR, [*notes, f"{sector(where, facing, at)} sector (16g2)"]
    armour, more = armour_modifier(gun, target)
    return total + armour, notes + more


def targets(state: State, c: SurfaceCombat, side: Side, uid: str) -> list[str]:
    """Enemy ships within the ship's gun range, if it has not fired this Surface Turn."""
    if uid in c.gunned[side]:
        return []
    reach = gun_range(state.units[side][uid])
    here = c.hexes[side][uid]
    enemy = other(side)
    return [t for t, h in sorted(afloat(state, c, enemy).items()) if distance(here, h) <= reach]


def _actions(state: State, side: Side) -> list[Action]:
    c = combat(state)
    acts = [
        Action("gun", (uid, t))
        for uid in sorted(afloat(state, c, side))
        for t in targets(state, c, side, uid)
    ]
    return [*acts, DONE]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    c = combat(state)
    uid, tid = action.get("ship"), action.get("target")
    enemy = other(side)
    shooter, target = state.units[side][uid], state.units[enemy][tid]
    c.gunned[side].append(uid)
    modifier, notes = gun_modifier(
        shooter, c.hexes[side][uid], c.facings[side][uid], target, c.hexes[enemy][tid]
    )
    data: dict[str, object] = {
        "attacker": side,
        "ship": uid,
        "target": key(enemy, tid),
        "range": distance(c.hexes[side][uid], c.hexes[enemy][tid]),
        "modifiers": notes,
    }
    pending = PendingCombat(
        KIND, enemy, tid, modifier, defense(target), 0, 0, f"gunfire from {uid}", data
    )
    fight(state, pending, out)


def _after_gunnery(state: State, out: list[Event]) -> None:
    return None


def _enter(state: State, out: list[Event]) -> None:
    c = combat(state)
    assert c.side_a is not None
    if c.surprise == "delay":  # 16k2.2: no gunnery this Surface Turn
        advance(state, out)
    elif c.surprise == "attack":  # 16k2.1: Side A resolves its gunnery first
        state.waiting = [c.side_a, other(c.side_a)]
    else:
        state.waiting = b_then_a(c)


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != "gun":
        return None
    c = combat(state)
    uid, tid = action.get("ship"), action.get("target")
    if uid not in afloat(state, c, side):
        return "16g", f"{uid} is not one of your ships on the Battleboard"
    if uid in c.gunned[side]:
        return "16g", f"{uid} has fired its guns this Surface Turn"
    if gun_range(state.units[side][uid]) == 0:
        return "16g", f"{uid} has no surface factor"
    if tid not in afloat(state, c, other(side)):
        return "16g", f"{tid} is not an enemy ship on the Battleboard"
    return "16g1", f"{tid} is beyond the range of {uid}'s guns"


CONTINUATIONS[KIND] = _after_gunnery

register(
    Step(
        STEP,
        "16g",
        "Gunnery: fire each of your ships at an enemy ship in range, or finish",
        _actions,
        _handle,
        _enter,
        advance,
        _why,
    )
)
