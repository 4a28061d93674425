"""3: The Action Phase - sides, assembly, ready, sea movement.

3: both sides roll a die, ties re-rolled; the high roll is Side A. Side B performs each
step first, then Side A.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules import hooks
from app.rules.base.setup import (
    TERRAIN,
    area_words,
    land_words,
    scenario_of,
    setup_rule,
    toggle_air,
)
from app.rules.base.units import eliminate, is_fighter, launch_number, size
from app.rules.board.boards import (
    carrier_hex,
    landlocked,
    sea_area_hexes_of,
    sea_within,
    searchboard_of,
    ships_in,
)
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import DONE, Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import (
    ARMING,
    BASE,
    EXITED,
    HIGH_CAP,
    LOW_CAP,
    MAX_STRIKE,
    READY,
    SHIPS,
    SIDES,
    STRIKE,
    Side,
    State,
    Unit,
    UnitKey,
    other,
)
from app.rules.engine.steps import (
    Step,
    StepId,
    WhoActs,
    advance,
    at_once,
    automatic,
    b_then_a,
    register,
)
from app.rules.optional.patrols import new_turn, report_moves
from app.rules.optional.scouts import create, creations
from app.rules.optional.ship_movement import dead_in_the_water, rate, tow_outs
from app.rules.optional.staging import STAGING, stage, stagings

# ---------------------------------------------------------------- sides (3)


def night(state: State) -> bool:
    """3a1: the dark-shaded Turns of the TIME RECORD TRACK."""
    return turn_box(state).night


def _new_turn(state: State) -> None:
    state.launched = {}
    state.shifted = []
    state.aa_used = []
    state.fought = []
    state.damaged = []
    state.engaged = []
    state.announcements = []
    for side in SIDES:
        board = state.boards[side]
        board.turn_start = {m: h for m, h in board.forces.items() if h is not None}
        board.moved = []
        board.searched = []
        board.sea_searched = []
        board.may_search = {}
        board.routes = {}
        board.over = None
        board.groups = {}
    new_turn(state)  # 12d: patrolling scouts fly on
    hooks.of(state).new_turn(state)  # Bases 3: a new day's damage; knockouts end at 0700 next day


def _enter_sides(state: State, out: list[Event]) -> None:
    """3: competitive rolls, ties rolled again; the high roll is Side A."""
    _new_turn(state)
    while True:
        usa, japan = roll_d10(state), roll_d10(state)
        out.append(Event("sides-roll", ALL, state.turn, StepId.SIDES, {"usa": usa, "japan": japan}))
        if usa != japan:
            break
    state.side_a = "usa" if usa > japan else "japan"
    # 3: Side B acts first in each step; 18c1: in an umpired game both sides at once in
    # the Action Phase, Side B first only in moving air strikes.
    data = {"A": state.side_a, "B": other(state.side_a), "at_once": at_once(state, StepId.ASSEMBLY)}
    out.append(Event("sides", ALL, state.turn, StepId.SIDES, data))
    advance(state, out)


automatic(StepId.SIDES, "3", _enter_sides)


def _wait_b_then_a(state: State, out: list[Event]) -> None:
    """3: Side B, then Side A; in an umpired game both at once (18c1: "the players on both
    sides should then perform all other activities in the Action Phase simultaneously,
    except for moving air strikes") - assembly, readying and sea movement, whose steps say
    so (`WhoActs.AT_ONCE_WHEN_UMPIRED`)."""
    state.waiting = b_then_a(state)


# ---------------------------------------------------------------- assembly (3a)


def _carrier_of(state: State, side: Side, unit_id: str) -> str:
    return state.units[side][unit_id].area


def launch_kind(state: State, side: Side, unit_id: str) -> str | None:
    """3a4: "normal" within the launch number; 12b2: "max" up to twice it; else None."""
    u = state.units[side][unit_id]
    if u.ship or u.box != READY or night(state):
        return None
    carrier = state.units[side][u.area]
    if carrier_hex(state, carrier) is None or dead_in_the_water(state, carrier):
        return None  # 11c2: no take-off from a carrier dead in the water; an off-board base's
        # units take off into its edge squares in the Air Movement Step (theatre_air.sorties)
    if hooks.of(state).take_off_refusal(state, u) is not None:
        return None  # Bases 3: knocked out; Santa Cruz's Buka, Truk: bombers stay
    if hooks.of(state).launches_all(state, carrier):
        return "normal"
    after = state.launched.get(carrier.key, 0) + size(state, u)
    if after <= launch_number(carrier):
        return "normal"
    if OptionId.EXPANDED_LAUNCHES in state.options and after <= 2 * launch_number(carrier):
        return "max"
    return None


def _can_launch(state: State, side: Side, unit_id: str) -> bool:
    return launch_kind(state, side, unit_id) is not None


def _assembly_actions(state: State, side: Side) -> list[Action]:
    acts: list[Action] = []
    for u in state.units[side].values():
        kind = launch_kind(state, side, u.id)
        if kind is not None:
            acts += _take_offs(state, u, kind)
    return [*acts, *creations(state, side), DONE]


def _take_offs(state: State, u: Unit, kind: str) -> list[Action]:
    """3a3; 12b2.1 normal launches to Normal Strike or High CAP; 12b2.3 maximum launches to
    Max. Strike or Low CAP.  # RULES? With 14 but not 12b2, either CAP box is a normal launch."""
    fighter = OptionId.FIGHTERS in state.options and is_fighter(u)
    if kind == "max":
        return [Action("max-strike", (u.id,))] + ([Action("cap", (u.id, "low"))] if fighter else [])
    acts = [Action("launch", (u.id,))]
    if fighter:
        acts.append(Action("cap", (u.id, "high")))
        if OptionId.EXPANDED_LAUNCHES not in state.options:
            acts.append(Action("cap", (u.id, "low")))
    return acts


def _assembly_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    """3a3: a flying unit goes to the Normal Strike box of its task force (or Midway)."""
    if action.kind == "create":
        create(state, side, action, out)
        return
    u = state.units[side][action.get("unit")]
    carrier = state.units[side][u.area]
    state.launched[carrier.key] = state.launched.get(carrier.key, 0) + size(state, u)
    box = MAX_STRIKE if action.kind == "max-strike" else STRIKE
    if action.kind == "cap":
        box = HIGH_CAP if action.get("level") == "high" else LOW_CAP
    u = state.put(replace(u, box=box, area=carrier.id if carrier.box == BASE else carrier.area))
    out.append(
        Event(
            "launch",
            ALL,
            state.turn,
            StepId.ASSEMBLY,
            {"side": side, "unit": u.id, "from": carrier.id},
        )
    )


def _assembly_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != "launch":
        return None
    u = state.units[side].get(action.get("unit"))
    if u is None or u.ship:
        return "3a2", f"{action.get('unit')} is not one of your air units"
    if night(state):
        return "3a1", "no air units may fly during night Turns"
    if u.box != READY:
        return "3a2", f"only air units in a Ready box may take off; {u.id} is not"
    refused = hooks.of(state).take_off_refusal(state, u)
    if refused is not None:
        return refused
    carrier = state.units[side][u.area]
    if carrier_hex(state, carrier) is None:
        return "Off-Board Bases 1", (
            f"{u.id} is at {carrier.id}, off the board: it takes off into one of the base's "
            "marked edge squares in the Air Movement Step"
        )
    return (
        "3a4",
        f"{carrier.id} has launched its launch number ({launch_number(carrier)}) this Turn",
    )


register(
    Step(
        StepId.ASSEMBLY,
        "3a",
        "Assembly: take off air units from Ready boxes",
        _assembly_actions,
        _assembly_handle,
        _wait_b_then_a,
        advance,
        _assembly_why,
        acts=WhoActs.AT_ONCE_WHEN_UMPIRED,  # 18c1
        idle_when=night,  # 3a1: "No air units may fly during night Turns"
    )
)

# ---------------------------------------------------------------- ready (3b)


def _ready_actions(state: State, side: Side) -> list[Action]:
    acts = []
    for u in state.units[side].values():
        if u.ship or u.key in state.shifted:
            continue
        if u.box == ARMING and hooks.of(state).readying_refusal(state, u) is None:
            acts.append(Action("ready", (u.id,)))
        elif u.box == READY:
            acts.append(Action("arm", (u.id,)))
    return [*acts, *stagings(state, side), DONE]


def _ready_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    if action.kind == "stage":
        stage(state, side, action, out)
        state.shifted.append(UnitKey(side, action.get("unit")))
        return
    toggle_air(state, side, action)
    state.shifted.append(UnitKey(side, action.get("unit")))
    hooks.of(state).readied(state, UnitKey(side, action.get("unit")))
    out.append(
        Event(
            action.kind, ALL, state.turn, StepId.READY, {"side": side, "unit": action.get("unit")}
        )
    )


def _ready_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "stage":
        return STAGING, (
            "staging flies to another ship or base at least one hex away, within reach, "
            "where landing is possible (5)"
        )
    if action.kind in ("ready", "arm"):
        if UnitKey(side, action.get("unit")) in state.shifted:
            return "3b", f"{action.get('unit')} has already been shifted this Ready Step"
        u = state.units[side].get(action.get("unit"))
        waiting = None if u is None or u.ship else hooks.of(state).readying_refusal(state, u)
        if action.kind == "ready" and waiting is not None:
            return waiting
        return "3b", "only air units in an Arming box may be readied, and Ready ones armed"
    return None


register(
    Step(
        StepId.READY,
        "3b",
        "Ready: shift air units between Arming and Ready boxes",
        _ready_actions,
        _ready_handle,
        _wait_b_then_a,
        advance,
        _ready_why,
        acts=WhoActs.AT_ONCE_WHEN_UMPIRED,  # 18c1
    )
)

# ---------------------------------------------------------------- sea movement (3c)


def due(state: State, side: Side) -> list[str]:
    """3c: task forces that enter this Turn (7c4.2: optional ones only if noted to enter)."""
    board = state.boards[side]
    return [
        f.marker
        for f in scenario_of(state).forces_of(side)
        if f.entry_turn == state.turn
        and (not f.optional or f.marker in board.committed)
        and ships_in(state, side, f.marker)
        and (f.marker in board.moved or board.forces.get(f.marker) is None)
    ]


def entering(state: State, side: Side) -> list[str]:
    """3c: task forces due this Turn that have not yet been placed."""
    return [m for m in due(state, side) if m not in state.boards[side].moved]


def _sea_owes(state: State, side: Side) -> list[Action]:
    """3c: a task force due to enter this Turn must enter."""
    due_now = entering(state, side)
    return [a for a in _sea_actions(state, side) if a.kind == "enter" and a.get("force") in due_now]


def _sea_actions(state: State, side: Side) -> list[Action]:
    board = state.boards[side]
    grid = searchboard_of(state)
    acts: list[Action] = []
    for marker, start in sorted(board.turn_start.items()):
        if board.forces.get(marker) is None or not ships_in(state, side, marker):
            continue
        here = board.forces[marker]
        reach = 0 if hooks.of(state).ships_held(state, side, marker) else rate(state, side, marker)
        acts += [Action("move", (marker, h)) for h in sea_within(state, start, reach) if h != here]
        if grid.on_edge(start) and reach:
            acts.append(Action("exit", (marker,)))
        if marker not in board.moved:
            acts += [
                Action("tow-out", (d.id, t.id)) for d, t in tow_outs(state, side, marker, start)
            ]
    if not board.moved:
        acts += [
            Action("scuttle", (u.id,))
            for u in state.units[side].values()
            if u.box == SHIPS and dead_in_the_water(state, u)
        ]
    for marker in due(state, side):
        force = next(f for f in scenario_of(state).forces_of(side) if f.marker == marker)
        here = state.boards[side].forces.get(marker)
        zones = sea_area_hexes_of(state.scenario, force.area)
        acts += [Action("enter", (marker, h)) for h in zones if h != here]
    if not entering(state, side):
        acts.append(DONE)
    return acts


def _sea_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    board = state.boards[side]
    if action.kind == "scuttle":
        ship = state.units[side][action.get("ship")]
        eliminate(state, ship, out, "scuttled (11c3)")
        return
    if action.kind == "tow-out":
        _tow_out(state, side, action, out)
        return
    marker = action.get("force")
    if action.kind == "exit":
        _exit_board(state, side, marker, out)
        return
    board.forces[marker] = action.get("hex")
    if marker not in board.moved:
        board.moved.append(marker)
    out.append(
        Event(
            action.kind,
            side,
            state.turn,
            StepId.SEA_MOVEMENT,
            {"force": marker, "hex": action.get("hex")},
        )
    )


def _tow_out(state: State, side: Side, action: Action, out: list[Event]) -> None:
    """12a4.3: the towed ship and its tower leave uneliminated (their damage still counts);
    the marker stays with the other ships, and is removed if none is left."""
    towed = state.units[side][action.get("ship")]
    marker = towed.area
    for u in (towed, state.units[side][action.get("tower")]):
        state.put(replace(u, box=EXITED))
        out.append(Event("exited", ALL, state.turn, state.step, {"side": side, "unit": u.id}))
    if not ships_in(state, side, marker):
        state.boards[side].forces[marker] = None


def _exit_board(state: State, side: Side, marker: str, out: list[Event]) -> None:
    """2e: units that exit the Searchboards are eliminated (12a4.3: but see `_tow_out`);
    Off-Board Bases 5: on the theatre map they leave, never to return."""
    if hooks.of(state).leave_board(state, side, marker, out):
        return
    state.boards[side].forces[marker] = None
    for u in list(state.units[side].values()):
        if (u.ship and u.box == SHIPS and u.area == marker) or (
            not u.ship and u.box in (STRIKE, MAX_STRIKE, HIGH_CAP, LOW_CAP) and u.area == marker
        ):
            eliminate(state, u, out, "left the Searchboard (2e)")


def _sea_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "move":
        return _move_why(state, side, action.get("force"), action.get("hex"))
    if action.kind == "scuttle":
        return "11c3", "only a ship dead in the water, at the start of the Sea Movement Step"
    if action.kind == "enter":
        return _enter_why(state, side, action.get("force"), action.get("hex"))
    if action.kind == "exit":
        return "2e", "only a task force on the Searchboard's edge can leave it"
    if action.kind == "tow-out":
        return "12a4.3", (
            "only a ship dead in the water and one ship towing it (not a BB, CV or CVL) of an "
            "unmoved task force that began the Turn on its own edge (US east, Japan west) exit"
        )
    if action.kind == "done":
        return "3c", "every task force due to enter this Turn must enter first"
    return None


def _enter_why(state: State, side: Side, marker: str, to: str) -> tuple[str, str]:
    """3c: a task force enters on its scenario Turn, in its area (the Setup Information)."""
    force = next((f for f in scenario_of(state).forces_of(side) if f.marker == marker), None)
    if force is None or force.entry_turn is None:
        return "3c", f"{marker} is not a task force of yours that enters during the game"
    if marker not in entering(state, side):
        return setup_rule(state, side), f"{force.label} enters on Turn {force.entry_turn}"
    if to in landlocked(state):
        return TERRAIN, land_words(to, "enters")
    return setup_rule(state, side), (
        f"{force.label} enters in {area_words(state, force.area)}, not in {to}"
    )


def _move_why(state: State, side: Side, marker: str, to: str) -> tuple[str, str]:
    """3c (12a): how far the task force may go this Turn, and how far `to` is."""
    board = state.boards[side]
    start = board.turn_start.get(marker)
    if start is None or board.forces.get(marker) is None:
        return "3c", f"{marker} is not a task force of yours on the Searchboard now"
    grid = searchboard_of(state)
    if not grid.contains(to):
        return "3c", f"{to} is not a hex of the Searchboard"
    away, reach = grid.distance(start, to), rate(state, side, marker)
    limit = (
        "12a"
        if OptionId.VARIABLE_SEA_MOVEMENT in state.options
        or OptionId.DEAD_IN_THE_WATER in state.options
        else "3c"
    )
    held = hooks.of(state).ships_held(state, side, marker)
    if held is not None:
        return held
    if to in landlocked(state):
        return TERRAIN, land_words(to, "moves into")
    if reach and away <= reach:
        return TERRAIN, (
            f"{marker} began the Turn in {start}; {to} is {away} zones from there, but only "
            "across land: a task force moves through sea, reef and coastal zones"
        )
    if reach == 0:
        return limit, f"{marker} cannot move this Turn (dead in the water, towing)"
    return limit, (
        f"{marker} began the Turn in {start}; {to} is {away} hexes from there, and it "
        f"moves no more than {reach} hex{'es' if reach > 1 else ''} this Turn"
    )


def _sea_done(state: State, side: Side, action: Action, out: list[Event]) -> None:
    report_moves(state, side, out)


register(
    Step(
        StepId.SEA_MOVEMENT,
        "3c",
        "Sea movement: move your task force markers up to one hex, in secret",
        _sea_actions,
        _sea_handle,
        _wait_b_then_a,
        advance,
        _sea_why,
        on_done=_sea_done,
        owes=_sea_owes,
        acts=WhoActs.AT_ONCE_WHEN_UMPIRED,  # 18c1
    )
)
