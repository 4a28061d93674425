"""The single writer of games (DESIGN.md, Data flows one way).

`GameStore.act` is the one transaction: lock the game, check the seat's version, apply
the action through the rules engine, append it to the log, recompute every seat's view,
store each changed view with its patch, commit. Nothing is acknowledged before the
commit. Everything here is synchronous; `app.games.service` runs it in worker threads.
"""

from __future__ import annotations

import json
import pickle
import re
import secrets
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Connection, Row, Table, insert, select, text, update
from sqlalchemy.orm import Session

from app.games.db import Database
from app.games.diff import make_patch
from app.games.engine import SEATS, SPECTATOR, Engine, Json
from app.games.errors import (
    BadRequest,
    GameNotFound,
    IllegalMove,
    NotAuthorised,
    NotFinished,
    NotYourMove,
    StaleVersion,
)
from app.games.models import ActionRecord, BenchPing, Game, Patch, Seat, Snapshot, utcnow
from app.games.tokens import new_game_id, new_token, token_hash, token_matches

# The write path speaks SQL Core to the tables (no unit of work: one statement a row).
GAMES_T = cast(Table, Game.__table__)
SEATS_T = cast(Table, Seat.__table__)
ACTIONS_T = cast(Table, ActionRecord.__table__)
PATCHES_T = cast(Table, Patch.__table__)
SNAPSHOTS_T = cast(Table, Snapshot.__table__)
SEED_BITS = 63
NOTIFY_CHANNEL = "midway_games"
GAME_ID = re.compile(r"[0-9a-f]{16}")
# Names this process in fan-out messages, so it skips the news of its own commits.
PROCESS_ORIGIN = uuid.uuid4().hex


@dataclass(frozen=True)
class SeatChange:
    """A seat's view moved to `version` by `patch` (RFC 6902, from `version - 1`)."""

    seat: str
    version: int
    patch: list[Any]


@dataclass(frozen=True)
class Committed:
    """What one committed action changed: the acting seat's new version and each patch."""

    game_id: str
    seq: int
    version: int
    changes: tuple[SeatChange, ...]


@dataclass(frozen=True)
class SeatRow:
    seat: str
    version: int
    view: Json


@dataclass(frozen=True)
class CreatedSeat:
    seat: str
    token: str


@dataclass(frozen=True)
class Created:
    id: str
    seats: tuple[CreatedSeat, ...]


@dataclass(frozen=True)
class CatchUp:
    """What a socket that has `since` needs: patches in order, or a fresh view."""

    version: int
    patches: tuple[SeatChange, ...] = ()
    view: Json | None = None


def check_id(game_id: str) -> None:
    """Ids are 16 hex digits (`new_game_id`); anything else is unknown, and never reaches
    the database (PostgreSQL refuses NUL bytes in text, for one)."""
    if not GAME_ID.fullmatch(game_id):
        raise GameNotFound(f"no game {game_id[:40]!r}")


def normalise(doc: Json) -> Json:
    """The view as JSON will carry it (tuples become lists), so diffs compare like with like."""
    normal: Json = json.loads(json.dumps(doc))
    return normal


class StateCache:
    """The latest state of recently used games, keyed by log length (a stale entry is
    simply not found). States are never mutated (apply returns a new one)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[int, Any]] = OrderedDict()

    def get(self, game_id: str, seq: int) -> Any | None:
        item = self._items.get(game_id)
        if item is None or item[0] != seq:
            return None
        self._items.move_to_end(game_id)
        return item[1]

    def put(self, game_id: str, seq: int, state: Any) -> None:
        if self.size == 0:
            return
        self._items[game_id] = (seq, state)
        self._items.move_to_end(game_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


@dataclass
class GameStore:
    db: Database
    engine: Engine
    snapshot_every: int = 50
    max_catchup: int = 100
    notify_in_transaction: bool = False
    cache: StateCache = field(default_factory=lambda: StateCache(512))
    _tokens: dict[str, dict[str, str]] = field(default_factory=dict)

    # -- creation --------------------------------------------------------------------

    def create(self, scenario: str, options: list[str], mode: str, seed: int | None) -> Created:
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        try:
            state = self.engine.new_game(scenario, frozenset(options), seed, mode)
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        game = Game(
            id=new_game_id(),
            scenario=scenario,
            options=sorted(set(options)),
            mode=mode,
            seed=seed,
            seed_sha256=self.engine.seed_hash(seed),
            status=str(state.status),
            actions=0,
        )
        tokens = tuple(CreatedSeat(seat, new_token()) for seat in SEATS)
        with self.db.write() as session:
            session.add(game)
            session.flush()
            for created in tokens:
                doc = self._document(game, created.seat, 1, self.engine.view(state, created.seat))
                session.add(
                    Seat(
                        game_id=game.id,
                        seat=created.seat,
                        token_sha256=token_hash(created.token),
                        version=1,
                        view=doc,
                    )
                )
        self.cache.put(game.id, 0, state)
        return Created(game.id, tokens)

    # -- reading ---------------------------------------------------------------------

    def authenticate(self, game_id: str, token: str | None) -> str:
        """The seat whose token this is: 404 for an unknown game, 401 for a bad token."""
        hashes = self._seat_hashes(game_id)
        if not token:
            raise NotAuthorised("a seat token is required: Authorization: Bearer <token>")
        found = None
        for seat, stored in hashes.items():  # every seat compared, in constant time
            if token_matches(token, stored):
                found = seat
        if found is None:
            raise NotAuthorised("this token is not a seat token of this game")
        return found

    def seat_view(self, game_id: str, seat: str) -> Json:
        with self.db.read() as session:
            row = session.get(Seat, (game_id, seat))
            if row is None:
                raise GameNotFound(f"no game {game_id!r}")
            return row.view

    def seat_version(self, game_id: str, seat: str) -> int:
        with self.db.read() as session:
            version = session.scalar(
                select(Seat.version).where(Seat.game_id == game_id, Seat.seat == seat)
            )
            if version is None:
                raise GameNotFound(f"no game {game_id!r}")
            return version

    def catch_up(self, game_id: str, seat: str, since: int | None) -> CatchUp:
        """Patches after version `since`, or the whole view when they would not do."""
        with self.db.read() as session:
            row = session.get(Seat, (game_id, seat))
            if row is None:
                raise GameNotFound(f"no game {game_id!r}")
            if since is None or since > row.version or row.version - since > self.max_catchup:
                return CatchUp(row.version, view=row.view)
            patches = session.scalars(
                select(Patch)
                .where(Patch.game_id == game_id, Patch.seat == seat, Patch.version > since)
                .where(Patch.version <= row.version)
                .order_by(Patch.version)
            ).all()
            if [p.version for p in patches] != list(range(since + 1, row.version + 1)):
                return CatchUp(row.version, view=row.view)
            return CatchUp(
                row.version, tuple(SeatChange(seat, p.version, p.patch) for p in patches)
            )

    def log(self, game_id: str, seat: str) -> list[Json]:
        with self.db.read() as session:
            rows = session.scalars(
                select(ActionRecord.events)
                .where(ActionRecord.game_id == game_id)
                .order_by(ActionRecord.seq)
            ).all()
        return [event for events in rows for event in events.get(seat, [])]

    def replay(self, game_id: str) -> Json:
        """The creation record, the revealed seed, the log and every event: finished only."""
        check_id(game_id)
        with self.db.read() as session:
            game = session.get(Game, game_id)
            if game is None:
                raise GameNotFound(f"no game {game_id!r}")
            if game.status != "finished":
                raise NotFinished("the replay and the seed are revealed when the game is finished")
            rows = session.scalars(
                select(ActionRecord)
                .where(ActionRecord.game_id == game_id)
                .order_by(ActionRecord.seq)
            ).all()
            return {
                "id": game.id,
                "scenario": game.scenario,
                "options": game.options,
                "mode": game.mode,
                "seed": game.seed,
                "seed_sha256": game.seed_sha256,
                "created_at": game.created_at.isoformat(),
                "finished_at": game.finished_at.isoformat() if game.finished_at else None,
                "actions": [
                    {
                        "seq": r.seq,
                        "seat": r.seat,
                        "action": r.action,
                        "at": r.created_at.isoformat(),
                    }
                    for r in rows
                ],
                "events": [event for r in rows for event in r.events.get("all", [])],
            }

    # -- the one transaction ----------------------------------------------------------

    def act(self, game_id: str, seat: str, version: int, action_json: Json) -> Committed:
        """Apply one action of `seat`, which saw its view at `version`."""
        try:
            action = self.engine.parse_action(action_json)
        except self.engine.parse_error as exc:
            raise BadRequest(f"malformed action: {exc}") from exc
        with self.db.write() as session:
            game = self._lock(session, game_id)
            conn = session.connection()
            seats = {
                row.seat: SeatRow(row.seat, row.version, row.view)
                for row in conn.execute(
                    select(SEATS_T.c.seat, SEATS_T.c.version, SEATS_T.c.view).where(
                        SEATS_T.c.game_id == game_id
                    )
                )
            }
            mine = seats[seat]
            if version != mine.version:
                raise StaleVersion(
                    f"stale version {version}: the {seat} view is at version {mine.version}",
                    version=mine.version,
                )
            state = self._load(session, game)
            try:
                new_state, events = self.engine.apply(state, seat, action)
            except self.engine.illegal_action as exc:
                if not self.engine.legal_actions(state, seat):
                    raise NotYourMove(f"the {seat} seat has nothing to do now") from exc
                raise IllegalMove(str(exc), rule=getattr(exc, "rule", None)) from exc
            committed = self._record(conn, game, seats, seat, action, new_state, events)
            if self.notify_in_transaction:
                conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {
                        "channel": NOTIFY_CHANNEL,
                        "payload": f"{game_id}:{committed.seq}:{PROCESS_ORIGIN}",
                    },
                )
        self.cache.put(game_id, committed.seq, new_state)
        return committed

    def _lock(self, session: Session, game_id: str) -> Row[Any]:
        """The game's row, locked until commit (FOR UPDATE; SQLite holds its write lock)."""
        game = (
            session.connection()
            .execute(select(GAMES_T).where(GAMES_T.c.id == game_id).with_for_update())
            .one_or_none()
        )
        if game is None:
            raise GameNotFound(f"no game {game_id!r}")
        return game

    def _record(
        self,
        conn: Connection,
        game: Row[Any],
        seats: dict[str, SeatRow],
        seat: str,
        action: Any,
        state: Any,
        events: list[Any],
    ) -> Committed:
        """Append the action, store each changed view with its patch (SQL Core: one
        statement per row, no unit of work)."""
        seq = game.actions + 1
        status = str(state.status)
        finished = utcnow() if status == "finished" and game.finished_at is None else None
        conn.execute(
            update(GAMES_T)
            .where(GAMES_T.c.id == game.id)
            .values(actions=seq, status=status, finished_at=finished or game.finished_at)
        )
        seen = {s: self.engine.events_for(events, s) for s in (*SEATS, SPECTATOR)}
        seen["all"] = self.engine.all_events(events)
        conn.execute(
            insert(ACTIONS_T).values(
                game_id=game.id,
                seq=seq,
                seat=seat,
                action=self.engine.action_json(action),
                seat_version=seats[seat].version,
                events=normalise(seen),
                created_at=utcnow(),
            )
        )
        changes = tuple(
            change
            for name, row in seats.items()
            if (change := self._update_view(conn, game, row, state, force=name == seat))
        )
        if seq % self.snapshot_every == 0:
            conn.execute(
                insert(SNAPSHOTS_T).values(
                    game_id=game.id,
                    seq=seq,
                    stamp=self.engine.stamp,
                    state=pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL),
                )
            )
        version = next(c.version for c in changes if c.seat == seat)
        return Committed(game.id, seq, version, changes)

    def _update_view(
        self, conn: Connection, game: Row[Any], row: SeatRow, state: Any, force: bool
    ) -> SeatChange | None:
        """Bump the seat's version if its view changed (always for the acting seat, so
        two posts on one version can never both pass the version check)."""
        fresh = self._document(game, row.seat, row.version, self.engine.view(state, row.seat))
        patch = make_patch(row.view, fresh)
        if not patch and not force:
            return None
        version = row.version + 1
        fresh["version"] = version
        patch.append({"op": "replace", "path": "/version", "value": version})
        conn.execute(
            update(SEATS_T)
            .where(SEATS_T.c.game_id == game.id, SEATS_T.c.seat == row.seat)
            .values(version=version, view=fresh)
        )
        conn.execute(
            insert(PATCHES_T).values(game_id=game.id, seat=row.seat, version=version, patch=patch)
        )
        return SeatChange(row.seat, version, patch)

    def _document(self, game: Game | Row[Any], seat: str, version: int, view: Json) -> Json:
        """The engine's view (a new dict each call, JSON types only, by its contract)
        with the server's fields around it."""
        doc = dict(view)
        doc.update(id=game.id, version=version, seat=seat, seed_sha256=game.seed_sha256)
        return doc

    # -- loading a state ----------------------------------------------------------------

    def _load(self, session: Session, game: Row[Any]) -> Any:
        """The state after the whole log: from memory, a snapshot, or a replay."""
        state = self.cache.get(game.id, game.actions)
        if state is not None:
            return state
        seq, state = self._snapshot(session, game)
        if state is None:
            seq = 0
            state = self.engine.new_game(
                game.scenario, frozenset(game.options), game.seed, game.mode
            )
        records = session.scalars(
            select(ActionRecord)
            .where(ActionRecord.game_id == game.id, ActionRecord.seq > seq)
            .order_by(ActionRecord.seq)
        )
        for record in records:
            state, _events = self.engine.apply(
                state, record.seat, self.engine.parse_action(record.action)
            )
        return state

    def _snapshot(self, session: Session, game: Row[Any]) -> tuple[int, Any | None]:
        snap = session.scalars(
            select(Snapshot)
            .where(Snapshot.game_id == game.id, Snapshot.seq <= game.actions)
            .where(Snapshot.stamp == self.engine.stamp)
            .order_by(Snapshot.seq.desc())
            .limit(1)
        ).first()
        if snap is None:
            return 0, None
        try:
            return snap.seq, pickle.loads(snap.state)
        except Exception:  # a snapshot the current code cannot read: replay instead
            return 0, None

    def knows_tokens(self, game_id: str) -> bool:
        return game_id in self._tokens

    def _seat_hashes(self, game_id: str) -> dict[str, str]:
        check_id(game_id)
        hashes = self._tokens.get(game_id)
        if hashes is None:
            with self.db.read() as session:
                rows = session.execute(
                    select(Seat.seat, Seat.token_sha256).where(Seat.game_id == game_id)
                ).all()
            if not rows:
                raise GameNotFound(f"no game {game_id!r}")
            hashes = {seat: digest for seat, digest in rows}
            if len(self._tokens) > 10_000:
                self._tokens.clear()
            self._tokens[game_id] = hashes
        return hashes


def bench_insert(db: Database) -> None:
    """One committed insert: the database half of the bench's latency floor."""
    with db.write() as session:
        session.add(BenchPing())
