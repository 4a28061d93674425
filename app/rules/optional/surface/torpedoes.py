"""16f: indicating torpedo fire, and 16h: torpedo combats.

16f: a ship with a torpedo factor places a marker in one of the four hexes beside it that
are neither ahead nor astern, pointing straight away; the torpedoes run in that hex line
from the ship, five hexes for the Japanese and two for the Americans (16f2). The marker
may not go on a ship, and the first ship on its line within range must be an enemy
(16f3). Once per surface combat and once per game (16f4); with option 16f5 Japanese ships
reload for later combats.

16h: a marker whose ship has been eliminated, or with no enemy ship left on its line, has
missed everything. Markers on one target combine their ships' torpedo factors (16h1);
+2 at night, +3 for an anvil (port and starboard bow), -2 when threading (ahead or
astern), +2 at half range. A combat that does no damage runs on to the next ship in
line, a friendly one too, until its range is run out or it damages a ship (16h2).
"""

from __future__ import annotations

from app.rules.base.units import defense, lowered, ship_face
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import GONE, PendingCombat, Side, State
from app.rules.engine.steps import Step, StepId, advance, nothing, register
from app.rules.optional.free_roll import CONTINUATIONS, fight
from app.rules.optional.surface.fleet import afloat, b_then_a, key, occupant
from app.rules.optional.surface.geometry import (
    AHEAD,
    ASTERN,
    PORT_BOW,
    STARBOARD_BOW,
    TORPEDO_HALF_RANGE,
    TORPEDO_RANGE,
    coming_from,
    distance,
    torpedo_hexes,
    torpedo_line,
)
from app.rules.optional.surface.model import Salvo, SurfaceCombat, Torpedo, combat, record

FIRE = StepId.TORPEDO_FIRE
COMBAT = StepId.TORPEDO_COMBAT
KIND = "torpedo"
NIGHT = 2  # 16h1.1
ANVIL = 3  # 16h1.2
THREADING = -2  # 16h1.2
HALF_RANGE = 2  # 16h1.3
RELOADS = OptionId.TORPEDO_RELOADS

# ---------------------------------------------------------------- 16f indicating fire


def may_fire(state: State, c: SurfaceCombat, side: Side, uid: str) -> bool:
    """16f, 16f4, 16f5: a torpedo factor, not fired this combat, nor this game (no reloads).

    # RULES? "Ships with torpedo factors": a factor printed on the side showing, even if hit
    # markers have lowered it to 0.
    """
    if ship_face(state.units[side][uid]).torpedo is None or uid in c.fired[side]:
        return False
    reload = side == "japan" and RELOADS in state.options
    return reload or uid not in record(state).fired[side]


def on_line(state: State, c: SurfaceCombat, t: Torpedo) -> list[tuple[Side, str, int]]:
    """The ships on a torpedo's line beyond its reach, within range: (side, id, distance)."""
    out = []
    for k, h in enumerate(torpedo_line(t.origin, t.direction, TORPEDO_RANGE[t.side]), start=1):
        found = occupant(state, c, h) if k > t.reach else None
        if found is not None:
            out.append((found[0], found[1], k))
    return out


def first_ship(state: State, c: SurfaceCombat, t: Torpedo) -> tuple[Side, str, int] | None:
    """The next ship a torpedo runs into."""
    ships = on_line(state, c, t)
    return ships[0] if ships else None


def marker_hexes(state: State, c: SurfaceCombat, side: Side, uid: str) -> list[tuple[str, int]]:
    """16f2, 16f3: marker hexes (and running directions) from which an enemy is first in line."""
    origin = c.hexes[side][uid]
    out = []
    for h, d in torpedo_hexes(origin, c.facings[side][uid]):
        if occupant(state, c, h) is not None:
            continue
        first = first_ship(state, c, Torpedo(side, uid, origin, h, d))
        if first is not None and first[0] != side:
            out.append((h, d))
    return out


def _fire_actions(state: State, side: Side) -> list[Action]:
    c = combat(state)
    acts = [
        Action("torpedo", (uid, h))
        for uid in sorted(afloat(state, c, side))
        if may_fire(state, c, side, uid)
        for h, _ in marker_hexes(state, c, side, uid)
    ]
    return [*acts, DONE]


def _fire_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    c = combat(state)
    uid, h = action.get("ship"), action.get("hex")
    d = dict(marker_hexes(state, c, side, uid))[h]
    c.torpedoes.append(Torpedo(side, uid, c.hexes[side][uid], h, d))
    c.fired[side].append(uid)
    if uid not in record(state).fired[side]:
        record(state).fired[side].append(uid)
    data = {"side": side, "ship": uid, "hex": h, "range": TORPEDO_RANGE[side]}
    out.append(Event("torpedo-marker", ALL, state.turn, FIRE, data))


def _fire_enter(state: State, out: list[Event]) -> None:
    c = combat(state)
    if c.surprise == "delay":  # 16k2.2: no torpedoes or gunnery
        advance(state, out)
    elif c.surprise == "attack":  # 16k2.1: only Side A indicates torpedo fire
        assert c.side_a is not None
        state.waiting = [c.side_a]
    else:
        state.waiting = b_then_a(c)


def _fire_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != "torpedo":
        return None
    c = combat(state)
    uid = action.get("ship")
    if uid not in afloat(state, c, side):
        return "16f", f"{uid} is not one of your ships on the Battleboard"
    if ship_face(state.units[side][uid]).torpedo is None:
        return "16f", f"{uid} has no torpedo factor"
    if not may_fire(state, c, side, uid):
        return "16f4", f"{uid} has fired its torpedoes (once per surface combat and per game)"
    return (
        "16f3",
        "a marker goes in one of the four hexes beside the ship, not ahead or astern, not on a "
        "ship, with an enemy ship the first one on its line within range",
    )


register(
    Step(
        FIRE,
        "16f",
        "Torpedo fire: place torpedo markers beside your ships, pointing at enemy ships",
        _fire_actions,
        _fire_handle,
        _fire_enter,
        advance,
        _fire_why,
    )
)

# ---------------------------------------------------------------- 16h torpedo combats


def _drop_misses(state: State, c: SurfaceCombat, out: list[Event]) -> None:
    """16h: markers that missed everything, and 16h2: torpedoes that ran out of range.

    # RULES? A marker still in play attacks the first ship now on its line, even a friendly
    # one left first in line after its target was sunk by gunfire; it has missed everything
    # only if no enemy ship is left on its line.
    """
    kept = []
    for t in c.torpedoes:
        ships = on_line(state, c, t)
        enemy = any(side != t.side for side, _, _ in ships)
        if state.units[t.side][t.ship].box == GONE or not ships or (not t.reach and not enemy):
            data = {"side": t.side, "ship": t.ship, "hex": t.hex}
            out.append(Event("torpedo-removed", ALL, state.turn, COMBAT, data))
            continue
        kept.append(t)
    c.torpedoes = kept


def _targets(state: State, c: SurfaceCombat, side: Side) -> dict[str, list[int]]:
    """Target hex -> the side's markers aimed at the ship there; torpedoes running on first."""
    groups: dict[str, list[int]] = {}
    running = any(t.side == side and t.reach for t in c.torpedoes)
    for i, t in enumerate(c.torpedoes):
        if t.side != side or (running and not t.reach):
            continue
        found = first_ship(state, c, t)
        assert found is not None
        groups.setdefault(c.hexes[found[0]][found[1]], []).append(i)
    return groups


def salvo_modifier(
    state: State, c: SurfaceCombat, markers: list[Torpedo], target_side: Side, target: str
) -> tuple[int, list[str]]:
    """16h1: summed torpedo factors, night, anvil, threading and half range."""
    units = state.units
    total = sum(
        lowered(ship_face(units[t.side][t.ship]).torpedo, units[t.side][t.ship].hits) or 0
        for t in markers
    )
    notes: list[str] = []
    if c.night:
        total, notes = total + NIGHT, [*notes, "night (16h1.1)"]
    where = c.hexes[target_side][target]
    sides = {coming_from(c.facings[target_side][target], t.direction) for t in markers}
    if STARBOARD_BOW in sides and PORT_BOW in sides:
        total, notes = total + ANVIL, [*notes, "anvil (16h1.2)"]
    if AHEAD in sides or ASTERN in sides:
        total, notes = total + THREADING, [*notes, "threading (16h1.2)"]
    if any(distance(t.origin, where) <= TORPEDO_HALF_RANGE[t.side] for t in markers):
        # RULES? Combined markers: +2 if any of the firing ships is at half range.
        total, notes = total + HALF_RANGE, [*notes, "half range (16h1.3)"]
    return total, notes


def _combat_actions(state: State, side: Side) -> list[Action]:
    c = combat(state)
    return [Action("salvo", (h,)) for h in sorted(_targets(state, c, side))]


def _combat_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    c = combat(state)
    h = action.get("hex")
    indices = _targets(state, c, side)[h]
    found = occupant(state, c, h)
    assert found is not None
    target_side, target = found
    markers = [c.torpedoes[i] for i in indices]
    modifier, notes = salvo_modifier(state, c, markers, target_side, target)
    unit = state.units[target_side][target]
    c.salvo = Salvo(indices, target_side, target, unit.damage)
    data: dict[str, object] = {
        "attacker": side,
        "ships": [t.ship for t in markers],
        "target": key(target_side, target),
        "modifiers": notes,
        "friendly": target_side == side,
        "rolled_by": side if target_side == side else None,  # 16h2: the attacker rolls both
    }
    pending = PendingCombat(
        KIND, target_side, target, modifier, defense(unit), 0, 0, "torpedoes", data
    )
    fight(state, pending, out)


def _after_salvo(state: State, out: list[Event]) -> None:
    """16h2: a torpedo combat that did no damage runs on down each marker's line."""
    c = combat(state)
    s = c.salvo
    assert s is not None
    c.salvo = None
    unit = state.units[s.target_side][s.target]
    if unit.box == GONE or unit.damage > s.damage_before:
        c.torpedoes = [t for i, t in enumerate(c.torpedoes) if i not in s.markers]
    else:
        where = c.hexes[s.target_side][s.target]
        for i in s.markers:
            c.torpedoes[i].reach = distance(c.torpedoes[i].origin, where)
    next_salvo(state, out)


def next_salvo(state: State, out: list[Event]) -> None:
    """16d5: Surface Side B's torpedo combats, then Surface Side A's, then breakoffs."""
    c = combat(state)
    _drop_misses(state, c, out)
    for side in b_then_a(c):
        if any(t.side == side for t in c.torpedoes):
            state.waiting = [side]
            return
    advance(state, out)


def _combat_enter(state: State, out: list[Event]) -> None:
    next_salvo(state, out)


def _combat_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != "salvo":
        return None
    c = combat(state)
    if any(t.side == side and t.reach for t in c.torpedoes):
        return "16h2", "a torpedo combat that missed runs on to the next ship in line first"
    return "16h1", "torpedo combats are against the first ship on each marker's line"


CONTINUATIONS[KIND] = _after_salvo

register(
    Step(
        COMBAT,
        "16h",
        "Torpedo combats: choose the target of your next torpedo combat",
        _combat_actions,
        _combat_handle,
        _combat_enter,
        nothing,
        _combat_why,
        auto=frozenset({"salvo"}),
    )
)
