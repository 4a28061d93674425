"""Issue 34: a seat's page reads the seat's whole log on every GET (the log and dice
regions). The store keeps each seat's log it last read (app.games.cache.SeatLogs) and
reads again only the actions recorded since, and of each action only the seat's part of
its events; the log is what reading every action afresh gives, after actions of this
process or of another, and after a take-back (which may grow the log back to the same
length with other actions)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from app.cli import migrate
from app.games import store as store_module
from app.games.db import Database
from app.games.engine import load_engine
from app.games.models import ACTIONS_T
from app.games.store import GameStore
from app.settings import Settings

ENGINE = load_engine("app.rules")


@pytest.fixture
def url(database_url: str) -> Iterator[str]:
    migrate(Settings(DATABASE_URL=database_url))
    yield database_url
    for db in OPENED:
        db.dispose()
    OPENED.clear()


OPENED: list[Database] = []


def make_store(url: str) -> GameStore:
    OPENED.append(Database.connect(url))
    return GameStore(db=OPENED[-1], engine=ENGINE)


def read_afresh(s: GameStore, game: str, seat: str) -> tuple[int, list[dict[str, Any]]]:
    """The log as the store read it before issue 34: every action's events decoded."""
    with s.db.read() as session:
        rows = session.execute(
            select(ACTIONS_T.c.seq, ACTIONS_T.c.events)
            .where(ACTIONS_T.c.game_id == game)
            .order_by(ACTIONS_T.c.seq)
        ).all()
    return (rows[-1].seq if rows else 0), [e for r in rows for e in r.events.get(seat, [])]


def play(s: GameStore, game: str, rng: random.Random, actions: int) -> None:
    seats = [x["seat"] for x in s.seats(game)]
    for _ in range(actions):
        docs = {seat: s.seat_view(game, seat) for seat in seats}
        seat = rng.choice([x for x in seats if docs[x]["prompt"]["actions"]])
        s.act(game, seat, docs[seat]["version"], rng.choice(docs[seat]["prompt"]["actions"]))


def test_34_a_seat_log_read_again_reads_only_the_actions_since(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What is measured: the actions read from the database for a seat's second read of
    its log, after 5 more actions: those 5 (the first read: all of them)."""
    s = make_store(url)
    game = s.create("one", [], "two-player", 21).id
    rng = random.Random(21)
    play(s, game, rng, 30)
    read: list[int] = []
    rows_of = store_module._log_rows

    def counted(*args: Any) -> Any:
        rows = rows_of(*args)
        read.append(len(rows))
        return rows

    monkeypatch.setattr(store_module, "_log_rows", counted)
    for seat in ("usa", "japan"):
        assert s.log_through(game, seat) == read_afresh(s, game, seat)
    assert read == [30, 30]
    play(s, game, rng, 5)
    read.clear()
    for seat in ("usa", "japan"):
        assert s.log_through(game, seat) == read_afresh(s, game, seat)
    assert read == [5, 5]
    read.clear()
    assert s.log_through(game, "usa") == read_afresh(s, game, "usa")  # nothing new
    assert read == [0]


def test_34_a_seat_log_is_what_a_fresh_read_gives_after_another_process_acts(url: str) -> None:
    a, b = make_store(url), make_store(url)
    game = a.create("one", [], "two-player", 22).id
    rng = random.Random(22)
    for _ in range(6):
        play(b if rng.random() < 0.5 else a, game, rng, rng.randint(1, 6))
        for seat in ("usa", "japan"):
            assert a.log_through(game, seat) == read_afresh(a, game, seat)
            assert b.log(game, seat) == read_afresh(b, game, seat)[1]


def test_34_a_take_back_makes_the_seat_log_read_afresh(url: str) -> None:
    """14: a take-back shortens the log, which then grows back to the same length with
    another action: the log kept from before is not the log."""
    s = make_store(url)
    game = s.create("one", [], "two-player", 23).id
    rng = random.Random(23)
    taken = 0
    for _ in range(60):
        play(s, game, rng, 1)
        for seat in ("usa", "japan"):
            assert s.log_through(game, seat) == read_afresh(s, game, seat)
        loaded = s.cache.latest(game)
        assert loaded is not None
        seat = next((x for x in ("usa", "japan") if ENGINE.takeback(loaded.state, x).actions), None)
        if seat is None:
            continue
        s.take_back(game, seat, s.seat_view(game, seat)["version"])
        taken += 1
        for x in ("usa", "japan"):
            assert s.log_through(game, x) == read_afresh(s, game, x)
    assert taken >= 3


def test_34_a_deleted_game_has_no_log(url: str) -> None:
    s = make_store(url)
    game = s.create("one", [], "two-player", 24).id
    play(s, game, random.Random(24), 4)
    assert s.log_through(game, "usa")[0] == 4
    s.forget(game)
    assert s.log_through("0123456789abcdef", "usa") == (0, [])
