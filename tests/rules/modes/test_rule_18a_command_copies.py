"""18a with teams: in an umpired team game each player's copy shows his own command's
counters; his teammate's whereabouts come by radio (17c) and the umpire's reports."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.rules import Action, State, apply, legal_actions, new_game, view
from app.rules.engine.events import Event, visible_to
from app.rules.engine.state import Flight
from app.rules.modes.command_copies import within_command
from app.rules.modes.commands import command_of, force_command
from app.rules.modes.seats import Seat, acting, players
from tools.fuzz import choose

from ..helpers import kinds
from .test_rule_18_umpired import released


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


def strikes_over_h4(mode: str) -> State:
    """B6 (Task Force 16's) and B3 (Task Force 17's) have each flown two of their five
    hexes into H4, where the Mobile Force is; option 15a, a team game."""
    s = new_game("two", frozenset({"15a"}), 1, mode, True)
    s.status, s.turn, s.side_a = "playing", 8, "japan"
    s.boards["japan"].forces["MobileForce"] = "H4"
    board = s.boards["usa"]
    for uid, group in (("B6", "L3-strike-tf16"), ("B3", "L3-strike-tf17")):
        s.put(replace(s.units["usa"][uid], box="flying", area=""))
        board.flights[uid] = Flight(hex="H4", moved=2, group=group, path=["L3", "K3", "H4"])
        board.groups[group] = [uid]
        board.may_search[group] = "H4"
    s.step, s.waiting = "air movement and search", ["usa"]
    return s


def test_18a_an_air_strike_circles_by_name_in_an_umpired_team_game() -> None:
    """15a1.1 with 18a: each player's strike circles on its own factors ("orbit"), so the
    choices offered one player do not tell him his teammate's strike is in the hex too."""
    s = strikes_over_h4("umpired")
    orbits = {
        seat: [a.text() for a in legal_actions(s, seat) if a.kind in ("orbit", "circle")]
        for seat in ("usa-tf16", "usa-tf17")
    }
    assert orbits["usa-tf16"] == [f"orbit L3-strike-tf16 {n}" for n in (1, 2, 3)]
    assert orbits["usa-tf17"] == [f"orbit L3-strike-tf17 {n}" for n in (1, 2, 3)]
    alone = strikes_over_h4("umpired")
    del (
        alone.boards["usa"].groups["L3-strike-tf17"],
        alone.boards["usa"].may_search["L3-strike-tf17"],
    )
    assert [a for a in legal_actions(alone, "usa-tf16") if a.kind == "orbit"] == [
        a for a in legal_actions(s, "usa-tf16") if a.kind == "orbit"
    ]
    assert "search H4" in [a.text() for a in legal_actions(s, "usa-tf17")]
    s.forced_dice = [5, 5]  # 5 + 3 day + 4 = 12 vs 5: two times, the actual number
    s, ev = apply(s, "usa-tf17", Action.from_text("orbit L3-strike-tf17 2"))
    assert s.boards["usa"].flights["B3"].moved == 4 and s.boards["usa"].flights["B6"].moved == 2
    assert not kinds(ev, "search")  # 18c: the answer waits for the umpire
    s, ev = released(s, ev)
    [spot] = kinds(ev, "search")
    assert (spot.data["level"], spot.audience) == ("actual", "usa")  # 18c1: to the side


def test_18a_two_player_team_strikes_circle_over_the_hex_together() -> None:
    s = strikes_over_h4("two-player")
    assert not [a for a in legal_actions(s, "usa-tf16") if a.kind == "orbit"]
