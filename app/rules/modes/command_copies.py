"""18a with teams: each player's copy shows his own command, not his side's.

18a: "each side or player must have a copy of the game"; 18b: "the other copies display
only one side or player's counters". In an umpired team game (17a) a player's copy shows
the counters of his own command: its task forces on his Searchboard, its flying air
units, its part of the Operations Card. Of his teammate he knows what the radio brings
(17c) and what the umpire reports to the side: spotting reports go to every player of
the side (18c1), and so do the umpire's reports of damage (18c2) and a combat's result on
the side's units. Everything else an event tells of one command's unit or task force
goes to that command's player only (`heard_by`). The assignment itself (who commands
which task force, who is the overall commander) is known to both players (17a, 17c1).
"""

from __future__ import annotations

from typing import Any

from app.rules.board.boards import ships_in
from app.rules.engine.events import Event
from app.rules.engine.state import SIDES, Side, State, Unit
from app.rules.modes import commands  # a module: commands -> surface -> battle -> this one
from app.rules.modes.seats import Seat, side_seats

# 18c1, 18c2: reports to the side, every player of it.
SIDE_REPORTS = frozenset({"search", "damage-report"})


def separate(state: State) -> bool:
    """An umpired team game: each player's copy is his command's (18a)."""
    return commands.separate_copies(state)


def heard_by(state: State, event: Event) -> str:
    """The audience of an event heard by a side, in an umpired team game: the player who
    commands the unit or task force it tells of; the side for the umpire's reports, a
    combat's results, and anything of neither command."""
    side = next((x for x in SIDES if x == event.audience), None)
    data = event.data
    if side is None or event.kind in SIDE_REPORTS or "outcome" in data:
        return event.audience
    board = state.boards[side]
    if isinstance(data.get("unit"), str) and data["unit"] in state.units[side]:
        command = commands.command_of(board, data["unit"])
    elif isinstance(data.get("force"), str) and data["force"] in board.forces:
        command = commands.force_command(state, side, data["force"])
    else:
        return event.audience
    seat = next((s.id for s in side_seats(state, side) if s.command == command), None)
    return event.audience if seat is None else seat


def within_command(state: State, u: Unit, carrier: Unit) -> bool:
    """Whether `u` may land or stage on `carrier` as far as 18a goes: in an umpired team
    game only on a ship or base of its own command. RULES? 18a: a player's copy shows his
    own command's counters only, so he cannot know where his teammate's carriers are, nor
    how full; a landing offered there would tell him (17c: he learns it by radio only)."""
    if not separate(state):
        return True
    board = state.boards[u.side]
    return commands.command_of(board, u.id) == commands.command_of(board, carrier.id)


def same_command(state: State, side: Side, uid: str, marker: str) -> bool:
    """4e1 with 18a: in an umpired team game a ship joins only a task force of its own
    command - RULES? a teammate's task force in the hex is out of his sight (18a)."""
    if not separate(state):
        return True
    board = state.boards[side]
    if marker not in board.force_commands and not ships_in(state, side, marker):
        return True  # a spare marker, commanded as its first ship is (4e1, 17a)
    return commands.force_command(state, side, marker) == commands.command_of(board, uid)


def strike_suffix(state: State, u: Unit) -> str:
    """3d2 with 18a: in an umpired team game each player's air units from a hex form his
    own air strike - RULES? one strike per hex and command, as he cannot see his
    teammate's units there."""
    return f"-{commands.command_of(state.boards[u.side], u.id)}" if separate(state) else ""


def same_strike_command(state: State, side: Side, one: list[str], two: list[str]) -> bool:
    """13a2 with 18a: strikes combine only within a command (RULES? as `strike_suffix`)."""
    if not separate(state):
        return True
    board = state.boards[side]
    return {commands.command_of(board, u) for u in [*one, *two]} == {
        commands.command_of(board, one[0])
    }


def own_card(state: State, who: Seat, card: dict[str, Any]) -> dict[str, Any]:
    """18a: the part of the side's Operations Card that is the seat's command's."""
    board = state.boards[who.side]

    def mine(uid: str) -> bool:
        return commands.command_of(board, uid) == who.command

    def ours(marker: str) -> bool:
        return commands.force_command(state, who.side, marker) == who.command

    return {
        "forces": [
            f
            for f in card["forces"]
            if commands.force_command(state, who.side, f["force"]) == who.command
        ],
        "carriers": [c for c in card["carriers"] if mine(c["id"])],
        "midway_strike": [u for u in card["midway_strike"] if mine(u)],
        "flying": [u for u in card["flying"] if mine(u)],
        "eliminated": [v for v in card["eliminated"] if mine(v["id"])],
        "units": {uid: v for uid, v in card["units"].items() if mine(uid)},
    }


def own_board(state: State, who: Seat, board_view: dict[str, Any]) -> dict[str, Any]:
    """18a: the seat's Searchboard, field by field from its side's - its command's task
    forces, flying units and routes; the side's searches and spotting reports (18c1), its
    notes of forces to enter (7c4.2) and who commands what (17a)."""
    board = state.boards[who.side]

    def mine(uid: str) -> bool:
        return commands.command_of(board, uid) == who.command

    groups = {g: [u for u in members if mine(u)] for g, members in board_view["groups"].items()}
    over = board_view["over"]
    return {
        "forces": {
            m: h
            for m, h in board_view["forces"].items()
            if commands.force_command(state, who.side, m) == who.command
        },
        "flying": {u: f for u, f in board_view["flying"].items() if mine(u)},
        "groups": {g: members for g, members in groups.items() if members},
        "routes": {u: r for u, r in board_view["routes"].items() if mine(u)},
        "over": over if over is not None and mine(over) else None,
        "searched": board_view["searched"],
        "sea_searched": board_view["sea_searched"],
        "committed": board_view["committed"],
        "midway_control_turns": board_view["midway_control_turns"],
        "spotted": board_view["spotted"],
        "commands": board_view["commands"],
    }


def own_prompt(state: State, who: Seat, prompt: dict[str, Any]) -> dict[str, Any]:
    """18a: of the side's air units lost if it says Done (5), the seat's command's."""
    board = state.boards[who.side]
    lost = [
        x for x in prompt["lost_if_done"] if commands.command_of(board, x["unit"]) == who.command
    ]
    return {**prompt, "lost_if_done": lost}
