"""Playing a game: legal_actions, apply, replay (the facade gives them).

`apply` checks the action against `legal_actions`, refuses it with the rule that forbids
it, and otherwise works on a copy of the state: the step's handler, then "done" ends the
player's part of the step, then steps with nothing to choose are passed automatically.

Who sits at the table is not the engine's to say: the seats, which side each plays and
which of its units it commands (17a-b), a seat that plays no side (18: the umpire), who
hears of each event (2c, 18a) and what take-back keeps (1c) are the modes'. They give the
engine a `Table` (modes/table.py, registered by `seat_at`). What the engine knows of it:
a side may have several players, each done with a step on his own, and the side is done
with it when every one of them is (17a).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from app.rules.engine.actions import DONE, Action
from app.rules.engine.errors import IllegalAction
from app.rules.engine.events import Event
from app.rules.engine.memo import of as memo_of
from app.rules.engine.paths import PATHS
from app.rules.engine.state import Side, State
from app.rules.engine.steps import Step, current


class Player(Protocol):
    """A seat that plays a side: all of it (`command` None), or one command (17a)."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> Side: ...
    @property
    def command(self) -> str | None: ...


class Umpiring(Protocol):
    """18c: the seat that plays no side: what it may do, does, and why not."""

    def actions(self, state: State) -> list[Action]: ...
    def act(self, state: State, action: Action, out: list[Event]) -> None: ...
    def refusal(self, state: State, action: Action) -> IllegalAction: ...


class Table(Protocol):
    """Who sits at the table, as the game's mode and teams say (modes/table.py)."""

    def player(self, state: State, seat: str) -> Player | None:
        """The seat's player; None for a seat that plays no side, or no seat of the game."""
        ...

    def players(self, state: State, side: Side) -> Sequence[Player]:
        """The side's players (17a: two with teams)."""
        ...

    def acting(self, state: State) -> list[str]:
        """The seats that may act now."""
        ...

    def waiting_for(self, state: State, side: Side) -> list[str]:
        """Whom the game waits for, as the side may know it."""
        ...

    def share(self, state: State, player: Player, actions: Iterable[Action]) -> list[Action]:
        """17b: of the side's actions, those of the units the player commands."""
        ...

    def umpire(self, state: State, seat: str) -> Umpiring | None:
        """18c: the seat's umpiring, None for any other seat."""
        ...

    def not_players(self, state: State, action: Action) -> IllegalAction | None:
        """Why no player may take an action of this kind (18c: the umpire's own)."""
        ...

    def not_his(self, state: State, player: Player, action: Action) -> IllegalAction | None:
        """Why a player may not take a legal action of his side (17b, 17c3)."""
        ...

    def heard(self, state: State, events: list[Event]) -> list[Event]:
        """Each event with the audience the game's mode gives it (2c, 18a)."""
        ...

    def keep(self, before: State, after: State, seat: str, events: list[Event]) -> None:
        """An action taken: what take-back needs of it (1c)."""
        ...

    def asks_before_losses(self, state: State) -> bool:
        """Whether "done" that loses a side units waits for the side to confirm it (5, 2c)."""
        ...


# The modes' table: `app.rules` seats it on import (app/rules/game.py imports modes/table.py).
_TABLE: list[Table] = []


def seat_at(table: Table) -> None:
    """The table the engine plays by (modes/table.py seats it once, on import)."""
    _TABLE[:] = [table]


def legal_actions(state: State, seat: str) -> list[Action]:
    """Every action `seat` may take now, in a stable sorted order."""
    return list(offered(state, seat))


def offered(state: State, seat: str) -> tuple[Action, ...]:
    """`legal_actions`, worked out once per state and seat: the engine never changes a
    state it has answered for (`apply` works on a copy), and a caller that asks for the
    choices and then takes one (the server's views, then the next action) asks twice."""
    memo = memo_of(state).offered
    acts = memo.get(seat)
    if acts is not None:
        return acts
    t = _TABLE[0]
    umpire = t.umpire(state, seat)
    if umpire is not None:
        acts = memo[seat] = tuple(umpire.actions(state))  # 18c: whenever he likes
        return acts
    who = t.player(state, seat)
    found = [] if who is None or seat not in t.acting(state) else player_actions(state, who)
    acts = memo[seat] = in_order(found)
    return acts


def _remember(state: State, side: Side, acts: set[Action]) -> None:
    """The choices `_pass_automatically` found for the side it stopped at are the offered
    actions of each of its players that commands the whole side."""
    memo = memo_of(state).offered
    t = _TABLE[0]
    for seat in t.acting(state):
        who = t.player(state, seat)
        if who is not None and who.side == side and who.command is None:
            memo[seat] = in_order(acts)


def player_actions(state: State, who: Player) -> list[Action]:
    """The side's actions; with teams, those for the units the player commands (17b), and
    "done" once he has done his share of what the side must do first (17a)."""
    acts = current(state).actions(state, who.side)
    if who.command is None:
        return acts
    mine = _TABLE[0].share(state, who, acts)
    if DONE not in acts and current(state).owes is not None and not _owes(state, who):
        mine.append(DONE)
    return mine


def _owes(state: State, who: Player) -> bool:
    """Whether the player still has his share of what his side must do before "done"."""
    owes = current(state).owes
    if owes is None or who.command is None:
        return False
    return bool(_TABLE[0].share(state, who, owes(state, who.side)))


def in_order(actions: Iterable[Action]) -> tuple[Action, ...]:
    """The actions, each once, in the offered order: by kind, then by values.

    Grouped by kind, each kind's actions keyed by their values: the values are tuples of
    strings, hashed and compared in C, while an action's own hash and equality are Python
    (a dataclass's) and a sort key of (kind, values) compares two tuples deep. Sorting a
    set of a few hundred set-up choices by that key took 115 us; this takes 45 us, and
    the lists of a game's first actions 12 us on average against 36."""
    by_kind: dict[str, dict[tuple[str, ...], Action]] = {}
    for action in actions:
        kind = by_kind.get(action.kind)
        if kind is None:
            kind = by_kind[action.kind] = {}
        kind[action.values] = action
    out: list[Action] = []
    for name in sorted(by_kind):
        kind = by_kind[name]
        out.extend([kind[values] for values in sorted(kind)])
    return tuple(out)


def apply(
    state: State, seat: str, action: Action | Mapping[str, object]
) -> tuple[State, list[Event]]:
    """Apply one action of `seat`; returns the next state and what happened, each event
    with the audience the game's mode gives it (app/rules/modes/audiences.py)."""
    if not isinstance(action, Action):
        action = Action.from_json(action)
    t = _TABLE[0]
    umpire = t.umpire(state, seat)
    if umpire is not None:
        return _umpire(state, seat, umpire, action)
    refused = t.not_players(state, action)
    if refused is not None:
        raise refused
    if action.kind in PATHS:
        return _path(state, seat, action)
    if action.template not in offered(state, seat) or not action.is_written:
        raise refusal(state, seat, action)
    who = t.player(state, seat)
    assert who is not None  # legal_actions is empty for anything but a player of the game
    nxt = state.clone()
    out: list[Event] = []
    _take(nxt, who, action, out)
    return _after(state, nxt, seat, out)


def _path(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    """Issue 30: a move by destination (app/rules/engine/paths.py) is its single steps, each one
    of the seat's legal actions as it is taken, taken one after the other as one action."""
    path = PATHS[action.kind]
    subject, to = action.values
    t = _TABLE[0]
    who = t.player(state, seat)
    if who is None or seat not in t.acting(state) or state.step != path.in_step:
        raise refusal(state, seat, action)  # not its move, or not the step for it
    way = path.reach(state, who.side, subject).get(to)
    if way is None:
        rule, message = path.why(state, who.side, action)
        raise IllegalAction(rule, f"{action.text()!r} is not legal now: {message}")
    nxt = state.clone()
    out: list[Event] = []
    for i, h in enumerate(way):
        step = Action(path.step, (subject, h))
        choices = player_actions(nxt, who) if nxt.step == state.step else []
        if step not in choices:
            if i and not any(a.kind == path.step and a.values[0] == subject for a in choices):
                break  # 15b1: chance ended the flight (the scout shot down) - it stops here
            raise refusal(nxt, seat, step)
        _take(nxt, who, step, out)
    return _after(state, nxt, seat, out)


def _after(state: State, nxt: State, seat: str, out: list[Event]) -> tuple[State, list[Event]]:
    """The steps passed for the players, each event told as the game's mode says, the
    action recorded for take-back."""
    stopped = _pass_automatically(nxt, out)
    t = _TABLE[0]
    heard = t.heard(nxt, out)
    t.keep(state, nxt, seat, heard)
    if stopped is not None:
        _remember(nxt, *stopped)
    return nxt, heard


def _umpire(state: State, seat: str, umpire: Umpiring, action: Action) -> tuple[State, list[Event]]:
    """18c: one action of the umpire (app/rules/modes/reports.py): reports, messages, notes."""
    if action.template not in offered(state, seat) or not action.is_written:
        raise umpire.refusal(state, action)
    nxt = state.clone()
    out: list[Event] = []
    umpire.act(nxt, action, out)
    _TABLE[0].keep(state, nxt, seat, out)
    return nxt, out


def _take(state: State, who: Player, action: Action, out: list[Event]) -> None:
    step = current(state)
    side = who.side
    if action != DONE:
        step.handle(state, side, action, out)
        if state.teams and state.done:
            _owing_undone(state, side)
        return
    if state.teams:
        state.done.append(who.id)
        if any(p.id not in state.done for p in _TABLE[0].players(state, side)):
            return  # 17a: the side is done with the step when each of its players is
        _undone(state, side)
    _side_done(state, side, step, action, out)


def step_actions(state: State, side: Side) -> list[Action]:
    """Everything the side may do now, whichever of its players may do it."""
    return current(state).actions(state, side)


def _owing_undone(state: State, side: Side) -> None:
    """A player who was done and now owes the side something again is no longer done (a
    step without "done", as the free roll's, has everyone of the side act again)."""
    acts = step_actions(state, side)
    for p in _TABLE[0].players(state, side):
        if p.id in state.done and (
            _owes(state, p) or (DONE not in acts and current(state).owes is None)
        ):
            state.done.remove(p.id)


def _undone(state: State, side: Side) -> None:
    """None of the side's players is done any more (the side's part of a step is over)."""
    if not state.done:
        return
    ids = {p.id for p in _TABLE[0].players(state, side)}
    state.done = [d for d in state.done if d not in ids]


def _side_done(state: State, side: Side, step: Step, action: Action, out: list[Event]) -> None:
    """The side's part of the step is over: "done" for the whole side."""
    if step.on_done is not None:
        step.on_done(state, side, action, out)
    state.waiting.remove(side)
    if not state.waiting:
        step.finish(state, out)


def _pass_automatically(state: State, out: list[Event]) -> tuple[Side, set[Action]] | None:
    """Take a side's only choice for it: "done", or a lone battle or bombing combat; with
    teams, also "done" for each of its players who has nothing else to do. Returns the
    side it stopped at with its choices, when nothing changed after they were worked out."""
    while state.status != "finished" and state.waiting:
        if state.simultaneous:
            if not _pass_at_night(state, out):
                return None
            continue
        side = state.waiting[0]
        step = current(state)
        acts = set(step_actions(state, side))
        only = next(iter(acts)) if len(acts) == 1 else None
        if only == DONE and _loses(state, side, step):
            # issue 13: the player confirms the loss himself
            return None if state.teams else (side, acts)
        if only is not None and ((only == DONE and not step.always_asks) or only.kind in step.auto):
            if only == DONE:
                _undone(state, side)
                out.append(_skipped(state, side, step))
                _side_done(state, side, step, only, out)
            else:
                step.handle(state, side, only, out)
        elif not state.teams:
            return side, acts
        elif step.always_asks or not _players_pass(state, side, out):
            return None
    return None


def _pass_at_night(state: State, out: list[Event]) -> bool:
    """Issue 30: a step both sides do at once asks nobody when the step says it is idle
    (3a1: at night, the air units' steps), and every side waiting has nothing but "done"
    to do: each is passed, its log saying so. Night is known to all, so the pass tells no
    side anything of the other's; where some side has something to do (RULES? a unit
    still in the air at night under an option), every side is asked as before. True when
    it passed."""
    step = current(state)
    if step.idle_when is None or not step.idle_when(state):
        return False
    if any(set(step_actions(state, side)) != {DONE} for side in state.waiting):
        return False
    for side in list(state.waiting):
        _undone(state, side)
        out.append(_skipped(state, side, step))
        _side_done(state, side, step, DONE, out)
    return True


def _loses(state: State, side: Side, step: Step) -> bool:
    """Whether "done" now loses the side units it can see going (5: air units that cannot
    land): then it is not taken for the side. Only where the Operations Cards are open
    (2c): with them private (18c) the wait would tell the enemy of the loss."""
    return (
        step.lost_if_done is not None
        and _TABLE[0].asks_before_losses(state)
        and bool(step.lost_if_done(state, side))
    )


def _skipped(state: State, side: Side, step: Step) -> Event:
    """Issue 13: a step the side had nothing to do in is passed for it, and its log says
    so (told to the side only: what it had to do is its own business)."""
    data = {"side": side, "rule": step.rule}
    return Event("step-skipped", side, state.turn, step.name, data)


def _players_pass(state: State, side: Side, out: list[Event]) -> bool:
    """17a: mark done each player of the side with nothing but "done" to do; True when
    that finished the side's part of the step."""
    left = [p for p in _TABLE[0].players(state, side) if p.id not in state.done]
    idle = [p for p in left if sorted(set(player_actions(state, p))) == [DONE]]
    if not idle:
        return False
    if len(idle) < len(left):
        state.done += [p.id for p in idle]
        return False
    _undone(state, side)
    _side_done(state, side, current(state), DONE, out)
    return True


def refusal(state: State, seat: str, action: Action) -> IllegalAction:
    """Why `seat` may not take `action` now, naming the rule."""
    if state.status == "finished":
        return IllegalAction("7a3", "the game is over")
    t = _TABLE[0]
    who = t.player(state, seat)
    if who is None:
        return IllegalAction("2a", f"{seat[:32]!r} is not a seat of this game")
    step: Step = current(state)
    if seat not in t.acting(state):
        who_acts = " and ".join(t.waiting_for(state, who.side)) or "nobody"
        return IllegalAction(
            "3", f"it is not your move: the {state.step} step waits for {who_acts}"
        )
    if not action.is_written and action.template in offered(state, seat):
        return IllegalAction(step.rule, f"{action.kind!r} needs its text written")
    not_his = t.not_his(state, who, action)
    if not_his is not None:
        return not_his
    reason = step.why(state, who.side, action)
    if reason is not None:
        rule, message = reason
        return IllegalAction(rule, f"{action.text()!r} is not legal now: {message}")
    return IllegalAction(step.rule, f"{action.text()!r} is not an action of the {state.step} step")


def replay(
    state: State, log: Iterable[tuple[str, Mapping[str, object]]]
) -> tuple[State, list[Event]]:
    """A game rebuilt from its state at creation and its action log."""
    events: list[Event] = []
    for seat, action in log:
        state, out = apply(state, seat, action)
        events += out
    return state, events
