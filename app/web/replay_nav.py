"""The replay page's ways on (issue: the page as a wargame table): from one step of a
finished game to the previous or next action, step of the sequence of play (2b), battle
(4a) or Turn, each a link (the page works without script), each with its keys; the Turns
to jump to; and the views of the same moment, one per seat the engine declares for the
game (its team seats and, in an umpired game, the umpire's; 17a, 18b) and both sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.web.counters import SIDE_TITLE
from app.web.events import STEP_RULE

OMNISCIENT = "omniscient"  # the replay of everything: both sides on one Searchboard


class Mark(Protocol):
    """Where the game stood after an action (app.games.replays.Mark)."""

    @property
    def turn(self) -> int: ...
    @property
    def step(self) -> str: ...
    @property
    def battle(self) -> int: ...


@dataclass(frozen=True)
class Grain:
    """One size of step: where Previous and Next go (None: nowhere) and their keys."""

    name: str  # "action", "step", "battle", "Turn"
    prev: int | None
    next: int | None
    keys: tuple[str, str]  # KeyboardEvent keys, "Shift+" before a shifted arrow
    shown: tuple[str, str]  # the keys in words


@dataclass(frozen=True)
class View:
    seat: str
    words: str
    current: bool


@dataclass(frozen=True)
class ReplayNav:
    start: int | None  # the first action, None when there already
    end: int | None
    grains: list[Grain]
    turns: list[tuple[int, int]]  # (Turn, the first action of it)
    views: list[View]
    where: str  # the step in words: "Turn 9, sea movement (3c), battle 2"


def _segment(keys: Sequence[object], at: int) -> tuple[int | None, int | None]:
    """Previous: the start of the run of equal keys `at` is in, or of the run before it
    when `at` is that start; Next: the start of the run after it."""
    start = _run_start(keys, at)
    if start < at:
        prev: int | None = start
    else:
        prev = None if at == 0 else _run_start(keys, at - 1)
    nxt = next((i for i in range(at + 1, len(keys)) if keys[i] != keys[at]), None)
    return prev, nxt


def _run_start(keys: Sequence[object], at: int) -> int:
    while at > 0 and keys[at - 1] == keys[at]:
        at -= 1
    return at


def _battles(marks: Sequence[Mark], at: int) -> tuple[int | None, int | None]:
    """4a: the first action of the battle before and after this point."""
    starts = [
        i for i, m in enumerate(marks) if m.battle and (i == 0 or marks[i - 1].battle != m.battle)
    ]
    prev = max((i for i in starts if i < at), default=None)
    return prev, min((i for i in starts if i > at), default=None)


# Each grain's keys (KeyboardEvent keys; "Shift+" before a shifted arrow), and in words.
KEYS = {
    "action": (("ArrowLeft", "ArrowRight"), ("←", "→")),
    "step": (("Shift+ArrowLeft", "Shift+ArrowRight"), ("Shift+←", "Shift+→")),
    "battle": (("[", "]"), ("[", "]")),
    "Turn": (("PageUp", "PageDown"), ("Page Up", "Page Down")),
}


def grains(marks: Sequence[Mark], at: int) -> list[Grain]:
    last = len(marks) - 1
    ways = {
        "action": (at - 1 if at > 0 else None, at + 1 if at < last else None),
        "step": _segment([(m.turn, m.step) for m in marks], at),
        "battle": _battles(marks, at),
        "Turn": _segment([m.turn for m in marks], at),
    }
    return [Grain(name, *ways[name], *KEYS[name]) for name in KEYS]


def where(mark: Mark) -> str:
    rule = STEP_RULE.get(mark.step)
    step = f"{mark.step} ({rule})" if rule else mark.step
    battle = f", battle {mark.battle}" if mark.battle else ""
    return f"Turn {mark.turn}, {step}{battle}"


def seat_title(seat: dict[str, Any]) -> str:
    """A seat of the view's list in words: its command (17a) and side, or the umpire."""
    side, label = str(seat.get("side") or ""), str(seat.get("label") or "")
    if not side:
        return label or str(seat.get("seat"))
    title = SIDE_TITLE.get(side, side)
    return f"{label} ({title})" if label else title


def views(view: dict[str, Any], seat: str) -> list[View]:
    """Each seat of the game as the engine declares it (view["seats"]), then both sides."""
    out = [
        View(str(s["seat"]), seat_title(s), str(s["seat"]) == seat) for s in view.get("seats") or []
    ]
    return [*out, View(OMNISCIENT, "Both sides", seat == OMNISCIENT)]


def replay_nav(at: int, marks: Sequence[Mark], seat: str, view: dict[str, Any]) -> ReplayNav:
    last = len(marks) - 1
    starts: dict[int, int] = {}
    for i, m in enumerate(marks):
        starts.setdefault(m.turn, i)
    return ReplayNav(
        start=0 if at > 0 else None,
        end=last if at < last else None,
        grains=grains(marks, at),
        turns=sorted(starts.items()),
        views=views(view, seat),
        where=where(marks[at]),
    )
