"""16d: the sequence of Surface Turns, 16k: first Surface Turn night surprise, and the end.

16d1: each Surface Turn both sides roll a die, ties rolled again; the high roll is
Surface Side A. Then movement (16e), torpedo fire (16f), gunnery (16g), torpedo combats
(16h) and breakoffs (16i), Surface Side B first each time. 16d7: after Surface Turn 10,
or when one side has no ship left on the Battleboard, the combat ends; with option 11c,
a side left only with ships dead in the water loses them if an enemy ship that can move
is still there (11c1). Then the battle's end (4e).

16k (a further option): at night, a Surface Side A whose roll is twice the other's or
more has surprise; it chooses 16k2.1 (attack now: Side B moves one hex straight ahead and
neither indicates torpedo fire nor fires first) or 16k2.2 (delay: no torpedoes or guns,
and surprise holds while it stays Side A). While surprise is possible the Japanese add +3
to their roll (16k3).
"""

from __future__ import annotations

from app.rules.base.battle import remove_empty_markers
from app.rules.base.units import eliminate
from app.rules.engine.actions import Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import SIDES, Side, State, other
from app.rules.engine.steps import (
    After,
    Branch,
    Next,
    Return,
    Step,
    StepId,
    advance,
    automatic,
    follow,
    nothing,
    register,
)
from app.rules.optional.surface.fleet import afloat, dead
from app.rules.optional.surface.model import SurfaceCombat, combat, record

SURFACE_TURNS = 10  # 16d
JAPANESE_NIGHT_BONUS = 3  # 16k3
SURPRISE_RATIO = 2  # 16k1: two times or more
EFFECTS = ("attack", "delay")  # 16k2.1, 16k2.2

# ---------------------------------------------------------------- 16d1 sides, 16k1 surprise


def _enter_sides(state: State, out: list[Event]) -> None:
    c = combat(state)
    possible = c.surprise in ("possible", "delay")
    bonus = {"usa": 0, "japan": JAPANESE_NIGHT_BONUS if possible else 0}
    while True:
        rolls = {"usa": roll_d10(state), "japan": roll_d10(state)}
        numbers = {s: rolls[s] + bonus[s] for s in SIDES}
        data = {"surface_turn": c.turn, "rolls": rolls, "modifiers": bonus, "numbers": numbers}
        out.append(Event("surface-sides-roll", ALL, state.turn, state.step, data))
        if numbers["usa"] != numbers["japan"]:
            break
    c.side_a = "usa" if numbers["usa"] > numbers["japan"] else "japan"
    _surprise(c, numbers)
    data = {"surface_turn": c.turn, "A": c.side_a, "B": other(c.side_a), "surprise": c.surprise}
    out.append(Event("surface-sides", ALL, state.turn, state.step, data))
    advance(state, out)


def _surprise(c: SurfaceCombat, numbers: dict[Side, int]) -> None:
    """16k1: twice the other's roll gives surprise; 16k2.2: a delayed one holds while A stays A.

    # RULES? "two times or more the other side's roll" is read on the modified rolls (16k3's
    # +3 included).
    """
    assert c.side_a is not None
    high, low = numbers[c.side_a], numbers[other(c.side_a)]
    if c.surprise == "possible":
        if high >= SURPRISE_RATIO * low:
            c.surprise, c.surprised_by = "choose", c.side_a
        else:
            c.surprise = "over"
    elif c.surprise == "delay":
        c.surprise = "choose" if c.side_a == c.surprised_by else "over"


automatic(StepId.SURFACE_SIDES, "16d1", _enter_sides)


# ---------------------------------------------------------------- 16k2 the surprise effect


def _surprise_actions(state: State, side: Side) -> list[Action]:
    return [Action("surprise", (e,)) for e in EFFECTS]


def _surprise_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    c = combat(state)
    c.surprise = action.get("effect")
    data = {"side": side, "effect": c.surprise, "surface_turn": c.turn}
    out.append(Event("surprise", ALL, state.turn, state.step, data))
    advance(state, out)


def _surprise_enter(state: State, out: list[Event]) -> None:
    state.waiting = [combat(state).surprised_by or "japan"]


def _surprise_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != "surprise":
        return None
    return "16k2", "with surprise, attack now (16k2.1) or delay it (16k2.2)"


register(
    Step(
        StepId.SURPRISE,
        "16k2",
        "Surprise: attack now (Side B moves straight ahead, only you fire torpedoes, "
        "you fire first) or delay (no torpedoes or gunnery this Surface Turn)",
        _surprise_actions,
        _surprise_handle,
        _surprise_enter,
        nothing,
        _surprise_why,
    )
)

# ---------------------------------------------------------------- 16d7 end of a Surface Turn


def end_surface_turn(state: State, out: list[Event]) -> None:
    """16d7: advance the Surface Turn markers, or end the combat."""
    c = combat(state)
    c.torpedoes = []
    if c.surprise == "attack":
        c.surprise = "over"
    data = {"surface_turn": c.turn}
    out.append(Event("surface-turn-end", ALL, state.turn, state.step, data))
    if c.turn >= SURFACE_TURNS or any(not afloat(state, c, s) for s in SIDES):
        end_combat(state, out)
        return
    c.turn += 1
    c.side_a = None
    c.spent = {s: {} for s in SIDES}
    c.shifted = []
    c.gunned = {s: [] for s in SIDES}
    c.designated = {s: [] for s in SIDES}
    advance(state, out)


def end_combat(state: State, out: list[Event]) -> None:
    """16d7, 11c1, 4e: the combat ends; units go back to their Searchboards."""
    c = combat(state)
    c.ended = True
    _dead_in_the_water_lost(state, c, out)
    data = {
        "hex": c.hex,
        "surface_turn": c.turn,
        "afloat": {s: sorted(afloat(state, c, s)) for s in SIDES},
        "broke_off": {s: list(c.broke_off[s]) for s in SIDES},
    }
    out.append(Event("surface-combat-end", ALL, state.turn, state.step, data))
    if not c.hex:  # 7e: the scenario ends with its one combat (its call goes on to 6)
        advance(state, out)
        return
    rec = record(state)
    for contact in rec.contacts:
        if contact.hex == c.hex:
            contact.us_left = bool(afloat(state, c, "usa"))
            contact.broke_off = list(c.broke_off["japan"])
    rec.combat = None
    remove_empty_markers(state)
    advance(state, out)  # back to the Combat Phase: 4e1, as the surface contact called it


def _dead_in_the_water_lost(state: State, c: SurfaceCombat, out: list[Event]) -> None:
    """11c1: a side with only ships dead in the water, facing a ship that can move, loses them."""
    if OptionId.DEAD_IN_THE_WATER not in state.options:
        return
    for side in SIDES:
        mine = afloat(state, c, side)
        enemy = afloat(state, c, other(side))
        stuck = bool(mine) and all(dead(state, side, u) for u in mine)
        if stuck and any(not dead(state, other(side), u) for u in enemy):
            for uid in sorted(mine):
                cause = "dead in the water at the end of the surface combat (11c1)"
                eliminate(state, state.units[side][uid], out, cause)


# ---------------------------------------------------------------- 16d the order of a combat


def _surprise_or_not(state: State) -> Next:
    """16k2: a side with surprise chooses its effect first."""
    return StepId.SURPRISE if combat(state).surprise == "choose" else StepId.SURFACE_MOVEMENT


def _over_or_next_turn(state: State) -> Next:
    """16d7: after the tenth Surface Turn, or a side with no ship left, the combat ends and
    the game goes on as its caller said (4e1's reorganisation; 7e: the Turn Record)."""
    c = record(state).combat
    return END if c is None or c.ended else StepId.SURFACE_SIDES


END = Return("16d7")

# 16d: a surface combat, a procedure called from the Combat Phase (base/sequence.py) or,
# in Scenario Four, as the game's one combat (7e)
SEQUENCE: dict[StepId, After] = {
    StepId.SURFACE_SETUP: StepId.SURFACE_SIDES,  # 16c, then 16d1
    StepId.SURFACE_SIDES: Branch(
        "16k1", (StepId.SURPRISE, StepId.SURFACE_MOVEMENT), _surprise_or_not
    ),
    StepId.SURPRISE: StepId.SURFACE_MOVEMENT,  # 16k2, then 16e
    StepId.SURFACE_MOVEMENT: StepId.TORPEDO_FIRE,  # 16e, then 16f
    StepId.TORPEDO_FIRE: StepId.GUNNERY,  # 16f, then 16g
    StepId.GUNNERY: StepId.TORPEDO_COMBAT,  # 16g, then 16h
    StepId.TORPEDO_COMBAT: StepId.BREAKOFF,  # 16h, then 16i
    StepId.BREAKOFF: Branch("16d7", (END, StepId.SURFACE_SIDES), _over_or_next_turn),
}

follow(SEQUENCE)
