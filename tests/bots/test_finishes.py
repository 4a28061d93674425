"""Issue 35: the computer finishes the game - it never goes round in circles among the
actions it is offered - in the positions where it once did, each game to its result."""

from __future__ import annotations

import random

import pytest

from app.rules import legal_actions
from app.rules.modes.seats import acting, seat_of
from tools.arena import MAX_ACTIONS, Agent, Table, computer, random_agent

CASES = [
    # 7a2.2 / Bombers 8: a Port Moresby bomber readied and armed again and again, as the
    # force still to place scored below arming
    ("coral-sea", "two-player", "usa", "quick", 11, False),
    # 3c: an entering force entered again in another hex, then back
    ("two", "two-player", "japan", "quick", 11, False),
    # 3c: a task force sailing to and fro as its target changed with its own position
    ("eastern-solomons", "double-blind", "japan", "quick", 11, False),
    ("coral-sea", "double-blind", "japan", "strong", 11, False),
    # 17a-17c2: the overall commander and the flagships named again and again
    ("two", "two-player", "usa", "quick", 3, True),
]


def play(scenario: str, mode: str, side: str, level: str, seed: int, teams: bool) -> Table:
    table = Table.new(scenario, seed, mode, teams)
    rng = random.Random(seed)
    agents: dict[str, Agent] = {side: computer(level)}
    while table.state.status != "finished" and table.actions < MAX_ACTIONS:
        # 17a: a seat of a side that acts may have nothing of its own to do
        now = [s for s in acting(table.state) if legal_actions(table.state, s)]
        seat = now[0] if len(now) == 1 else rng.choice(now)
        who = seat_of(table.state, seat)
        agent = agents.get(who.side if who is not None else "umpire", random_agent)
        table.play(seat, agent(table, seat, rng))
    return table


@pytest.mark.parametrize(("scenario", "mode", "side", "level", "seed", "teams"), CASES)
def test_issue35_the_computer_plays_to_the_end(
    scenario: str, mode: str, side: str, level: str, seed: int, teams: bool
) -> None:
    table = play(scenario, mode, side, level, seed, teams)
    assert table.state.status == "finished", (table.state.turn, table.state.step)
    assert table.actions < 3000
