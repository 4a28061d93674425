"""The sequence of play (2b) as data: a table of named steps, and what comes after each.

Each step has the rule it implements, the seats it waits for, its legal actions, its
handler, and what finishing it does. Modules register their steps here; `play` drives them.
"Side B first, then Side A" (3) is `b_then_a`; a step both sides perform at once in the
umpired modes (18c1, 18c3), or always, says so (`acts`, `WhoActs`), and `goto`
applies it. A step is registered under its id (`StepId`), every id has its step (checked when the
engine is imported), and every step the rules name is a registered one
(tools/step_names.py, run by the tests); no step is named by its words outside this table
(tests/rules/engine/test_issue_33_step_ids.py).

What comes after each step is the game family's sequence of play (app/rules/base/
sequence.py, and a procedure's own: optional/surface/sequence.py), given here with
`follow` and checked on import (`check_sequence`): a step that is over says `advance`,
and the sequence says where the game goes - `goto` a step, `call` a procedure (whose
`end` comes back to its caller: the callers are kept in the state, `State.calls`),
`end` one, or end the game (`GameOver`, 7a3). No step module goes to a step by name
(tests/rules/engine/test_issue_33_sequence.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Final

from app.rules.engine.actions import Action
from app.rules.engine.events import Event
from app.rules.engine.state import Caller, Side, State


class StepId(StrEnum):
    """The steps of the sequence of play (2b) and of the options' procedures, in their
    order, by the names the rulebooks give them: each module registers its steps under
    these, and no other (each step declares its own rule)."""

    SETUP = "setup"
    SIDES = "sides"
    RADIO = "radio"
    ASSEMBLY = "assembly"
    READY = "ready"
    SHADOWING = "shadowing"
    SEA_MOVEMENT = "sea movement"
    SCOUT_ROUTES = "scout routes"
    SCOUTING = "scouting"
    AIR_MOVEMENT_AND_SEARCH = "air movement and search"
    SEARCH_REPORT = "search report"
    COMBAT = "combat"
    BATTLE_SETUP = "battle setup"
    STRIKE_ORDER = "strike order"
    AIR_ATTACK_SETUP = "air attack setup"
    CAP_SETUP = "cap setup"
    ESCORT_SETUP = "escort setup"
    AIR_COMBAT = "air combat"
    BREAKTHROUGHS = "breakthroughs"
    ANTI_AIRCRAFT_COMBAT = "anti-aircraft combat"
    BOMBING_COMBAT = "bombing combat"
    FREE_ROLL = "free roll"
    REORGANIZATION = "reorganization"
    AIRCRAFT_DAMAGE = "aircraft damage"
    AIR_RETURN = "air return"
    SUBMARINE_ATTACK = "submarine attack"
    TURN_RECORD = "turn record"
    SURFACE_CONTACT = "surface contact"
    SURFACE_SETUP = "surface setup"
    SURFACE_SIDES = "surface sides"
    SURPRISE = "surprise"
    SURFACE_MOVEMENT = "surface movement"
    TORPEDO_FIRE = "torpedo fire"
    GUNNERY = "gunnery"
    TORPEDO_COMBAT = "torpedo combat"
    BREAKOFF = "breakoff"
    BOMBARDMENT = "bombardment"


# A finished game's step (7a3): no step is registered under it, and no id names it (every
# id has its step). Stored, like the ids, as its words.
FINISHED: Final = "finished"


class UnknownStep(LookupError):
    """A step registered under a name that is no step id, or a step id with no step."""


class WhoActs(Enum):
    """Who acts in a step: its seats in turn, or every waiting side's at once."""

    B_THEN_A = "3"  # "Side B performs each step first, then Side A"
    # 18c1: "The players on both sides should then perform all other activities in the
    # Action Phase simultaneously, except for moving air strikes"; 18c3: "Players can
    # handle their Air Return and Turn Record Phases simultaneously"
    AT_ONCE_WHEN_UMPIRED = "18c1, 18c3"
    # both at once whatever the mode: each side's own procedure, which the other's does
    # not wait on (7a2.2 the setup, 17c3 the radio notes, 18c1 the scouts' routes)
    AT_ONCE = "7a2.2, 17c3, 18c1"


Actions = Callable[[State, Side], list[Action]]
Handler = Callable[[State, Side, Action, list[Event]], None]
Hook = Callable[[State, list[Event]], None]
Why = Callable[[State, Side, Action], tuple[str, str] | None]


def nothing(state: State, out: list[Event]) -> None:
    """A hook with nothing to do."""
    return None


def _no_actions(state: State, side: Side) -> list[Action]:
    return []


def _no_handler(state: State, side: Side, action: Action, out: list[Event]) -> None:
    return None


def _no_reason(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return None


@dataclass(frozen=True)
class Step:
    name: StepId  # in the rulebook's words: StepId.ASSEMBLY is "assembly", ...
    rule: str  # "3a"
    prompt: str  # what is asked of the acting seat
    actions: Actions
    handle: Handler
    enter: Hook  # sets state.waiting, or does the step's automatic work
    finish: Hook  # called when every waiting seat is done: goes to the next step
    why: Why = _no_reason  # the rule that forbids an action that is not legal
    auto: frozenset[str] = frozenset()  # action kinds taken for a seat when it is the only one
    on_done: Handler | None = None  # what "done" does besides ending the seat's part
    # Never pass a seat's "done" for it: whether it had a choice must not show (hidden info).
    always_asks: bool = False
    # Where "done" waits for things the side must do first (place, enter, land, fight):
    # those actions. With teams (17a) a player whose share of them is done may be done.
    owes: Actions | None = None
    # Issue 13: what the side loses if it says "done" now - (unit, rule) - shown before
    # the commitment (5: air units that cannot land).
    lost_if_done: Callable[[State, Side], list[tuple[str, str]]] | None = None
    # Who acts: Side B, then Side A (3), both sides at once in the umpired modes (18c1,
    # 18c3), or both at once whatever the mode (`WhoActs`). `goto` sets
    # `state.simultaneous` from it (`at_once`).
    acts: WhoActs = WhoActs.B_THEN_A
    # 3a1: when a step both sides do at once asks nobody, every side waiting having
    # nothing but "done" to do (the air units' steps at night): the engine passes it for
    # all, each side's log saying so.
    idle_when: Callable[[State], bool] | None = None


STEPS: dict[StepId, Step] = {}


def automatic(name: StepId, rule: str, enter: Hook) -> Step:
    """A step no seat acts in: entering it does its work and moves on (sides, turn record)."""
    return register(Step(name, rule, "", _no_actions, _no_handler, enter, nothing))


def register(step: Step) -> Step:
    if step.name not in _IDS:
        raise UnknownStep(
            f"step {step.name!r} (rule {step.rule}) is registered under no step id: "
            "add it to StepId in app/rules/engine/steps.py"
        )
    STEPS[step.name] = step
    return step


_IDS = frozenset(StepId)


def check_registered(steps: Mapping[StepId, Step] = STEPS) -> None:
    """Every step id has its registered step, once every step module has been imported
    (`app/rules/game.py` runs this): UnknownStep naming those that have none."""
    missing = [s.value for s in StepId if s not in steps]
    if missing:
        raise UnknownStep(f"step ids no module registers a step under: {missing}")


def _never(state: State) -> bool:
    return False


# Whether the game's mode has both sides perform at once the steps that say so (18c1,
# 18c3): the modes package registers its hook (`modes/hooks.py`, `at_once`) here with
# `play_at_once_by`, as the engine imports no mode.
_mode_at_once: list[Callable[[State], bool]] = [_never]


def play_at_once_by(ask: Callable[[State], bool]) -> None:
    """18c1, 18c3: `ask(state)` says whether the game's mode plays at once."""
    _mode_at_once[0] = ask


def at_once(state: State, name: StepId) -> bool:
    """Whether both sides act at once in step `name` of this game (18c1, 18c3)."""
    acts = STEPS[name].acts
    return acts is WhoActs.AT_ONCE or (
        acts is WhoActs.AT_ONCE_WHEN_UMPIRED and _mode_at_once[0](state)
    )


def current(state: State) -> Step:
    """The step the state is in (the state keeps its id's words: StepId is a StrEnum)."""
    return STEPS[StepId(state.step)]


def goto(state: State, name: StepId, out: list[Event]) -> None:
    """Enter step `name`: it sets whom it waits for, or runs and moves on."""
    state.step = str(name)  # the words, a plain str: a snapshot holds JSON types only
    state.waiting = []
    state.done = []
    state.simultaneous = at_once(state, name)  # who acts: the step says (18c1, 18c3)
    STEPS[name].enter(state, out)


def call(state: State, name: StepId, out: list[Event], then: StepId | None = None) -> None:
    """Enter step `name` as a procedure of the step the state is in: its `end` comes back
    to that step, resumed as it was (whom it waited for, which seats were done); or, given
    `then`, enters step `then` afresh. The callers are kept in the state (`State.calls`)."""
    if then is None:
        back = Caller(state.step, list(state.waiting), list(state.done), state.simultaneous)
    else:
        back = Caller(str(then), enter=True)
    state.calls.append(back)
    goto(state, name, out)


def end(state: State, out: list[Event]) -> None:
    """The called step is over: back to its caller (`call`)."""
    if not state.calls:
        raise UnknownStep(f"step {state.step!r} ends, but no step called it")
    back = state.calls.pop()
    if back.enter:
        goto(state, StepId(back.step), out)
        return
    state.step, state.waiting = back.step, list(back.waiting)
    state.done, state.simultaneous = list(back.done), back.simultaneous


def game_over(state: State) -> None:
    """The game is over: no step, nobody to wait for (7)."""
    state.status = "finished"
    state.step = FINISHED
    state.waiting = []


# ---------------------------------------------------------------- the sequence of play


class Way(StrEnum):
    """How a step whose handler chooses goes on (`Ways`), in the rulebook's words."""

    NEXT_WAVE = "next wave"  # 13b2: another wave against the same defenders
    BATTLE_OVER = "battle over"  # 4e: the battle's bombing is done
    SCOUT_ROUTES = "scout routes"  # 18c1: the scouts' routes before the strikes move
    COMBAT = "combat"  # 2b2: the Air Movement and Search Step is over


@dataclass(frozen=True)
class Call:
    """The next step is a procedure of its own (16's surface combat): entered by `call`,
    it ends by entering step `then` (its caller's next), or, `then` None, back in its
    caller."""

    step: StepId
    then: StepId | None = None


@dataclass(frozen=True)
class Return:
    """The step ends a procedure: back to its caller (`end`)."""

    rule: str


@dataclass(frozen=True)
class GameOver:
    """The sequence of play ends: the game is over (7: after the scenario's last Turn's
    Turn Record Phase). The step that ends it has recorded the result."""

    rule: str


@dataclass(frozen=True)
class Branch:
    """Where the sequence of play branches on the state (the rule says how): `choose`
    picks one of `targets`, each of which the check at import knows."""

    rule: str
    targets: tuple[Next, ...]
    choose: Callable[[State], Next]


@dataclass(frozen=True)
class Ways:
    """A step whose handler chooses, in the middle of its work, how it goes on: each way
    by its name (`advance(state, out, Way.NEXT_WAVE)`)."""

    rule: str
    ways: Mapping[Way, Next]


Next = StepId | Call | Return | GameOver | Branch
After = Next | Ways

# What comes after each step: the game families' sequences (`follow`), checked once every
# step module is imported (`check_sequence`, run by `app/rules/game.py`).
SEQUENCE: dict[StepId, After] = {}
_FIRST: list[StepId] = []  # the game's first step (7a: setup)


def follow(table: Mapping[StepId, After], first: StepId | None = None) -> None:
    """A sequence of play (base/sequence.py, a procedure's own): what comes after each of
    its steps, and for the game's own the step a game starts in. A step that is no step
    id, or is given twice, fails at once."""
    if first is not None:
        if first not in _IDS or _FIRST:
            raise UnknownStep(f"a game starts in one step: {first!r}, {_FIRST}")
        _FIRST.append(first)
    for step in table:
        if step not in _IDS:
            raise UnknownStep(f"the sequence goes on from {step!r}, which is no step id")
        if step in SEQUENCE:
            raise UnknownStep(f"two sequences say what comes after {step.value!r}")
    SEQUENCE.update(table)


def targets(after: After) -> list[Next]:
    """The steps, calls and returns `after` may lead to."""
    if isinstance(after, Ways):
        return [t for way in after.ways.values() for t in targets(way)]
    if isinstance(after, Branch):
        return [t for target in after.targets for t in targets(target)]
    return [after]


def check_sequence(
    sequence: Mapping[StepId, After] = SEQUENCE, steps: Mapping[StepId, Step] = STEPS
) -> None:
    """Every step has what comes after it, and every target is a registered step:
    UnknownStep naming those that are not (`app/rules/game.py` runs this on import)."""
    if not _FIRST or _FIRST[0] not in steps:
        raise UnknownStep(f"a game starts in no registered step: {_FIRST}")
    missing = [s.value for s in StepId if s not in sequence]
    if missing:
        raise UnknownStep(f"steps the sequence of play does not go on from: {missing}")
    for step, after in sequence.items():
        for target in targets(after):
            named = [target.step, target.then] if isinstance(target, Call) else [target]
            for name in named:
                if name is None or isinstance(name, (Return, GameOver)):
                    continue
                if not isinstance(name, StepId) or name not in steps:
                    raise UnknownStep(
                        f"after {step.value!r} the sequence goes on to {name!r}, no registered step"
                    )


def next_step(state: State, way: Way | None = None) -> StepId | Call | Return | GameOver:
    """What the sequence of play says comes after the state's step (`way`: as its
    handler chose)."""
    step = StepId(state.step)
    after = SEQUENCE[step]
    if isinstance(after, Ways):
        if way is None or way not in after.ways:
            raise UnknownStep(f"{step.value!r} goes on by no way {way!r} ({after.rule})")
        after = after.ways[way]
    elif way is not None:
        raise UnknownStep(f"{step.value!r} has one way on, not {way!r}")
    return _chosen(state, step, after)


def _chosen(state: State, step: StepId, after: Next) -> StepId | Call | Return | GameOver:
    """A branch's choice, followed to a step, a call or a return."""
    if not isinstance(after, Branch):
        return after
    chosen = after.choose(state)
    if chosen not in after.targets:
        raise UnknownStep(f"after {step.value!r}, {chosen!r} is none of {after.targets}")
    return _chosen(state, step, chosen)


def first_step() -> StepId:
    """The step a game starts in (7a: setup), as its sequence of play says."""
    return _FIRST[0]


def start(state: State, out: list[Event]) -> None:
    """A new game: into the first step of the sequence of play."""
    goto(state, first_step(), out)


def advance(state: State, out: list[Event], way: Way | None = None) -> None:
    """The step is over: on to what the sequence of play says comes next."""
    after = next_step(state, way)
    if isinstance(after, GameOver):
        game_over(state)
    elif isinstance(after, Return):
        end(state, out)
    elif isinstance(after, Call):
        call(state, after.step, out, after.then)
    else:
        goto(state, after, out)


def b_then_a(state: State) -> list[Side]:
    """3: Side B performs each step first, then Side A."""
    assert state.side_a is not None and state.side_b is not None
    return [state.side_b, state.side_a]


__all__ = [
    "FINISHED",
    "SEQUENCE",
    "STEPS",
    "After",
    "Branch",
    "Call",
    "GameOver",
    "Next",
    "Return",
    "Step",
    "StepId",
    "UnknownStep",
    "Way",
    "Ways",
    "WhoActs",
    "advance",
    "at_once",
    "automatic",
    "b_then_a",
    "call",
    "check_registered",
    "check_sequence",
    "current",
    "end",
    "first_step",
    "follow",
    "game_over",
    "goto",
    "next_step",
    "nothing",
    "play_at_once_by",
    "register",
    "targets",
]
