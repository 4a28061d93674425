"""The TIME RECORD TRACK a game is played on (6): Midway's (Turns 1-23), or a scenario's own
track where it has one (the expansion's scenarios: seven day Turns and two night Turns a day,
RULES-NOTES.md "Pacific Theatre Via Midway", Time)."""

from __future__ import annotations

from app.data import catalog
from app.data.records import TimeRecordTrack, TurnBox
from app.rules.engine.state import State


def track_of(scenario: str) -> TimeRecordTrack:
    """The scenario's TIME RECORD TRACK."""
    return catalog().scenarios[scenario].time_record or catalog().time_record


def turn_box(state: State, turn: int | None = None) -> TurnBox:
    """The box of the game's Turn (or of `turn`) on its track."""
    return track_of(state.scenario).box(state.turn if turn is None else turn)


def night(state: State) -> bool:
    """12a1, 3d3.1: whether the game's Turn is a night Turn."""
    return turn_box(state).night
