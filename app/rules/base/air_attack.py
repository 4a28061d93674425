"""4c, 4d: anti-aircraft combat, then bombing combat, in one battle."""

from __future__ import annotations

from app.rules import hooks
from app.rules.base.battle import (
    _end_battle,
    battle,
    category,
    enter_defender,
    live_air,
)
from app.rules.base.units import (
    aa_factor,
    bombing,
    defense,
    is_scout,
)
from app.rules.board.boards import battleboard, is_base
from app.rules.engine.actions import DONE, Action, add_kinds
from app.rules.engine.events import Event
from app.rules.engine.state import (
    READY,
    Battle,
    PendingCombat,
    Side,
    State,
    UnitKey,
    other,
)
from app.rules.engine.steps import Step, StepId, advance, nothing, register
from app.rules.hooks import destroyer_bonus
from app.rules.optional.fighters import free_cap
from app.rules.optional.free_roll import CONTINUATIONS, fight

ANVIL = 3  # 4d3.1
THREADING = -2  # 4d3.2, value from 16h1.2 (RULES-NOTES.md)
READY_BOX_DIVE = 4  # 4d3.3, from 10b2 (RULES-NOTES.md): dive bombing only
AA_LEVEL = {"high": -2, "medium": -1}  # 4c2.1 (RULES-NOTES.md: -2), 4c2.2
AHEAD, STARBOARD_BOW, ASTERN, PORT_BOW = 0, 1, 3, 5
add_kinds({"destroyers": ()})  # Destroyers: fire this AA combat with Japan's two more factors
DESTROYERS = Action("destroyers")
RELATIVE = ("ahead", "starboard bow", "starboard quarter", "astern", "port quarter", "port bow")

# ---------------------------------------------------------------- 4c anti-aircraft combat


def aa_targets(state: State, b: Battle) -> list[str]:
    """4c: the attacking air units on the Battleboard: bombers, and strafing fighters (14f)."""
    strafers = [
        e for e in b.escorts if e in b.targets and state.units[b.attacker][e].box != "eliminated"
    ]
    return [a for a in live_air(state, b) + strafers if not hooks.of(state).outside_4c(state, b, a)]


def _in_range(b: Battle, ship: str, air: str) -> bool:
    """4c1: up to three Battleboard hexes, counted through any units."""
    return battleboard().distance(b.positions[ship], b.air_hexes[air]) <= 3


def _aa_actions(state: State, side: Side) -> list[Action]:
    b = battle(state)
    acts = []
    targets = [b.aa_target] if b.aa_target else aa_targets(state, b)
    for s in b.ships:
        u = state.units[side][s]
        if u.box == "eliminated" or u.key in state.aa_used or s in b.aa_ships:
            continue
        if hooks.of(state).base_aa_apart(state, side, s):
            continue  # Bases 4: a base's AA fires at its own attackers (expansions/ptvm/strikes.py)
        acts += [Action("aa", (s, a)) for a in targets if _in_range(b, s, a)]
    if b.aa_ships:
        dd = [] if hooks.of(state).destroyers_refused(state, b) else [DESTROYERS]
        return [*acts, Action("fire"), Action("cancel"), *dd]
    return [*acts, DONE]


def aa_modifier(state: State, b: Battle, ships: list[str], air: str) -> int:
    """4c2: the summed AA factors, -2 against high level and -1 against medium level bombing;
    14f: -1 for each ship faced by strafing fighters."""
    total = sum(aa_factor(state.units[other(b.attacker)][s]) for s in ships)
    total -= sum(1 for s in ships if any(b.targets.get(e) == s for e in b.escorts))
    level = category(state, b, air) if air in b.air else ""
    return total + AA_LEVEL.get(level, 0)


def _aa_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    if action.kind == "aa":
        b.aa_ships.append(action.get("ship"))
        b.aa_target = action.get("unit")
    elif action.kind == "cancel":
        b.aa_ships, b.aa_target = [], None
    elif action.kind == "fire":
        _fire(state, b, out)
    elif action.kind == DESTROYERS.kind:
        _fire(state, b, out, destroyers=True)


def _fire(state: State, b: Battle, out: list[Event], destroyers: bool = False) -> None:
    """4c: the ships' summed AA factors against one air unit's defense factor; Destroyers:
    with Japan's two more, once each Turn."""
    assert b.aa_target is not None
    target = state.units[b.attacker][b.aa_target]
    modifier = aa_modifier(state, b, b.aa_ships, b.aa_target)
    data: dict[str, object] = {"ships": list(b.aa_ships), "target": target.id}
    if destroyers:
        bonus = destroyer_bonus(state)
        assert bonus is not None
        modifier += bonus[1]
        hooks.of(state).destroyers_fired(state)
        data["destroyers"] = {"aa": bonus[1], "ship": b.targets[target.id], "rule": "Destroyers"}
    state.aa_used.extend(UnitKey(other(b.attacker), s) for s in b.aa_ships)
    b.aa_ships, b.aa_target = [], None
    pending = PendingCombat(
        "anti-aircraft", b.attacker, target.id, modifier, defense(target), 0, 0,
        "anti-aircraft fire", data
    )  # fmt: skip
    fight(state, pending, out)


def _after_aa(state: State, out: list[Event]) -> None:
    return None


def _aa_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == DESTROYERS.kind:
        refused = hooks.of(state).destroyers_refused(state, battle(state))
        return None if refused is None else ("Destroyers", refused)
    if action.kind != "aa":
        return "4c", "fire or cancel the anti-aircraft combat being formed before finishing"
    b = battle(state)
    ship, air = action.get("ship"), action.get("unit")
    outside = hooks.of(state).outside_why(state, b, air, "4c AA fire")
    if outside is not None:
        return outside
    if ship not in b.ships or air not in aa_targets(state, b):
        return "4c", "anti-aircraft fire is by your ships in this battle at its attacking air units"
    if hooks.of(state).base_aa_apart(state, side, ship):
        return "Bases 4", f"{ship}'s AA fires at the planes attacking it, on the AA table"
    if UnitKey(side, ship) in state.aa_used or ship in b.aa_ships:
        return "4c2", f"{ship}'s AA factor has been used this Combat Phase"
    if b.aa_target is not None and air != b.aa_target:
        return "4c2", f"the ships being combined fire at {b.aa_target}; fire or cancel first"
    return "4c1", f"{air} is more than three Battleboard hexes from {ship}"


register(
    Step(
        StepId.ANTI_AIRCRAFT_COMBAT,
        "4c",
        "Anti-aircraft combat: choose ships and the air unit they fire at",
        _aa_actions,
        _aa_handle,
        enter_defender,
        advance,
        _aa_why,
    )
)

# ---------------------------------------------------------------- 4d bombing combat


def pending_bombing(state: State, b: Battle) -> list[tuple[str, str]]:
    """4d2: each target and category is a separate combat, in the attacker's order."""
    combats = set()
    defender = other(b.attacker)
    for a in live_air(state, b):
        t = b.targets[a]
        if hooks.of(state).on_base(state, b, a):
            continue  # Bombers 4-6: the base strike replaces 4d on a base
        key = (t, category(state, b, a))
        if state.units[defender][t].box != "eliminated" and f"{t}/{key[1]}" not in b.bombed:
            combats.add(key)
    return sorted(combats)


def bombing_modifier(state: State, b: Battle, target: str, cat: str) -> tuple[int, list[str]]:
    """4d3: summed bombing factors, and the anvil, threading and Ready-box modifiers; an
    expansion's bombers on a ship may count together (`hooks.Hooks.ship_bombers`)."""
    units = [
        a for a in live_air(state, b) if b.targets[a] == target and category(state, b, a) == cat
    ]
    family = hooks.of(state)
    bombers = family.ship_bombers(state, b, units)
    total = sum(bombing(state.units[b.attacker][a]) for a in units if a not in bombers)
    total += family.bombing_factor(state, b.attacker, bombers)
    notes: list[str] = []
    if cat == "torpedo":
        rel = {_relative(b, target, b.air_hexes[a]) for a in units}
        if STARBOARD_BOW in rel and PORT_BOW in rel:
            total, notes = total + ANVIL, [*notes, "anvil (4d3.1)"]
        if AHEAD in rel or ASTERN in rel:
            total, notes = total + THREADING, [*notes, "threading (4d3.2)"]
    defender = other(b.attacker)
    if (
        cat == "dive"
        and not is_base(state, defender, target)
        and _ready_box_armed(state, defender, target)
    ):
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
        a for a in live_air(state, b) if b.targets[a] == target_id and category(state, b, a) == cat
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
        data
    )  # fmt: skip
    fight(state, pending, out)


def _after_bombing(state: State, out: list[Event]) -> None:
    if not pending_bombing(state, battle(state)):
        _bombing_over(state, out)


def _bombing_over(state: State, out: list[Event]) -> None:
    """4e; in the expansion's scenarios the attacks on a base come first (Bombers 4-7)."""
    b = battle(state)
    hooks.of(state).base_strikes(state, b, free_cap(state, b), out)
    _end_battle(state, out)


CONTINUATIONS["anti-aircraft"] = _after_aa
CONTINUATIONS["bombing"] = _after_bombing


def _enter_bombing(state: State, out: list[Event]) -> None:
    b = battle(state)
    hooks.of(state).before_bombing(state, b, free_cap(state, b), out)  # Bombers 3, before 4d
    if pending_bombing(state, b):
        state.waiting = [b.attacker]
    else:
        _bombing_over(state, out)


def _bomb_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "4d2", "each target and bombing category is one combat, fought once"


register(
    Step(
        StepId.BOMBING_COMBAT,
        "4d",
        "Bombing combat: choose the next target and category to resolve",
        _bomb_actions,
        _bomb_handle,
        _enter_bombing,
        nothing,
        _bomb_why,
        auto=frozenset({"bomb"}),
    )
)
