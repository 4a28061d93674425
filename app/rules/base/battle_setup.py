"""4a: Battle setup on the Battleboard - ship units (4a1, 4a2), then air units (4a3)."""

from __future__ import annotations

from functools import cache

from app.rules import hooks
from app.rules.base.battle import CENTRE, battle, enter_defender, take_wave
from app.rules.base.units import (
    air_record,
)
from app.rules.board.boards import battleboard, is_base
from app.rules.board.grid import DIRECTIONS
from app.rules.engine.actions import DONE, FIELDS, Action, add_kinds
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import (
    Battle,
    Side,
    State,
    other,
)
from app.rules.engine.steps import Step, StepId, advance, nothing, register

# ---------------------------------------------------------------- 4a1, 4a2 ship setup


def _next_ship(b: Battle) -> str | None:
    return next((s for s in b.ships if s not in b.positions), None)


def spacing(state: State, b: Battle) -> int:
    """4a2: at least one empty hex between and around units; 11f: two for Japanese ships."""
    return 2 if OptionId.SHIP_INTERVALS in state.options and b.attacker == "usa" else 1


def _ship_hexes(state: State, b: Battle) -> list[str]:
    """4a2: one unit a hex, the empty hexes around every unit, all on the Battleboard."""
    grid = battleboard()
    gap = spacing(state, b)
    near = {h for t in b.positions.values() for h in grid.within(t, gap)}
    return [h for h in _interior(gap) if h not in near]


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
        advance(state, out)


def _setup_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "position":
        return "4a2", "one unit a hex, an empty hex around every unit, the next ship in order"
    return "4a2", "all ships face the same direction, chosen first"


register(
    Step(
        StepId.BATTLE_SETUP,
        "4a2",
        "Battle setup: face your ships, then place each on the Battleboard",
        _setup_actions,
        _setup_handle,
        enter_defender,
        nothing,
        _setup_why,
    )
)

# ---------------------------------------------------------------- Bombers 6 strike order

FIRST = {"bombers": "the land bombers", "dive-torpedo": "the dive and torpedo bombers"}
add_kinds({"first": ("planes",)})  # Bombers 6: which type of planes attacks first


def _order_actions(state: State, side: Side) -> list[Action]:
    return [Action("first", (g,)) for g in FIRST]


def _order_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    """Bombers 6: the land bombers' wave goes first, or stays after the T/D's."""
    b = battle(state)
    group = action.get("planes")
    if group == "bombers":
        current = [*b.air, *b.escorts]
        take_wave(state, b, b.waves[0])
        b.waves = [current, *b.waves[1:]]
    data = {"hex": b.hex, "first": group, "air": list(b.air), "escorts": list(b.escorts)}
    out.append(Event("strike-order", ALL, state.turn, state.step, data))
    advance(state, out)


def _order_enter(state: State, out: list[Event]) -> None:
    state.waiting = [battle(state).attacker]


def _order_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return (
        "Bombers 6",
        "the attacker chooses which type attacks the base first: bombers or dive-torpedo",
    )


register(
    Step(
        StepId.STRIKE_ORDER,
        "13b",  # the order of the waves; the expansion's Bombers 6 gives the attacker the choice
        "Strike order (Bombers 6): choose which type of planes attacks the base first",
        _order_actions,
        _order_handle,
        _order_enter,
        nothing,
        _order_why,
        always_asks=True,
    )
)

# ---------------------------------------------------------------- 4a3 air attack setup


def _next_air(b: Battle) -> str | None:
    return next((a for a in b.air if a not in b.targets), None)


def approach_hexes(state: State, b: Battle, target: str) -> list[str]:
    """4a3.2: adjacent to the target, not on a ship; a stack of torpedo bombers faces one way."""
    grid = battleboard()
    occupied = set(b.positions.values())
    out = []
    for h in grid.neighbours(b.positions[target]):
        if h in occupied:
            continue
        stacked = [a for a, ah in b.air_hexes.items() if ah == h and _faces(state, b, a)]
        if all(b.targets[a] == target for a in stacked):
            out.append(h)
    return out


def _faces(state: State, b: Battle, uid: str) -> bool:
    """4a3.2, 14f: torpedo bombers and strafing fighters face their target from next to it."""
    return uid in b.escorts or _is_torpedo(state, b, uid)


def _is_torpedo(state: State, b: Battle, uid: str) -> bool:
    target = b.targets.get(uid)
    torpedo = air_record(state.units[b.attacker][uid]).type == "T"
    return torpedo and not (target is not None and is_base(state, other(b.attacker), target))


def _air_actions(state: State, side: Side) -> list[Action]:
    """4a3: each air unit, in any order, onto its target."""
    b = battle(state)
    defender = state.units[other(side)]
    live = [t for t in b.ships if defender[t].box != "eliminated"]
    acts = []
    family = hooks.of(state)
    for uid in b.air:
        if uid in b.targets:
            continue
        torpedo = air_record(state.units[side][uid]).type == "T"
        one = family.bomber_target(state, b, state.units[side][uid])  # Bombers 3
        for t in [one] if one is not None else live:
            if torpedo and not is_base(state, other(b.attacker), t):
                acts += [Action("approach", (uid, t, h)) for h in approach_hexes(state, b, t)]
            else:
                acts.append(Action("target", (uid, t)))
    return acts


def _air_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    uid, target = action.get("unit"), action.get("target")
    b.targets[uid] = target
    b.air_hexes[uid] = action.get("hex") if action.kind == "approach" else b.positions[target]
    if _next_air(b) is None:
        _air_set_up(state, b, out)


def _air_set_up(state: State, b: Battle, out: list[Event]) -> None:
    data = {"targets": dict(b.targets), "hexes": dict(b.air_hexes)}
    out.append(Event("air-set-up", ALL, state.turn, state.step, data))
    advance(state, out)


def _air_enter(state: State, out: list[Event]) -> None:
    """4a3: the attacker places its bombers; a strike of fighters alone goes on (14)."""
    b = battle(state)
    if _next_air(b) is None:
        _air_set_up(state, b, out)
    else:
        state.waiting = [b.attacker]


def _air_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    """4a3: the rule is the one for the unit's type and its target."""
    b = battle(state)
    if action == DONE:
        left = [u for u in b.air if u not in b.targets]
        return (
            "4a3",
            f"every air unit is set up before the attack; still to set up: {', '.join(left)}",
        )
    if "unit" not in FIELDS[action.kind]:
        return None
    unit = state.units[side].get(action.get("unit"))
    if unit is None or unit.ship or unit.id not in b.air:
        return "4a3", f"{action.get('unit')} is not one of the air units in this battle"
    if unit.id in b.targets:
        return "4a3", f"{unit.id} is already set up against {b.targets[unit.id]}"
    target = action.get("target")
    one = hooks.of(state).bomber_target(state, b, unit)
    if one is not None and target != one:
        return (
            "Bombers 3",
            f"bombers may not attack more than one ship in a single battle: they attack {one}",
        )
    torpedo_run = air_record(unit).type == "T" and not is_base(state, other(side), target)
    if torpedo_run:
        return (
            "4a3.2",
            "torpedo bombers go next to their target ship, facing it; a stack faces one way",
        )
    return "4a3.1", "dive, heavy and medium bombers (and torpedo bombers on the base) stack on it"


register(
    Step(
        StepId.AIR_ATTACK_SETUP,
        "4a3",
        "Air attack setup: place each air unit on its target",
        _air_actions,
        _air_handle,
        _air_enter,
        nothing,
        _air_why,
    )
)
