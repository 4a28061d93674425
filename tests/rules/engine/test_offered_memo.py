"""Issue 17: `legal_actions` is worked out once per state and seat (engine/play.py: the
server's views ask, then the next action's apply asks again). The memo lives as long
as its state: a server holding a thousand games' latest states keeps all of theirs,
however many states were made since (a memo bounded at 1,024 entries forgot them at
a thousand live games' pace), and a state freed takes its entry with it."""

from __future__ import annotations

import gc
import random
from dataclasses import asdict

import pytest

from app import rules
from app.rules.engine import memo, play
from app.rules.engine.actions import Action
from app.rules.engine.state import State
from app.rules.modes.observer import views
from app.rules.modes.seats import acting, seat_of
from tools.fuzz import choose


def states(n: int) -> list[State]:
    """`n` states of distinct random Scenario One games after a few actions each."""
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        state = rules.new_game("one", frozenset(), seed)
        for _ in range(3):
            seat = rng.choice(acting(state))
            state, _ = rules.apply(state, seat, choose(state, seat, rng))
        out.append(state)
    return out


def test_17_offered_actions_are_kept_while_their_state_lives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    held = states(1500)
    first = {id(s): {seat: rules.legal_actions(s, seat) for seat in acting(s)} for s in held}
    asked: list[int] = []
    work = play.player_actions

    def counted(state: State, who: object) -> object:
        asked.append(id(state))
        return work(state, who)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "player_actions", counted)
    for s in held:  # 3a: each state's choices as the view gave them, not worked out again
        assert {seat: rules.legal_actions(s, seat) for seat in acting(s)} == first[id(s)]
    assert asked == []


def test_17_a_freed_state_takes_its_offered_actions_with_it() -> None:
    gc.collect()
    before = memo.held()
    held = states(40)
    for s in held:
        for seat in acting(s):
            rules.legal_actions(s, seat)
    assert memo.held() >= before + 40
    del held, s
    gc.collect()
    assert memo.held() <= before


def test_17_offered_actions_come_once_each_by_kind_then_values() -> None:
    """3a: `legal_actions` offers each action once, sorted by kind and then by values (the
    order the pages, the fuzzers and the bench's agents rely on): `in_order` gives what
    sorting the set by (kind, values) gives, along random games, with repeats mixed in
    and the choices shuffled."""
    rng = random.Random(17)
    checked = 0
    for seed in range(12):
        state = rules.new_game("one", frozenset(), seed)
        for _ in range(40):
            if state.status == "finished":
                break
            for seat in acting(state):
                who = seat_of(state, seat)
                assert who is not None
                found = list(play.player_actions(state, who))
                mixed = found + rng.sample(found, min(5, len(found)))
                rng.shuffle(mixed)
                expected = tuple(sorted(set(found), key=lambda a: (a.kind, a.values)))
                assert play.in_order(mixed) == expected
                assert tuple(rules.legal_actions(state, seat)) == expected
                checked += len(found)
            seat = rng.choice(acting(state))
            state, _ = rules.apply(state, seat, choose(state, seat, rng))
    assert checked > 5_000


def test_17_a_prompt_is_built_without_hashing_an_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """The views' prompts (3a: every action the seat may take) are put in order and turned
    into JSON keyed by each action's kind and values, whose hash is C's; an action's own
    hash is a dataclass's Python method, once per choice of a set-up prompt of 200."""
    held = states(30)
    calls = 0
    hash_of = Action.__hash__

    def counted(self: Action) -> int:
        nonlocal calls
        calls += 1
        return hash_of(self)

    monkeypatch.setattr(Action, "__hash__", counted)
    offered = 0
    for s in held:
        for seat, doc in views(s, tuple(acting(s))).items():
            offered += len(doc["prompt"]["actions"])
            assert doc["prompt"]["actions"] == [a.to_json() for a in rules.legal_actions(s, seat)]
    assert offered > 1_000
    assert calls == 0


def test_14_what_a_seat_is_shown_is_worked_out_once_per_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1c, issue 14: take-back compares what each other seat is shown before and after an
    action. The state an action made is the next action's state before: what its seats
    were shown is not built again, and the take-back counts come out as when it is."""
    from app.rules.modes import takeback

    def play(seed: int) -> list[tuple[str, dict[str, object]]]:
        rng = random.Random(seed)
        state = rules.new_game("one", frozenset(), seed)
        held.append(state)
        counts = []
        for _ in range(120):
            if state.status == "finished":
                break
            seat = rng.choice(acting(state))
            state, _ = rules.apply(state, seat, choose(state, seat, rng))
            held.append(state)  # alive, so that no id is another state's
            counts.append((seat, {s: asdict(t) for s, t in state.takeback.items()}))
        return counts

    held: list[State] = []
    built: list[tuple[int, str]] = []
    work = takeback._shows

    def counted(state: State, seat: str) -> dict[str, object]:
        built.append((id(state), seat))
        return work(state, seat)

    kept = [play(seed) for seed in range(3)]
    monkeypatch.setattr(takeback, "_shows", counted)
    again = [play(seed) for seed in range(3)]
    assert again == kept
    assert built and len(built) == len(set(built))  # never twice for one state and seat
    monkeypatch.setattr(takeback, "shows", lambda state, seat: work(state, seat))
    assert [play(seed) for seed in range(3)] == kept  # as when each is built every time
