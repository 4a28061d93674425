"""7a: General Scenario Setup - a new game, and each side's secret setup.

Each side places its task force markers in the scenario's areas (7a2.2) and its air
units in the Ready or Arming boxes of their carriers and base (7a2.3). Both sides set up
at once, in secret; play starts when both are done (2b).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from types import MappingProxyType
from typing import Protocol

from app.data import ForceSetup, Scenario, catalog
from app.data.options import optional_rules
from app.rules import hooks
from app.rules.board.boards import area_hexes_of, landlocked, sea_area_hexes_of
from app.rules.engine.actions import DONE, Action
from app.rules.engine.dice import seed_state
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import (
    ARMING,
    BASE,
    FLIP,
    HIT,
    OFF_BOARD,
    READY,
    SHIPS,
    SIDES,
    Board,
    Side,
    State,
    Unit,
    side_named,
)
from app.rules.engine.steps import Step, StepId, WhoActs, advance, register, start
from app.rules.modes import commands
from app.rules.modes.audiences import check_options, mode_of
from app.rules.modes.seats import seats_of

# Optional rules by rule number (each a per-game toggle): scenarios/options.toml, which
# also says which options need which (15b needs 14, 16f5 and 16k need 16).
OPTIONS: dict[str, str] = {o.rule: o.name for o in optional_rules().options.values()}


def scenario_of(state: State) -> Scenario:
    return catalog().scenarios[state.scenario]


# Scenarios set up other than on the Searchboards (7e: the Battleboard only), by id: the
# function finishes the new game's state in place.
SPECIAL_SETUPS: dict[str, Callable[[State], None]] = {}


def playable(scenario: Scenario) -> bool:
    """Scenarios this engine can play: those on the Searchboards, and those with a special setup."""
    searchboards = scenario.id in ("one", "two", "three") or scenario.theatre is not None
    return searchboards or scenario.id in SPECIAL_SETUPS


def uses_fighters(options: frozenset[str] | set[str] | tuple[str, ...]) -> bool:
    """7c, 7d: without option 14 the scenarios are played with their F units left out."""
    return "14" in options


def new_game(
    scenario: str,
    options: frozenset[str] | set[str] | tuple[str, ...] = frozenset(),
    seed: int = 0,
    mode: str = "two-player",
    teams: bool = False,
) -> State:
    """7a: a game of `scenario` ("one" ... "four") set up and waiting for both sides, in
    `mode` (app/rules/modes/audiences.py), with two seats a side when `teams` (17a)."""
    scenarios = catalog().scenarios
    if scenario not in scenarios:
        raise ValueError(f"unknown scenario {scenario!r}; known: {sorted(scenarios)}")
    if not playable(scenarios[scenario]):
        raise ValueError(f"scenario {scenario!r} is not playable yet")
    # 15b, 16f5, 16k: refused without the option they need; 7e: Scenario Four brings 16
    options = optional_rules().chosen(scenario, options)
    seats_of(scenario, mode, teams)  # the mode is offered, and teams where 17 has them
    check_options(mode_of(mode), options)  # 18c2: options a mode does not offer
    spec = scenarios[scenario]
    state = State(
        scenario=scenario,
        options=tuple(sorted(options)),
        mode=mode,
        teams=teams,
        seed=seed,
        rng=seed_state(seed),
        turn=spec.first_turn,
    )
    hooks.of(state).set_up(state)  # a game family's own slot of the state
    if "11a" in options:
        state.free_roll = spec.free_roll
    for side in SIDES:
        state.units[side] = {}
        state.boards[side] = Board()
        for marker in spec.spare_markers.get(side, ()):
            state.boards[side].forces[marker] = None
    for force in spec.forces:
        _set_up_force(state, force, uses_fighters(options))
    if uses_fighters(options):
        for side in SIDES:  # 7b4.2: the fighters of Scenario One
            for carrier, ids in spec.option14_fighters_of(side):
                for aid in ids:
                    state.units[side][aid] = Unit(side, aid, False, READY, carrier)
    if spec.id in SPECIAL_SETUPS:
        SPECIAL_SETUPS[spec.id](state)
        return state
    entry = scout_entry(spec)
    if entry is not None:
        owner = side_named(entry["side"])
        uid = str(entry["unit"])
        state.units[owner][uid] = Unit(owner, uid, False, OFF_BOARD, str(entry["area"]))
    if teams:
        commands.set_up(state, spec)  # 17a
    start(state, [])
    return state


class TeamSetup(Protocol):
    """17a, 17c1, 17c2: what the players of a team game settle at setup (registered by
    the team games' mode, `register_team_setup`)."""

    def setup_actions(self, state: State, side: Side) -> list[Action]: ...
    def owes(self, state: State, side: Side) -> list[Action]: ...
    def handle(self, state: State, side: Side, action: Action, out: list[Event]) -> bool: ...


_TEAM_SETUP: list[TeamSetup] = []


def register_team_setup(part: TeamSetup) -> None:
    """The team games' part of setup (17): one, registered when the mode is imported."""
    _TEAM_SETUP[:] = [part]


def team_setup() -> TeamSetup:
    return _TEAM_SETUP[0]


def scout_entry(spec: Scenario) -> dict[str, object] | None:
    """7c4.4, 7d4.2: a scout that enters at an area's hexes on given Turns and lands off-board."""
    entry = spec.special.get("scout_entry")
    return dict(entry) if isinstance(entry, dict | MappingProxyType) else None


def _set_up_force(state: State, force: ForceSetup, fighters: bool) -> None:
    units = state.units[force.side]
    is_base = force.area == "base"
    if not is_base:
        state.boards[force.side].forces[force.marker] = None
    for sid in force.ships:
        box, area = (BASE, sid) if is_base else (SHIPS, force.marker)
        units[sid] = _start(Unit(force.side, sid, True, box, area), force)
    for carrier, ids in force.air:
        for aid in ids:
            if fighters or catalog().airunit(force.side, aid).type != "F":
                units[aid] = _start(Unit(force.side, aid, False, READY, carrier), force)


def _start(u: Unit, force: ForceSetup) -> Unit:
    """7a2.2 NOTE: units listed "(back)" start flipped, "(1 hit)" with a hit marker."""
    if u.id in force.back:
        return replace(u, damage=FLIP, started_back=True)
    if u.id in force.one_hit:
        return replace(u, damage=HIT)
    return u


def setup_forces(state: State, side: Side) -> list[ForceSetup]:
    """The side's task forces placed at the game's start (not entering later, not the base)."""
    return [
        f
        for f in scenario_of(state).forces_of(side)
        if f.entry_turn is None and f.area != "base" and f.marker in state.boards[side].forces
    ]


def _air_toggles(state: State, side: Side) -> list[Action]:
    out = []
    for u in state.units[side].values():
        if not u.ship and u.box == READY:
            out.append(Action("arm", (u.id,)))
        elif not u.ship and u.box == ARMING:
            out.append(Action("ready", (u.id,)))
    return out


def optional_forces(state: State, side: Side) -> list[str]:
    """7c4.2: the side's optional task forces."""
    return [f.marker for f in scenario_of(state).forces_of(side) if f.optional]


def _placements(state: State, marker: str, area: str) -> tuple[Action, ...]:
    """7a2.2: a task force marker placed on each hex of its setup area."""
    return _placements_in(state.scenario, marker, area)


@cache
def _placements_in(scenario: str, marker: str, area: str) -> tuple[Action, ...]:
    """7a2.2 on the expansion's map: never on a land zone (boards.landlocked)."""
    return tuple(Action("place", (marker, h)) for h in sea_area_hexes_of(scenario, area))


def _actions(state: State, side: Side) -> list[Action]:
    board = state.boards[side]
    out = []
    for marker in optional_forces(state, side):
        out.append(Action("withhold" if marker in board.committed else "commit", (marker,)))
    for f in setup_forces(state, side):
        here = board.forces[f.marker]
        out += [a for a in _placements(state, f.marker, f.area) if a.values[1] != here]
    out += _air_toggles(state, side)
    if state.teams:
        out += team_setup().setup_actions(state, side)  # 17a, 17c1, 17c2
    if not _owes(state, side):
        out.append(DONE)
    return out


def _owes(state: State, side: Side) -> list[Action]:
    """7a2.2: a task force marker still to be placed; 17c2: a flagship still to be named."""
    board = state.boards[side]
    owed = [
        a
        for f in setup_forces(state, side)
        if board.forces[f.marker] is None
        for a in _placements(state, f.marker, f.area)
    ]
    return owed + team_setup().owes(state, side) if state.teams else owed


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    board = state.boards[side]
    if state.teams and team_setup().handle(state, side, action, out):
        return
    if action.kind == "place":
        board.forces[action.get("force")] = action.get("hex")
    elif action.kind == "commit":
        board.committed.append(action.get("force"))
    elif action.kind == "withhold":
        board.committed.remove(action.get("force"))
    else:
        toggle_air(state, side, action)


def toggle_air(state: State, side: Side, action: Action) -> None:
    """3b, 7a2.3: shift an air unit between its area's Arming and Ready boxes."""
    u = state.units[side][action.get("unit")]
    state.put(replace(u, box=READY if action.kind == "ready" else ARMING))


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "place":
        forces = {f.marker: f for f in setup_forces(state, side)}
        f = forces.get(action.get("force"))
        if f is None:
            return "7a2.2", f"{action.get('force')} is not one of your task forces placed at setup"
        if action.get("hex") in landlocked(state):
            return TERRAIN, land_words(action.get("hex"), "sets up")
        return setup_rule(state, side), (
            f"{f.label} sets up in {area_words(state, f.area)}, not in {action.get('hex')}"
        )
    if action.kind == "done":
        if state.teams and team_setup().owes(state, side):
            return "17c2", "name your flagship, an aircraft carrier or a battleship of yours"
        return "7a2.2", "place every task force marker before you finish setting up"
    return None


TERRAIN = "Terrain"


def land_words(zone: str, verb: str) -> str:
    """Why a task force is not put on a land zone (boards.landlocked)."""
    return (
        f"{zone} is a land zone of the map: no task force {verb} there "
        "(sea, reef and coastal zones only)"
    )


def setup_rule(state: State, side: Side) -> str:
    """The scenario's Setup Information of the side: 7b2 (United States) or 7b3 (Japan) in
    Scenario One, and so on; 7a2.2 where a scenario's rule is not of that shape."""
    rule = scenario_of(state).rule
    if len(rule) != 2 or not rule.startswith("7"):
        return "7a2.2"
    return f"{rule}{2 if side == 'usa' else 3}"


def area_words(state: State, area: str) -> str:
    """A setup area in words: its name, and the hex rows it is made of when it is whole
    columns ("any hex east of the International Dateline (hex rows L through T)"), else
    its hexes."""
    hexes = area_hexes_of(state.scenario, area)
    columns = sorted({h[0] for h in hexes})
    rows = {h[1:] for h in hexes}
    whole = len(hexes) == len(columns) * len(rows)
    name = catalog().searchboard.area_names.get(area)
    if whole and len(columns) > 1:
        where = f"hex rows {columns[0]} through {columns[-1]}"
        return f"any hex {name} ({where})" if name else f"any hex of {where}"
    if len(hexes) <= 6:
        return f"area {area}: {', '.join(hexes)}"
    return f"any area {area} hex"


def _enter(state: State, out: list[Event]) -> None:
    state.waiting = list(SIDES)


def _finish(state: State, out: list[Event]) -> None:
    state.status = "playing"
    out.append(Event("game-started", ALL, state.turn, StepId.SETUP, {}))
    advance(state, out)


register(
    Step(
        name=StepId.SETUP,
        rule="7a",
        prompt="Set up: place your task forces and put your air units in Ready or Arming boxes",
        actions=_actions,
        handle=_handle,
        enter=_enter,
        finish=_finish,
        why=_why,
        owes=_owes,
        acts=WhoActs.AT_ONCE,  # 7a2.2: both sides set up, each on its own Searchboard
    )
)
