"""What a seat receives: the view document's keys and the records in them (DESIGN.md, Views).

`View` names every top-level key a view may have, in the order the observer writes them
(app/rules/modes/observer.py `PARTS`: each key's parts and their audiences), with the type
of its value. A view holds only the keys its viewer is given (total=False); the JSON is
the same as the plain dict's. `ViewKey` is the same names as a type: a part filed under a
name the view does not have is an error for mypy.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

ViewKey = Literal[
    "scenario",
    "mode",
    "teams",
    "seats",
    "options",
    "status",
    "turn",
    "first_turn",
    "last_turn",
    "time",
    "step",
    "sides",
    "midway",
    "battle",
    "viewer",
    "operations_cards",
    "announcements",
    "surface",
    "prompt",
    "free_roll",
    "pending_combat",
    "searchboard",
    "radio",
    "heard",
    "searchboards",
    "umpire",
    "told_versus_truth",
    "score",
    "victory",
]


class ScenarioRef(TypedDict):
    id: str
    name: str
    rule: str


class TimeBox(TypedDict):
    """The Time Record Track's box of the turn (2b)."""

    date: str
    time: str
    night: bool


class Announcement(TypedDict):
    """3d3.1: a search announced: the side, how it searched, the hex (or area) it names."""

    side: str
    how: str
    hex: str


class LostIfDone(TypedDict):
    unit: str
    rule: str


class Prompt(TypedDict):
    """What the seat is asked now, and the actions it may take (issues 13, 14, 30)."""

    text: str
    rule: str
    lost_if_done: list[LostIfDone]
    waiting_for: list[str]
    actions: list[dict[str, object]]
    destinations: dict[str, Any]
    take_back: bool


class View(TypedDict, total=False):
    """A seat's view: what it may know now, key by key."""

    scenario: ScenarioRef
    mode: str
    teams: bool
    seats: list[dict[str, Any]]
    options: list[str]
    status: str
    turn: int
    first_turn: int
    last_turn: int
    time: TimeBox
    step: str
    sides: dict[str, str | None] | None  # 4a2: sides A and B
    midway: dict[str, Any] | None
    battle: dict[str, Any] | None
    viewer: dict[str, Any]
    operations_cards: dict[str, dict[str, Any]]
    announcements: list[Announcement]
    surface: dict[str, Any] | None
    prompt: Prompt
    free_roll: str | None
    pending_combat: dict[str, Any] | None
    searchboard: dict[str, Any]
    radio: list[dict[str, object]]
    heard: dict[str, Any]
    searchboards: dict[str, dict[str, Any]]
    umpire: dict[str, Any]
    told_versus_truth: list[dict[str, Any]]
    score: dict[str, Any]
    victory: dict[str, object]
