"""16j: bombarding the Midway base.

The base goes near the centre of the Battleboard (16j1); the Japanese ships stand in
stacks by their guns' letter, each at its letter's full range, ships with no surface
factor seven hexes off (16j2). The base fires first, at one ship within its "c" range,
ignoring sectors (16j3); then each stack attacks the base once, its surface factors
combined as one modifier, with the usual modifiers otherwise (16j4: Atago and Chokai
+3 +3, b guns against a armour -2, +4 in all).
"""

from __future__ import annotations

from app.rules.base.battle import CENTRE, remove_empty_markers
from app.rules.base.units import BASE_ID, defense, ship_face
from app.rules.board.boards import battleboard, forces_at, midway_hex, ships_in
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import GONE, PendingCombat, Side, State, UnitKey
from app.rules.engine.steps import Step, StepId, advance, register
from app.rules.optional.free_roll import CONTINUATIONS, fight
from app.rules.optional.surface.geometry import GUN_RANGE, NO_GUN_RANGE, distance
from app.rules.optional.surface.gunnery import (
    armour_modifier,
    gun_modifier,
    gun_range,
    surface_factor,
)
from app.rules.optional.surface.model import Bombardment, bombardment, record

STEP = StepId.BOMBARDMENT
KIND = "bombardment"
NO_GUNS = "-"
LETTERS = ("a", "b", "c", "d", NO_GUNS)


def bombarding_ships(state: State) -> list[str]:
    """16j: Japanese ships in Midway's hex that did not break off from a surface combat there."""
    rec = record(state)
    broke = {u for c in rec.contacts if c.hex == midway_hex() for u in c.broke_off}
    return [
        u.id
        for m in forces_at(state, "japan", midway_hex())
        for u in ships_in(state, "japan", m)
        if u.id not in broke
    ]


def _letter(state: State, uid: str) -> str:
    face = ship_face(state.units["japan"][uid])
    return face.gun if face.gun is not None and face.surface is not None else NO_GUNS


def start_bombardment(state: State, out: list[Event]) -> None:
    """16j1, 16j2: the base at the centre, the stacks each at its letter's range."""
    stacks: dict[str, list[str]] = {}
    for uid in bombarding_ships(state):
        stacks.setdefault(_letter(state, uid), []).append(uid)
    positions = {BASE_ID: CENTRE}
    for d, letter in enumerate(LETTERS):
        if letter in stacks:
            reach = GUN_RANGE.get(letter, NO_GUN_RANGE)
            positions[letter] = battleboard().line(CENTRE, d, reach)[-1]
    b = Bombardment(midway_hex(), stacks, positions)
    record(state).bombardment = b
    engaged = [UnitKey("usa", BASE_ID)]
    engaged += [UnitKey("japan", u) for ships in stacks.values() for u in ships]
    state.engaged += [e for e in engaged if e not in state.engaged]  # 11d
    data = {"hex": b.hex, "stacks": {k: list(v) for k, v in stacks.items()}, "positions": positions}
    out.append(Event("bombardment-set-up", ALL, state.turn, STEP, data))
    advance(state, out)


def base_targets(state: State, b: Bombardment) -> list[str]:
    """16j3: Japanese ships within the base's "c" range."""
    base = state.units["usa"][BASE_ID]
    if b.base_fired or base.box == GONE:
        return []
    reach = gun_range(base)
    return sorted(
        uid
        for letter, ships in b.stacks.items()
        if distance(CENTRE, b.positions[letter]) <= reach
        for uid in ships
        if state.units["japan"][uid].box != GONE
    )


def stacks_to_fire(state: State, b: Bombardment) -> list[str]:
    if state.units["usa"][BASE_ID].box == GONE:
        return []
    return [
        letter
        for letter, ships in sorted(b.stacks.items())
        if letter != NO_GUNS
        and letter not in b.fired
        and any(state.units["japan"][u].box != GONE for u in ships)
    ]


def stack_modifier(state: State, b: Bombardment, letter: str) -> tuple[int, list[str]]:
    """16j4: the stack's surface factors combined, and the usual modifiers (no sectors)."""
    ships = [state.units["japan"][u] for u in b.stacks[letter]]
    live = [u for u in ships if u.box != GONE]
    total = sum(surface_factor(u) for u in live)
    armour, notes = armour_modifier(letter, state.units["usa"][BASE_ID])
    return total + armour, notes


def _actions(state: State, side: Side) -> list[Action]:
    b = bombardment(state)
    if side == "usa":
        return [*(Action("gun", (BASE_ID, t)) for t in base_targets(state, b)), DONE]
    return [Action("bombard", (letter,)) for letter in stacks_to_fire(state, b)]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = bombardment(state)
    base = state.units["usa"][BASE_ID]
    if action.kind == "gun":
        b.base_fired = True
        target = state.units["japan"][action.get("target")]
        letter = next(k for k, v in b.stacks.items() if target.id in v)
        modifier, notes = gun_modifier(base, CENTRE, None, target, b.positions[letter])
        data: dict[str, object] = {"attacker": "usa", "ship": BASE_ID, "modifiers": notes}
        data["target"] = f"japan/{target.id}"
        pending = PendingCombat(
            KIND, "japan", target.id, modifier, defense(target), 0, 0, "the base's guns",
            data
        )  # fmt: skip
    else:
        letter = action.get("stack")
        b.fired.append(letter)
        modifier, notes = stack_modifier(state, b, letter)
        data = {"attacker": "japan", "stack": letter, "ships": list(b.stacks[letter])}
        data.update(target=f"usa/{BASE_ID}", modifiers=notes)
        cause = f"bombardment by the {letter} stack"
        pending = PendingCombat(
            KIND, "usa", BASE_ID, modifier, defense(base), 0, 0, cause, data
        )  # fmt: skip
    fight(state, pending, out)


def _after(state: State, out: list[Event]) -> None:
    _next(state, out)


def _next(state: State, out: list[Event]) -> None:
    b = bombardment(state)
    if not b.base_fired and base_targets(state, b):
        state.waiting = ["usa"]
        return
    b.base_fired = True
    if stacks_to_fire(state, b):
        state.waiting = ["japan"]
        return
    record(state).bombardment = None
    remove_empty_markers(state)
    out.append(Event("bombardment-end", ALL, state.turn, STEP, {"hex": b.hex}))
    advance(state, out)


def _enter(state: State, out: list[Event]) -> None:
    _next(state, out)


def _on_done(state: State, side: Side, action: Action, out: list[Event]) -> None:
    bombardment(state).base_fired = True


def _finish(state: State, out: list[Event]) -> None:
    _next(state, out)


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind not in ("gun", "bombard"):
        return None
    if action.kind == "gun":
        return "16j3", "the base fires once, at a ship within its c range (4 hexes)"
    return "16j4", "each stack with a surface factor attacks the base once"


CONTINUATIONS[KIND] = _after

register(
    Step(
        STEP,
        "16j",
        "Bombardment: the base fires at one ship in range, then each Japanese stack at the base",
        _actions,
        _handle,
        _enter,
        _finish,
        _why,
        auto=frozenset({"bombard"}),
        on_done=_on_done,
    )
)
