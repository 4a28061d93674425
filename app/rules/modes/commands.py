"""17a, 17b: who commands which units in a team game, and whose each action is.

17a gives each of a side's two players a command: task forces (and the Midway base) with
the units set up in them (scenarios/*.toml `[teams]`). The assignment lives on the side's
own Board (`commands` by unit id, `force_commands` by task force marker), set up by
`set_up`; it changes only when the side reorganises a ship into another command's task
force (4e1) or gives a force chosen at setup to one of its players (17a: Task Force 1).

17b: "Players may only control the units that they command": `deciders` says which
commands may take an action - the command of the unit, ship, task force or air strike
it names, or, where it concerns units of both commands or none (the order of battles,
the free roll marker, a reorganisation across commands), the side's overall commander
(17c1). `offered` filters a side's actions down to one seat's. One seat a side commands
everything and is never filtered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.data import Scenario
from app.rules.board.boards import base_at, bases_of, ships_in
from app.rules.engine.actions import DONE, Action
from app.rules.engine.state import GONE, Board, Side, State
from app.rules.modes.audiences import mode_of
from app.rules.modes.seats import side_seats

# Action kinds and the field that names one of the acting side's own units.
OWN_UNIT: dict[str, str] = {
    "sortie": "unit",
    "route": "unit",
    "unroute": "unit",
    "spend": "unit",
    "ready": "unit",
    "arm": "unit",
    "launch": "unit",
    "max-strike": "unit",
    "cap": "unit",
    "create": "unit",
    "tow-out": "ship",
    "scuttle": "ship",
    "position": "unit",
    "target": "unit",
    "approach": "unit",
    "dogfight": "unit",
    "strafe": "unit",
    "hold": "unit",
    "intercept": "unit",
    "aa": "ship",
    "land": "unit",
    "stage": "unit",
    "patrol": "unit",
    "shadow": "unit",
    "advance": "ship",
    "turn": "ship",
    "torpedo": "ship",
    "gun": "ship",
    "breakoff": "ship",
    "flagship": "ship",
}
# Action kinds that name one of the acting side's task forces.
OWN_FORCE = frozenset({"place", "commit", "withhold", "move", "enter", "exit", "assign"})
# Decisions for the whole side (17c1: "the guy who gives the orders").
SIDE_WIDE = frozenset({"battle", "reroll", "accept", "submarine"})
# Decisions on a hex of the side's ships or air units (3d3, 3d5, 16a): with 18a's
# separate copies, each player with units there may take them, as neither knows the
# other is there too (RULES? 18a: not the overall commander's, as in 17c1).
BY_HEX = frozenset({"sea-search", "engage", "decline", "search"})
# Actions addressed to one of the side's players (`to`, a seat id), taken by the other.
ADDRESSED = frozenset({"radio"})
# What either player of the side may do (17c1: naming the overall commander at setup).
EITHER_PLAYER = frozenset({"overall"})


# ---------------------------------------------------------------- the assignment (17a)


def set_up(state: State, spec: Scenario) -> None:
    """17a: each command's task forces and their units, as the scenario lists them; the
    forces a side chooses at setup, and anything else, start with its overall commander."""
    assert spec.teams is not None
    for side, board in state.boards.items():
        commands = spec.teams.of(side)
        board.overall = next(c.id for c in commands if c.overall)
        units = state.units[side]
        given = [(c.id, c.forces, c.units) for c in commands]
        given += [(board.overall, spec.teams.chosen[side], ())]
        for command, markers, loose in given:
            for force in (f for f in spec.forces_of(side) if f.marker in markers):
                if force.area != "base":
                    board.force_commands[force.marker] = command
                for uid in (*force.ships, *force.air_ids()):
                    if uid in units:  # without 14, the F units are left out (7c)
                        board.commands[uid] = command
            for uid in loose:
                if uid in units:
                    board.commands[uid] = command
        for u in units.values():  # 7b4.2 fighters: their carrier's command
            if u.id not in board.commands:
                board.commands[u.id] = board.commands.get(u.area, board.overall)


def command_of(board: Board, uid: str) -> str:
    """The command of one of the side's units (a unit set up later: the overall's)."""
    return board.commands.get(uid, board.overall)


def inherit(state: State, side: Side, uid: str, parent: str) -> None:
    """15c1: a scout created from a parent air unit is commanded as its parent is."""
    if state.teams:
        board = state.boards[side]
        board.commands[uid] = command_of(board, parent)


def force_command(state: State, side: Side, marker: str) -> str:
    """The command of a task force marker: its own, else (a spare marker taking ships, 4e1)
    that of the ships in it, else the overall commander's."""
    board = state.boards[side]
    own = board.force_commands.get(marker)
    if own is not None:
        return own
    ships = {command_of(board, u.id) for u in ships_in(state, side, marker)}
    return ships.pop() if len(ships) == 1 else board.overall


def assign(state: State, side: Side, marker: str, command: str) -> None:
    """17a: a force chosen at setup (Task Force 1) goes to one of the side's players."""
    board = state.boards[side]
    board.force_commands[marker] = command
    for u in state.units[side].values():
        if u.area == marker or (u.area in _ships_of(state, side, marker) and not u.ship):
            board.commands[u.id] = command


def _ships_of(state: State, side: Side, marker: str) -> set[str]:
    return {u.id for u in state.units[side].values() if u.ship and u.area == marker}


def transferred(state: State, side: Side, ship: str, marker: str) -> None:
    """4e1: a ship moved into a task force is commanded with it (17c1 across commands)."""
    if state.teams:
        board = state.boards[side]
        target = board.force_commands.get(marker)
        if target is None:  # a spare marker: it takes the command of its first ship
            target = board.force_commands[marker] = command_of(board, ship)
        board.commands[ship] = target


# ---------------------------------------------------------------- whose action (17b)


def deciders(state: State, side: Side, action: Action) -> frozenset[str] | None:
    """The commands of `side` that may take `action` (17b); None: every seat ("done")."""
    if action == DONE:
        return None
    board = state.boards[side]
    if action.kind in SIDE_WIDE:
        return frozenset({board.overall})
    if action.kind in EITHER_PLAYER:
        return frozenset(board.commands.values()) | {board.overall}
    if action.kind == "transfer":
        return _transfer(state, side, action)
    if action.kind in ADDRESSED:  # 17c3: a note is its writer's, the addressee's teammate
        to = action.get("to")
        return frozenset(s.command for s in side_seats(state, side) if s.id != to and s.command)
    field = OWN_UNIT.get(action.kind)
    if field is not None:
        uid = action.get(field)
        return frozenset({command_of(board, uid)})
    if action.kind in OWN_FORCE:
        return frozenset({force_command(state, side, action.get("force"))})
    rule = INVOLVED.get(action.kind)
    units = rule(state, side, action) if rule is not None else ()
    held = {command_of(board, u) for u in units}
    if action.kind in BY_HEX and separate_copies(state):
        return frozenset(held)  # 18a: each player with ships there, unaware of the other
    return one_or_overall(board, held)


def separate_copies(state: State) -> bool:
    """18a with teams: an umpired team game, each player's copy his command's own
    (app/rules/modes/command_copies.py)."""
    return state.teams and not mode_of(state.mode).open_cards


def one_or_overall(board: Board, commands: set[str]) -> frozenset[str]:
    """A decision over units of one command is that command's; over both, the overall
    commander's (17c1)."""
    return frozenset(commands) if len(commands) == 1 else frozenset({board.overall})


def offered(state: State, side: Side, command: str, actions: Iterable[Action]) -> list[Action]:
    """17b: of the side's actions, those of `command`."""
    out = []
    for a in actions:
        who = deciders(state, side, a)
        if who is None or command in who:
            out.append(a)
    return out


def _transfer(state: State, side: Side, action: Action) -> frozenset[str]:
    """4e1 within a command is its own; across commands, the overall commander's (17c1)."""
    board = state.boards[side]
    ship = command_of(board, action.get("ship"))
    target = board.force_commands.get(action.get("force"), ship)
    return frozenset({ship}) if ship == target else frozenset({board.overall})


# -- the units an action concerns, where no field names one --------------------------------

Involved = Callable[[State, Side, Action], Iterable[str]]


def _group(state: State, side: Side, action: Action) -> list[str]:
    """3d2: the members of the air strike (and, combining, of the one it joins)."""
    groups = state.boards[side].groups
    names = [action.get("group")] + ([action.get("into")] if action.kind == "combine" else [])
    return [u for g in names for u in groups.get(g, [])]


def _searchers(state: State, side: Side, action: Action) -> list[str]:
    """3d3, 15a1.1: the air strikes that may search the hex."""
    board = state.boards[side]
    h = action.get("hex")
    return [u for g, at in board.may_search.items() if at == h for u in board.groups.get(g, [])]


def _in_hex(state: State, side: Side, action: Action) -> list[str]:
    """3d5, 16a: the side's ships in the hex (a task force's, or the base's)."""
    return _ships_in_hex(state, side, action.get("hex"))


def _ships_in_hex(state: State, side: Side, hex_: str) -> list[str]:
    board = state.boards[side]
    out = [u.id for m, h in board.forces.items() if h == hex_ for u in ships_in(state, side, m)]
    base = base_at(state, side, hex_)
    if base is not None:
        out.append(base.id)
    return out


def _reported(state: State, side: Side, action: Action) -> list[str]:
    """15a1.2: the ships in the hex whose number the side states."""
    report = state.boards[side].report
    return [] if report is None else _ships_in_hex(state, side, report.hex)


def _battle(state: State, side: Side, action: Action) -> list[str]:
    """4a-4d, 14: the side's units in the battle being fought."""
    b = state.battle
    if b is None:
        return []
    if side == b.attacker:
        return [*b.air, *b.escorts]
    return [*b.ships, *(c for c in b.caps if state.units[side][c].box != GONE)]


def _bombing(state: State, side: Side, action: Action) -> list[str]:
    """4d2: the air units bombing the target."""
    b = state.battle
    if b is None:
        return []
    return [a for a in b.air if b.targets.get(a) == action.get("target")]


def _anti_aircraft(state: State, side: Side, action: Action) -> list[str]:
    """4c: the ships of the anti-aircraft combat being formed."""
    return [] if state.battle is None else list(state.battle.aa_ships)


def _surface(state: State, side: Side, action: Action) -> list[str]:
    """16: the side's ships in the surface combat (or the bombardment) being fought."""
    rec = state.surface
    if rec is None:
        return []
    if rec.combat is not None:
        return list(rec.combat.ships[side])
    if rec.bombardment is not None:  # 16j: ships in stacks against the base unit
        if bases_of(state, side):
            return [u.id for u in bases_of(state, side)]
        return [u for stack in rec.bombardment.stacks.values() for u in stack]
    return []


INVOLVED: dict[str, Involved] = {
    "fly": _group,
    "orbit": _group,
    "combine": _group,
    "search": _searchers,
    "circle": _searchers,
    "sea-search": _in_hex,
    "engage": _in_hex,
    "decline": _in_hex,
    "report": _reported,
    "face": _battle,
    "formation": _battle,
    "attack": _battle,
    "bomb": _bombing,
    "fire": _anti_aircraft,
    "cancel": _anti_aircraft,
    "line": _surface,
    "surprise": _surface,
    "shift": _surface,
    "salvo": _surface,
    "bombard": _surface,
}
