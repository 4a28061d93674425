"""11d: repairs after two consecutive night Turns, in the second one's Turn Record Phase.

Damaged air units that stayed On Board or On Ground (even on a carrier that moved), and
damaged ships and the base that stayed in the same Searchboard hex, both night Turns, with
none of them in any combat - attacked, or firing (`units.engage`) - are repaired: a 2 hits
marker becomes 1 hit (11d1), a 1 hit marker is removed (11d2).
Flipped units stay flipped (11d3), except the base: back up with no hit marker, it turns
to its front with a 2 hits marker.

# RULES? One step of repair a unit a pair of nights (2 hits to 1, or 1 to none).
# RULES? On the theatre map an air unit's damage points are its lost planes (app/rules/
# theatre.py), which come back by the expansion's Replacements only, within capacity: 11d
# repairs ships and bases there, not air units.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules import hooks
from app.rules.board.boards import unit_hex
from app.rules.board.time_record import track_of
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import (
    ARMING,
    BASE,
    FLIP,
    GONE,
    READY,
    SHIPS,
    SIDES,
    State,
    Unit,
    UnitKey,
)
from app.rules.engine.steps import StepId

BASE_REPAIR = 2  # 11d3: the base's front with a 2 hits marker


def _where(state: State, u: Unit) -> str | None:
    """Where a unit must stay: a ship or the base, its Searchboard hex; an air unit, On Board
    or On Ground - the carrier or base it is aboard, wherever that moved (the same-hex
    condition is for "base or ship units" only)."""
    if u.box in (SHIPS, BASE):
        return unit_hex(state, u)
    if not u.ship and u.box in (READY, ARMING) and hooks.of(state).repairs_aboard(state):
        return f"aboard {u.area}"
    return None


def _repaired(u: Unit) -> Unit | None:
    """11d: the unit with one hit or its flip repaired; None if it has nothing to repair."""
    if u.box == BASE and u.damage == FLIP:
        return replace(u, damage=BASE_REPAIR)
    if u.hits:
        return replace(u, damage=u.damage - 1)
    return None


def repairs(state: State, out: list[Event]) -> None:
    """11d: at the Turn Record Phase; records tonight's positions for tomorrow night."""
    if OptionId.REPAIRS not in state.options:
        return
    track = track_of(state.scenario)
    night = track.box(state.turn).night
    pair = night and state.turn > 1 and track.box(state.turn - 1).night
    for side in SIDES:
        board = state.boards[side]
        engaged = {key.id for key in state.engaged if key.side == side}
        now = {
            u.id: w for u in state.units[side].values() if u.box != GONE and (w := _where(state, u))
        }
        if pair:
            for uid, where in now.items():
                stayed = board.night_watch.get(uid) == where
                parent = UnitKey(side, uid) in state.scout_parents  # 11d1, 11d2
                if stayed and not parent and uid not in engaged and uid not in board.engaged_before:
                    u = _repaired(state.units[side][uid])
                    if u is not None:
                        state.put(u)
                        data = {
                            "side": side,
                            "unit": uid,
                            "hits": u.hits,
                            "face": "back" if u.flipped else "front",
                        }
                        out.append(Event("repair", ALL, state.turn, StepId.TURN_RECORD, data))
        board.night_watch = now if night and not pair else {}
        board.engaged_before = sorted(engaged)
