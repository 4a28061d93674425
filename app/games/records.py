"""A finished game's record (issue 14): its creation record, the revealed seed and every
action, as one JSON document that any server imports as a finished game.

An import is checked by replaying it: the seed must match its SHA-256, every action must
be legal where it stands (else the refusal names the action's number and the rule), the
last must end the game, and the events the record lists, if any, must be those the
replay gives. Nothing is stored unless all of that holds.

An import's cost is bounded before it is replayed (issue 31): at most MAX_ACTIONS actions,
and of any one kind by one seat at most MAX_PER_KIND (a long game's busiest seat plays a
few hundred of one kind; an umpire's notes or messages, which the rules allow at any time,
are bounded by this too); the chat is held to the live limits, each message's text
(app.games.chat.check_text) and MAX_PER_SEAT messages a seat. Every time in a record is
kept in UTC, and one that is not a time the database can give back is refused.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from app.games.between_models import ChatMessage
from app.games.chat import ALL, MAX_PER_SEAT, check_text, message_json, side_channel
from app.games.db import Database
from app.games.engine import SPECTATOR, Engine, Json
from app.games.errors import BadRequest, GameError
from app.games.models import ActionRecord, Game, Seat, utcnow
from app.games.seeds import MAX_SEED, commitment
from app.games.tokens import new_game_id, new_token, token_hash

FORMAT = "midway-record/1"
# The longest random games of `tools.fuzz` (Coral Sea, umpired) play about 1,900 actions,
# the busiest seat about 320 of one kind: five times and three times that.
MAX_ACTIONS = 10_000
MAX_PER_KIND = 1_000  # actions of one kind by one seat
# Times a record may give: anything the database stores and gives back as a datetime.
EARLIEST, LATEST = datetime(1900, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC)


class InvalidRecord(BadRequest):
    """422: the record is not a finished game this server's rules replay."""


def _field(record: Json, name: str, kind: type | tuple[type, ...]) -> Any:
    value = record.get(name)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise InvalidRecord(f"the record's {name!r} is missing or not a {_kind(kind)}")
    return value


def _kind(kind: type | tuple[type, ...]) -> str:
    names = {str: "string", int: "whole number", list: "list", dict: "JSON object"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _moment(raw: Any, what: str) -> datetime:
    """A record's time, in UTC (one without a zone is taken as UTC); now when it has none
    or none that reads as a time; InvalidRecord naming `what` when it is out of range."""
    if not isinstance(raw, str):
        return utcnow()
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        return utcnow()
    try:
        moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    except OverflowError:
        moment = LATEST
    if not EARLIEST <= moment < LATEST:
        raise InvalidRecord(
            f"{what}: the time {raw[:40]!r} is out of range "
            f"({EARLIEST.year} to {LATEST.year - 1}, UTC)"
        )
    return moment


def check_kinds(actions: list[Any]) -> None:
    """At most MAX_PER_KIND actions of one kind by one seat (counted before replaying)."""
    counts = Counter(
        (str(a.get("seat"))[:20], str(a["action"].get("kind"))[:40])
        for a in actions
        if isinstance(a, dict) and isinstance(a.get("action"), dict)
    )
    for (seat, kind), count in counts.most_common(1):
        if count > MAX_PER_KIND:
            raise InvalidRecord(
                f"a record has at most {MAX_PER_KIND} actions of one kind by one seat, "
                f"not {count} {kind!r} by {seat!r}"
            )


@dataclass(frozen=True)
class Replayed:
    """What the replay of a record gives, ready to store."""

    actions: list[tuple[str, Json, Json]]  # seat, action, the events each seat saw
    events: list[Json]
    seats: tuple[str, ...]  # the game's seats, as the engine declares them


@dataclass
class Records:
    db: Database
    engine: Engine

    def export(self, game_id: str, replay: Json) -> Json:
        """The finished game's replay record (the store's, with the revealed seed) as a
        file to keep: its format and the game's chat added."""
        with self.db.read() as session:
            chat = session.scalars(
                select(ChatMessage).where(ChatMessage.game_id == game_id).order_by(ChatMessage.seq)
            ).all()
            return {"format": FORMAT, **replay, "chat": [message_json(m) for m in chat]}

    def replay(self, record: Json) -> Replayed:
        """Replay the record; refuse it, naming the action and the rule, where it fails."""
        if record.get("format") != FORMAT:
            raise InvalidRecord(f"not a game record: its 'format' is not {FORMAT!r}")
        scenario = _field(record, "scenario", str)
        options = _field(record, "options", list)
        mode = _field(record, "mode", str)
        teams = record.get("teams", False)  # records from before teams (17a) have none
        if not isinstance(teams, bool):
            raise InvalidRecord("the record's 'teams' is true or false")
        raw_seed = record.get("seed")
        if isinstance(raw_seed, float) and raw_seed.is_integer():
            record["seed"] = int(raw_seed)  # JSON Schema's integer: no fraction, any form
        seed = _field(record, "seed", int)
        actions = _field(record, "actions", list)
        if not all(isinstance(o, str) for o in options):
            raise InvalidRecord("the record's options are rule numbers, as strings")
        salt = record.get("seed_salt") or ""  # null, as the schema allows: no salt
        if not 0 <= seed < MAX_SEED:
            raise InvalidRecord("the record's seed is out of range")
        if not isinstance(salt, str) or commitment(seed, salt) != record.get("seed_sha256"):
            raise InvalidRecord("the record's seed and salt do not match its seed_sha256")
        if len(actions) > MAX_ACTIONS:
            raise InvalidRecord(f"a record has at most {MAX_ACTIONS} actions")
        check_kinds(actions)
        try:
            state = self.engine.new_game(scenario, frozenset(options), seed, mode, teams)
        except ValueError as exc:
            raise InvalidRecord(f"the record's game cannot be set up: {exc}") from exc
        seats = self.engine.seat_ids(state)
        done: list[tuple[str, Json, Json]] = []
        every: list[Json] = []
        for number, entry in enumerate(actions, start=1):
            state, seat, action, events = self._apply(state, seats, number, entry)
            seen = {s: self.engine.events_for(events, s) for s in (*seats, SPECTATOR)}
            seen["all"] = self.engine.all_events(events)
            seen = json.loads(json.dumps(seen))
            every.extend(seen["all"])
            done.append((seat, action, seen))
        if str(state.status) != "finished":
            raise InvalidRecord(
                f"the record stops after action {len(actions)} before the game is finished"
            )
        if "events" in record and record["events"] != every:
            raise InvalidRecord("the record's events are not those its actions give when replayed")
        return Replayed(done, every, seats)

    def _apply(
        self, state: Any, seats: tuple[str, ...], number: int, entry: Any
    ) -> tuple[Any, str, Json, list[Any]]:
        if not isinstance(entry, dict) or not isinstance(entry.get("action"), dict):
            raise InvalidRecord(f"action {number}: not an object with a seat and an action")
        seat = entry.get("seat")
        if not isinstance(seat, str) or seat not in seats:
            raise InvalidRecord(f"action {number}: no seat {str(seat)[:20]!r} in this game")
        try:
            action = self.engine.parse_action(entry["action"])
            new_state, events = self.engine.apply(state, seat, action)
        except self.engine.parse_error as exc:
            raise InvalidRecord(f"action {number} ({seat}): malformed: {exc}") from exc
        except self.engine.illegal_action as exc:
            rule = getattr(exc, "rule", None)
            raise InvalidRecord(f"action {number} ({seat}) is refused: {exc}", rule=rule) from exc
        return new_state, seat, self.engine.action_json(action), events

    def import_(self, record: Json) -> str:
        """Store a record as a finished game under a new id; its seats' tokens are made and
        never handed out (nobody plays a finished game)."""
        chat = self._chat(record.get("chat", []))  # checked first: it costs no replay
        replayed = self.replay(record)
        seats = set(replayed.seats)
        for number, (seat, *_rest) in enumerate(chat, start=1):
            if seat not in seats:
                raise InvalidRecord(f"chat message {number}: no seat of this game")
        created_at = _moment(record.get("created_at"), "created_at")
        finished_at = _moment(record.get("finished_at"), "finished_at")
        stamps = [
            _moment(a.get("at"), f"action {n}") for n, a in enumerate(record["actions"], start=1)
        ]
        game = Game(
            id=new_game_id(),
            scenario=record["scenario"],
            options=sorted(set(record["options"])),
            mode=record["mode"],
            teams=bool(record.get("teams", False)),
            seed=record["seed"],
            seed_salt=record.get("seed_salt") or "",
            seed_sha256=record["seed_sha256"],
            status="finished",
            actions=len(replayed.actions),
            created_at=created_at,
            finished_at=finished_at,
        )
        with self.db.write() as session:
            session.add(game)
            session.flush()
            for seat in replayed.seats:
                session.add(Seat(game_id=game.id, seat=seat, token_sha256=token_hash(new_token())))
            session.flush()
            for seq, ((seat, action, seen), at) in enumerate(
                zip(replayed.actions, stamps, strict=True), 1
            ):
                session.add(
                    ActionRecord(
                        game_id=game.id,
                        seq=seq,
                        seat=seat,
                        action=action,
                        seat_version=0,
                        events=seen,
                        created_at=at,
                    )
                )
            for seq, (seat, audience, text, at) in enumerate(chat, 1):
                session.add(
                    ChatMessage(
                        game_id=game.id,
                        seq=seq,
                        seat=seat,
                        audience=audience,
                        text=text,
                        created_at=at,
                    )
                )
        return game.id

    def _chat(self, raw: Any) -> list[tuple[str, str, str, datetime]]:
        """The record's chat held to the live limits: each text as a message posted now
        would be, at most MAX_PER_SEAT messages a seat. (Its seats are checked against
        the game's once the record is replayed.)"""
        if not isinstance(raw, list):
            raise InvalidRecord("the record's chat is a list of messages")
        out = []
        per_seat: Counter[str] = Counter()
        for number, m in enumerate(raw, start=1):
            seat = m.get("seat") if isinstance(m, dict) else None
            if not isinstance(m, dict) or not isinstance(seat, str):
                raise InvalidRecord(f"chat message {number}: no seat of this game")
            per_seat[seat] += 1
            if per_seat[seat] > MAX_PER_SEAT:
                raise InvalidRecord(
                    f"chat message {number}: a seat may leave at most {MAX_PER_SEAT} "
                    "messages a game"
                )
            audience = m.get("audience")
            if audience not in (ALL, side_channel(seat)):
                raise InvalidRecord(f"chat message {number}: no audience {str(audience)[:48]!r}")
            text = m.get("text")
            if not isinstance(text, str):
                raise InvalidRecord(f"chat message {number}: its text is not a string")
            try:
                text = check_text(text)
            except GameError as exc:
                raise InvalidRecord(f"chat message {number}: {exc.message}") from exc
            out.append((seat, audience, text, _moment(m.get("at"), f"chat message {number}")))
        return out
