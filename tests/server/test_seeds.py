"""Dice seeds of 128 bits with a salted commitment (DESIGN.md: the seed's hash shown from
the start, the seed revealed at the end; issue 16): the seed and salt the record reveals
reproduce the commitment every seat was shown, and replaying the log from that seed gives
the game that was played. Through real HTTP on SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from app.games.seeds import MAX_SEED, commitment, new_salt, new_seed
from app.rules import apply, new_game, view
from app.rules.engine.actions import Action
from app.rules.engine.dice import MASK64, seed_state
from server.client import Api, Game
from server.conftest import Server

MAX_ACTIONS = 3000


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def play_out(api: Api, game: Game, rng: random.Random) -> int:
    taken = 0
    while taken < MAX_ACTIONS and (found := api.acting_seat(game)) is not None:
        seat, seen = found
        r = api.act(game, seat, seen["version"], rng.choice(seen["prompt"]["actions"]))
        assert r.status_code == 200, r.text
        taken += 1
    return taken


def check_record(api: Api, game: Game, shown: str) -> dict[str, Any]:
    record: dict[str, Any] = api.http.get(f"/api/games/{game.id}/replay").json()
    salt = record["seed_salt"]
    assert len(salt) == 32 and int(salt, 16) >= 0  # 128 bits of salt, in hex
    text = f"{record['seed']}:{salt}".encode()
    assert hashlib.sha256(text).hexdigest() == record["seed_sha256"] == shown
    assert record["seed_commitment"] == 'sha256(f"{seed}:{seed_salt}")'
    # the revealed seed replays the log to the game both seats saw at the end
    state = new_game(record["scenario"], frozenset(record["options"]), record["seed"])
    for step in record["actions"]:
        state, _events = apply(state, step["seat"], Action.from_json(step["action"]))
    for seat in ("japan", "usa"):
        final = api.view(game, seat)
        expected = view(state, seat)
        assert {k: final[k] for k in expected} == expected
    return record


def test_random_seed_is_128_bits_and_the_revealed_seed_and_salt_reproduce_the_game(
    api: Api,
) -> None:
    game = api.create(seed=None)
    shown = api.view(game, "japan")["seed_sha256"]
    assert api.view(game, "usa")["seed_sha256"] == shown
    assert api.http.get(f"/api/games/{game.id}/replay").status_code == 403  # not before the end
    play_out(api, game, random.Random(16))
    assert api.view(game, "japan")["status"] == "finished"
    record = check_record(api, game, shown)
    assert 0 <= record["seed"] < MAX_SEED


@pytest.mark.slow
def test_a_seed_past_64_bits_given_by_a_test_server_is_kept_whole(api: Api) -> None:
    seed = 2**127 + 2**64 + 12345
    game = api.create(seed=seed, scenario="four")  # 7e: one surface combat, a short game
    shown = api.view(game, "japan")["seed_sha256"]
    play_out(api, game, random.Random(3))
    record = check_record(api, game, shown)
    assert record["seed"] == seed
    too_big = api.http.post("/api/games", json={"scenario": "one", "seed": MAX_SEED})
    assert too_big.status_code == 422


def test_same_seed_same_dice_different_salt() -> None:
    """Seeding stays deterministic (MIDWAY_ALLOW_SEED tests, replays); the salt makes
    two games of one seed show different commitments."""
    assert commitment(7, new_salt()) != commitment(7, new_salt())
    assert commitment(7, "") == hashlib.sha256(b"7").hexdigest()  # games from before salts
    big = new_seed()
    assert seed_state(big) == seed_state(big)
    assert seed_state(12345) == 12345  # seeds below 2**64 keep their dice
    assert seed_state(2**64 + 1) != seed_state(1) and 0 <= seed_state(2**100) <= MASK64
    assert seed_state(2**64 + 1) != seed_state(2**65 + 1)  # the high bits count


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_database(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "postgres":
        url: str = request.getfixturevalue("fresh_pg_database")
        return url
    return f"sqlite:///{tmp_path / 'seeds.db'}"


def test_migration_keeps_the_seeds_of_games_created_before_salts(empty_database: str) -> None:
    """0003_seed_salt: a BIGINT seed becomes its decimal text, with an empty salt (the
    old commitment, the bare seed's hash, still checks)."""
    import sqlalchemy as sa
    from alembic import command

    from app.cli import alembic_config
    from app.games.db import normalise_url
    from app.games.models import Game

    config = alembic_config(empty_database)
    command.upgrade(config, "0002")
    engine = sa.create_engine(normalise_url(empty_database))
    try:
        with engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO games (id, scenario, options, mode, seed, seed_sha256, status,"
                    " actions, created_at) VALUES ('00000000000000aa', 'one', '[]', "
                    "'two-player', 9223372036854775807, :digest, 'setup', 0, :now)"
                ),
                {"digest": hashlib.sha256(b"9223372036854775807").hexdigest(), "now": "2026-01-01"},
            )
        command.upgrade(config, "head")
        with sa.orm.Session(engine) as session:
            game = session.get(Game, "00000000000000aa")
            assert game is not None
            assert game.seed == 2**63 - 1 and game.seed_salt == ""
            assert commitment(game.seed, game.seed_salt) == game.seed_sha256
    finally:
        engine.dispose()
