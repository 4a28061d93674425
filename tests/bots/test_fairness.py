"""Issue 35, fairness: the computer's choice depends only on what its seat was told.

Twin states that differ in what the seat may not know (the enemy's task forces, flights,
searches, the dice: tools/fuzz.py's `scramble`) give the seat the same view, and the
computer the same decision; twin games whose enemy plays differently while the seat is
told the same get the same decisions, move for move, until the seat is told something
that differs. Over 1,000 decisions in several scenarios and modes.
"""

from __future__ import annotations

import random

import pytest

from app.bots import choose
from app.bots.seen import information
from app.rules import Action, view
from app.rules.modes.seats import acting, seat_of
from tools.arena import Table, random_agent
from tools.fuzz import scramble

DECISIONS = 300  # a case's at least: 1,200 in all (the issue asks for 1,000)
CASES = [
    ("one", "two-player", "usa"),
    ("one", "double-blind", "japan"),
    ("two", "umpired", "usa"),
    ("coral-sea", "double-blind", "usa"),
]


def _side(table: Table, seat: str) -> str:
    who = seat_of(table.state, seat)
    return who.side if who is not None else seat


@pytest.mark.parametrize(("scenario", "mode", "bot"), CASES)
def test_issue35_scrambled_hidden_state_gives_the_same_decision(
    scenario: str, mode: str, bot: str
) -> None:
    """Every computer decision of whole games, against a twin with the hidden part
    scrambled: games (up to six) are played until the case has DECISIONS (at least 1,200 over the
    four cases, in three scenarios and three modes; one game of Scenario Two gives about
    930, one of Scenario One 190-340)."""
    rng = random.Random(35)
    decisions = 0
    for game in range(6):
        if decisions >= DECISIONS:
            break
        table = Table.new(scenario, 1000 + game, mode)
        while table.state.status != "finished" and table.actions < 3000:
            now = acting(table.state)
            seat = now[0] if len(now) == 1 else rng.choice(now)
            if _side(table, seat) != bot:
                table.play(seat, random_agent(table, seat, rng))
                continue
            mine = view(table.state, seat)
            twins = view(scramble(table.state, seat, rng), seat)
            assert twins == mine
            chosen = {}
            for level in ("quick", "strong"):
                chosen[level] = choose(mine, table.logs[seat], level)
                assert choose(twins, list(table.logs[seat]), level) == chosen[level]
            decisions += 1
            table.play(seat, Action.from_json(chosen["strong"]))  # the choice checked above
    assert decisions >= DECISIONS


@pytest.mark.parametrize(("scenario", "mode"), [("one", "double-blind"), ("two", "double-blind")])
def test_issue35_twin_games_same_told_same_moves(scenario: str, mode: str) -> None:
    """Two games of one seed whose enemy (the random agent, two seeds) sets up and sails
    differently, each enemy done with a step before the computer moves (so that both
    seats see the same "waiting for"): while the computer's seat has been shown the same
    views and log (less whether it may take back: app.bots.seen), it makes the same
    moves, though the enemy stands elsewhere."""
    bot = "usa"
    tables = [Table.new(scenario, 7, mode), Table.new(scenario, 7, mode)]
    rngs = [random.Random(1), random.Random(2)]
    same = 0
    hidden_differed = False
    while all(t.state.status != "finished" for t in tables) and same < 2000:
        for t, rng in zip(tables, rngs, strict=True):
            while (enemy := [s for s in acting(t.state) if s != bot]) and t.actions < 5000:
                t.play(enemy[0], random_agent(t, enemy[0], rng))
        forces = [t.state.boards["japan"].forces for t in tables]
        hidden_differed = hidden_differed or forces[0] != forces[1]
        views = [view(t.state, bot) for t in tables]
        told = [t.logs[bot] for t in tables]
        if information(views[0]) != information(views[1]) or told[0] != told[1]:
            break  # the seat was told something that differs: the twins part
        picks = [choose(v, t.logs[bot], "strong") for v, t in zip(views, tables, strict=True)]
        assert picks[0] == picks[1]
        same += 1
        for t, pick in zip(tables, picks, strict=True):
            t.play(bot, Action.from_json(pick))
    assert hidden_differed, "the twins' enemies should have stood in different hexes"
    assert same >= 20, same
