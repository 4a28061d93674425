"""Request and response bodies of the HTTP contract (DESIGN.md, HTTP API).

Requests forbid unknown fields: a typo is a 422 that names it, never silently ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    field_validator,
)

from app.games.seeds import MAX_SEED
from app.games.store import GAME_ID

# The schema's enumerations, filled in from the engine's catalogue where a schema says
# LISTED (app.api.contract): the engine refuses any other value with a 422 naming it.
SCENARIO_ID, OPTION_NAME, MODE = "ScenarioId", "OptionName", "Mode"
LISTED = "x-listed"


def _listed(name: str) -> WithJsonSchema:
    return WithJsonSchema({"type": "string", LISTED: name})


def _whole(value: object) -> object:
    """A number with no fraction written as a float (`449.0`, `3.4e38`) is the whole
    number it equals: JSON Schema's `integer` is any number whose fraction is zero, and
    the schema promises no more than that (issue 31). Strings and booleans stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# A request's whole number: `integer` in the schema, any number without a fraction here.
Whole = Annotated[StrictInt, BeforeValidator(_whole)]
Name = Annotated[StrictStr, Field(min_length=1, max_length=64)]
ScenarioId = Annotated[Name, _listed(SCENARIO_ID)]
OptionName = Annotated[Name, _listed(OPTION_NAME)]
Mode = Annotated[Name, _listed(MODE)]
GameId = Annotated[str, Field(pattern=f"^{GAME_ID.pattern}$")]


class ComputerSeats(BaseModel):
    """Issue 35: the seats the computer plays (any of the game's: `GET /api/scenarios`
    lists them), and how hard it thinks."""

    model_config = ConfigDict(extra="forbid")

    seats: list[Annotated[StrictStr, Field(min_length=1, max_length=32)]] = Field(
        min_length=1, max_length=8
    )
    level: Literal["quick", "strong"] = "quick"

    @field_validator("seats")
    @classmethod
    def _once_each(cls, seats: list[str]) -> list[str]:
        if len(set(seats)) != len(seats):
            raise ValueError("a seat is named twice")
        return seats

    def levels(self) -> dict[str, str]:
        return {seat: self.level for seat in self.seats}


class NewGame(BaseModel):
    """POST /api/games. `seed` only on a server run with MIDWAY_ALLOW_SEED=1."""

    model_config = ConfigDict(extra="forbid")

    scenario: ScenarioId
    options: list[OptionName] = Field(default_factory=list, max_length=64)
    mode: Mode = "two-player"
    teams: StrictBool = False  # 17a: two seats a side, one per command
    seed: Whole | None = Field(default=None, ge=0, lt=MAX_SEED)
    # A correspondence pace (issue 14): days per move, and each seat's vacation allowance.
    pace_days: Whole | None = Field(default=None, ge=1, le=60)
    vacation_days: Whole = Field(default=0, ge=0, le=60)
    # Issue 35: seats left to the computer; they get no link in the answer.
    computer: ComputerSeats | None = None


class SeatLink(BaseModel):
    """A seat's link; `side` and `command` as the engine declares the seat."""

    seat: str
    side: str | None = None
    command: str | None = None
    label: str = ""
    token: str
    url: str


class GameCreated(BaseModel):
    id: GameId
    seats: list[SeatLink]
    replay_url: str


class ActionPost(BaseModel):
    """POST /api/games/{id}/actions: the seat's view version and one of its prompt's
    actions."""

    model_config = ConfigDict(extra="forbid")

    version: Whole = Field(ge=0, lt=2**31)
    action: dict[str, Any]


class ActionAccepted(BaseModel):
    version: int


class StandingOrder(BaseModel):
    """A seat's standing "Done for this Turn" (issue 30): the Turn it stands for; while
    `stands`, the server says the seat's Done in each quiet step of that Turn; `stopped`
    says why it stopped (a decision the seat cannot skip)."""

    turn: int
    stands: bool
    stopped: str | None = None


class Standing(BaseModel):
    """The seat's own order, if it gave one (shown to no other seat)."""

    order: StandingOrder | None = None


class TakeBackPost(BaseModel):
    """POST /api/games/{id}/takeback (issue 14): the seat's view version; its last
    action is taken back when its view's `prompt.take_back` says it may be."""

    model_config = ConfigDict(extra="forbid")

    version: Whole = Field(ge=0, lt=2**31)
