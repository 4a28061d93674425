"""Issue 33, typed contracts: the observer builds each view from named parts, each with its
audience (app/rules/modes/observer.py `PARTS`, app/rules/modes/sight.py).

Views of seeded games in every mode, with and without teams (17a), while they run and once
over, are walked seat by seat: every key a view has must be a part of the table, given to
a viewer of that part's audience; and what the rules keep from a viewer must not reach
him - the umpire's console is the umpire's (18b), both Searchboards and the reports
beside the truth are the umpire's and the replay's until the end (18b, 18c2), a side's
Searchboard is its players' (1c), and in an umpired team game a player's copy holds his
own command's counters only (18a). `problems` says what is wrong; the last test gives it
tables with one audience changed wrongly, and each must be caught."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from app.games.engine import OMNISCIENT, SPECTATOR, load_engine
from app.rules.engine.state import SIDES, State, other
from app.rules.modes import commands, observer
from app.rules.modes.seats import UMPIRE, seat_of, side_seats
from app.rules.modes.sight import (
    AUDIENCES,
    Audience,
    Kind,
    Part,
    Sources,
    plan,
    policy_of,
    viewer_of,
)
from app.rules.modes.view_doc import View, ViewKey
from tools.golden import Agent, Playthrough

ACTIONS = 70  # each game's actions: past set-up, into searches and flights

GAMES = [
    Playthrough("two", mode, teams, "none")
    for mode in ("two-player", "umpired", "double-blind")
    for teams in (False, True)
]

# Who may be given each key while the game runs, by the rules (not by the table): the
# umpire's console is his (18b); both Searchboards and the reports beside the truth are
# the umpire's and the replay's (18b, 18c2); a side's Searchboard, his notes and the
# umpire's news to him are a player's (1c, 17c3, 18c). Everything else reaches everyone,
# in the form his audience gives it.
PLAYERS = frozenset({Kind.PLAYER, Kind.TEAM_PLAYER})
EVERYONE = frozenset(Kind)
MAY_KNOW: dict[str, frozenset[Kind]] = {
    "umpire": frozenset({Kind.UMPIRE}),
    "searchboards": frozenset({Kind.UMPIRE, Kind.OMNISCIENT}),
    "told_versus_truth": frozenset({Kind.UMPIRE, Kind.OMNISCIENT}),
    "searchboard": PLAYERS,
    "radio": PLAYERS,
    "heard": PLAYERS,
}


@cache
def walked() -> tuple[tuple[State, ...], ...]:
    """Each game's states: as it runs, and its last state as if the game were over."""
    engine = load_engine("app.rules")
    out = []
    for play in GAMES:
        state = engine.new_game(play.scenario, play.chosen(), 33, play.mode, play.teams)
        agent = Agent(engine, play, state)
        states = [state]
        for _ in range(ACTIONS):
            _, state, _, _ = agent.act(state)
            states.append(state)
        out.append((*states, dataclasses.replace(state, status="finished")))
    return tuple(out)


def looking(state: State) -> tuple[str, ...]:
    players = tuple(s["seat"] for s in load_engine("app.rules").seats(state))
    return (*players, UMPIRE, SPECTATOR, OMNISCIENT)  # "umpire": a spectator where none sits


def problems(parts: tuple[Part, ...]) -> Iterator[str]:
    """What is wrong in the views the observer builds from `parts`."""
    table: set[str] = {p.key for p in parts}
    for states in walked():
        for state in states:
            docs = observer.views(state, looking(state))
            for seat, doc in docs.items():
                yield from _problems(state, seat, doc, docs, parts, table)


def _problems(
    state: State,
    seat: str,
    doc: dict[str, Any],
    docs: dict[str, dict[str, Any]],
    parts: tuple[Part, ...],
    table: set[str],
) -> Iterator[str]:
    where = f"{state.mode}{' teams' if state.teams else ''} {state.step} {state.status} {seat}"
    viewer = viewer_of(state, seat)
    given = dict(plan(parts, viewer.audiences, policy_of(state)).keys)
    running = state.status != "finished"
    for key in doc:
        if key not in table:
            yield f"{where}: {key!r} is no part of the observer's table"
        elif key not in given:
            yield f"{where}: {key!r} given to a {viewer.kind.value} of no audience of its parts"
        if running and viewer.kind not in MAY_KNOW.get(key, EVERYONE):
            yield f"{where}: {key!r} reaches a {viewer.kind.value}"
    for key, chain in given.items():
        part = chain[0]
        alike = _alike(state, seat, part.audience_in(policy_of(state)))
        if key not in doc or part.build is None:
            continue
        for another in alike:  # a part its audience sees alike is the same whoever it is for
            if part.build(Sources(state), viewer_of(state, another)) != doc[key]:
                yield f"{where}: the {part.audience.value} {key!r} differs for {another}"
    yield from _hidden_cards(state, where, viewer.kind, doc)
    if viewer.kind is Kind.TEAM_PLAYER and policy_of(state).separate:
        yield from _own_command(state, where, seat, doc)


def _alike(state: State, seat: str, audience: Audience) -> tuple[str, ...]:
    """Other viewers that would be given a part of `audience` alike: anyone for a public
    part (a spectator), the seat's teammate for a side's."""
    if audience is Audience.PUBLIC:
        return (SPECTATOR,)
    who = seat_of(state, seat)
    if audience is Audience.SIDE and who is not None:
        return tuple(s.id for s in side_seats(state, who.side) if s.id != seat)
    return ()


def _hidden_cards(state: State, where: str, kind: Kind, doc: dict[str, Any]) -> Iterator[str]:
    """18b, 18c2: while an umpired game runs a player sees of the enemy's card what he was
    told, a spectator no card and no side's losses, and neither the other side's
    announcements (4c)."""
    if policy_of(state).open_cards or state.status == "finished":
        return
    cards = doc["operations_cards"]
    if kind is Kind.SPECTATOR and (cards or doc["announcements"] or "score" in doc):
        yield f"{where}: a spectator sees Operations Cards, announcements or losses (7a3)"
    if kind in PLAYERS:
        side = doc["viewer"]["side"]
        if not cards[other(side)].get("reported"):
            yield f"{where}: the enemy's card is not as reported"
        if any(a["side"] != side for a in doc["announcements"]):
            yield f"{where}: the enemy's announcements reach a player"


def _own_command(state: State, where: str, seat: str, doc: dict[str, Any]) -> Iterator[str]:
    """18a: a team player's copy holds his own command's counters only."""
    who = doc["viewer"]
    board = state.boards[who["side"]]

    def mine(uid: str) -> bool:
        return commands.command_of(board, uid) == str(who["command"])

    units = [*doc["operations_cards"][who["side"]]["units"], *doc["searchboard"]["flying"]]
    units += [x["unit"] for x in doc["prompt"]["lost_if_done"]]
    forces = doc["searchboard"]["forces"]
    theirs = [u for u in units if not mine(u)]
    theirs += [m for m in forces if commands.force_command(state, who["side"], m) != who["command"]]
    if theirs:
        yield f"{where}: his teammate's {sorted(set(theirs))} in {seat}'s copy"


def test_issue_33_view_keys_are_the_view_types_and_the_tables() -> None:
    """`ViewKey`, `View` and the observer's table name the same keys, in the same order."""
    keys = list(typing.get_args(ViewKey))
    assert keys == list(typing.get_type_hints(View)) == list(dict.fromkeys(p.key for p in PARTS))
    assert set(MAY_KNOW) <= set(keys)


PARTS = observer.PARTS


def test_issue_33_every_kind_of_viewer_and_audience_is_walked() -> None:
    """The walk meets every kind of viewer, every audience given, and a team player's own copy."""
    kinds = {viewer_of(s, seat).kind for g in walked() for s in g[:1] for seat in looking(s)}
    assert kinds == set(Kind)
    given = {
        p.audience_in(policy_of(s))
        for g in walked()
        for s in (g[0], g[-1])
        for seat in looking(s)
        for _, chain in plan(PARTS, viewer_of(s, seat).audiences, policy_of(s)).keys
        for p in chain
    }
    assert given == set(Audience)
    assert set().union(*AUDIENCES.values()) == set(Audience)
    assert any(s.teams and policy_of(s).separate for g in walked() for s in g)


def test_issue_33_every_part_of_a_view_is_its_audiences() -> None:
    """Every key of every view is a part of the table, given to its audience; nothing the
    rules keep from a viewer reaches him (18a, 18b, 18c2)."""
    found = list(problems(PARTS))
    assert found == [], "\n".join(found[:20])


def _wrong(key: str, audience: Audience, to: Audience) -> tuple[Part, ...]:
    """The table with the part of `key` for `audience` given to `to` instead."""
    out = []
    for p in PARTS:
        if p.key == key and p.audience is audience:
            p = dataclasses.replace(p, audience=to, open_with_cards=False)
        out.append(p)
    return tuple(out)


@pytest.mark.parametrize(
    ("key", "audience", "to"),
    [
        ("umpire", Audience.UMPIRE, Audience.SIDE),  # the console to the players
        ("searchboards", Audience.EVERYONE_AFTER_END, Audience.PUBLIC),
        ("told_versus_truth", Audience.EVERYONE_AFTER_END, Audience.SEAT),
        ("searchboard", Audience.SIDE, Audience.PUBLIC),  # 1c: a side's board to everyone
        ("operations_cards", Audience.EVERYONE_AFTER_END, Audience.SIDE),  # 18b: the truth
        ("operations_cards", Audience.COMMAND, Audience.UMPIRE),  # 18a: no command copy
        ("searchboard", Audience.COMMAND, Audience.UMPIRE),  # 18a: no command copy
        ("announcements", Audience.EVERYONE_AFTER_END, Audience.SIDE),
        ("radio", Audience.SEAT, Audience.VIEWER),  # 17c3: notes to a spectator
        ("heard", Audience.SEAT, Audience.PUBLIC),  # 18c: the umpire's news to everyone
        ("viewer", Audience.VIEWER, Audience.PUBLIC),  # who looks, as one seat for all
        ("prompt", Audience.VIEWER, Audience.PUBLIC),  # one seat's actions to everyone
    ],
)
def test_issue_33_a_part_given_a_wrong_audience_is_caught(
    monkeypatch: pytest.MonkeyPatch, key: str, audience: Audience, to: Audience
) -> None:
    """The walk above fails when one part of the table names a wrong audience."""
    wrong = _wrong(key, audience, to)
    assert wrong != PARTS
    monkeypatch.setattr(observer, "PARTS", wrong)  # the views are built from it
    try:
        found = next(problems(wrong), None)
    except (TypeError, KeyError) as e:  # a part built for a viewer it cannot be built for
        found = f"{type(e).__name__}: {e}"
    assert found is not None, f"{key} ({audience.value} -> {to.value}) not caught"


def test_issue_33_both_sides_are_walked() -> None:
    sides = {viewer_of(s, seat).side for g in walked() for s in g[:1] for seat in looking(s)}
    assert sides == {*SIDES, None}
