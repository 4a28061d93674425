"""Issue 33: the engine plays by the table the modes seat at it (engine/play.py `Table`).

Who sits at the table - the seats and their sides, who hears what, what take-back keeps -
is the table's answer, asked of nothing else: a table of the test's own, seating the two
sides under other names with no take-back, plays the same game as the modes' table, state
for state and event for event, and knows nothing of the modes' seat names.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from app.rules import new_game, seats, snapshot
from app.rules.engine import play
from app.rules.engine.actions import Action
from app.rules.engine.errors import IllegalAction
from app.rules.engine.events import Event
from app.rules.engine.play import Player, Umpiring
from app.rules.engine.state import Side, State

NAMES: dict[str, Side] = {"red": "japan", "blue": "usa"}


@dataclass(frozen=True)
class Named:
    id: str
    side: Side
    command: str | None = None


class Renamed:
    """Two players, one a side, called red and blue; events heard as they are told (2c:
    the open game); nothing kept for take-back."""

    def player(self, state: State, seat: str) -> Player | None:
        return Named(seat, NAMES[seat]) if seat in NAMES else None

    def players(self, state: State, side: Side) -> Sequence[Player]:
        return [Named(n, s) for n, s in NAMES.items() if s == side]

    def acting(self, state: State) -> list[str]:
        if state.status == "finished" or not state.waiting:
            return []
        sides = state.waiting if state.simultaneous else state.waiting[:1]
        return [n for side in sides for n, s in NAMES.items() if s == side]

    def waiting_for(self, state: State, side: Side) -> list[str]:
        return self.acting(state)

    def share(self, state: State, player: Player, actions: Iterable[Action]) -> list[Action]:
        raise AssertionError("a player commanding his whole side has no share to ask")

    def umpire(self, state: State, seat: str) -> Umpiring | None:
        return None

    def not_players(self, state: State, action: Action) -> IllegalAction | None:
        return None

    def not_his(self, state: State, player: Player, action: Action) -> IllegalAction | None:
        return None

    def heard(self, state: State, events: list[Event]) -> list[Event]:
        return events

    def keep(self, before: State, after: State, seat: str, events: list[Event]) -> None:
        return None

    def asks_before_losses(self, state: State) -> bool:
        return True


def _kept(state: State) -> dict[str, Any]:
    """The state as stored, less take-back's counts (the renamed table keeps none)."""
    doc = snapshot(state)
    doc["state"].pop("takeback", None)
    return doc


@pytest.mark.parametrize("seed", [1, 2])
def test_issue_33_the_engine_plays_by_the_table_it_is_given(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    modes_table = play._TABLE[0]
    renamed = new_game("one", frozenset(), seed)
    real = new_game("one", frozenset(), seed)
    assert {s.id for s in seats(real)} == {"japan", "usa"}
    for _ in range(150):
        if renamed.status == "finished":
            break
        monkeypatch.setattr(play, "_TABLE", [Renamed()])
        seat = rng.choice(Renamed().acting(renamed))
        assert play.legal_actions(renamed, NAMES[seat]) == []  # no seat of this table
        choices = play.legal_actions(renamed, seat)
        action = rng.choice(choices)
        renamed, heard = play.apply(renamed, seat, action)
        monkeypatch.setattr(play, "_TABLE", [modes_table])
        assert play.legal_actions(real, NAMES[seat]) == choices
        real, told = play.apply(real, NAMES[seat], action)
        assert heard == told
        assert _kept(renamed) == _kept(real)
    assert renamed.turn > 1
