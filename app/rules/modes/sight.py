"""Who looks at a game, and which parts of a view he is given (DESIGN.md, Hidden information).

A view is made of named parts (app/rules/modes/observer.py `PARTS`), as OpenSpiel builds an
observer from a public part and the private parts of one player or of all: each part names
its `Audience` - who may be given it - and how it is built for a viewer. Several parts may
carry one key of the view, each for another audience: the Operations Cards (2c) are the
whole truth for the umpire, as his side believes them for a player (18c2), nothing for a
spectator of an umpired game (18b), and one command's share for a team player with his own
copy (18a). A viewer gets, for each key, the first of its parts whose audience he belongs
to in this game (`plan`).

Which audiences a viewer belongs to is decided here, in one place, from what kind of
viewer he is (`Kind`, `viewer_of`); which parts a game has at all, and whether the cards
lie open, from the mode's policy (`Policy`, `policy_of`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, cast

from app.rules.engine.memo import of as memo_of
from app.rules.engine.state import Side, State
from app.rules.modes.audiences import mode_of
from app.rules.modes.command_copies import separate
from app.rules.modes.seats import OMNISCIENT, Seat, is_umpire, seat_of
from app.rules.modes.view_doc import ViewKey


class Audience(Enum):
    """Who may be given a part of a view."""

    PUBLIC = "public"  # every seat and every spectator, alike
    VIEWER = "viewer"  # whoever looks, of himself: who he is, his prompt
    SIDE = "side"  # the seats of one side, alike (1c: its own Searchboard; 17a: both players)
    SEAT = "seat"  # one player's seat: his notes (17c3), the umpire's news to him (18c)
    COMMAND = "command"  # one command's player (18a: his copy shows his command only)
    UMPIRE = "umpire"  # the umpire's seat (18b: his console)
    # the umpire and a finished game's replay; every seat once the game is over (18b)
    EVERYONE_AFTER_END = "everyone after the end"


class Kind(Enum):
    """What kind of viewer looks."""

    PLAYER = "player"  # a seat that plays a whole side
    TEAM_PLAYER = "team player"  # a seat that plays one command of a side (17a)
    UMPIRE = "umpire"  # the umpire's seat of a mode that has one (18b)
    SPECTATOR = "spectator"  # anyone else: a replay link
    OMNISCIENT = "omniscient"  # everything: a finished game's replay


_A = Audience
_PLAYERS = frozenset({_A.PUBLIC, _A.VIEWER, _A.SIDE, _A.SEAT})
# The audiences each kind of viewer belongs to while the game runs.
AUDIENCES: dict[Kind, frozenset[Audience]] = {
    Kind.PLAYER: _PLAYERS,
    Kind.TEAM_PLAYER: _PLAYERS | {_A.COMMAND},
    Kind.UMPIRE: frozenset({_A.PUBLIC, _A.VIEWER, _A.UMPIRE, _A.EVERYONE_AFTER_END}),
    Kind.SPECTATOR: frozenset({_A.PUBLIC, _A.VIEWER}),
    Kind.OMNISCIENT: frozenset({_A.PUBLIC, _A.VIEWER, _A.EVERYONE_AFTER_END}),
}


@dataclass(frozen=True, slots=True)
class Viewer:
    seat: str
    kind: Kind
    who: Seat | None  # the player's seat; None for the umpire, a spectator, the replay
    side: Side | None  # his seat's side
    audiences: frozenset[Audience]


def kind_of(state: State, seat: str) -> Kind:
    who = seat_of(state, seat)
    if who is not None:
        return Kind.PLAYER if who.command is None else Kind.TEAM_PLAYER
    if is_umpire(state, seat):
        return Kind.UMPIRE
    return Kind.OMNISCIENT if seat == OMNISCIENT else Kind.SPECTATOR


def viewer_of(state: State, seat: str) -> Viewer:
    """Who `seat` is, and the audiences he belongs to: those of his kind, and once the game
    is over everything is told to everyone (EVERYONE_AFTER_END). Kept by what it depends on."""
    key = (state.scenario, state.mode, state.teams, seat, state.status == "finished")
    viewer = _VIEWERS.get(key)
    if viewer is None:
        if len(_VIEWERS) >= _KEPT:
            _VIEWERS.clear()
        kind = kind_of(state, seat)
        audiences = AUDIENCES[kind] | ({Audience.EVERYONE_AFTER_END} if key[-1] else set())
        who = seat_of(state, seat)
        side = None if who is None else who.side
        viewer = _VIEWERS[key] = Viewer(seat, kind, who, side, audiences)
    return viewer


_KEPT = 4096
_VIEWERS: dict[tuple[str, str, bool, str, bool], Viewer] = {}


@dataclass(frozen=True, slots=True, eq=False)  # one a mode and teams (`policy_of`)
class Policy:
    """What the game's mode says of its views."""

    open_cards: bool  # 2c: both Operations Cards open to both sides
    teams: bool  # 17a: two players a side
    umpired: bool  # 18c: the umpire's reports
    separate: bool  # 18a with teams: each player's copy his command's


def policy_of(state: State) -> Policy:
    key = (state.mode, state.teams)
    policy = _POLICIES.get(key)
    if policy is None:
        mode = mode_of(state.mode)
        policy = _POLICIES[key] = Policy(
            mode.open_cards, state.teams, mode.umpired, separate(state)
        )
    return policy


_POLICIES: dict[tuple[str, bool], Policy] = {}


class Sources:
    """What the parts of a state's views are built from: the state, and the parts built
    so far that are shared - those of an audience alike for all its members, built once
    per state (`of`; read them, never change them)."""

    __slots__ = ("built", "policy", "scores", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.policy = policy_of(state)
        self.scores: dict[str, Any] = {}  # 7a3: the tally of everything, once (known_score)
        self.built: dict[object, Any] = {}  # by part, or by part and side

    @classmethod
    def of(cls, state: State) -> Sources:
        """The state's sources, their parts kept while it lives (engine/memo.py): the parts
        several seats share are built once for all the views of the state anyone asks for
        (take-back's look at the others', then the server's). The memo keeps the parts,
        not the state: a state freed takes them with it."""
        src = cls(state)
        memo = memo_of(state)
        if memo.views is None:
            memo.views = (src.built, src.scores)
        else:
            src.built, src.scores = cast(tuple[dict[object, Any], dict[str, Any]], memo.views)
        return src

    def value(self, part: Part, viewer: Viewer) -> Any:
        """`part` for `viewer`: built once per state for all its audience, or per viewer."""
        build = part.build
        if build is None:
            raise TypeError(f"the part {part.key} ({part.audience.value}) narrows another")
        if part.share == _EACH:
            return build(self, viewer)
        key = part if part.share == _ONCE else (part, viewer.side)
        built = self.built.get(key, _MISSING)
        if built is _MISSING:
            built = self.built[key] = build(self, viewer)
        return built


# How a part is shared between the viewers of one state: built for each, once for
# all (its audience sees it alike), or once for each side.
_EACH, _ONCE, _BY_SIDE = 0, 1, 2
_SHARES = {Audience.PUBLIC: _ONCE, Audience.SIDE: _BY_SIDE}
_SHARES |= {Audience.UMPIRE: _ONCE, Audience.EVERYONE_AFTER_END: _ONCE}

Build = Callable[[Sources, Viewer], Any]
Narrow = Callable[[Sources, Viewer, Any], Any]
ABSENT: Any = object()  # a build's answer when the view has no such key now
_MISSING = object()  # not built yet


@dataclass(frozen=True, slots=True, eq=False)  # one part, one object (a key of `Sources`)
class Part:
    """One part of a view: its key, who may be given it, the rule that says so, and how
    it is built for a viewer - or, narrowing, from the part he would get without it."""

    key: ViewKey
    audience: Audience
    rule: str
    build: Build | None = None
    narrow: Narrow | None = None
    # 2c: open to everyone (PUBLIC) where the mode lays both Operations Cards open
    open_with_cards: bool = False
    only: Callable[[Policy], bool] | None = None  # the games that have the part
    each: bool = False  # built for each viewer, though its audience sees it alike
    share: int = field(init=False, default=_EACH)

    def __post_init__(self) -> None:
        if (self.build is None) == (self.narrow is None):
            raise TypeError(f"the part {self.key} is built, or narrows another: one of them")
        share = _EACH if self.each or self.narrow else _SHARES.get(self.audience, _EACH)
        object.__setattr__(self, "share", share)

    def audience_in(self, policy: Policy) -> Audience:
        """Who may be given the part in a game of this policy."""
        return Audience.PUBLIC if self.open_with_cards and policy.open_cards else self.audience


@dataclass(frozen=True, slots=True, eq=False)  # one plan, one object (a key of `Sources`)
class Plan:
    """A viewer's parts: each key and its parts (the first narrowing those after it), in
    the view's order. `slots` lays them out: each key with its part when that is built
    once for all, else None; `own` the others, built for each viewer (or side)."""

    keys: tuple[tuple[ViewKey, tuple[Part, ...]], ...]
    slots: tuple[tuple[ViewKey, Part | None], ...]
    own: tuple[tuple[ViewKey, tuple[Part, ...]], ...]


def plan(parts: tuple[Part, ...], audiences: frozenset[Audience], policy: Policy) -> Plan:
    """`_plan`, kept by the table's identity (a table of parts is hashed slowly: by value;
    the entry keeps its table, so no id is another table's while it is kept)."""
    key = (id(parts), audiences, policy)
    kept = _PLANS.get(key)
    if kept is None or kept[0] is not parts:
        kept = _PLANS[key] = (parts, _plan(parts, audiences, policy))
    return kept[1]


_PLANS: dict[tuple[int, frozenset[Audience], Policy], tuple[tuple[Part, ...], Plan]] = {}


def _plan(parts: tuple[Part, ...], audiences: frozenset[Audience], policy: Policy) -> Plan:
    """The parts a viewer of these audiences gets in a game of this policy, by key in the
    view's order: for each key, the first of its parts whose audience he belongs to, and
    after a narrowing one the part it narrows."""
    chains: dict[ViewKey, list[Part]] = {}
    for part in parts:
        chain = chains.setdefault(part.key, [])
        given = (part.only is None or part.only(policy)) and part.audience_in(policy) in audiences
        if given and (not chain or chain[-1].narrow is not None):
            chain.append(part)
    keys = tuple((k, tuple(c)) for k, c in chains.items() if c and c[-1].narrow is None)
    slots = tuple((k, c[0] if c[0].share == _ONCE else None) for k, c in keys)
    return Plan(keys, slots, tuple((k, c) for k, c in keys if c[0].share != _ONCE))


def document(src: Sources, viewer: Viewer, parts: tuple[Part, ...]) -> dict[str, Any]:
    """The viewer's view: the value of each key of his plan that has one now. The parts
    built once for all are laid out once per plan, in the view's order, with a place
    kept for the viewer's own; he gets a copy, his own parts filled in."""
    p = plan(parts, viewer.audiences, src.policy)
    layout = src.built.get(p)
    if layout is None:
        layout = src.built[p] = _layout(src, viewer, p)
    doc = layout.copy()
    for key, chain in p.own:
        value = build(src, viewer, chain)
        if value is ABSENT:
            del doc[key]
        else:
            doc[key] = value
    return doc


def _layout(src: Sources, viewer: Viewer, p: Plan) -> dict[str, Any]:
    built = src.built
    out: dict[str, Any] = {}
    for key, part in p.slots:
        if part is None:
            out[key] = None  # the viewer's own, in its place
            continue
        value = built.get(part, _MISSING)
        if value is _MISSING and part.build is not None:  # a part built once: `Sources.value`
            value = built[part] = part.build(src, viewer)
        if value is not ABSENT:
            out[key] = value
    return out


def build(src: Sources, viewer: Viewer, chain: tuple[Part, ...]) -> Any:
    """The value of one key of the view: its first part, narrowing those after it."""
    head = chain[0]
    if head.narrow is not None:
        return head.narrow(src, viewer, build(src, viewer, chain[1:]))
    make = head.build
    if make is None or head.share == _ONCE:
        return src.value(head, viewer)
    if head.share == _EACH:
        return make(src, viewer)
    key = (head, viewer.side)  # a side's part, once for each side
    value = src.built.get(key, _MISSING)
    if value is _MISSING:
        value = src.built[key] = make(src, viewer)
    return value
