"""The engine's public functions: legal_actions, apply, replay.

`apply` checks the action against `legal_actions`, refuses it with the rule that forbids
it, and otherwise works on a copy of the state: the step's handler, then "done" ends the
seat's part of the step, then steps with nothing to choose are passed automatically.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

# The step modules register themselves in STEPS on import.
from app.rules.base import (  # noqa: F401
    action_phase,
    air_attack,
    air_movement,
    air_return,
    battle,
    battle_setup,
    sequence,
    setup,
    victory,
)
from app.rules.base.setup import new_game
from app.rules.board.time_record import night
from app.rules.engine.actions import DONE, Action
from app.rules.engine.errors import IllegalAction
from app.rules.engine.events import Event
from app.rules.engine.memo import of as memo_of
from app.rules.engine.paths import PATHS
from app.rules.engine.state import Side, State
from app.rules.engine.steps import Step, StepId, check_registered, check_sequence, current
from app.rules.modes import hooks as mode_hooks
from app.rules.modes import reports, takeback
from app.rules.modes.audiences import mode_of
from app.rules.modes.command_copies import heard_by, separate
from app.rules.modes.commands import ADDRESSED, deciders, offered
from app.rules.modes.r17_teams import radio  # noqa: F401
from app.rules.modes.r18_umpired import scout_routes  # noqa: F401
from app.rules.modes.seats import Seat, is_umpire, seat_of, side_of_seat, side_seats
from app.rules.modes.seats import acting as acting  # the public name of who may act now
from app.rules.modes.seats import waiting_for as waiting_for
from app.rules.optional import (  # noqa: F401
    aircraft_damage,
    fighters,
    patrols,
    submarines,
    surface,
)

# Issue 33: the step modules imported, every step id has its step (each step registers
# under a step id). The names the rules' source gives steps are checked by
# tools/step_names.py, which the tests run.
check_registered()
# ... and the sequence of play goes on from every step, to registered steps only.
check_sequence()


def legal_actions(state: State, seat: str) -> list[Action]:
    """Every action `seat` may take now, in a stable sorted order."""
    return list(_offered(state, seat))


def _offered(state: State, seat: str) -> tuple[Action, ...]:
    """`legal_actions`, worked out once per state and seat: the engine never changes a
    state it has answered for (`apply` works on a copy), and a caller that asks for the
    choices and then takes one (the server's views, then the next action) asks twice."""
    memo = memo_of(state).offered
    acts = memo.get(seat)
    if acts is None and is_umpire(state, seat):
        # 18c: whenever he likes, nobody waits for him
        acts = memo[seat] = tuple(reports.umpire_actions(state))
    elif acts is None:
        who = seat_of(state, seat)
        found = [] if who is None or seat not in acting(state) else _seat_actions(state, who)
        acts = memo[seat] = in_order(found)
    return acts


def _remember(state: State, side: Side, acts: set[Action]) -> None:
    """The choices `_pass_automatically` found for the side it stopped at are the offered
    actions of each of its seats that commands the whole side."""
    memo = memo_of(state).offered
    for seat in acting(state):
        who = seat_of(state, seat)
        if who is not None and who.side == side and who.command is None:
            memo[seat] = in_order(acts)


def _seat_actions(state: State, who: Seat) -> list[Action]:
    """The side's actions; with teams, those for the units the seat commands (17b), and
    "done" once the seat has done its share of what the side must do first (17a)."""
    acts = current(state).actions(state, who.side)
    if who.command is None:
        return acts
    mine = offered(state, who.side, who.command, acts)
    if DONE not in acts and current(state).owes is not None and not _owes(state, who):
        mine.append(DONE)
    return mine


def _owes(state: State, who: Seat) -> bool:
    """Whether the seat still has its share of what its side must do before "done"."""
    owes = current(state).owes
    if owes is None or who.command is None:
        return False
    return bool(offered(state, who.side, who.command, owes(state, who.side)))


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
    if is_umpire(state, seat):
        return _umpire(state, seat, action)
    if action.kind in reports.UMPIRE_KINDS:
        raise IllegalAction(
            "18", f"{action.kind!r} is the umpire's: all information goes through him (18c)"
        )
    if action.kind in PATHS:
        return _path(state, seat, action)
    if action.template not in _offered(state, seat) or not action.is_written:
        raise refusal(state, seat, action)
    who = seat_of(state, seat)
    assert who is not None  # legal_actions is empty for anything but a seat of the game
    nxt = state.clone()
    out: list[Event] = []
    _take(nxt, who, action, out)
    return _after(state, nxt, seat, out)


def _path(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    """Issue 30: a move by destination (app/rules/engine/paths.py) is its single steps, each one
    of the seat's legal actions as it is taken, taken one after the other as one action."""
    path = PATHS[action.kind]
    subject, to = action.values
    who = seat_of(state, seat)
    if who is None or seat not in acting(state) or state.step != path.in_step:
        raise refusal(state, seat, action)  # not its move, or not the step for it
    way = path.reach(state, who.side, subject).get(to)
    if way is None:
        rule, message = path.why(state, who.side, action)
        raise IllegalAction(rule, f"{action.text()!r} is not legal now: {message}")
    nxt = state.clone()
    out: list[Event] = []
    for i, h in enumerate(way):
        step = Action(path.step, (subject, h))
        offered = _seat_actions(nxt, who) if nxt.step == state.step else []
        if step not in offered:
            if i and not any(a.kind == path.step and a.values[0] == subject for a in offered):
                break  # 15b1: chance ended the flight (the scout shot down) - it stops here
            raise refusal(nxt, seat, step)
        _take(nxt, who, step, out)
    return _after(state, nxt, seat, out)


def _after(state: State, nxt: State, seat: str, out: list[Event]) -> tuple[State, list[Event]]:
    """The steps passed for the seats, each event told as the game's mode says, the
    action recorded for take-back."""
    stopped = _pass_automatically(nxt, out)
    mode = mode_of(state.mode)
    heard = [_heard(mode.audience(e), e) for e in out]
    if separate(nxt):  # 18a: with teams, a command's doings to its player
        heard = [_heard(heard_by(nxt, e), e) for e in heard]
    takeback.record(state, nxt, seat, heard)
    if stopped is not None:
        _remember(nxt, *stopped)
    return nxt, heard


def _umpire(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    """18c: one action of the umpire (app/rules/modes/reports.py): reports, messages, notes."""
    if action.template not in _offered(state, seat) or not action.is_written:
        raise reports.refusal(state, action)
    nxt = state.clone()
    out: list[Event] = []
    reports.act(nxt, action, out)
    takeback.record(state, nxt, seat, out)
    return nxt, out


def _heard(audience: str, event: Event) -> Event:
    return event if audience == event.audience else replace(event, audience=audience)


def _take(state: State, who: Seat, action: Action, out: list[Event]) -> None:
    step = current(state)
    side = who.side
    if action != DONE:
        step.handle(state, side, action, out)
        if state.teams and state.done:
            _owing_undone(state, side)
        return
    if state.teams:
        state.done.append(who.id)
        if any(s.id not in state.done for s in side_seats(state, side)):
            return  # 17a: the side is done with the step when each of its players is
        _undone(state, side)
    _side_done(state, side, step, action, out)


def step_actions(state: State, side: Side) -> list[Action]:
    """Everything the side may do now, whichever of its seats may do it."""
    return current(state).actions(state, side)


def _owing_undone(state: State, side: Side) -> None:
    """A player who was done and now owes the side something again is no longer done (a
    step without "done", as the free roll's, has everyone of the side act again)."""
    acts = step_actions(state, side)
    for s in side_seats(state, side):
        if s.id in state.done and (
            _owes(state, s) or (DONE not in acts and current(state).owes is None)
        ):
            state.done.remove(s.id)


def _undone(state: State, side: str) -> None:
    state.done = [d for d in state.done if side_of_seat(d) != side]


def _side_done(state: State, side: Side, step: Step, action: Action, out: list[Event]) -> None:
    """The side's part of the step is over: "done" for the whole side."""
    if step.on_done is not None:
        step.on_done(state, side, action, out)
    state.waiting.remove(side)
    if not state.waiting:
        step.finish(state, out)


def _pass_automatically(state: State, out: list[Event]) -> tuple[Side, set[Action]] | None:
    """Take a side's only choice for it: "done", or a lone battle or bombing combat; with
    teams, also "done" for each of its seats that has nothing else to do. Returns the side
    it stopped at with its choices, when nothing changed after they were worked out."""
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
        elif step.always_asks or not _seats_pass(state, side, out):
            return None
    return None


# 3a1: "No air units may fly during night Turns" - the steps of the air units alone, which
# in the umpired modes both sides do at once (18c1, 18c3).
NIGHT_PASSED = frozenset({StepId.ASSEMBLY, StepId.SCOUT_ROUTES, StepId.AIR_RETURN})


def _pass_at_night(state: State, out: list[Event]) -> bool:
    """Issue 30: a step both sides do at once asks nobody at night when it is one of the
    air units' alone (3a1), and every side waiting has nothing but "done" to do: each is
    passed, its log saying so. Night is known to all, so the pass tells no side anything
    of the other's; where some side has something to do (RULES? a unit still in the air
    at night under an option), every side is asked as before. True when it passed."""
    step = current(state)
    if state.step not in NIGHT_PASSED or not night(state):
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
        and mode_hooks.of(state).asks_before_losses(state)
        and bool(step.lost_if_done(state, side))
    )


def _skipped(state: State, side: Side, step: Step) -> Event:
    """Issue 13: a step the side had nothing to do in is passed for it, and its log says
    so (told to the side only: what it had to do is its own business)."""
    data = {"side": side, "rule": step.rule}
    return Event("step-skipped", side, state.turn, step.name, data)


def _seats_pass(state: State, side: Side, out: list[Event]) -> bool:
    """17a: mark done each seat of the side with nothing but "done" to do; True when that
    finished the side's part of the step."""
    seats = [s for s in side_seats(state, side) if s.id not in state.done]
    idle = [s for s in seats if sorted(set(_seat_actions(state, s))) == [DONE]]
    if not idle:
        return False
    if len(idle) < len(seats):
        state.done += [s.id for s in idle]
        return False
    _undone(state, side)
    _side_done(state, side, current(state), DONE, out)
    return True


def refusal(state: State, seat: str, action: Action) -> IllegalAction:
    if state.status == "finished":
        return IllegalAction("7a3", "the game is over")
    who = seat_of(state, seat)
    if who is None:
        return IllegalAction("2a", f"{seat[:32]!r} is not a seat of this game")
    step: Step = current(state)
    if seat not in acting(state):
        who_acts = " and ".join(waiting_for(state, who.side)) or "nobody"
        return IllegalAction(
            "3", f"it is not your move: the {state.step} step waits for {who_acts}"
        )
    if not action.is_written and action.template in _offered(state, seat):
        return IllegalAction(step.rule, f"{action.kind!r} needs its text written")
    if action.kind in ADDRESSED and action.get("to") == seat:
        return IllegalAction("17c3", "a note goes to your teammate, not to yourself")
    if who.command is not None and action.template in step_actions(state, who.side):
        owners = deciders(state, who.side, action) or frozenset()
        names = " and ".join(s.id for s in side_seats(state, who.side) if s.command in owners)
        return IllegalAction(
            "17b",
            f"{action.text()!r} is not yours to take: a player controls only the units he "
            f"commands, and this is for {names}",
        )
    reason = step.why(state, who.side, action)
    if reason is not None:
        rule, message = reason
        return IllegalAction(rule, f"{action.text()!r} is not legal now: {message}")
    return IllegalAction(step.rule, f"{action.text()!r} is not an action of the {state.step} step")


def replay(
    scenario: str,
    options: Iterable[str],
    seed: int,
    log: Iterable[tuple[str, Mapping[str, object]]],
    mode: str = "two-player",
    teams: bool = False,
) -> tuple[State, list[Event]]:
    """Rebuild a game from its creation record and action log."""
    state = new_game(scenario, frozenset(options), seed, mode, teams)
    events: list[Event] = []
    for seat, action in log:
        state, out = apply(state, seat, action)
        events += out
    return state, events
