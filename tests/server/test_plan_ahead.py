"""The single writer works an action out before it takes the lock (app/games/store.py,
GameStore.act; DESIGN.md, Storage: one action at a time per game). Two stores on one
database stand for two server processes, each with its own memory of the game.

- When memory holds the game's latest state, the engine's apply and the views run
  outside the write lock: the lock covers only the version check and the writes.
- When another process has moved the game on since, the plan made from memory is
  thrown away under the lock and the action is applied to the latest state: nothing
  is lost, and every view is what a store with no memory at all computes.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.cli import migrate
from app.games.db import Database
from app.games.engine import Engine, load_engine
from app.games.models import ACTIONS_T
from app.games.store import GameStore
from app.settings import Settings


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'plan.db'}"
    migrate(Settings(DATABASE_URL=url))
    return url


def store(url: str, engine: Engine | None = None) -> GameStore:
    return GameStore(db=Database.connect(url), engine=engine or load_engine("app.rules"))


def test_the_engine_runs_outside_the_write_lock_when_memory_holds_the_game(url: str) -> None:
    """After a store's own action its memory holds the game: its next action's apply is
    made without the write lock held (SQLite: the process's lock before BEGIN IMMEDIATE)."""
    base = load_engine("app.rules")
    held: list[bool] = []
    holder: dict[str, GameStore] = {}

    def apply(state: Any, seat: str, action: Any) -> Any:
        held.append(holder["store"].db._write_lock.locked())
        return base.apply(state, seat, action)

    s = store(url, dataclasses.replace(base, apply=apply))
    holder["store"] = s
    game = s.create("one", [], "two-player", 11).id
    seats = [x["seat"] for x in s.seats(game)]
    rng = random.Random(11)
    for _ in range(12):
        docs = {seat: s.seat_view(game, seat) for seat in seats}
        seat = rng.choice([x for x in seats if docs[x]["prompt"]["actions"]])
        s.act(game, seat, docs[seat]["version"], rng.choice(docs[seat]["prompt"]["actions"]))
    assert len(held) >= 12
    assert not any(held), f"apply ran under the write lock {held.count(True)} of {len(held)} times"


def as_a_fresh_store_sees_it(
    url: str, game: str, seats: list[str], *stores: GameStore
) -> GameStore:
    """Every seat's view from each of `stores` equals that of a store with no memory of
    the game; that store, for more checks."""
    fresh = store(url)
    fresh.cache.size = 0
    for seat in seats:
        for s in stores:
            assert s.seat_view(game, seat) == fresh.seat_view(game, seat)
    return fresh


def test_a_plan_from_memory_that_another_process_overtook_is_made_again(url: str) -> None:
    """Store B remembers the game at N actions; store A records action N+1 (a Japanese
    setup placement, which leaves the American view as it was). An American action
    posted to B on its unchanged version is then applied after A's action, not in its
    place, and every view equals that of a store with no memory of the game."""
    a, b = store(url), store(url)
    game = a.create("one", [], "two-player", 12).id
    seats = [x["seat"] for x in a.seats(game)]
    assert seats == ["japan", "usa"], "a two-player game's seats are its sides"
    docs = {seat: b.seat_view(game, seat) for seat in seats}  # B remembers 0 actions
    usa = docs["usa"]
    assert usa["prompt"]["actions"], "7a2.2: both sides set up at once"

    japan = a.seat_view(game, "japan")
    place = next(x for x in japan["prompt"]["actions"] if x["kind"] == "place")
    a.act(game, "japan", japan["version"], place)
    assert a.seat_view(game, "usa")["version"] == usa["version"], "the setup is secret"

    b.act(game, "usa", usa["version"], usa["prompt"]["actions"][0])

    fresh = as_a_fresh_store_sees_it(url, game, seats, a, b)
    with fresh.db.read() as session:
        acted = session.execute(
            select(ACTIONS_T.c.seat).where(ACTIONS_T.c.game_id == game).order_by(ACTIONS_T.c.seq)
        ).all()
    assert [s for (s,) in acted] == ["japan", "usa"]


def test_a_plan_from_memory_of_a_log_since_taken_back_is_made_again(url: str) -> None:
    """Store B remembers the game after a Japanese placement; store A takes it back and
    places the Mobile Force elsewhere (the log is as long again, issue 14). An American
    action posted to B on its unchanged version is applied to the game as it is now,
    and every view equals that of a store with no memory of the game."""
    a, b = store(url), store(url)
    game = a.create("one", [], "two-player", 13).id
    seats = [x["seat"] for x in a.seats(game)]
    japan = a.seat_view(game, "japan")
    places = [x for x in japan["prompt"]["actions"] if x["kind"] == "place"]
    a.act(game, "japan", japan["version"], places[0])
    docs = {seat: b.seat_view(game, seat) for seat in seats}  # B remembers 1 action
    taken = a.take_back(game, "japan", docs["japan"]["version"])
    a.act(game, "japan", taken.version, places[-1])
    assert a.seat_view(game, "usa")["version"] == docs["usa"]["version"], "never shown"

    usa = docs["usa"]
    b.act(game, "usa", usa["version"], usa["prompt"]["actions"][0])

    fresh = as_a_fresh_store_sees_it(url, game, seats, a, b)
    forces = fresh.seat_view(game, "japan")["searchboard"]["forces"]
    assert forces == {places[-1]["force"]: places[-1]["hex"]}
