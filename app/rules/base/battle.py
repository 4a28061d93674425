"""4: The Combat Phase - battle hexes, the order of battles, battle's end.

Each hex where combat air units ended their movement on an enemy task force or base is a
battle (4); Side A orders them. A battle is a run of steps: the defender sets up its
ships (4a1, 4a2) and the attacker its air units (4a3) - battle_setup.py; the defender
fires anti-aircraft (4c) and the attacker bombs (4d) - air_attack.py; then the battle
ends (4e) and task forces may reorganise (4e1) - here.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules import hooks
from app.rules.base.units import (
    air_record,
    is_bomber,
    is_fighter,
)
from app.rules.board.boards import base_at, forces_at, is_base, ships_in
from app.rules.engine.actions import DONE, Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import (
    FLYING,
    GONE,
    HIGH_CAP,
    LOW_CAP,
    SIDES,
    Battle,
    Flight,
    Side,
    Spotting,
    State,
    Unit,
    UnitKey,
    other,
)
from app.rules.engine.steps import Step, StepId, Way, advance, b_then_a, nothing, register
from app.rules.modes import command_copies, commands

CENTRE = "J11"  # 4a1: "a hex near the center" (the centre lies between J11 and K11)

FIGHTERS = OptionId.FIGHTERS
WAVES = OptionId.WAVES

# ---------------------------------------------------------------- which battles (4)


def find_battles(state: State) -> list[tuple[str, Side]]:
    """4: every hex where one side's bombers ended movement on the other's forces or base."""
    battles = []
    for attacker in SIDES:
        defender = other(attacker)
        hexes = {
            state.boards[attacker].flights[u.id].hex
            for u in state.units[attacker].values()
            if u.box == FLYING and (is_bomber(u) or (FIGHTERS in state.options and is_fighter(u)))
        }
        for h in sorted(hexes):
            if forces_at(state, defender, h) or _base_at(state, defender, h):
                battles.append((h, attacker))
    return battles


def join_battle(state: State, b: Battle) -> None:
    """14: escorts (the attacker's fighters in the hex) and CAP over the defending forces."""
    if FIGHTERS not in state.options:
        return
    attacker, defender = b.attacker, other(b.attacker)
    flights = state.boards[attacker].flights
    b.escorts = [
        u.id
        for u in state.units[attacker].values()
        if u.box == FLYING and is_fighter(u) and flights[u.id].hex == b.hex
    ]
    areas = set(forces_at(state, defender, b.hex))
    areas |= {s for s in b.ships if is_base(state, defender, s)}
    for u in state.units[defender].values():
        if u.box in (HIGH_CAP, LOW_CAP) and u.area in areas:
            b.caps[u.id] = "high" if u.box == HIGH_CAP else "low"


def split_waves(state: State, b: Battle, out: list[Event]) -> None:
    """13b, 13b1: each air strike that arrived separately is a wave; a die for each, highest
    first, ties arriving together as one wave. In the expansion's scenarios land bombers
    form a wave of their own (Bombers 3, app/rules/expansions/ptvm/strikes.py)."""
    waves = _strike_waves(state, b, out) if WAVES in state.options else None
    waves = hooks.of(state).split_waves(state, b, waves)
    if waves is None or len(waves) < 2:
        return
    take_wave(state, b, waves[0])
    b.waves = waves[1:]


def _strike_waves(state: State, b: Battle, out: list[Event]) -> list[list[str]] | None:
    flights = state.boards[b.attacker].flights
    groups: dict[str, list[str]] = {}
    for uid in b.air + b.escorts:
        groups.setdefault(flights[uid].group, []).append(uid)
    if len(groups) < 2:
        return None
    rolls = {g: roll_d10(state) for g in sorted(groups)}
    out.append(
        Event("wave-roll", ALL, state.turn, StepId.COMBAT, {"hex": b.hex, "rolls": dict(rolls)})
    )
    return [
        [u for g in sorted(groups) if rolls[g] == r for u in groups[g]]
        for r in sorted(set(rolls.values()), reverse=True)
    ]


def take_wave(state: State, b: Battle, units: list[str]) -> None:
    """13b: the wave that fights now: its bombers and its fighters (escorts)."""
    attackers = state.units[b.attacker]
    b.air = [u for u in units if is_bomber(attackers[u])]
    b.escorts = [u for u in units if is_fighter(attackers[u])]


def next_wave(state: State, b: Battle, out: list[Event]) -> None:
    """13b2: the next wave fights the same defenders, as set up (13b2.1), AA firing again;
    CAP that fought high-level or dive bombers counts as High CAP, the rest Low (13b2.3).

    # RULES? 13b2.1 "used for separate anti-aircraft combats after each wave": each ship's
    # AA factor is used once per wave.
    """
    defender = other(b.attacker)
    cap_levels = {
        c: "high"
        if b.breakthrough.get(c) in b.air
        and category(state, b, b.breakthrough[c]) in ("high", "dive")
        else "low"
        for c in b.caps
        if state.units[defender][c].box != GONE
    }
    for uid in [*b.air, *b.escorts]:
        b.targets.pop(uid, None)
        b.air_hexes.pop(uid, None)
    state.aa_used = [k for k in state.aa_used if k.side == b.attacker or k.id not in b.ships]
    fresh = Battle(hex=b.hex, attacker=b.attacker, ships=b.ships, air=[], facing=b.facing)
    fresh.positions, fresh.caps, fresh.low_after = b.positions, cap_levels, b.low_after
    take_wave(state, fresh, b.waves[0])
    fresh.waves = b.waves[1:]
    state.battle = fresh
    state.engaged += [UnitKey(b.attacker, a) for a in fresh.air + fresh.escorts]
    out.append(
        Event(
            "wave",
            ALL,
            state.turn,
            StepId.COMBAT,
            {"hex": b.hex, "air": fresh.air, "escorts": fresh.escorts},
        )
    )


def _base_at(state: State, side: Side, hex_: str) -> bool:
    return base_at(state, side, hex_) is not None


def battle(state: State) -> Battle:
    assert state.battle is not None
    return state.battle


def unit_at(state: State, b: Battle, uid: str, attacking: bool) -> Unit:
    return state.units[b.attacker if attacking else other(b.attacker)][uid]


# ---------------------------------------------------------------- combat: order (4, 10b)


def _enter_combat(state: State, out: list[Event]) -> None:
    state.battle = None
    if not state.battles:
        advance(state, out)  # no battle left: on (16: first the surface combats)
    elif len({h for h, _ in state.battles}) == 1:
        _start_battle(state, state.battles[0][0], out)
    else:
        assert state.side_a is not None
        state.waiting = [state.side_a]


def _combat_actions(state: State, side: Side) -> list[Action]:
    return [Action("battle", (h,)) for h in sorted({h for h, _ in state.battles})]


def _combat_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    state.waiting = []
    _start_battle(state, action.get("hex"), out)


def _start_battle(state: State, hex_: str, out: list[Event]) -> None:
    # Two battles in one hex (both sides attacking there): Side B's attack first (3).
    mine = [b for b in state.battles if b[0] == hex_]
    h, attacker = next((b for b in mine if b[1] == state.side_b), mine[0])
    state.battles.remove((h, attacker))
    state.fought.append(h)
    defender = other(attacker)
    ships = [u.id for m in forces_at(state, defender, h) for u in ships_in(state, defender, m)]
    base = base_at(state, defender, h)
    if base is not None:
        ships.append(base.id)
    air = [
        u.id
        for u in state.units[attacker].values()
        if u.box == FLYING and is_bomber(u) and state.boards[attacker].flights[u.id].hex == h
    ]
    state.battle = Battle(hex=h, attacker=attacker, ships=ships, air=air)
    join_battle(state, state.battle)
    split_waves(state, state.battle, out)
    state.engaged += [UnitKey(defender, u) for u in ships] + [UnitKey(attacker, a) for a in air]
    out.append(
        Event(
            "battle",
            ALL,
            state.turn,
            StepId.COMBAT,
            {"hex": h, "attacker": attacker, "ships": ships, "air": air},
        )
    )
    if base is not None and ships == [base.id]:
        state.battle.positions[base.id] = CENTRE  # 4a1
    advance(state, out)  # its setup (4a), or first the strike order (Bombers 6)


def setup_step(b: Battle) -> StepId:
    """4a: the ships are set up first, unless the base alone is there (4a1: at the centre)."""
    return (
        StepId.AIR_ATTACK_SETUP if all(s in b.positions for s in b.ships) else StepId.BATTLE_SETUP
    )


def _combat_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "2b2", "Side A chooses the order of the battles still to be fought"


register(
    Step(
        StepId.COMBAT,
        "4",
        "Combat: choose the next battle to resolve",
        _combat_actions,
        _combat_handle,
        _enter_combat,
        nothing,
        _combat_why,
    )
)


def enter_defender(state: State, out: list[Event]) -> None:
    state.waiting = [other(battle(state).attacker)]


def enter_attacker(state: State, out: list[Event]) -> None:
    state.waiting = [battle(state).attacker]


def category(state: State, b: Battle, uid: str) -> str:
    """4d1: the bombing category an air unit must use against its target; in the expansion,
    a land bomber on a ship bombs in the dive bombing category (Bombers 3: "Bombers attack
    ships like dive bombers (from directly above)", app/rules/expansions/ptvm/strikes.py)."""
    u = state.units[b.attacker][uid]
    kind = air_record(u).type
    family = hooks.of(state).bombing_category(state, b, uid)
    if family is not None:
        return family
    if kind == "T":
        return "medium" if is_base(state, other(b.attacker), b.targets[uid]) else "torpedo"
    return {"D": "dive", "H": "high", "M": "medium"}[kind]


def live_air(state: State, b: Battle) -> list[str]:
    return [a for a in b.air if state.units[b.attacker][a].box != "eliminated"]


# ---------------------------------------------------------------- 4e battle's end


def _end_battle(state: State, out: list[Event]) -> None:
    """4e: ships back to their task forces, air units back to the battle hex (RULES-NOTES 4e3)."""
    b = battle(state)
    defenders = state.units[other(b.attacker)]
    if b.waves and any(defenders[u].box != GONE for u in b.ships):  # 13b2: nothing left to attack
        next_wave(state, b, out)
        advance(state, out, Way.NEXT_WAVE)
        return
    defender = other(b.attacker)
    found = {
        m: [u.id for u in ships_in(state, defender, m)] for m in forces_at(state, defender, b.hex)
    }
    state.boards[b.attacker].intel.append(Spotting(state.turn, b.hex, found, "battle"))
    for cap in b.low_after:  # 14g2: back to the Low CAP box
        if (u := state.units[defender][cap]).box == HIGH_CAP:
            state.put(replace(u, box=LOW_CAP))
    remove_empty_markers(state)
    out.append(
        Event("battle-end", ALL, state.turn, state.step, {"hex": b.hex, "attacker": b.attacker})
    )
    advance(state, out, Way.BATTLE_OVER)


def remove_empty_markers(state: State) -> None:
    """4e1: a task force marker whose Ships box is empty leaves the Searchboard."""
    for side in SIDES:
        forces = state.boards[side].forces
        for m, h in forces.items():
            if h is not None and not ships_in(state, side, m):
                remove_marker(state, side, m)


def remove_marker(state: State, side: Side, marker: str) -> None:
    """4e1: the marker leaves the Searchboard; fighters on CAP over it fly on from its hex
    until the Air Return Phase (14)."""
    board = state.boards[side]
    hex_ = board.forces[marker]
    board.forces[marker] = None
    if hex_ is None:
        return
    for u in state.units[side].values():
        if u.box in (HIGH_CAP, LOW_CAP) and u.area == marker:
            board.flights[u.id] = Flight(hex=hex_, group=u.id, path=[hex_])
            state.put(replace(u, box=FLYING, area=""))


# ---------------------------------------------------------------- 4e1 reorganisation


def reorganising(state: State, hex_: str) -> bool:
    """4e1: at the end of a battle, in that battle's hex and in hexes not involved in battle
    this Combat Phase - never in a hex whose battle is still to come.

    # RULES? A hex is involved if it had or will have a battle (4) or a surface contact
    # that was not declined (16a) this Combat Phase; contacts are known from the Surface
    # Contact Step on, so before it only battles count.
    """
    coming = {h for h, _ in state.battles}
    rec = state.surface
    if rec is not None and rec.phase == state.turn:
        coming |= {c.hex for c in rec.contacts if c.status in ("undecided", "engaged")}
        involved = coming | {c.hex for c in rec.contacts if c.status == "fought"}
    else:
        involved = set(coming)
    involved |= set(state.fought)
    if hex_ in coming:
        return False
    return hex_ not in involved or bool(state.fought and hex_ == state.fought[-1])


def _reorg_targets(state: State, side: Side, ship: Unit) -> list[str]:
    forces = state.boards[side].forces
    here = forces.get(ship.area)
    if here is None or not reorganising(state, here):
        return []
    return [
        m
        for m, h in sorted(forces.items())
        if m != ship.area
        and (h == here or (h is None and not ships_in(state, side, m)))
        and command_copies.same_command(state, side, ship.id, m)
    ]


def _reorg_actions(state: State, side: Side) -> list[Action]:
    acts = [
        Action("transfer", (u.id, m))
        for u in state.units[side].values()
        if u.ship and u.box == "ships"
        for m in _reorg_targets(state, side, u)
    ]
    return [*acts, DONE]


def _reorg_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    forces = state.boards[side].forces
    ship = state.units[side][action.get("ship")]
    old, new = ship.area, action.get("force")
    if forces[new] is None:
        forces[new] = forces[old]
    commands.transferred(state, side, ship.id, new)  # 17a: commanded with its task force
    state.put(replace(ship, area=new))
    if not ships_in(state, side, old):
        remove_marker(state, side, old)
    out.append(
        Event(
            "transfer",
            ALL,
            state.turn,
            state.step,
            {"side": side, "ship": ship.id, "from": old, "to": new},
        )
    )


def _reorg_enter(state: State, out: list[Event]) -> None:
    state.waiting = b_then_a(state)


def _reorg_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return (
        "4e1",
        "ships shift only between task forces in the same hex, or to a spare marker placed "
        "there, in the hex of the battle just ended or in one not involved in battle",
    )


register(
    Step(
        StepId.REORGANIZATION,
        "4e1",
        "Battle's end: reorganise task forces in the same hex, if you wish",
        _reorg_actions,
        _reorg_handle,
        _reorg_enter,
        advance,
        _reorg_why,
    )
)
