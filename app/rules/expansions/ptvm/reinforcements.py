"""Land-Based Planes of "Pacific Theatre Via Midway": "If Japanese ships are sighted in rows 5,
6 or 7, these planes are available at Australia"; "if American ships are sighted in rows 1, 2
or 3, these planes are available at Truk".

A scenario's [[reinforcement]] entries (`Reinforcement`: side, at, sighted, air) are not in
play at the start: the setup leaves their air units out. Once the side's own intelligence holds
a sighting of enemy ships (a search's answer of anything but "nothing", or a battle: 3d3.3) in
a zone of the `sighted` area, the air units come into play in the Arming box of the base `at`
- once (`TheatreRecord.reinforced` records it by `key`).
"""

from __future__ import annotations

from app.data import catalog
from app.data.records import Reinforcement
from app.rules.base.setup import scenario_of, uses_fighters
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import ARMING, SIDES, Side, State, Unit, UnitKey
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.theatre import base_spec, is_land_bomber

NOTHING = "nothing"  # 15a1.2: the one answer that sights no ship


def key(r: Reinforcement) -> str:
    """A reinforcement's name in `TheatreRecord.reinforced`: its side and base ("usa:Australia")."""
    return f"{r.side}:{r.at}"


def reinforcements(state: State) -> tuple[Reinforcement, ...]:
    rules = scenario_of(state).theatre
    return () if rules is None else rules.reinforcements


def pending(state: State, side: Side | None = None) -> list[Reinforcement]:
    """The reinforcements still to come (of `side`, if given)."""
    return [
        r
        for r in reinforcements(state)
        if key(r) not in record(state).reinforced and (side is None or r.side == side)
    ]


def sighted(state: State, side: Side, area: str) -> bool:
    """Whether the side has sighted enemy ships in a zone of `area` (its own intelligence)."""
    spec = catalog().theatre
    zones = spec.areas.get(area, frozenset()) if spec is not None else frozenset()
    return any(
        spot.hex in zones and (spot.forces or spot.level != NOTHING)
        for spot in state.boards[side].intel
    )


def check_sightings(state: State, out: list[Event]) -> None:
    """Land-Based Planes: bring in each pending reinforcement whose enemy has been sighted."""
    for side in SIDES:
        for r in pending(state, side):
            if sighted(state, side, r.sighted):
                arrive(state, r, out)


def arrive(state: State, r: Reinforcement, out: list[Event]) -> None:
    """The reinforcement's air units come into play in the Arming box of its base. Without
    option 14 a scenario's F units are left out (7c), and so are these."""
    fighters = uses_fighters(state.options)
    base = state.units[r.side][r.at]
    spec = base_spec(state, base)
    added = []
    for aid in r.air:
        if aid in state.units[r.side]:
            continue
        if not fighters and catalog().airunit(r.side, aid).type == "F":
            continue
        u = Unit(r.side, aid, False, ARMING, r.at)
        state.units[r.side][aid] = u
        if is_land_bomber(u) and spec.bomber_readying is not None:  # Bombers 8
            record(state).readying[UnitKey(r.side, aid)] = state.turn + spec.bomber_readying
        added.append(aid)
    record(state).reinforced.append(key(r))
    data = {"side": r.side, "base": r.at, "sighted": r.sighted, "units": added}
    out.append(Event("reinforcements", ALL, state.turn, state.step, data))
