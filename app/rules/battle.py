"""4: The Combat Phase - battle hexes, Battleboard setup, anti-aircraft and bombing.

Each hex where combat air units ended their movement on an enemy task force or base is a
battle (4); Side A orders them. A battle is a run of steps: the defender sets up its
ships (4a1, 4a2), the attacker its air units (4a3), the defender fires anti-aircraft
(4c), the attacker bombs (4d), the battle ends (4e) and task forces may reorganise (4e1).
"""

from __future__ import annotations

from functools import cache

from app.rules.actions import DONE, Action
from app.rules.boards import base_hex, battleboard, forces_at, ships_in
from app.rules.events import ALL, Event
from app.rules.free_roll import CONTINUATIONS, fight
from app.rules.grid import DIRECTIONS
from app.rules.state import (
    BASE,
    FLYING,
    READY,
    SIDES,
    Battle,
    PendingCombat,
    Side,
    Spotting,
    State,
    Unit,
    other,
)
from app.rules.steps import Step, b_then_a, begin, register
from app.rules.units import (
    BASE_ID,
    aa_factor,
    air_record,
    bombing,
    defense,
    is_bomber,
    is_scout,
)

CENTRE = "J11"  # 4a1: "a hex near the center" (the centre lies between J11 and K11)
ANVIL = 3  # 4d3.1
THREADING = -2  # 4d3.2, value from 16h1.2 (RULES-NOTES.md)
READY_BOX_DIVE = 4  # 4d3.3, from 10b2 (RULES-NOTES.md): dive bombing only
AA_LEVEL = {"high": -2, "medium": -1}  # 4c2.1 (RULES-NOTES.md: -2), 4c2.2
AHEAD, STARBOARD_BOW, ASTERN, PORT_BOW = 0, 1, 3, 5
RELATIVE = ("ahead", "starboard bow", "starboard quarter", "astern", "port quarter", "port bow")

# ---------------------------------------------------------------- which battles (4)


def find_battles(state: State) -> list[tuple[str, Side]]:
    """4: every hex where one side's bombers ended movement on the other's forces or base."""
    battles = []
    for attacker in SIDES:
        defender = other(attacker)
        hexes = {
            state.boards[attacker].flights[u.id].hex
            for u in state.units[attacker].values()
            if u.box == FLYING and is_bomber(u)
        }
        for h in sorted(hexes):
            if forces_at(state, defender, h) or _base_at(state, defender, h):
                battles.append((h, attacker))
    return battles


def _base_at(state: State, side: Side, hex_: str) -> bool:
    base = state.units[side].get(BASE_ID)
    return base is not None and base.box == BASE and hex_ == base_hex()


def battle(state: State) -> Battle:
    assert state.battle is not None
    return state.battle


def unit_at(state: State, b: Battle, uid: str, attacking: bool) -> Unit:
    return state.units[b.attacker if attacking else other(b.attacker)][uid]


# ---------------------------------------------------------------- combat: order (4, 10b)


def _enter_combat(state: State, out: list[Event]) -> None:
    state.battle = None
    if not state.battles:
        begin(state, "aircraft damage", out)  # 11b, then the Air Return Phase
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
    defender = other(attacker)
    ships = [u.id for m in forces_at(state, defender, h) for u in ships_in(state, defender, m)]
    if _base_at(state, defender, h):
        ships.append(BASE_ID)
    air = [
        u.id
        for u in state.units[attacker].values()
        if u.box == FLYING and is_bomber(u) and state.boards[attacker].flights[u.id].hex == h
    ]
    state.battle = Battle(hex=h, attacker=attacker, ships=ships, air=air)
    out.append(
        Event(
            "battle",
            ALL,
            state.turn,
            "combat",
            {"hex": h, "attacker": attacker, "ships": ships, "air": air},
        )
    )
    if ships == [BASE_ID]:
        state.battle.positions[BASE_ID] = CENTRE  # 4a1
        begin(state, "air attack setup", out)
    else:
        begin(state, "battle setup", out)


def _combat_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "2b2", "Side A chooses the order of the battles still to be fought"


def _noop(state: State, out: list[Event]) -> None:
    return None


register(
    Step(
        "combat",
        "4",
        "Combat: choose the next battle to resolve",
        _combat_actions,
        _combat_handle,
        _enter_combat,
        _noop,
        _combat_why,
    )
)

# ---------------------------------------------------------------- 4a1, 4a2 ship setup


def _next_ship(b: Battle) -> str | None:
    return next((s for s in b.ships if s not in b.positions), None)


def spacing(state: State, b: Battle) -> int:
    """4a2: at least one empty hex between and around units; 11f: two for Japanese ships."""
    return 2 if "11f" in state.options and b.attacker == "usa" else 1


def _ship_hexes(state: State, b: Battle) -> list[str]:
    """4a2: one unit a hex, the empty hexes around every unit, all on the Battleboard."""
    grid = battleboard()
    gap = spacing(state, b)
    taken = list(b.positions.values())
    return [h for h in _interior(gap) if all(grid.distance(h, t) > gap for t in taken)]


@cache
def _interior(gap: int) -> tuple[str, ...]:
    """Hexes with `gap` rings of Battleboard hexes all round them."""
    grid = battleboard()
    return tuple(h for h in grid.hexes() if len(grid.within(h, gap)) == 1 + 3 * gap * (gap + 1))


def _formation(state: State, b: Battle) -> None:
    """A standard setup: each remaining ship in the legal hex nearest the centre."""
    grid = battleboard()
    while (uid := _next_ship(b)) is not None:
        b.positions[uid] = min(_ship_hexes(state, b), key=lambda h: (grid.distance(CENTRE, h), h))


def _enter_defender(state: State, out: list[Event]) -> None:
    state.waiting = [other(battle(state).attacker)]


def _enter_attacker(state: State, out: list[Event]) -> None:
    state.waiting = [battle(state).attacker]


def _setup_actions(state: State, side: Side) -> list[Action]:
    b = battle(state)
    if b.facing is None:
        return [Action("face", (d,)) for d in DIRECTIONS]
    uid = _next_ship(b)
    if uid is None:
        return []
    return [Action("formation"), *(Action("position", (uid, h)) for h in _ship_hexes(state, b))]


def _setup_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    if action.kind == "face":
        b.facing = DIRECTIONS.index(action.get("direction"))
    elif action.kind == "position":
        b.positions[action.get("unit")] = action.get("hex")
    else:
        _formation(state, b)
    if b.facing is not None and _next_ship(b) is None:
        out.append(
            Event(
                "ships-set-up",
                ALL,
                state.turn,
                state.step,
                {"facing": DIRECTIONS[b.facing], "positions": dict(b.positions)},
            )
        )
        begin(state, "air attack setup", out)


def _setup_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "position":
        return "4a2", "one unit a hex, an empty hex around every unit, the next ship in order"
    return "4a2", "all ships face the same direction, chosen first"


register(
    Step(
        "battle setup",
        "4a2",
        "Battle setup: face your ships, then place each on the Battleboard",
        _setup_actions,
        _setup_handle,
        _enter_defender,
        _noop,
        _setup_why,
    )
)

# ---------------------------------------------------------------- 4a3 air attack setup


def category(state: State, b: Battle, uid: str) -> str:
    """4d1: the bombing category an air unit must use against its target."""
    kind = air_record(state.units[b.attacker][uid]).type
    if kind == "T":
        return "medium" if b.targets[uid] == BASE_ID else "torpedo"
    return {"D": "dive", "H": "high", "M": "medium"}[kind]


def _next_air(b: Battle) -> str | None:
    return next((a for a in b.air if a not in b.targets), None)


def _approach_hexes(state: State, b: Battle, target: str) -> list[str]:
    """4a3.2: adjacent to the target, not on a ship; a stack of torpedo bombers faces one way."""
    grid = battleboard()
    occupied = set(b.positions.values())
    out = []
    for h in grid.neighbours(b.positions[target]):
        if h in occupied:
            continue
        stacked = [a for a, ah in b.air_hexes.items() if ah == h and _is_torpedo(state, b, a)]
        if all(b.targets[a] == target for a in stacked):
            out.append(h)
    return out


def _is_torpedo(state: State, b: Battle, uid: str) -> bool:
    return air_record(state.units[b.attacker][uid]).type == "T" and b.targets.get(uid) != BASE_ID


def _air_actions(state: State, side: Side) -> list[Action]:
    """4a3: each air unit, in any order, onto its target."""
    b = battle(state)
    defender = state.units[other(side)]
    live = [t for t in b.ships if defender[t].box != "eliminated"]
    acts = []
    for uid in b.air:
        if uid in b.targets:
            continue
        torpedo = air_record(state.units[side][uid]).type == "T"
        for t in live:
            if torpedo and t != BASE_ID:
                acts += [Action("approach", (uid, t, h)) for h in _approach_hexes(state, b, t)]
            else:
                acts.append(Action("target", (uid, t)))
    return acts


def _air_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    uid, target = action.get("unit"), action.get("target")
    b.targets[uid] = target
    b.air_hexes[uid] = action.get("hex") if action.kind == "approach" else b.positions[target]
    if _next_air(b) is None:
        out.append(
            Event(
                "air-set-up",
                ALL,
                state.turn,
                state.step,
                {"targets": dict(b.targets), "hexes": dict(b.air_hexes)},
            )
        )
        begin(state, "anti-aircraft combat", out)


def _air_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    """4a3: the rule is the one for the unit's type and its target."""
    b = battle(state)
    unit = state.units[side].get(action.get("unit"))
    if unit is None or unit.ship or unit.id not in b.air:
        return "4a3", f"{action.get('unit')} is not one of the air units in this battle"
    if unit.id in b.targets:
        return "4a3", f"{unit.id} is already set up against {b.targets[unit.id]}"
    torpedo_run = air_record(unit).type == "T" and action.get("target") != BASE_ID
    if torpedo_run:
        return (
            "4a3.2",
            "torpedo bombers go next to their target ship, facing it; a stack faces one way",
        )
    return "4a3.1", "dive, heavy and medium bombers (and torpedo bombers on the base) stack on it"


register(
    Step(
        "air attack setup",
        "4a3",
        "Air attack setup: place each air unit on its target",
        _air_actions,
        _air_handle,
        _enter_attacker,
        _noop,
        _air_why,
    )
)

# ---------------------------------------------------------------- 4c anti-aircraft combat


def _live_air(state: State, b: Battle) -> list[str]:
    return [a for a in b.air if state.units[b.attacker][a].box != "eliminated"]


def _in_range(b: Battle, ship: str, air: str) -> bool:
    """4c1: up to three Battleboard hexes, counted through any units."""
    return battleboard().distance(b.positions[ship], b.air_hexes[air]) <= 3


def _aa_actions(state: State, side: Side) -> list[Action]:
    b = battle(state)
    acts = []
    targets = [b.aa_target] if b.aa_target else _live_air(state, b)
    for s in b.ships:
        u = state.units[side][s]
        if u.box == "eliminated" or s in state.aa_used or s in b.aa_ships:
            continue
        acts += [Action("aa", (s, a)) for a in targets if _in_range(b, s, a)]
    if b.aa_ships:
        return [*acts, Action("fire"), Action("cancel")]
    return [*acts, DONE]


def aa_modifier(state: State, b: Battle, ships: list[str], air: str) -> int:
    """4c2: the summed AA factors, -2 against high level and -1 against medium level bombing."""
    total = sum(aa_factor(state.units[other(b.attacker)][s]) for s in ships)
    return total + AA_LEVEL.get(category(state, b, air), 0)


def _aa_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    if action.kind == "aa":
        b.aa_ships.append(action.get("ship"))
        b.aa_target = action.get("unit")
    elif action.kind == "cancel":
        b.aa_ships, b.aa_target = [], None
    elif action.kind == "fire":
        _fire(state, b, out)


def _fire(state: State, b: Battle, out: list[Event]) -> None:
    """4c: the ships' summed AA factors against one air unit's defense factor."""
    assert b.aa_target is not None
    target = state.units[b.attacker][b.aa_target]
    modifier = aa_modifier(state, b, b.aa_ships, b.aa_target)
    data: dict[str, object] = {"ships": list(b.aa_ships), "target": target.id}
    state.aa_used.extend(b.aa_ships)
    b.aa_ships, b.aa_target = [], None
    pending = PendingCombat(
        "anti-aircraft", b.attacker, target.id, modifier, defense(target), 0, 0,
        "anti-aircraft fire", data, "", [],
    )  # fmt: skip
    fight(state, pending, out)


def _after_aa(state: State, out: list[Event]) -> None:
    return None


def _aa_finish(state: State, out: list[Event]) -> None:
    begin(state, "bombing combat", out)


def _aa_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != "aa":
        return "4c", "fire or cancel the anti-aircraft combat being formed before finishing"
    b = battle(state)
    ship, air = action.get("ship"), action.get("unit")
    if ship not in b.ships or air not in _live_air(state, b):
        return "4c", "anti-aircraft fire is by your ships in this battle at its attacking air units"
    if ship in state.aa_used or ship in b.aa_ships:
        return "4c2", f"{ship}'s AA factor has been used this Combat Phase"
    if b.aa_target is not None and air != b.aa_target:
        return "4c2", f"the ships being combined fire at {b.aa_target}; fire or cancel first"
    return "4c1", f"{air} is more than three Battleboard hexes from {ship}"


register(
    Step(
        "anti-aircraft combat",
        "4c",
        "Anti-aircraft combat: choose ships and the air unit they fire at",
        _aa_actions,
        _aa_handle,
        _enter_defender,
        _aa_finish,
        _aa_why,
    )
)

# ---------------------------------------------------------------- 4d bombing combat


def pending_bombing(state: State, b: Battle) -> list[tuple[str, str]]:
    """4d2: each target and category is a separate combat, in the attacker's order."""
    combats = set()
    defender = other(b.attacker)
    for a in _live_air(state, b):
        t = b.targets[a]
        key = (t, category(state, b, a))
        if state.units[defender][t].box != "eliminated" and f"{t}/{key[1]}" not in b.bombed:
            combats.add(key)
    return sorted(combats)


def bombing_modifier(state: State, b: Battle, target: str, cat: str) -> tuple[int, list[str]]:
    """4d3: summed bombing factors, and the anvil, threading and Ready-box modifiers."""
    units = [
        a for a in _live_air(state, b) if b.targets[a] == target and category(state, b, a) == cat
    ]
    total = sum(bombing(state.units[b.attacker][a]) for a in units)
    notes: list[str] = []
    if cat == "torpedo":
        rel = {_relative(b, target, b.air_hexes[a]) for a in units}
        if STARBOARD_BOW in rel and PORT_BOW in rel:
            total, notes = total + ANVIL, [*notes, "anvil (4d3.1)"]
        if AHEAD in rel or ASTERN in rel:
            total, notes = total + THREADING, [*notes, "threading (4d3.2)"]
    if cat == "dive" and target != BASE_ID and _ready_box_armed(state, other(b.attacker), target):
        total, notes = total + READY_BOX_DIVE, [*notes, "combat air unit in Ready box (4d3.3)"]
    return total, notes


def _relative(b: Battle, target: str, from_hex: str) -> int:
    assert b.facing is not None
    d = battleboard().direction(b.positions[target], from_hex)
    assert d is not None
    return (d - b.facing) % 6


def _ready_box_armed(state: State, side: Side, ship: str) -> bool:
    return any(
        not u.ship and u.box == READY and u.area == ship and not is_scout(u)
        for u in state.units[side].values()
    )


def _bomb_actions(state: State, side: Side) -> list[Action]:
    return [Action("bomb", key) for key in pending_bombing(state, battle(state))]


def _bomb_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    """4d: one bombing combat - summed bombing factors and modifiers against the defense."""
    b = battle(state)
    target_id, cat = action.get("target"), action.get("category")
    target = state.units[other(b.attacker)][target_id]
    units = [
        a for a in _live_air(state, b) if b.targets[a] == target_id and category(state, b, a) == cat
    ]
    modifier, notes = bombing_modifier(state, b, target_id, cat)
    b.bombed.append(f"{target_id}/{cat}")
    data: dict[str, object] = {
        "target": target_id,
        "category": cat,
        "units": units,
        "modifiers": notes,
    }
    pending = PendingCombat(
        "bombing", other(b.attacker), target_id, modifier, defense(target), 0, 0, f"{cat} bombing",
        data, "", [],
    )  # fmt: skip
    fight(state, pending, out)


def _after_bombing(state: State, out: list[Event]) -> None:
    if not pending_bombing(state, battle(state)):
        _end_battle(state, out)


CONTINUATIONS["anti-aircraft"] = _after_aa
CONTINUATIONS["bombing"] = _after_bombing


def _enter_bombing(state: State, out: list[Event]) -> None:
    if pending_bombing(state, battle(state)):
        state.waiting = [battle(state).attacker]
    else:
        _end_battle(state, out)


def _bomb_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "4d2", "each target and bombing category is one combat, fought once"


register(
    Step(
        "bombing combat",
        "4d",
        "Bombing combat: choose the next target and category to resolve",
        _bomb_actions,
        _bomb_handle,
        _enter_bombing,
        _noop,
        _bomb_why,
        auto=frozenset({"bomb"}),
    )
)

# ---------------------------------------------------------------- 4e battle's end


def _end_battle(state: State, out: list[Event]) -> None:
    """4e: ships back to their task forces, air units back to the battle hex (RULES-NOTES 4e3)."""
    b = battle(state)
    defender = other(b.attacker)
    found = {
        m: [u.id for u in ships_in(state, defender, m)] for m in forces_at(state, defender, b.hex)
    }
    state.boards[b.attacker].intel.append(Spotting(state.turn, b.hex, found, "battle"))
    remove_empty_markers(state)
    out.append(
        Event("battle-end", ALL, state.turn, state.step, {"hex": b.hex, "attacker": b.attacker})
    )
    begin(state, "reorganization", out)


def remove_empty_markers(state: State) -> None:
    """4e1: a task force marker whose Ships box is empty leaves the Searchboard."""
    for side in SIDES:
        forces = state.boards[side].forces
        for m, h in forces.items():
            if h is not None and not ships_in(state, side, m):
                forces[m] = None


# ---------------------------------------------------------------- 4e1 reorganisation


def _reorg_targets(state: State, side: Side, ship: Unit) -> list[str]:
    forces = state.boards[side].forces
    here = forces.get(ship.area)
    if here is None:
        return []
    return [
        m
        for m, h in sorted(forces.items())
        if m != ship.area and (h == here or (h is None and not ships_in(state, side, m)))
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
    ship.area = new
    if not ships_in(state, side, old):
        forces[old] = None
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


def _reorg_finish(state: State, out: list[Event]) -> None:
    begin(state, "combat", out)


def _reorg_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return (
        "4e1",
        "ships shift only between task forces in the same hex, or to a spare marker placed there",
    )


register(
    Step(
        "reorganization",
        "4e1",
        "Battle's end: reorganise task forces in the same hex, if you wish",
        _reorg_actions,
        _reorg_handle,
        _reorg_enter,
        _reorg_finish,
        _reorg_why,
    )
)
