"""17a, 17c1, 17c2: what the players of a team game settle at setup.

17a: a force the side may give to either player (Task Force 1) goes to one of them.
17c1: the side names its overall commander ("the guy who gives the orders"); until it
does, the command the scenario marks is (scenarios/*.toml `[teams]`). Either player of
the side may name him while the side sets up; once play starts it stands.
17c2: each player names a flagship, an aircraft carrier or a battleship of his own,
known to his side and never to the enemy; he names one before he is done setting up.
All of it lives on the side's own Board, so the enemy learns none of it.
"""

from __future__ import annotations

from app.data import Scenario, catalog
from app.rules.base.setup import register_team_setup
from app.rules.base.units import ship_record
from app.rules.engine.actions import Action
from app.rules.engine.events import Event
from app.rules.engine.state import GONE, Side, State
from app.rules.modes import commands

FLAGSHIP_TYPES = frozenset({"CV", "CVL", "BB"})  # 17c2: "an aircraft carrier or a battleship"


def setup_actions(state: State, side: Side) -> list[Action]:
    """The team choices of the side's setup (each offered to its players by 17b)."""
    return [*_assignments(state, side), *_overalls(state, side), *_flagships(state, side)]


def owes(state: State, side: Side) -> list[Action]:
    """17c2: a flagship still to be named, by each player who has a ship to name."""
    named = state.boards[side].flagships
    return [a for a in _flagships(state, side) if _command_of_ship(state, side, a) not in named]


def handle(state: State, side: Side, action: Action, out: list[Event]) -> bool:
    """Apply a team choice; False when `action` is none."""
    board = state.boards[side]
    if action.kind == "assign":
        commands.assign(state, side, action.get("force"), action.get("command"))
    elif action.kind == "overall":
        board.overall = action.get("command")
    elif action.kind == "flagship":
        board.flagships[_command_of_ship(state, side, action)] = action.get("ship")
    else:
        return False
    return True


def scenario_of(state: State) -> Scenario:
    return catalog().scenarios[state.scenario]


def _command_of_ship(state: State, side: Side, action: Action) -> str:
    return commands.command_of(state.boards[side], action.get("ship"))


def _assignments(state: State, side: Side) -> list[Action]:
    """17a: a force the side gives to either of its players (Task Force 1), to the other."""
    teams = scenario_of(state).teams
    if teams is None:
        return []
    board = state.boards[side]
    return [
        Action("assign", (marker, c.id))
        for marker in teams.chosen[side]
        for c in teams.of(side)
        if board.force_commands.get(marker) != c.id
    ]


def _overalls(state: State, side: Side) -> list[Action]:
    """17c1: name another of the side's players the overall commander."""
    teams = scenario_of(state).teams
    if teams is None:
        return []
    board = state.boards[side]
    return [Action("overall", (c.id,)) for c in teams.of(side) if c.id != board.overall]


def _flagships(state: State, side: Side) -> list[Action]:
    """17c2: each player's aircraft carriers and battleships, but the one he has named."""
    board = state.boards[side]
    named = set(board.flagships.values())
    return [
        Action("flagship", (u.id,))
        for u in state.units[side].values()
        if u.ship and u.box != GONE and u.id not in named and ship_record(u).type in FLAGSHIP_TYPES
    ]


def flagship_lost(state: State, side: Side, command: str) -> bool:
    """17c2: "If a player's flagship is eliminated, that player may not send or receive
    messages for the rest of the game" (a player who never had one has none to lose)."""
    ship = state.boards[side].flagships.get(command)
    return ship is not None and state.units[side][ship].box == GONE


class _TeamSetup:
    """This module's part of setup, as app/rules/base/setup.py asks for it."""

    def setup_actions(self, state: State, side: Side) -> list[Action]:
        return setup_actions(state, side)

    def owes(self, state: State, side: Side) -> list[Action]:
        return owes(state, side)

    def handle(self, state: State, side: Side, action: Action, out: list[Event]) -> bool:
        return handle(state, side, action, out)


register_team_setup(_TeamSetup())
