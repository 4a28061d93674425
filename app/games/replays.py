"""Finished games, step by step (the replay page): the game after any number of its
actions, as one seat saw it then, or everything then (OMNISCIENT).

A finished game never changes, so the first request for it replays its log once and
keeps, per process, where the game stood after each action (its Turn, its step of the
sequence of play and the battle being fought: `Mark`) and the state every CHECKPOINT actions;
a step is then the nearest kept state plus fewer than CHECKPOINT actions. The events a
seat had been shown are those the log recorded for it when each action was taken.

That first replay also keeps the marks in the database (replay_marks) and a snapshot of
every SNAPSHOT_EVERY-th state and of the last (issue 34), stamped by the engine as the
live game's snapshots are: a process that does not hold the game (another one, or this
one after it let the game go) reads them instead of replaying the whole log, and a step
is then the nearest state kept in memory or in the database plus the actions after it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.exc import SQLAlchemyError

from app.games.db import Database
from app.games.engine import OMNISCIENT, Engine, Json
from app.games.errors import BadRequest, GameNotFound
from app.games.models import ACTIONS_T, REPLAY_MARKS_T, SNAPSHOTS_T
from app.games.states import (
    GameKey,
    apply_recorded,
    document,
    finished_game,
    first_state,
    latest_snapshot,
)

log = logging.getLogger(__name__)

CHECKPOINT = 25
KEPT_GAMES = 8
SNAPSHOT_EVERY = 50  # the states a first replay keeps in the database, with the last


@dataclass(frozen=True, slots=True)
class Mark:
    """Where the game stood after an action: its Turn (2b), its step of the sequence of
    play (2b, the state's step), how many battles of the game had come onto the
    Battleboard (4a), and whether one was on it."""

    turn: int
    step: str
    battles: int
    in_battle: bool

    @property
    def battle(self) -> int:
        """The battle on the Battleboard, by its count from 1 in the order fought; 0: none."""
        return self.battles if self.in_battle else 0


def battle_key(state: Any) -> tuple[object, ...] | None:
    """Which battle is on the Battleboard: an air battle (4a) by its Turn, how many
    battles of this Combat Phase were fought before it (4e1), its hex and its attacker;
    a surface combat (16) or a bombardment (16j) by its Turn and hex; None when none is."""
    b = state.battle
    if b is not None:
        return ("air", state.turn, len(state.fought), b.hex, str(b.attacker))
    surface = state.surface
    if surface is not None and surface.combat is not None:
        return ("surface", state.turn, surface.combat.hex)
    if surface is not None and surface.bombardment is not None:
        return ("bombardment", state.turn)
    return None


def mark_of(state: Any, before: Mark | None, key_before: Any) -> Mark:
    """The mark after an action, from the one before it and the battle then."""
    count = before.battles if before is not None else 0
    key = battle_key(state)
    if key is not None and key != key_before:
        count += 1
    return Mark(state.turn, str(state.step), count, key is not None)


@dataclass(frozen=True)
class ReplayStep:
    """A finished game after `at` of its `total` actions, as one seat saw it then;
    `marks[i]` is where the game stood after `i` actions."""

    at: int
    total: int
    marks: tuple[Mark, ...]
    view: Json
    events: list[Json]
    seat: str  # whose view it is (a seat of the game, or OMNISCIENT)


@dataclass(frozen=True)
class Replayed:
    """What is kept of one finished game: its log, the events each seat was shown by
    each action, where the game stood after each action, and every CHECKPOINT-th state."""

    game: GameKey
    log: list[tuple[str, Any]]
    shown: list[dict[str, list[Json]]]
    marks: tuple[Mark, ...]
    states: dict[int, Any]  # by actions taken: those worked out so far (0: the first)
    seats: tuple[str, ...]  # the game's seats, as the engine declares them


class Replays:
    def __init__(self, db: Database, engine: Engine) -> None:
        self.db = db
        self.engine = engine
        self._kept: OrderedDict[str, Replayed] = OrderedDict()
        self._lock = threading.Lock()

    def step(self, game_id: str, seat: str | None, at: int | None) -> ReplayStep:
        """The game after `at` actions as `seat` saw it (None: its first seat)."""
        game = self._replayed(game_id)
        seat = game.seats[0] if seat is None else seat
        if seat not in (*game.seats, OMNISCIENT):
            seats = ", ".join((*game.seats, OMNISCIENT))
            raise GameNotFound(f"no seat {seat[:20]!r} to replay: the seats are {seats}")
        total = len(game.log)
        at = total if at is None else at
        if not 0 <= at <= total:
            raise BadRequest(f"this game has actions 0 to {total}, not {at}")
        start, state = self._state_before(game, at)
        for who, action in game.log[start:at]:
            state, _events = apply_recorded(self.engine, state, who, action)
            start += 1
            if start % CHECKPOINT == 0:
                game.states.setdefault(start, state)
        doc = document(game.game, seat, at, self.engine.view(state, seat))
        doc["prompt"] = {**doc["prompt"], "actions": []}  # a replay takes no actions
        everything = at == total or seat == OMNISCIENT  # the end reveals all (7a3)
        key = "all" if everything else seat
        events = [e for shown in game.shown[:at] for e in shown.get(key, [])]
        return ReplayStep(at, total, game.marks, doc, events, seat)

    def _replayed(self, game_id: str) -> Replayed:
        with self._lock:
            kept = self._kept.get(game_id)
            if kept is not None:
                self._kept.move_to_end(game_id)
                return kept
        kept = self._replay(game_id)
        with self._lock:
            self._kept[game_id] = kept
            while len(self._kept) > KEPT_GAMES:
                self._kept.popitem(last=False)
        return kept

    def _state_before(self, game: Replayed, at: int) -> tuple[int, Any]:
        """The latest state kept at or before `at` actions, in memory or, when that is
        CHECKPOINT actions or more before it, in the database."""
        start = max(n for n in list(game.states) if n <= at)  # others may add
        if at - start >= CHECKPOINT:
            with self.db.read() as session:
                seq, state = self._snapshot(session.connection(), game.game.id, at)
            if state is not None and seq > start:
                game.states.setdefault(seq, state)
                return seq, state
        return start, game.states[start]

    def _snapshot(self, conn: Connection, game_id: str, at: int) -> tuple[int, Any | None]:
        """The latest snapshot at or before `at` actions (as StateLoader reads a live game's)."""
        return latest_snapshot(conn, self.engine, game_id, at)

    def _replay(self, game_id: str) -> Replayed:
        with self.db.read() as session:
            game = finished_game(session, game_id)
            rows = session.execute(
                select(ACTIONS_T.c.seat, ACTIONS_T.c.action, ACTIONS_T.c.events)
                .where(ACTIONS_T.c.game_id == game_id)
                .order_by(ACTIONS_T.c.seq)
            ).all()
            kept = session.execute(
                select(REPLAY_MARKS_T.c.marks).where(
                    REPLAY_MARKS_T.c.game_id == game_id,
                    REPLAY_MARKS_T.c.stamp == self.engine.stamp,
                )
            ).scalar_one_or_none()
        state = first_state(self.engine, game)
        states = {0: state}
        marks = _read_marks(kept, len(rows))
        if marks is None:
            found = [mark_of(state, None, None)]
            for i, row in enumerate(rows, start=1):
                battle_was = battle_key(state)
                state, _events = apply_recorded(self.engine, state, row.seat, row.action)
                found.append(mark_of(state, found[-1], battle_was))
                if i % CHECKPOINT == 0:
                    states[i] = state
            marks = tuple(found)
            self._keep(game_id, marks, {**states, len(rows): state})
        return Replayed(
            game=GameKey(game.id, game.seed_sha256),
            log=[(row.seat, row.action) for row in rows],
            shown=[row.events for row in rows],
            marks=marks,
            states=states,
            seats=self.engine.seat_ids(states[0]),
        )

    def _keep(self, game_id: str, marks: tuple[Mark, ...], states: dict[int, Any]) -> None:
        """Keep the marks and every SNAPSHOT_EVERY-th state and the last in the database
        (those of another engine stamp replaced). Only a cache of the log's replay: when
        it cannot be written (another process kept them first, say), nothing is lost."""
        stamp = self.engine.stamp
        last = len(marks) - 1
        try:
            texts = {
                n: json.dumps(self.engine.snapshot(s), separators=(",", ":"), allow_nan=False)
                for n, s in states.items()
                if n > 0 and (n % SNAPSHOT_EVERY == 0 or n == last)
            }
            with self.db.write() as session:
                conn = session.connection()
                conn.execute(
                    delete(SNAPSHOTS_T).where(
                        SNAPSHOTS_T.c.game_id == game_id, SNAPSHOTS_T.c.stamp != stamp
                    )
                )
                have = set(
                    conn.execute(
                        select(SNAPSHOTS_T.c.seq).where(SNAPSHOTS_T.c.game_id == game_id)
                    ).scalars()
                )
                new = [
                    {"game_id": game_id, "seq": n, "stamp": stamp, "state": text}
                    for n, text in texts.items()
                    if n not in have
                ]
                if new:
                    conn.execute(insert(SNAPSHOTS_T), new)
                conn.execute(delete(REPLAY_MARKS_T).where(REPLAY_MARKS_T.c.game_id == game_id))
                conn.execute(
                    insert(REPLAY_MARKS_T).values(
                        game_id=game_id, stamp=stamp, marks=_write_marks(marks)
                    )
                )
        except (SQLAlchemyError, TypeError, ValueError) as exc:
            log.warning("replay of game %s not kept: %s", game_id, type(exc).__name__)


def _write_marks(marks: tuple[Mark, ...]) -> str:
    return json.dumps([[m.turn, m.step, m.battles, m.in_battle] for m in marks])


def _read_marks(text: str | None, actions: int) -> tuple[Mark, ...] | None:
    """The kept marks, one before the first action and one after each; None when none
    are kept or they are not of this log's length."""
    if text is None:
        return None
    try:
        marks = tuple(Mark(int(t), str(s), int(b), bool(x)) for t, s, b, x in json.loads(text))
    except (TypeError, ValueError):
        return None
    return marks if len(marks) == actions + 1 else None
