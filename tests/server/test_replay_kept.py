"""Issue 34: a finished game's replay page, in a process that does not hold the game, is
built from what its first replay kept in the database (app/games/replays.py: the marks,
where the game stood after each action, and a snapshot of every 50th state and of the
last) instead of a replay of the whole log; every step of it, as any seat saw it or
everything, is what a replay of the whole log gives, page for page."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from app.cli import migrate
from app.games.db import Database
from app.games.engine import OMNISCIENT, Engine, load_engine
from app.games.models import REPLAY_MARKS_T, SNAPSHOTS_T
from app.games.records import FORMAT, Records
from app.games.replays import SNAPSHOT_EVERY, Replays
from app.games.seeds import commitment
from app.rules import apply, new_game
from app.settings import Settings
from app.web import render
from tools.fuzz import _next_seat, choose

ENGINE = load_engine("app.rules")


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    migrate(Settings(DATABASE_URL=database_url))
    db = Database.connect(database_url)
    yield db
    db.dispose()


def finished(db: Database, scenario: str, seed: int, options: tuple[str, ...] = ()) -> str:
    """A random game played to its end, imported as a finished game; its id."""
    rng = random.Random(seed)
    state = new_game(scenario, frozenset(options), seed)
    actions = []
    while state.status != "finished":
        seat = _next_seat(state, rng)
        action = choose(state, seat, rng)
        state, _ = apply(state, seat, action)
        actions.append({"seat": seat, "action": action.to_json()})
    record = {
        "format": FORMAT,
        "scenario": scenario,
        "options": list(options),
        "mode": "two-player",
        "seed": seed,
        "seed_salt": "s",
        "seed_sha256": commitment(seed, "s"),
        "actions": actions,
    }
    return Records(db, ENGINE).import_(record)


def counting(applied: list[int]) -> Engine:
    def counted(state: Any, seat: str, action: Any) -> Any:
        applied.append(1)
        return ENGINE.apply(state, seat, action)

    return dataclasses.replace(ENGINE, apply=counted)


def page(replays: Replays, game: str, seat: str | None, at: int | None) -> str:
    return render.replay(game, replays.step(game, seat, at))


def test_34_a_process_without_the_game_replays_none_of_it_for_its_last_step(
    db: Database,
) -> None:
    """What is measured: the actions applied for the replay page's first GET (the last
    step) by a process that does not hold the game: all of them the first time ever,
    none once that replay is kept (the last state is a snapshot)."""
    game = finished(db, "one", 5)
    applied: list[int] = []
    first = page(Replays(db, counting(applied)), game, None, None)
    total = len(applied)
    assert total > 100
    applied.clear()
    assert page(Replays(db, counting(applied)), game, None, None) == first
    assert applied == []


def test_34_a_middle_step_applies_fewer_actions_than_between_two_snapshots(db: Database) -> None:
    game = finished(db, "one", 6)
    Replays(db, ENGINE).step(game, None, None)  # the first replay, kept
    applied: list[int] = []
    replays = Replays(db, counting(applied))
    total = replays.step(game, None, None).total
    applied.clear()
    replays.step(game, None, total // 2)
    assert len(applied) < SNAPSHOT_EVERY


def test_34_every_step_from_what_was_kept_is_the_replays_page_for_page(db: Database) -> None:
    """Steps of two games (Scenario One; Scenario Two with its options), as each seat and
    everything: the page of a process that read what the first replay kept equals that
    of the first replay, which replayed the whole log."""
    for scenario, seed, options in (("one", 7, ()), ("two", 8, ("12a", "15a", "11a"))):
        game = finished(db, scenario, seed, options)
        whole = Replays(db, ENGINE)
        kept = Replays(db, ENGINE)
        last = whole.step(game, None, None)
        assert kept._replayed(game).marks == last.marks  # read from the database
        rng = random.Random(seed)
        steps = sorted({0, 1, last.total, *rng.sample(range(last.total), 12)}, reverse=True)
        for at in steps:
            for seat in ("usa", "japan", OMNISCIENT):
                assert page(Replays(db, ENGINE), game, seat, at) == page(whole, game, seat, at)
                assert page(kept, game, seat, at) == page(whole, game, seat, at)


def test_34_what_another_engine_kept_is_not_used(db: Database) -> None:
    """Kept replays are stamped by their engine, as snapshots are: rules changed since
    may replay the same log otherwise. Another engine's are replaced."""
    game = finished(db, "one", 9)
    other = dataclasses.replace(ENGINE, stamp="0123456789abcdef")
    expected = page(Replays(db, other), game, "usa", None)
    applied: list[int] = []
    assert page(Replays(db, counting(applied)), game, "usa", None) == expected
    assert len(applied) > 100  # replayed again, not read
    with db.read() as session:
        stamps = set(session.scalars(select(REPLAY_MARKS_T.c.stamp)))
        stamps |= set(
            session.scalars(select(SNAPSHOTS_T.c.stamp).where(SNAPSHOTS_T.c.game_id == game))
        )
    assert stamps == {ENGINE.stamp}
