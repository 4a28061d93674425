"""Snapshots as data (issue 16; DESIGN.md, Storage: "snapshots every N actions make
loading fast"). The stored snapshot is the JSON text of the engine's versioned
`snapshot(state)`, never a pickle; a snapshot is only a cache of the log's replay, so
one of another format version, or one that does not restore, is passed over and the
game is replayed from its log to the same state. On SQLite and on PostgreSQL, through
the store itself (a store with no memory stands for a process that just started)."""

from __future__ import annotations

import dataclasses
import json
import logging
import pickle
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

import app.rules as rules
from app.cli import alembic_config, migrate
from app.games.db import Database, normalise_url
from app.games.engine import load_engine
from app.games.models import GAMES_T
from app.games.store import GameStore
from app.rules.engine.snapshot import FORMAT
from app.settings import Settings

EVERY = 5
ACTIONS = 12  # snapshots after 5 and 10 actions, two actions of the log after the last


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def bare_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database of the test's own, not migrated."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("fresh_pg_database")
        return url
    return f"sqlite:///{tmp_path / 'snapshots.db'}"


@pytest.fixture
def url(bare_url: str) -> str:
    migrate(Settings(DATABASE_URL=bare_url))
    return bare_url


@pytest.fixture
def stores(url: str) -> Iterator[Callable[[], GameStore]]:
    """Stores on the test's database, with no memory of any game (cache size 0)."""
    made: list[GameStore] = []

    def make() -> GameStore:
        store = GameStore(db=Database.connect(url), engine=load_engine("app.rules"))
        store.snapshot_every = EVERY
        store.cache.size = 0
        made.append(store)
        return store

    yield make
    for store in made:
        store.db.dispose()


def play(store: GameStore, game: str, actions: int, seed: int) -> None:
    rng = random.Random(seed)
    seats = [x["seat"] for x in store.seats(game)]
    for _ in range(actions):
        docs = {seat: store.seat_view(game, seat) for seat in seats}
        seat = rng.choice([s for s in seats if docs[s]["prompt"]["actions"]])
        store.act(game, seat, docs[seat]["version"], rng.choice(docs[seat]["prompt"]["actions"]))


def sql(url: str, statement: str, **params: Any) -> list[Any]:
    engine = sa.create_engine(normalise_url(url))
    try:
        with engine.begin() as conn:
            result = conn.execute(sa.text(statement), params)
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()


def replayed(url: str, game: str) -> rules.State:
    """The engine's own replay of the game's whole log."""
    (scenario, options, seed) = sql(
        url, "SELECT scenario, options, seed FROM games WHERE id = :g", g=game
    )[0]
    log = sql(url, "SELECT seat, action FROM actions WHERE game_id = :g ORDER BY seq", g=game)
    state, _ = rules.replay(
        scenario, frozenset(as_json(options)), int(seed), [(s, as_json(a)) for s, a in log]
    )
    return state


def as_json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def loaded(store: GameStore, game: str) -> rules.State:
    """The state the store loads for the game (no memory: snapshot plus log, or replay)."""
    with store.db.read() as session:
        conn = session.connection()
        row = conn.execute(sa.select(GAMES_T).where(GAMES_T.c.id == game)).one()
        state: rules.State = store.loader.load(conn, row).state
        return state


def new_game(store: GameStore) -> str:
    game = store.create("two", ["11a", "16"], "two-player", 31).id
    play(store, game, ACTIONS, 31)
    return game


def test_the_stored_snapshot_is_json_text_of_the_engine_document_not_a_pickle(
    url: str, stores: Callable[[], GameStore]
) -> None:
    store = stores()
    game = new_game(store)
    rows = sql(
        url, "SELECT seq, stamp, state FROM snapshots WHERE game_id = :g ORDER BY seq", g=game
    )
    assert [r.seq for r in rows] == [5, 10]
    engine = sa.create_engine(normalise_url(url))
    try:
        column = next(
            c for c in sa.inspect(engine).get_columns("snapshots") if c["name"] == "state"
        )
    finally:
        engine.dispose()
    assert isinstance(column["type"], sa.Text), column["type"]
    last = rows[-1]
    assert isinstance(last.state, str), type(last.state)
    assert not last.state.startswith("\x80"), "a pickle starts with its protocol byte"
    doc = json.loads(last.state)
    assert doc["format"] == FORMAT and last.stamp == store.engine.stamp
    log = sql(url, "SELECT seat, action FROM actions WHERE game_id = :g ORDER BY seq", g=game)
    state, _ = rules.replay(
        "two", frozenset({"11a", "16"}), 31, [(s, as_json(a)) for s, a in log[:10]]
    )
    assert rules.restore(doc) == state
    assert doc == json.loads(json.dumps(rules.snapshot(state)))


def test_a_store_loads_a_game_from_its_latest_snapshot_and_the_log_after_it(
    url: str, stores: Callable[[], GameStore]
) -> None:
    """The snapshot is read: a seed written into the latest one shows in the loaded
    state (the seed is not read again after setup), and the two actions after it are
    applied on top. (The control for the tests below: there the snapshot is passed over.)"""
    game = new_game(stores())
    doc = json.loads(
        sql(url, "SELECT state FROM snapshots WHERE game_id = :g AND seq = 10", g=game)[0][0]
    )
    doc["state"]["seed"] = 777
    sql(
        url,
        "UPDATE snapshots SET state = :s WHERE game_id = :g AND seq = 10",
        s=json.dumps(doc),
        g=game,
    )
    state = loaded(stores(), game)
    expected = replayed(url, game)
    assert state.seed == 777 and expected.seed == 31
    state.seed = expected.seed
    assert state == expected


def other_format(doc: dict[str, Any]) -> str:
    """Another format version: content that would load as a different state if read."""
    doc["format"] = FORMAT + 1
    doc["state"]["seed"] = 777
    return json.dumps(doc)


def not_a_state(doc: dict[str, Any]) -> str:
    doc["state"]["boards"]["usa"].pop("flights")
    return json.dumps(doc)


def cut_short(doc: dict[str, Any]) -> str:
    return json.dumps(doc)[:1000]


@pytest.mark.parametrize("spoil", [other_format, not_a_state, cut_short])
def test_a_snapshot_of_another_format_or_that_does_not_restore_is_passed_over(
    url: str,
    stores: Callable[[], GameStore],
    spoil: Callable[[dict[str, Any]], str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every snapshot of the game spoilt: the store replays the whole log instead, to the
    engine's own replay, says so in its log (without the snapshot's text), and the game
    goes on (its next snapshot is a good one)."""
    game = new_game(stores())
    for seq, text in sql(url, "SELECT seq, state FROM snapshots WHERE game_id = :g", g=game):
        spoilt = spoil(json.loads(text))
        sql(
            url,
            "UPDATE snapshots SET state = :s WHERE game_id = :g AND seq = :n",
            s=spoilt,
            g=game,
            n=seq,
        )
    store = stores()
    with caplog.at_level(logging.WARNING, logger="app.games.states"):
        assert loaded(store, game) == replayed(url, game)
    assert f"snapshot of game {game} passed over" in caplog.text
    assert "777" not in caplog.text and "flights" not in caplog.text
    play(store, game, 3, 32)  # to 15 actions: a good snapshot again
    assert loaded(stores(), game) == replayed(url, game)
    (text,) = sql(url, "SELECT state FROM snapshots WHERE game_id = :g AND seq = 15", g=game)[0]
    assert rules.restore(json.loads(text)) == loaded(stores(), game)


def test_a_state_the_engine_cannot_snapshot_still_takes_its_action(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A snapshot is only a cache: when the engine's snapshot fails, the action is still
    recorded (no 5xx), no snapshot row is written, and the store's log says so."""
    base = load_engine("app.rules")

    def failing(state: Any) -> dict[str, Any]:
        raise TypeError(f"cannot encode {state.boards['japan'].forces}")

    store = GameStore(db=Database.connect(url), engine=dataclasses.replace(base, snapshot=failing))
    store.snapshot_every = EVERY
    try:
        game = store.create("one", [], "two-player", 34).id
        with caplog.at_level(logging.WARNING, logger="app.games.store"):
            play(store, game, EVERY, 34)
    finally:
        store.db.dispose()
    assert sql(url, "SELECT count(*) FROM actions WHERE game_id = :g", g=game)[0][0] == EVERY
    assert sql(url, "SELECT count(*) FROM snapshots WHERE game_id = :g", g=game)[0][0] == 0
    assert f"no snapshot of game {game}: TypeError" in caplog.text
    assert "cannot encode" not in caplog.text


def test_the_migration_drops_pickled_snapshots_and_the_game_loads_by_replay(bare_url: str) -> None:
    """Snapshots made before 0005 were pickles: the migration drops them (they are only a
    cache of the log), and a store then loads the game by replaying its log."""
    config = alembic_config(bare_url)
    command.upgrade(config, "head")  # the store writes today's tables
    store = GameStore(db=Database.connect(bare_url), engine=load_engine("app.rules"))
    store.snapshot_every = 1000
    try:
        game = store.create("one", [], "two-player", 33).id
        play(store, game, 6, 33)
        store.db.dispose()
        command.downgrade(config, "0004_between_moves")  # snapshots were pickles then
        pickled = pickle.dumps(replayed(bare_url, game), protocol=pickle.HIGHEST_PROTOCOL)
        sql(
            bare_url,
            "INSERT INTO snapshots (game_id, seq, stamp, state) VALUES (:g, 6, :stamp, :state)",
            g=game,
            stamp=store.engine.stamp,
            state=pickled,
        )
        command.upgrade(config, "head")
        assert sql(bare_url, "SELECT count(*) FROM snapshots")[0][0] == 0
        store.cache.size = 0
        store.cache.discard(game)
        assert loaded(store, game) == replayed(bare_url, game)
    finally:
        store.db.dispose()
