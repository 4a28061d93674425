"""Who sits at the table: the modes' answers to the engine's `Table` (engine/play.py).

The seats and the side each plays (seats.py); with teams, the units each player commands
and so the part of his side's actions that is his (17a-b, commands.py), and a note that
goes to the teammate (17c3); the umpire's seat and what he does (18c, reports.py); who
hears of each event, as the mode says and, in an umpired team game, each command's
player of its own doings (2c, 18a: audiences.py, command_copies.py); take-back's record
of each action (1c, takeback.py); and whether a loss waits for the side to confirm it
(2c: the mode's hooks). Registered with the engine on import (`seat_at`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from app.rules.engine.actions import Action
from app.rules.engine.errors import IllegalAction
from app.rules.engine.events import Event
from app.rules.engine.play import Player, Umpiring, seat_at, step_actions
from app.rules.engine.state import Side, State
from app.rules.modes import hooks as mode_hooks
from app.rules.modes import reports, seats, takeback
from app.rules.modes.audiences import mode_of
from app.rules.modes.command_copies import heard_by, separate
from app.rules.modes.commands import ADDRESSED, deciders, offered


class _Umpire:
    """18c: the umpire's reports, messages and notes (reports.py)."""

    def actions(self, state: State) -> list[Action]:
        return reports.umpire_actions(state)

    def act(self, state: State, action: Action, out: list[Event]) -> None:
        reports.act(state, action, out)

    def refusal(self, state: State, action: Action) -> IllegalAction:
        return reports.refusal(state, action)


UMPIRE = _Umpire()


class Seats:
    """The engine's table, as the game's mode and teams seat it."""

    def player(self, state: State, seat: str) -> Player | None:
        return seats.seat_of(state, seat)

    def players(self, state: State, side: Side) -> Sequence[Player]:
        return seats.side_seats(state, side)

    def acting(self, state: State) -> list[str]:
        return seats.acting(state)

    def waiting_for(self, state: State, side: Side) -> list[str]:
        return seats.waiting_for(state, side)

    def share(self, state: State, player: Player, actions: Iterable[Action]) -> list[Action]:
        assert player.command is not None  # a team player's (17a)
        return offered(state, player.side, player.command, actions)

    def umpire(self, state: State, seat: str) -> Umpiring | None:
        return UMPIRE if seats.is_umpire(state, seat) else None

    def not_players(self, state: State, action: Action) -> IllegalAction | None:
        if action.kind not in reports.UMPIRE_KINDS:
            return None
        return IllegalAction(
            "18", f"{action.kind!r} is the umpire's: all information goes through him (18c)"
        )

    def not_his(self, state: State, player: Player, action: Action) -> IllegalAction | None:
        if action.kind in ADDRESSED and action.get("to") == player.id:
            return IllegalAction("17c3", "a note goes to your teammate, not to yourself")
        if player.command is None or action.template not in step_actions(state, player.side):
            return None
        owners = deciders(state, player.side, action) or frozenset()
        names = " and ".join(
            s.id for s in seats.side_seats(state, player.side) if s.command in owners
        )
        return IllegalAction(
            "17b",
            f"{action.text()!r} is not yours to take: a player controls only the units he "
            f"commands, and this is for {names}",
        )

    def heard(self, state: State, events: list[Event]) -> list[Event]:
        mode = mode_of(state.mode)
        heard = [_heard(mode.audience(e), e) for e in events]
        if separate(state):  # 18a: with teams, a command's doings to its player
            heard = [_heard(heard_by(state, e), e) for e in heard]
        return heard

    def keep(self, before: State, after: State, seat: str, events: list[Event]) -> None:
        takeback.record(before, after, seat, events)

    def asks_before_losses(self, state: State) -> bool:
        return mode_hooks.of(state).asks_before_losses(state)


def _heard(audience: str, event: Event) -> Event:
    return event if audience == event.audience else replace(event, audience=audience)


seat_at(Seats())
