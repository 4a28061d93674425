"""15c: creating new scout air units at the start of an Assembly Step.

15c1: an undamaged combat air unit showing its front (the "parent") is marked with a 1 hit
or 2 hits marker, creating one or two scouts in its Operations Card box; capacity must not
be exceeded, and only scouts not in use (never used, or eliminated) may be created. 15c2:
the scouts must match the parent's type. A parent is never repaired (11d1, 11d2).
"""

from __future__ import annotations

from dataclasses import replace

from app.data import catalog
from app.rules.base.units import air_record, capacity, load
from app.rules.engine.actions import Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import ARMING, GONE, READY, STRIKE, Side, State, Unit
from app.rules.modes.commands import inherit


def _available(state: State, side: Side, kind: str) -> list[str]:
    ids = catalog().scout_creation.get(side, {}).get(kind, ())
    units = state.units[side]
    return [s for s in ids if s not in units or units[s].box == GONE]


def _started(state: State, side: Side) -> bool:
    """15c1: only at the start of the step, before the side's first take-off."""
    return any(u.box == STRIKE for u in state.units[side].values())


def _room(state: State, parent: Unit, count: int) -> bool:
    carrier = state.units[parent.side][parent.area]
    scout = 0.5 if OptionId.SMALL_UNITS_HALF in state.options else 1.0
    return load(state, carrier) + count * scout <= capacity(carrier)


def creations(state: State, side: Side) -> list[Action]:
    if OptionId.NEW_SCOUTS not in state.options or _started(state, side):
        return []
    acts = []
    for u in state.units[side].values():
        if u.ship or u.box not in (READY, ARMING) or u.damage:
            continue
        free = _available(state, side, air_record(u).type)
        acts += [
            Action("create", (u.id, str(n)))
            for n in (1, 2)
            if n <= len(free) and _room(state, u, n)
        ]
    return acts


def create(state: State, side: Side, action: Action, out: list[Event]) -> None:
    parent = state.units[side][action.get("unit")]
    count = int(action.get("scouts"))
    made = _available(state, side, air_record(parent).type)[:count]
    parent = state.put(replace(parent, damage=parent.damage + count))
    state.scout_parents.append(parent.key)
    for sid in made:
        state.units[side][sid] = Unit(side, sid, False, parent.box, parent.area)
        inherit(state, side, sid, parent.id)  # 17a: commanded as its parent
    data = {"side": side, "parent": parent.id, "scouts": made}
    out.append(Event("scouts-created", ALL, state.turn, state.step, data))
