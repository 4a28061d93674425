"""Response bodies of the JSON API, as the OpenAPI schema documents them (issue 16).

The engine's documents (a seat's view, its log's events) are open models: the fields the
server adds or the contract names are typed, the engine's own fields pass through. The
enumerations (scenario ids, optional rules, modes) come from the rules engine's
catalogue: app.api.contract fills them in, nothing here lists them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from app.api.schemas import GameId, Mode, OptionName
from app.games.seeds import MAX_SEED


class Open(BaseModel):
    """A document whose other fields are the engine's (passed through as they are)."""

    model_config = ConfigDict(extra="allow")


class Problem(BaseModel):
    loc: str
    msg: str
    type: str


class Refusal(BaseModel):
    """Every refusal (4xx, and the 500 of a bug): `detail` says what is wrong in words."""

    detail: str
    rule: str | None = Field(None, description="the rule that forbids it (422 of an action)")
    version: int | None = Field(None, description="409: the seat's view is at this version")
    errors: list[Problem] | None = Field(None, description="422 of a malformed request")


class SeatInfo(BaseModel):
    """A seat as the engine declares it: its side and command (17a); the umpire's (18)
    has no side."""

    seat: str
    side: str | None
    command: str | None
    label: str


class Seating(BaseModel):
    teams: bool
    seats: list[SeatInfo]


class ModeOffered(Open):
    """A mode of play, and the seats it gives without teams and, where 17 offers them,
    with teams."""

    mode: Mode
    rule: str
    name: str
    seatings: list[Seating]


class ComputerOffered(BaseModel):
    """Issue 35: `POST /api/games` takes `computer: {seats, level}`; `seats` "any": any of
    the game's seats may be left to the computer."""

    seats: Literal["any"]
    levels: list[str]


class Scenario(Open):
    id: str
    name: str
    rule: str
    first_turn: int
    last_turn: int
    playable: bool
    options: list[OptionName]
    teams: bool = Field(description="17: teams of two a side are offered")
    modes: list[ModeOffered]
    computer: ComputerOffered


class Action(BaseModel):
    """One action of a prompt: its kind and its fields, each a short word (app.rules)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Annotated[str, Field(min_length=1, max_length=40)]]

    kind: str


class Prompt(Open):
    text: str
    actions: list[Action]


class SeatView(Open):
    """GET /api/games/{id}: the seat's view, the engine's `view()` with the server's
    fields around it."""

    id: GameId
    version: int
    seat: str
    seed_sha256: str
    status: str
    turn: int | None
    step: str | None
    prompt: Prompt


class Event(Open):
    kind: str
    audience: str
    turn: int | None
    step: str | None


class RecordedAction(BaseModel):
    seq: int
    seat: str
    action: dict[str, object]
    at: str


class Replay(BaseModel):
    """GET /api/games/{id}/replay: a finished game's creation, its seed and its log."""

    id: GameId
    scenario: str
    options: list[str]
    mode: str
    seed: int
    seed_salt: str | None
    seed_sha256: str
    seed_commitment: str
    created_at: str
    finished_at: str | None
    actions: list[RecordedAction]
    events: list[Event]
    # 18: each report the umpire gave a side (as released, edits included) and the truth
    told_versus_truth: list[dict[str, Any]] = []


class ChatMessage(BaseModel):
    seq: int
    seat: str
    audience: str
    text: str
    at: str


class GameRecord(BaseModel):
    """A finished game's record (GET .../record), which POST /api/records takes back."""

    format: StrictStr
    id: StrictStr
    scenario: StrictStr
    options: list[StrictStr]
    mode: StrictStr
    seed: StrictInt = Field(ge=0, lt=MAX_SEED)  # a float without a fraction is read too
    seed_salt: StrictStr | None
    seed_sha256: StrictStr
    created_at: StrictStr
    finished_at: StrictStr | None
    actions: list[RecordedAction]
    events: list[Event]
    chat: list[ChatMessage]


class RecordImported(BaseModel):
    id: GameId
    replay_url: str
    record_url: str


class SeatPace(BaseModel):
    due: str | None
    overdue: bool
    vacation_left_hours: int


class Pace(BaseModel):
    days_per_move: int
    vacation_days: int
    seats: dict[str, SeatPace]
    claimed_by: str | None
    may_claim: bool


class Glance(BaseModel):
    """What "my games" shows of a seat's game."""

    id: GameId
    seat: str
    scenario: str
    scenario_name: str
    turn: int | None
    status: str
    state: str
    your_move: bool
    pace: Pace | None


class SeatPresence(BaseModel):
    online: bool
    last_seen: str | None


class Presence(BaseModel):
    seats: dict[str, SeatPresence]
    elsewhere: int


class ChatChannel(BaseModel):
    audience: str
    label: str


class ChatChannels(BaseModel):
    """The chat channels the seat may write to now; `closed`: why none (a rule)."""

    to: list[ChatChannel]
    closed: str


class PulseAnswer(BaseModel):
    glance: Glance
    presence: Presence
    chat: list[ChatMessage]
    channels: ChatChannels


class LobbyGame(BaseModel):
    id: GameId
    scenario: str
    scenario_name: str
    options: list[str]
    mode: str
    seats_free: list[str]
    opened: str
    pace_days: int | None
    pace: str


class NoticeSettings(BaseModel):
    email: bool
    webhook: bool
    remind_hours: int | None


class Claimed(BaseModel):
    claimed_by: str


class Health(BaseModel):
    status: str


class Ready(BaseModel):
    """GET /readyz: `status` when ready, else `detail` (and `checks` once it has run them)."""

    status: str | None = None
    detail: str | None = None
    checks: dict[str, str] | None = None
