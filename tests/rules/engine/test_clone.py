"""`State.clone` (engine/copying.py): `apply` works on a clone and never changes its input,
so a clone must share nothing that can change with the state it came from, and be equal
to it. Issue 17: the clone is code written from the annotations, not a pickle round trip
(which was a third of `apply`'s time)."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, get_args, get_origin, get_type_hints

import pytest

from app.rules import apply, new_game
from app.rules.engine.copying import copier
from app.rules.engine.state import SLOT_TYPES, State
from tools.fuzz import UMPIRE, _next_seat, _umpire_turn, choose, mode_options

# Kinds of game whose states hold, between them, the records that can change: battles,
# pending re-rolls (11a), number reports (15a1.2), surface combats (16), umpire's drafts
# (18c), team radio notes (17c3), base damage (the expansion); each with those it reaches.
GAMES = [
    ("one", frozenset(), "two-player", False, 17, {"Battle", "Flight", "Spotting"}),
    (
        "one",
        frozenset(mode_options("two-player", "one")),
        "two-player",
        False,
        17,
        {"PendingCombat", "Report", "Surface"},
    ),
    (
        "three",
        frozenset(mode_options("umpired", "three")),
        "umpired",
        True,
        17,
        {"Draft", "Message"},
    ),
    (
        "coral-sea",
        frozenset(mode_options("double-blind", "coral-sea")),
        "double-blind",
        False,
        42,
        {"SurfaceCombat", "Contact"},
    ),
    # Random play seldom raids a base, and a base's damage is a record only once one is hit
    # (a look at a base's damage no longer leaves one behind, issue 31): a game of its own
    (
        "coral-sea",
        frozenset(mode_options("double-blind", "coral-sea")),
        "double-blind",
        False,
        56,
        {"BaseDamage"},
    ),
]


@cache
def played(
    scenario: str, options: frozenset[str], mode: str, teams: bool, seed: int
) -> list[State]:
    """Every state of one random game, in order (states never change: kept for both tests)."""
    rng = random.Random(seed)
    state = new_game(scenario, options, seed, mode, teams)
    out = [state]
    while state.status != "finished":
        seat = UMPIRE if _umpire_turn(state, rng) else _next_seat(state, rng)
        state, _ = apply(state, seat, choose(state, seat, rng))
        out.append(state)
    return out


@cache
def _fields(cls: type) -> tuple[str, ...] | None:
    """A record's fields that may change (None: not a record; a frozen record, or a field
    annotated `Mapping`, is read-only)."""
    if not dataclasses.is_dataclass(cls):
        return None
    hints = get_type_hints(cls, localns=dict(SLOT_TYPES))
    return tuple(
        f.name
        for f in dataclasses.fields(cls)
        if Mapping not in (get_origin(a) for a in (hints[f.name], *get_args(hints[f.name])))
    )


def changeable(value: Any, found: dict[int, object]) -> None:
    """Every list, dict and record that can change reachable from `value`, by id."""
    names = _fields(type(value))
    if type(value) in (list, dict) or (
        names is not None and not type(value).__dataclass_params__.frozen  # type: ignore[attr-defined]
    ):
        if id(value) in found:
            return
        found[id(value)] = value
    if type(value) is dict:
        for k, v in value.items():
            changeable(k, found)
            changeable(v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            changeable(v, found)
    elif names is not None:
        for name in names:
            changeable(getattr(value, name), found)


@pytest.mark.parametrize(("scenario", "options", "mode", "teams", "seed", "records"), GAMES)
def test_17_a_clone_equals_its_state_and_shares_nothing_that_can_change(
    scenario: str, options: frozenset[str], mode: str, teams: bool, seed: int, records: set[str]
) -> None:
    kinds: set[str] = set()
    for i, state in enumerate(played(scenario, options, mode, teams, seed)):
        copy = state.clone()
        assert copy == state
        if i % 5:
            continue
        assert pickle.dumps(copy) == pickle.dumps(state)  # the same records, shared alike
        mine: dict[int, object] = {}
        theirs: dict[int, object] = {}
        changeable(state, mine)
        changeable(copy, theirs)
        shared = mine.keys() & theirs.keys()
        assert not shared, f"shared with its clone: {[mine[i] for i in list(shared)[:3]]}"
        kinds |= {type(v).__name__ for v in mine.values()}
    assert records | {"State", "Board"} <= kinds, f"never reached: {records - kinds}"


def test_17_the_clone_is_no_pickle_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    state = next(s for i, s in enumerate(played(*GAMES[1][:5])) if i == 40)

    def refused(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("State.clone pickled the state")

    monkeypatch.setattr(pickle, "dumps", refused)
    assert state.clone() is not state


@dataclass
class _WithSet:
    seen: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class _FrozenList:
    hexes: list[str]


@dataclass
class _TwoClasses:
    either: _WithSet | _FrozenList


@pytest.mark.parametrize("cls", [_WithSet, _FrozenList, _TwoClasses])
def test_17_a_type_the_copier_cannot_copy_is_refused_when_it_is_built(cls: type) -> None:
    with pytest.raises(TypeError, match="no copy"):
        copier(cls)
