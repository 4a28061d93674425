"""The seats of a game (DESIGN.md, HTTP API; 17a): who sits at the table, and what for.

A seat is one player. It plays one side, and commands either the whole side (`command`
None: one player a side) or one command of 17a (a team game: two players a side, their
commands data in `scenarios/*.toml` `[teams]`). Its id begins with its side: `usa`,
`japan`, or `usa-tf16`, `japan-vi`. An umpired game (18, a mode with an umpire seat)
has one more seat, `umpire`, which plays no side and sees everything (18b). The seats
follow from the creation record (scenario, mode, teams): `seats_of` before a game exists,
`seats(state)` for one. Nothing outside the engine lists seats or sides; the server and
the pages ask these functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from app.data import Scenario, catalog
from app.rules.engine.errors import NotOffered
from app.rules.engine.state import SIDES, Side, State
from app.rules.modes.audiences import mode_of

SPECTATOR = "spectator"  # anyone with a replay link: public information only until the end
OMNISCIENT = "omniscient"  # everything (a finished game's replay)
UMPIRE = "umpire"  # 18: the umpire's seat, in a mode that has one


@dataclass(frozen=True, slots=True)
class Seat:
    id: str
    side: Side
    command: str | None  # None: the seat commands its whole side
    label: str  # the command's name ("" for a whole side: the pages name sides)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.id, "side": self.side, "command": self.command, "label": self.label}


@dataclass(frozen=True, slots=True)
class Umpire:
    """18: the umpire's seat. It plays no side and commands nothing; it sees everything
    (18b: "the umpire's copy displays all information and counters for both sides")."""

    id: str = UMPIRE
    side: None = None
    command: None = None
    label: str = "Umpire"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.id, "side": None, "command": None, "label": self.label}


def teams_offered(spec: Scenario) -> bool:
    """17: "it is suggested that only scenarios 7c and 7d be used for multi-player games"."""
    return spec.teams is not None


def check_teams(spec: Scenario, teams: bool) -> None:
    if teams and not teams_offered(spec):
        offered = [s.name for s in catalog().scenarios.values() if teams_offered(s)]
        where = " and ".join(offered) if offered else "no scenario yet"
        raise NotOffered(
            "17",
            f"teams of two a side are not offered in {spec.name}: rule 17 suggests multi-player "
            f"games for the largest forces only, and they are offered in {where} (17)",
        )


@cache
def seats_of(scenario: str, mode: str, teams: bool) -> tuple[Seat | Umpire, ...]:
    """The seats a game of `scenario` in `mode`, with or without teams (17a), has: the
    players', then the umpire's where the mode has one (18)."""
    umpire = (Umpire(),) if mode_of(mode).umpire_seat else ()
    return (*players_of(scenario, mode, teams), *umpire)


@cache
def players_of(scenario: str, mode: str, teams: bool) -> tuple[Seat, ...]:
    """The players' seats: one a side, or one per command with teams (17a)."""
    spec = catalog().scenarios.get(scenario)
    if spec is None:
        raise ValueError(f"unknown scenario {scenario!r}; known: {sorted(catalog().scenarios)}")
    mode_of(mode)
    check_teams(spec, teams)
    if not teams or spec.teams is None:
        return tuple(Seat(side, side, None, "") for side in SIDES)
    return tuple(
        Seat(f"{side}-{c.id}", side, c.id, c.label) for side in SIDES for c in spec.teams.of(side)
    )


@cache
def _by_id(scenario: str, mode: str, teams: bool) -> dict[str, Seat]:
    return {s.id: s for s in players_of(scenario, mode, teams)}


def seats(state: State) -> tuple[Seat | Umpire, ...]:
    """The game's seats, in a fixed order (Japan's first, as the sides; the umpire last)."""
    return seats_of(state.scenario, state.mode, state.teams)


def players(state: State) -> tuple[Seat, ...]:
    return players_of(state.scenario, state.mode, state.teams)


def seat_of(state: State, seat: str) -> Seat | None:
    """The game's player seat by its id; None for anything else (the umpire, a spectator)."""
    return _by_id(state.scenario, state.mode, state.teams).get(seat)


def is_umpire(state: State, seat: str) -> bool:
    """18b: the umpire's seat of a game whose mode has one."""
    return seat == UMPIRE and mode_of(state.mode).umpire_seat


def side_seats(state: State, side: Side) -> tuple[Seat, ...]:
    return tuple(s for s in players(state) if s.side == side)


def side_of_seat(seat: str) -> str:
    """DESIGN.md: a seat's id begins with its side (`usa-tf16` -> `usa`)."""
    return seat.split("-", 1)[0]


def acting(state: State) -> list[str]:
    """The seats that may act now: those of every waiting side in a simultaneous step,
    else of the first; with teams (17a), those of its seats not yet done with the step."""
    if state.status == "finished" or not state.waiting:
        return []
    sides = list(state.waiting) if state.simultaneous else state.waiting[:1]
    if not state.teams:
        return list[str](sides)  # one seat a side: its id is the side's
    return [s.id for side in sides for s in side_seats(state, side) if s.id not in state.done]


def waiting_for(state: State, side: Side | None) -> list[str]:
    """Whom the game waits for, as `side`'s seats may know it: the seats of their own side,
    and of another only the side (17a: which enemy player is done with a step is not told:
    it may tell what he commands)."""
    out: list[str] = []
    for seat in acting(state):
        shown = seat if side is not None and side_of_seat(seat) == side else side_of_seat(seat)
        if shown not in out:
            out.append(shown)
    return out
