"""The state of a game after its log, and each seat's view document (DESIGN.md,
Storage: "State is the replay of the log; snapshots every N actions make loading fast").

A state comes from this process's memory when its log length matches, else from the
latest snapshot stamped by the running engine plus the actions after it, else from a
replay of the whole log. A document is the engine's view with the server's fields.

A snapshot is the JSON text of the engine's `snapshot(state)`, read back by `restore`,
which refuses a document of another format version or shape. It is still used only by
the engine `stamp` that made it, and that check is not the format's: the format says
whether the document can be read, the stamp whether it is what this engine's replay of
the log gives. A snapshot is a cache of that replay, and the log is the truth: rules
changed since may replay the same log to another state, or refuse it (Unreplayable),
and an older engine's snapshot would hide both. A snapshot that does not restore is
passed over the same way: the game is replayed from its log.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Row, select
from sqlalchemy.orm import Session

from app.games.cache import GameCache, Loaded
from app.games.engine import SPECTATOR, Engine, Json
from app.games.errors import GameNotFound, NotFinished, Unreplayable
from app.games.models import ACTIONS_T, SNAPSHOTS_T, Game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameKey:
    """What a view document needs of its game, when no row is at hand."""

    id: str
    seed_sha256: str


GameRef = Game | Row[Any] | GameKey


def document(game: GameRef, seat: str, version: int, view: Json) -> Json:
    """The engine's view (a new dict each call, JSON types only, by its contract)
    with the server's fields around it."""
    doc = dict(view)
    doc.update(id=game.id, version=version, seat=seat, seed_sha256=game.seed_sha256)
    return doc


def told(engine: Engine, state: Any, events: list[Any]) -> Json:
    """What each seat of the game of `state` (and a spectator, and the finished game's
    replay: "all") may read of an action's events, as JSON will carry them (tuples become
    lists): the log record's `events`."""
    seen = {s: engine.events_for(events, s) for s in (*engine.seat_ids(state), SPECTATOR)}
    seen["all"] = engine.all_events(events)
    normal: Json = json.loads(json.dumps(seen))
    return normal


def first_state(engine: Engine, game: Game | Row[Any]) -> Any:
    """The state before the game's first action (its creation record)."""
    return engine.new_game(
        game.scenario, frozenset(game.options), game.seed, game.mode, bool(game.teams)
    )


def apply_recorded(engine: Engine, state: Any, seat: str, action: Json) -> tuple[Any, list[Any]]:
    """Apply one action of the log; a log the running rules refuse is Unreplayable."""
    try:
        return engine.apply(state, seat, engine.parse_action(action))
    except (engine.illegal_action, engine.parse_error) as exc:
        # Which action, whose and why stay here: they may be secret (and so may the
        # count of actions), for the client and for the log alike.
        raise Unreplayable(
            "this game was recorded under rules this server no longer runs: its log "
            "cannot be replayed, so it cannot be continued or replayed here"
        ) from exc


def finished_game(session: Session, game_id: str) -> Game:
    """The game's creation record, when the game is over (its replay and seed are
    revealed then, and not before)."""
    game = session.get(Game, game_id)
    if game is None:
        raise GameNotFound(f"no game {game_id!r}")
    if game.status != "finished":
        raise NotFinished("the replay and the seed are revealed when the game is finished")
    return game


class StateLoader:
    def __init__(self, engine: Engine, cache: GameCache) -> None:
        self.engine = engine
        self.cache = cache

    def load(self, conn: Connection, game: Row[Any]) -> Loaded:
        """The state after the whole log: from memory, else a snapshot plus the log after
        it, else a replay of the whole log."""
        loaded = self.cache.get(game.id, game.actions, game.takebacks)
        if loaded is not None:
            return loaded
        loaded = Loaded(game.actions, self.state_at(conn, game, game.actions), {}, game.takebacks)
        self.cache.put(game.id, loaded)
        return loaded

    def state_at(self, conn: Connection, game: Row[Any], at: int) -> Any:
        """The state after the log's first `at` actions (the latest snapshot at or
        before it, plus the actions after that)."""
        seq, state = self._snapshot(conn, game, at)
        if state is None:
            seq, state = 0, first_state(self.engine, game)
        records = conn.execute(
            select(ACTIONS_T.c.seat, ACTIONS_T.c.action)
            .where(ACTIONS_T.c.game_id == game.id)
            .where(ACTIONS_T.c.seq > seq, ACTIONS_T.c.seq <= at)
            .order_by(ACTIONS_T.c.seq)
        )
        for record in records:
            state, _events = apply_recorded(self.engine, state, record.seat, record.action)
        return state

    def _snapshot(self, conn: Connection, game: Row[Any], at: int) -> tuple[int, Any | None]:
        return latest_snapshot(conn, self.engine, game.id, at)


def latest_snapshot(
    conn: Connection, engine: Engine, game_id: str, at: int
) -> tuple[int, Any | None]:
    """The latest snapshot of this engine at or before `at` actions; (0, None) when there is
    none or it does not restore (not JSON, another format, not a state: replay instead)."""
    snap = conn.execute(
        select(SNAPSHOTS_T.c.seq, SNAPSHOTS_T.c.state)
        .where(SNAPSHOTS_T.c.game_id == game_id, SNAPSHOTS_T.c.seq <= at)
        .where(SNAPSHOTS_T.c.stamp == engine.stamp)
        .order_by(SNAPSHOTS_T.c.seq.desc())
        .limit(1)
    ).first()
    if snap is None:
        return 0, None
    try:
        return snap.seq, engine.restore(json.loads(snap.state))
    except ValueError as exc:  # the exception's class only: its message may quote the state
        log.warning("snapshot of game %s passed over: %s", game_id, type(exc).__name__)
        return 0, None
