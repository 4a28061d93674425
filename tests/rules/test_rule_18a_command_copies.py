"""18a with teams: in an umpired team game each player's copy shows his own command's
counters; his teammate's whereabouts come by radio (17c) and the umpire's reports."""

from __future__ import annotations

import random

import pytest

from app.rules import State, apply, legal_actions, new_game, view
from app.rules.command_copies import within_command
from app.rules.commands import command_of, force_command
from app.rules.events import Event, visible_to
from app.rules.flow import acting
from app.rules.seats import Seat, players
from tools.fuzz import choose

from .helpers import kinds


def played(mode: str, until: str, seed: int = 2) -> tuple[State, list[Event]]:
    """A Scenario Two team game played at random up to the first `until` step of play."""
    s = new_game("two", frozenset(), seed, mode, True)
    rng = random.Random(seed)
    events: list[Event] = []
    while not (s.status == "playing" and s.step == until and s.turn > 1):
        seat = rng.choice([x for x in acting(s) if legal_actions(s, x)])
        s, ev = apply(s, seat, choose(s, seat, rng))
        events += ev
    return s, events


def commanded(s: State, who: Seat) -> tuple[set[str], set[str]]:
    board = s.boards[who.side]
    units = {u for u in s.units[who.side] if command_of(board, u) == who.command}
    forces = {m for m in board.forces if force_command(s, who.side, m) == who.command}
    return units, forces


@pytest.mark.parametrize("mode", ["umpired", "double-blind"])
def test_18a_a_team_player_sees_his_own_commands_counters_only(mode: str) -> None:
    s, _ = played(mode, "assembly")
    shown: dict[str, set[str]] = {"japan": set(), "usa": set()}
    for who in players(s):
        units, forces = commanded(s, who)
        v = view(s, who.id)
        card = v["operations_cards"][who.side]
        assert set(card["units"]) <= units and card["units"]
        assert {f["force"] for f in card["forces"]} <= forces
        assert set(v["searchboard"]["forces"]) <= forces
        assert v["searchboard"]["commands"]  # 17a: who commands what is known to both
        shown[who.side] |= set(v["searchboard"]["forces"])
    for side, markers in shown.items():
        on_board = {m for m, h in s.boards[side].forces.items() if h is not None}
        assert markers == on_board  # each marker on its own commander's copy
    assert len(shown["usa"]) > 1


def test_18a_in_the_two_player_mode_the_team_shares_its_sides_copy() -> None:
    s, _ = played("two-player", "assembly")
    tf16, tf17 = (view(s, x)["searchboard"] for x in ("usa-tf16", "usa-tf17"))
    assert tf16["forces"] == tf17["forces"] and len(tf16["forces"]) > 1


def test_18a_a_teammates_doings_are_his_own_to_hear() -> None:
    """Sea movement and launches of one command reach its player and the umpire only."""
    s, events = played("umpired", "air movement and search")
    moves = [*kinds(events, "move"), *kinds(events, "launch")]
    assert moves
    for e in moves:
        heard = [p.id for p in players(s) if visible_to(e, p.id)]
        assert len(heard) == 1 and visible_to(e, "umpire"), (e.kind, e.data, heard)


def test_18a_no_landing_on_a_teammates_carrier() -> None:
    """RULES? 18a: his teammate's carriers are not on a player's copy: no landing there."""
    s = new_game("two", frozenset(), 1, "umpired", True)
    board = s.boards["usa"]
    units = s.units["usa"]
    flyer = next(u for u in units.values() if not u.ship and command_of(board, u.id) == "tf16")
    decks = [u for u in units.values() if u.ship and u.id in ("Enterprise", "Yorktown")]
    allowed = {c.id: within_command(s, flyer, c) for c in decks}
    assert allowed == {c.id: command_of(board, c.id) == "tf16" for c in decks}
    assert set(allowed.values()) == {True, False}
    s.mode = "two-player"
    assert all(within_command(s, flyer, c) for c in decks)
