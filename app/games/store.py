"""The single writer of games (DESIGN.md, Data flows one way).

`GameStore.act` is the one transaction: lock the game, check the seat's version, apply
the action through the rules engine, append it to the log, recompute every seat's view,
store each changed seat's new version with its patch, commit. Nothing is acknowledged
before the commit. Everything here is synchronous; `app.games.service` runs it in worker
threads, except an action on SQLite, which it runs on the event loop (`prepare`, then
`act` with `at_once` while the write lock is free: GameService._act).

Views are not stored: a view is `view(state, seat)` for the state after the log, so the
database keeps the log (plus snapshots), each seat's version and the patches, and this
process keeps the latest state and documents in memory (`app.games.cache`). A seat's row
records the engine stamp its view was computed with; when the engine has changed since,
the old view cannot be recomputed, and the seat's next version carries no patch (a
fresh view is sent instead).
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import Connection, Row, bindparam, select
from sqlalchemy.engine import Dialect

from app.games.cache import GameCache, Loaded, SeatLog, SeatLogs
from app.games.computer_seats import check_computer
from app.games.db import Database
from app.games.diff import make_patch
from app.games.engine import OMNISCIENT, Engine, Json
from app.games.errors import (
    BadRequest,
    GameNotFound,
    IllegalMove,
    NotAuthorised,
    NotYourMove,
    StaleVersion,
)
from app.games.models import (
    ACTIONS_T,
    BENCH_T,
    GAMES_T,
    PATCHES_T,
    SEATS_T,
    ActionRecord,
    Game,
    Seat,
    utcnow,
)
from app.games.replays import Replays, ReplayStep
from app.games.seeds import COMMITMENT, commitment, new_salt, new_seed
from app.games.stages import STAGES
from app.games.states import (
    GameKey,
    GameRef,
    StateLoader,
    document,
    finished_game,
    first_state,
    told,
)
from app.games.takeback import TakeBackWrites, undo, write_takeback
from app.games.tokens import new_game_id, new_token, token_hash, token_matches
from app.games.writes import (
    BENCH_PING,
    MAX_SEATS,
    ActionWrites,
    SeatChange,
    write_action,
    write_action_sqlite,
)

GAME_ID = re.compile(r"[0-9a-f]{16}")
# The game's row and its seats' rows, locked until commit (see GameStore._lock).
LOCK = (
    select(GAMES_T, SEATS_T.c.seat, SEATS_T.c.version, SEATS_T.c.view_stamp)
    .join(SEATS_T, SEATS_T.c.game_id == GAMES_T.c.id)
    .where(GAMES_T.c.id == bindparam("game_id"))
    .with_for_update()
)
# The same rows on SQLite's own connection (Database.sqlite_write), as far as an action
# planned from memory needs them.
SQLITE_LOCK = (
    "SELECT games.status, games.actions, games.takebacks, games.finished_at,"
    " seats.seat, seats.version, seats.view_stamp"
    " FROM games JOIN seats ON seats.game_id = games.id WHERE games.id = ?"
)
# Names this process in fan-out messages, so it skips the news of its own commits.
PROCESS_ORIGIN = uuid.uuid4().hex
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Committed:
    """What one committed action changed: the acting seat's new version and each patch."""

    game_id: str
    seq: int
    version: int
    changes: tuple[SeatChange, ...]
    events: Json | None = None  # the action's events, by who may read them (`told`)
    doc: Json | None = None  # the acting seat's view document at `version`


@dataclass(frozen=True)
class SeatRow:
    seat: str
    version: int
    stamp: str  # the engine stamp the seat's current view was computed with


@dataclass(frozen=True)
class Plan:
    """One action worked out against the game after `before.seq` actions, its seats at
    `seats`: each seat's new version and patch, the new documents in `after.docs` and
    the events each seat may see, and on every `snapshot_every`-th action the snapshot
    to store. Valid while the database says the same."""

    seat: str
    action: Any
    seats: dict[str, SeatRow]
    before: Loaded
    after: Loaded
    events: Json
    changes: tuple[SeatChange, ...]
    snapshot: str | None = None

    def holds(self, at: tuple[int, int], seats: dict[str, SeatRow]) -> bool:
        """The locked rows, the game's (takebacks, actions) and its seats', are those it
        was worked out from (the stamps aside: the documents it started from were in
        memory, whatever engine the rows name)."""
        versions = {s: r.version for s, r in seats.items()}
        return at == self.before.at and versions == {s: r.version for s, r in self.seats.items()}


class Prepared(NamedTuple):
    """An action parsed, and its plan when it could be made from memory (GameStore.prepare)."""

    action: Any
    plan: Plan | None


@dataclass(frozen=True)
class CreatedSeat:
    seat: str
    token: str
    about: Json = field(default_factory=dict)  # the engine's seat: {seat, side, command, label}


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


def check_seat(status: str, seats: dict[str, SeatRow], seat: str, version: int) -> None:
    """Under the lock: the game is still on and `seat` is at `version`."""
    if status == "claimed":  # its pace's overdue seat lost it (issue 14)
        raise NotYourMove("this game is over: it was claimed on its pace")
    mine = seats[seat]
    if version != mine.version:
        raise StaleVersion(
            f"stale version {version}: the {seat} view is at version {mine.version}",
            version=mine.version,
        )


@cache
def _finished_at_reader(dialect: Dialect) -> Callable[[Any], Any] | None:
    """How SQLAlchemy reads `games.finished_at` on this dialect (worked out once)."""
    return GAMES_T.c.finished_at.type.dialect_impl(dialect).result_processor(dialect, None)


@cache
def _created_at_writer(dialect: Dialect) -> Callable[[Any], Any] | None:
    """How SQLAlchemy writes `bench_pings.created_at` on this dialect (worked out once)."""
    return BENCH_T.c.created_at.type.dialect_impl(dialect).bind_processor(dialect)


def read_datetime(db: Database, stored: Any) -> Any:
    """A timestamp read on SQLite's own connection, as SQLAlchemy reads the column."""
    process = _finished_at_reader(db.writer.dialect)
    return stored if process is None or stored is None else process(stored)


def check_id(game_id: str) -> None:
    """Ids are 16 hex digits (`new_game_id`); anything else is unknown, and never reaches
    the database (PostgreSQL refuses NUL bytes in text, for one)."""
    if not GAME_ID.fullmatch(game_id):
        raise GameNotFound(f"no game {game_id[:40]!r}")


LOG_EVENTS_KEPT = 50_000  # SeatLogs: about 40 MB (some 800 bytes an event), some fifty long games


def _log_rows(conn: Connection, game_id: str, seat: str, after: int) -> Sequence[Any]:
    """The actions after `after`: each one's seq, the seat's part of its events (decoded
    alone: None when it has none) and the game's take-back count."""
    return conn.execute(
        select(
            ACTIONS_T.c.seq,
            ACTIONS_T.c.events[seat].label("events"),
            GAMES_T.c.takebacks,
        )
        .join(GAMES_T, GAMES_T.c.id == ACTIONS_T.c.game_id)
        .where(ACTIONS_T.c.game_id == game_id, ACTIONS_T.c.seq > after)
        .order_by(ACTIONS_T.c.seq)
    ).all()


@dataclass
class GameStore:
    db: Database
    engine: Engine
    snapshot_every: int = 50
    max_catchup: int = 100
    notify_in_transaction: bool = False
    cache: GameCache = field(default_factory=lambda: GameCache(512))
    logs: SeatLogs = field(default_factory=lambda: SeatLogs(LOG_EVENTS_KEPT))
    _tokens: dict[str, dict[str, str]] = field(default_factory=dict)
    loader: StateLoader = field(init=False)
    replays: Replays = field(init=False)

    def __post_init__(self) -> None:
        self.loader = StateLoader(self.engine, self.cache)
        self.replays = Replays(self.db, self.engine)

    # -- creation --------------------------------------------------------------------

    def create(
        self,
        scenario: str,
        options: list[str],
        mode: str,
        seed: int | None,
        teams: bool = False,
        computer: Mapping[str, str] | None = None,
    ) -> Created:
        """A new game; its seats are those the engine declares for it (scenario, mode,
        teams), each with a token of its own; `computer`: the seats the computer plays
        and its level (issue 35), checked against those seats."""
        t = STAGES.clock()
        if seed is None:
            seed = new_seed()
        salt = new_salt()
        try:
            state = self.engine.new_game(scenario, frozenset(options), seed, mode, teams)
        except ValueError as exc:
            raise BadRequest(str(exc), rule=getattr(exc, "rule", None)) from exc
        declared = self.engine.seats(state)
        seats = tuple(str(s["seat"]) for s in declared)
        if not 1 <= len(seats) <= MAX_SEATS:
            raise BadRequest(f"a game has 1 to {MAX_SEATS} seats, not {len(seats)}")
        levels = check_computer(seats, computer or {})
        game = Game(
            id=new_game_id(),
            scenario=scenario,
            options=list(state.options),  # with those the scenario brings (7e)
            mode=mode,
            teams=teams,
            seed=seed,
            seed_salt=salt,
            seed_sha256=commitment(seed, salt),
            status=str(state.status),
            actions=0,
        )
        tokens = tuple(CreatedSeat(str(s["seat"]), new_token(), s) for s in declared)
        with self.db.write() as session:
            session.add(game)
            session.flush()
            for created in tokens:
                session.add(
                    Seat(
                        game_id=game.id,
                        seat=created.seat,
                        token_sha256=token_hash(created.token),
                        version=1,
                        view_stamp=self.engine.stamp,
                        computer=levels.get(created.seat),
                    )
                )
        docs = {s: document(game, s, 1, self.engine.view(state, s)) for s in seats}
        self.cache.put(game.id, Loaded(0, state, docs))
        STAGES.lap("create", t)
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
        """The seat's view document at its current version."""
        with self.db.read() as session:
            return self._current_doc(session.connection(), game_id, seat)

    def why_not(self, game_id: str, seat: str, click: Json) -> tuple[str, str | None] | None:
        """Issue 13: why a click on the seat's page makes no legal action now, as the
        engine says it (its words and rule: those of the 422 for that action); None when
        it makes one."""
        with self.db.read() as session:
            conn = session.connection()
            loaded = self.loader.load(conn, self._game_and_seat(conn, game_id, seat))
        try:
            found = self.engine.why_not(loaded.state, seat, click)
        except self.engine.parse_error as exc:
            raise BadRequest(f"malformed click: {exc}") from exc
        if found is None:
            return None
        return str(found), getattr(found, "rule", None)

    def catch_up(self, game_id: str, seat: str, since: int | None) -> CatchUp:
        """Patches after version `since`, or the whole view when they would not do."""
        t = STAGES.clock()
        try:
            return self._catch_up(game_id, seat, since)
        finally:
            STAGES.lap("fanout", t)

    def _catch_up(self, game_id: str, seat: str, since: int | None) -> CatchUp:
        with self.db.read() as session:
            conn = session.connection()
            game = self._game_and_seat(conn, game_id, seat)
            current = game.version
            if since is None or since > current or current - since > self.max_catchup:
                return CatchUp(current, view=self._doc(conn, game, seat))
            rows = conn.execute(
                select(PATCHES_T.c.version, PATCHES_T.c.patch)
                .where(PATCHES_T.c.game_id == game_id, PATCHES_T.c.seat == seat)
                .where(PATCHES_T.c.version > since, PATCHES_T.c.version <= current)
                .order_by(PATCHES_T.c.version)
            ).all()
            complete = [v for v, p in rows if p is not None] == list(range(since + 1, current + 1))
            if not complete:
                return CatchUp(current, view=self._doc(conn, game, seat))
            return CatchUp(current, tuple(SeatChange(seat, v, p) for v, p in rows))

    def _current_doc(self, conn: Connection, game_id: str, seat: str) -> Json:
        return self._doc(conn, self._game_and_seat(conn, game_id, seat), seat)

    def _game_and_seat(self, conn: Connection, game_id: str, seat: str) -> Row[Any]:
        """The game with the seat's version, in one statement (one snapshot of both, even
        under READ COMMITTED)."""
        row = conn.execute(
            select(GAMES_T, SEATS_T.c.version)
            .join(SEATS_T, SEATS_T.c.game_id == GAMES_T.c.id)
            .where(GAMES_T.c.id == game_id, SEATS_T.c.seat == seat)
        ).one_or_none()
        if row is None:
            raise GameNotFound(f"no game {game_id!r}")
        return row

    def _doc(self, conn: Connection, game: Row[Any], seat: str) -> Json:
        """The seat's document after `game.actions` actions, at version `game.version`."""
        loaded = self.loader.load(conn, game)
        doc = loaded.docs.get(seat)
        if doc is None or doc["version"] != game.version:
            doc = document(game, seat, game.version, self.engine.view(loaded.state, seat))
            self.cache.put(game.id, Loaded(loaded.seq, loaded.state, {seat: doc}, loaded.epoch))
        return doc

    def doc_in_memory(self, game_id: str, seat: str, version: int) -> Json | None:
        """The seat's document at `version` from this process's memory, or None."""
        loaded = self.cache.latest(game_id)
        doc = None if loaded is None else loaded.docs.get(seat)
        return doc if doc is not None and doc.get("version") == version else None

    def log(self, game_id: str, seat: str) -> list[Json]:
        return self.log_through(game_id, seat)[1]

    def log_through(self, game_id: str, seat: str) -> tuple[int, list[Json]]:
        """The events the seat may read, and how many actions of the log they are of:
        those of the actions since the log this process last read for the seat, when the
        game has had no take-back since (issue 34: a seat's page reads it on every GET)."""
        t = STAGES.clock()
        with self.db.read() as session:
            found = self._seat_log(session.connection(), game_id, seat)
        STAGES.lap("log", t)
        return (0, []) if found is None else (found.seq, list(found.events))

    def _seat_log(self, conn: Connection, game_id: str, seat: str) -> SeatLog | None:
        kept = self.logs.get(game_id, seat)
        if kept is not None:
            rows = _log_rows(conn, game_id, seat, kept.seq)
            if not rows:
                game = conn.execute(
                    select(GAMES_T.c.takebacks, GAMES_T.c.actions).where(GAMES_T.c.id == game_id)
                ).one_or_none()
                if game is not None and (game.takebacks, game.actions) == (
                    kept.takebacks,
                    kept.seq,
                ):
                    return kept
            elif rows[0].seq == kept.seq + 1 and all(r.takebacks == kept.takebacks for r in rows):
                added = (e for r in rows for e in r.events or ())
                found = SeatLog(kept.takebacks, rows[-1].seq, (*kept.events, *added))
                self.logs.put(game_id, seat, found)
                return found
        rows = _log_rows(conn, game_id, seat, 0)  # one statement: one take-back count
        if not rows:
            return None
        events = tuple(e for r in rows for e in r.events or ())
        found = SeatLog(rows[0].takebacks, rows[-1].seq, events)
        self.logs.put(game_id, seat, found)
        return found

    def summary(self, game_id: str) -> Json:
        """What anyone with the game's id may know of it (its created page): the scenario,
        the optional rules and the mode, all chosen in the open at creation."""
        check_id(game_id)
        with self.db.read() as session:
            game = session.get(Game, game_id)
            if game is None:
                raise GameNotFound(f"no game {game_id!r}")
            return {"scenario": game.scenario, "options": list(game.options), "mode": game.mode}

    def replay(self, game_id: str) -> Json:
        """The creation record, the revealed seed, the log and every event: finished only."""
        check_id(game_id)
        with self.db.read() as session:
            game = finished_game(session, game_id)
            rows = session.scalars(
                select(ActionRecord)
                .where(ActionRecord.game_id == game_id)
                .order_by(ActionRecord.seq)
            ).all()
            record = {
                "id": game.id,
                "scenario": game.scenario,
                "options": game.options,
                "mode": game.mode,
                "teams": game.teams,
                "seats": list(self.engine.seats(first_state(self.engine, game))),
                "seed": game.seed,
                "seed_salt": game.seed_salt,
                "seed_sha256": game.seed_sha256,
                "seed_commitment": COMMITMENT if game.seed_salt else "sha256(f'{seed}')",
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
        return {**record, "told_versus_truth": self._told_versus_truth(game_id)}

    def _told_versus_truth(self, game_id: str) -> list[Json]:
        """18: each report the umpire gave a side beside the truth (umpired modes only),
        from the finished game's last position."""
        end = self.replays.step(game_id, OMNISCIENT, None).view
        told: list[Json] = end.get("told_versus_truth") or []
        return told

    def replay_at(self, game_id: str, seat: str | None, at: int | None) -> ReplayStep:
        """A finished game as `seat` saw it after its first `at` actions (all of them
        when None), or everything then (OMNISCIENT): app.games.replays."""
        check_id(game_id)
        return self.replays.step(game_id, seat, at)

    # -- the one transaction ----------------------------------------------------------

    def prepare(self, game_id: str, seat: str, version: int, action_json: Json) -> Prepared:
        """The action parsed (else BadRequest) and, when this process's memory holds the
        game's latest state and documents, worked out from them without the lock."""
        t = STAGES.clock()
        try:
            action = self.engine.parse_action(action_json)
        except self.engine.parse_error as exc:
            raise BadRequest(f"malformed action: {exc}") from exc
        STAGES.lap("apply", t)
        return Prepared(action, self._plan_ahead(game_id, seat, version, action))

    def act(
        self,
        game_id: str,
        seat: str,
        version: int,
        action_json: Json,
        at_once: bool = False,
        prepared: Prepared | None = None,
    ) -> Committed:
        """Apply one action of `seat`, which saw its view at `version`; `at_once`: only
        if the write lock is free now, else Busy (app.games.db.Database.begin_at_once);
        `prepared`: what `prepare` made of it (an attempt that met Busy is made again
        with the same, not worked out twice).

        The work (the engine's apply, the views, the patches) is done before the lock
        when this process's memory holds the game's latest state and documents, as it
        does after its own last action of the game; under the lock it is used only if the
        database still says what it was worked out from, else done again there. Either
        way the lock is held while the version is checked and the writes are made."""
        if prepared is None:
            prepared = self.prepare(game_id, seat, version, action_json)
        action, plan = prepared
        if plan is not None and self.db.sqlite:
            done = self._record_planned(game_id, seat, version, plan, at_once)
            if done is not None:
                self.cache.put(game_id, plan.after)
                STAGES.count("actions")
                return done
        t = STAGES.clock()
        with self.db.begin_at_once() if at_once else self.db.begin() as conn:
            game, seats = self._lock_seat(conn, game_id, seat, version)
            t = STAGES.lap("lock", t)
            if plan is None or not plan.holds((game.takebacks, game.actions), seats):
                before = self.loader.load(conn, game)
                t = STAGES.lap("load", t)
                plan = self._plan(game, seats, seat, action, before)
                t = STAGES.clock()
            committed = self._record(conn, game, plan)
            t = STAGES.lap("writes", t)
        STAGES.lap("commit", t)
        self.cache.put(game_id, plan.after)
        STAGES.count("actions")
        return committed

    def take_back(self, game_id: str, seat: str, version: int) -> Committed:
        """Take back the last action of `seat`, which saw its view at `version`, when the
        engine says it may (app/games/takeback.py); else 422 with the reason and the
        rule, the game untouched."""
        with self.db.write() as session:
            conn = session.connection()
            game, seats = self._lock_seat(conn, game_id, seat, version)
            before = self.loader.load(conn, game)
            undone = undo(self.engine, self.loader, conn, game, seat, before.state)
            after = Loaded(game.actions - 1, undone.state, {}, game.takebacks + 1)
            changes = self._changes(game, seats, seat, before, after)
            status = str(undone.state.status)
            news = f"{game.id}:{after.seq}:{PROCESS_ORIGIN}" if self.notify_in_transaction else None
            writes = TakeBackWrites(
                game_id=game.id,
                undone=undone,
                status=status,
                finished_at=game.finished_at if status == "finished" else None,
                stamp=self.engine.stamp,
                seats=changes,
            )
            write_takeback(conn, writes, news)
        self.cache.put(game_id, after)
        version = next(c.version for c in changes if c.seat == seat)
        return Committed(game_id, after.seq, version, changes)

    def _lock_seat(
        self, conn: Connection, game_id: str, seat: str, version: int
    ) -> tuple[Row[Any], dict[str, SeatRow]]:
        """The game locked (`_lock`), when it is still on and `seat` is at `version`."""
        game, seats = self._lock(conn, game_id)
        check_seat(game.status, seats, seat, version)
        return game, seats

    def _record_planned(
        self, game_id: str, seat: str, version: int, plan: Plan, at_once: bool
    ) -> Committed | None:
        """SQLite: the plan made from memory recorded on the process's own connection
        (Database.sqlite_write: no SQLAlchemy in between) when the locked rows are still
        those it was made from; None when they are not, nothing written (the caller
        works the action out again under the lock)."""
        t = STAGES.clock()
        with self.db.sqlite_write(at_once) as conn:
            rows = conn.execute(SQLITE_LOCK, (game_id,)).fetchall()
            if not rows:
                raise GameNotFound(f"no game {game_id!r}")
            status, actions, takebacks, finished_at = rows[0][:4]
            seats = {r[4]: SeatRow(r[4], r[5], r[6]) for r in rows}
            check_seat(status, seats, seat, version)
            t = STAGES.lap("lock", t)
            if not plan.holds((takebacks, actions), seats):
                return None
            writes = self._writes(game_id, read_datetime(self.db, finished_at), plan)
            write_action_sqlite(conn, self.db.writer.dialect, writes)
            t = STAGES.lap("writes", t)
        STAGES.lap("commit", t)
        return self._committed(game_id, plan)

    def _plan_ahead(self, game_id: str, seat: str, version: int, action: Any) -> Plan | None:
        """The action worked out from memory, without the lock, or None."""
        loaded = self.cache.latest(game_id)
        if loaded is None or set(loaded.docs) != set(self.engine.seat_ids(loaded.state)):
            return None
        mine = loaded.docs.get(seat)
        if mine is None or mine["version"] != version:
            return None
        seats = {s: SeatRow(s, doc["version"], self.engine.stamp) for s, doc in loaded.docs.items()}
        game = GameKey(mine["id"], mine["seed_sha256"])
        try:
            return self._plan(game, seats, seat, action, loaded)
        except (IllegalMove, NotYourMove):  # perhaps only because memory is behind
            return None

    def _lock(self, conn: Connection, game_id: str) -> tuple[Row[Any], dict[str, SeatRow]]:
        """The game's row and its seats' rows, locked until commit (FOR UPDATE on both
        tables; SQLite holds its write lock). Both must be locked: under READ COMMITTED a
        statement that waited for a lock returns the newest version of the rows it locked,
        and of those only (with `FOR UPDATE OF games` the seats came back as they were
        before the wait, and two posts on one version both passed)."""
        rows = conn.execute(LOCK, {"game_id": game_id}).all()
        if not rows:
            raise GameNotFound(f"no game {game_id!r}")
        return rows[0], {r.seat: SeatRow(r.seat, r.version, r.view_stamp) for r in rows}

    def _plan(
        self, game: GameRef, seats: dict[str, SeatRow], seat: str, action: Any, before: Loaded
    ) -> Plan:
        """Apply the action to `before` and work out each seat's new version and patch."""
        t = STAGES.clock()
        try:
            new_state, events = self.engine.apply(before.state, seat, action)
        except self.engine.illegal_action as exc:
            rule = getattr(exc, "rule", None)
            # 17b, 18: the refusal says whose the action is, whether or not it is his move
            if not self.engine.legal_actions(before.state, seat) and rule not in ("17b", "18"):
                raise NotYourMove(f"the {seat} seat has nothing to do now") from exc
            raise IllegalMove(str(exc), rule=rule) from exc
        STAGES.lap("apply", t)
        after = Loaded(before.seq + 1, new_state, {}, before.epoch)
        changes = self._changes(game, seats, seat, before, after)
        t = STAGES.clock()
        snapshot = None
        if after.seq % self.snapshot_every == 0:
            snapshot = self._snapshot(game, new_state)
        t = STAGES.lap("snapshot", t)
        seen = told(self.engine, new_state, events)
        STAGES.lap("events", t)
        return Plan(seat, action, seats, before, after, seen, changes, snapshot)

    def _changes(
        self, game: GameRef, seats: dict[str, SeatRow], seat: str, before: Loaded, after: Loaded
    ) -> tuple[SeatChange, ...]:
        """Each seat's view of `after.state`: the new version and patch of every seat
        whose view changed from `before`, and always of `seat`, the one that acted."""
        t = STAGES.clock()
        views = self.engine.views(after.state, tuple(seats))
        t = STAGES.lap("views", t)
        changes = tuple(
            change
            for name, row in seats.items()
            if (change := self._update_view(game, row, before, after, views[name], name == seat))
        )
        STAGES.lap("diff", t)
        return changes

    def _snapshot(self, game: GameRef, state: Any) -> str | None:
        """The JSON text of the engine's snapshot of `state` (made with the plan, so out
        of the write lock when the plan is made ahead). Snapshots are only a cache of
        the log's replay: one the engine cannot make is not stored, and said so in the
        log (the exception's class only: its message may hold what a seat may not know)."""
        try:
            doc = self.engine.snapshot(state)
            return json.dumps(doc, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as exc:
            log.warning("no snapshot of game %s: %s", game.id, type(exc).__name__)
            return None

    def _record(self, conn: Connection, game: Row[Any], plan: Plan) -> Committed:
        """Append the action, store each changed seat's version with its patch (SQL Core,
        no unit of work; one statement in all on PostgreSQL)."""
        seq = plan.after.seq
        news = f"{game.id}:{seq}:{PROCESS_ORIGIN}" if self.notify_in_transaction else None
        write_action(conn, self._writes(game.id, game.finished_at, plan), news)
        return self._committed(game.id, plan)

    def _writes(self, game_id: str, finished: Any, plan: Plan) -> ActionWrites:
        """What recording the plan writes; `finished`: the game's finished_at as stored."""
        status = str(plan.after.state.status)
        if status == "finished" and finished is None:
            finished = utcnow()
        return ActionWrites(
            game_id=game_id,
            seq=plan.after.seq,
            status=status,
            finished_at=finished,
            seat=plan.seat,
            action=self.engine.action_json(plan.action),
            seat_version=plan.seats[plan.seat].version,
            events=plan.events,
            created_at=utcnow(),
            stamp=self.engine.stamp,
            seats=plan.changes,
            snapshot=plan.snapshot,
        )

    @staticmethod
    def _committed(game_id: str, plan: Plan) -> Committed:
        version = next(c.version for c in plan.changes if c.seat == plan.seat)
        doc = plan.after.docs.get(plan.seat)
        return Committed(game_id, plan.after.seq, version, plan.changes, plan.events, doc)

    def _update_view(
        self,
        game: GameRef,
        row: SeatRow,
        before: Loaded,
        after: Loaded,
        new_view: Json,
        force: bool,
    ) -> SeatChange | None:
        """The seat's next version and patch if its view changed (always for the acting
        seat, so two posts on one version can never both pass the version check). The
        new document goes into `after.docs`."""
        old = self._old_doc(game, row, before)
        fresh = document(game, row.seat, row.version, new_view)
        patch = None if old is None else make_patch(old, fresh)
        if patch == [] and not force:
            after.docs[row.seat] = fresh
            return None
        version = row.version + 1
        fresh["version"] = version
        after.docs[row.seat] = fresh
        if patch is not None:
            patch.append({"op": "replace", "path": "/version", "value": version})
        return SeatChange(row.seat, version, patch)

    def _old_doc(self, game: GameRef, row: SeatRow, before: Loaded) -> Json | None:
        """The document the seat has now: from memory, or recomputed when the engine that
        computed it is the one running (else None: the client needs a fresh view)."""
        doc = before.docs.get(row.seat)
        if doc is not None and doc["version"] == row.version:
            return doc
        if row.stamp != self.engine.stamp:
            return None
        return document(game, row.seat, row.version, self.engine.view(before.state, row.seat))

    def seats(self, game_id: str) -> tuple[Json, ...]:
        """The game's seats as its engine declares them (from its creation record)."""
        check_id(game_id)
        with self.db.read() as session:
            game = session.get(Game, game_id)
            if game is None:
                raise GameNotFound(f"no game {game_id!r}")
            return self.engine.seats(first_state(self.engine, game))

    def forget(self, game_id: str) -> None:
        """A deleted game (app.games.expiry): its tokens and states leave memory."""
        self._tokens.pop(game_id, None)
        self.cache.discard(game_id)
        self.logs.discard(game_id)

    def knows_tokens(self, game_id: str) -> bool:
        return game_id in self._tokens

    def forget_tokens(self, game_id: str) -> None:
        """A seat of the game may have a new token (a lobby seat joined): read them again."""
        self._tokens.pop(game_id, None)

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


def bench_insert(db: Database, at_once: bool = False) -> None:
    """One committed insert: the database half of the bench's latency floor, made as an
    action's transaction is (on SQLite, on the process's own connection; `at_once`, only
    if the write lock is free now, else Busy)."""
    t = STAGES.clock()
    if db.sqlite:
        process = _created_at_writer(db.writer.dialect)
        now = utcnow() if process is None else process(utcnow())
        with db.sqlite_write(at_once) as raw:
            raw.execute("INSERT INTO bench_pings (created_at) VALUES (?)", (now,))
    else:
        with db.begin() as conn:
            conn.execute(BENCH_PING, {"created_at": utcnow()})
    STAGES.lap("floor", t)
