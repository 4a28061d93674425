"""Issue 14, take-back: a player may take back his own last actions while no die has been
rolled (1f) and nothing has been revealed to anyone else (1c) since, and while the move
has not passed to another seat (3). The engine says which (app/rules/modes/takeback.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.rules import Action, State, apply, can_take_back, legal_actions, new_game, view
from app.rules.engine.state import SIDES, Side
from app.rules.modes.seats import acting

from ..helpers import play, started


def until(state: State, step: str) -> State:
    """Both sides say done, in turn, until `step` asks the acting seat something."""
    for _ in range(50):
        if state.step == step:
            return state
        state, _ = play(state, acting(state)[0], "done")
    raise AssertionError(f"never reached {step}")


def without(view_doc: dict[str, Any]) -> dict[str, Any]:
    """A view without its take-back flag."""
    prompt = {k: v for k, v in view_doc["prompt"].items() if k != "take_back"}
    return {**view_doc, "prompt": prompt}


def test_7a2_2_a_setup_placement_rolled_nothing_and_may_be_taken_back() -> None:
    """A placement is on the seat's own Searchboard: no die, no event, the enemy's view
    unchanged; the seat's view offers the take-back, the enemy's does not."""
    state = new_game("one", frozenset(), 1)
    after, events = play(state, "japan", "place MobileForce H2")
    assert events == [] and after.rng == state.rng
    assert can_take_back(after, "japan").actions == 1
    assert view(after, "japan")["prompt"]["take_back"] is True
    assert view(after, "usa") == view(state, "usa")
    assert view(after, "usa")["prompt"]["take_back"] is False
    again, _ = play(after, "japan", "place MobileForce H1")
    assert can_take_back(again, "japan").actions == 2
    # 2c: both Operations Cards are open: an arming shows on the enemy's (issue 31)
    armed, _ = play(again, "japan", "arm A")
    refused = can_take_back(armed, "japan")
    assert (refused.actions, refused.rule) == (0, "1c")
    assert without(view(armed, "usa")) != without(view(again, "usa"))


def test_nothing_to_take_back_before_the_seat_acted() -> None:
    state = new_game("one", frozenset(), 1)
    for seat in (*SIDES, "spectator"):
        assert can_take_back(state, seat).actions == 0
        assert can_take_back(state, seat).why == "nothing of yours to take back"
    assert "take_back" in view(state, "spectator")["prompt"]
    assert view(state, "spectator")["prompt"]["take_back"] is False


def test_3c_sea_movement_may_be_taken_back_until_done_passes_the_move() -> None:
    """3c: a task force's move is secret (an event for its own side only) and rolls
    nothing: it may be taken back. Done gives the move to Side A (3): then not."""
    state = until(started(seed=1), "sea movement")
    side = acting(state)[0]
    move = next(a for a in legal_actions(state, side) if a.kind == "move")
    moved, events = apply(state, side, move)
    assert all(e.audience == side for e in events) and moved.rng == state.rng
    assert can_take_back(moved, side).actions == 1
    other: Side = "japan" if side == "usa" else "usa"
    assert without(view(moved, other)) == without(view(state, other))
    done, _ = play(moved, side, "done")
    refused = can_take_back(done, side)
    assert refused.actions == 0 and refused.rule == "3"
    assert "has the move now (3)" in refused.why


def test_1f_an_action_that_rolled_a_die_may_not_be_taken_back() -> None:
    """The last setup done starts the game and rolls for Side A (1f, 7a): the seat that
    said it may not take it back. The other's own done was seen when it was said (the
    enemy's prompt no longer waits for it, 1c, issue 31), so its setup stood already."""
    state = new_game("one", frozenset(), 1)
    state, _ = play(state, "japan", "place MobileForce H2")
    assert can_take_back(state, "japan").actions == 1
    state, _ = play(state, "japan", "done")
    japan = can_take_back(state, "japan")
    assert (japan.actions, japan.rule) == (0, "1c") and "has seen it" in japan.why
    state, _ = play(state, "usa", "place TF16 N3", "place TF17 N4")
    assert can_take_back(state, "usa").actions == 2
    before = state
    state, _ = play(state, "usa", "done")
    assert state.rng != before.rng
    usa = can_take_back(state, "usa")
    assert (usa.actions, usa.rule, usa.why) == (0, "1f", "a die was rolled (1f)")
    assert can_take_back(state, "japan").actions == 0


def test_1f_a_forced_die_counts_as_a_roll() -> None:
    """Tests force dice (app/rules/engine/dice.py): a forced die used is a die rolled."""
    state = new_game("one", frozenset(), 1)
    state, _ = play(state, "japan", "place MobileForce H2", "done")
    state, _ = play(state, "usa", "place TF16 N3", "place TF17 N4")
    state.forced_dice = [3, 7, 5, 5]
    rolled, _ = play(state, "usa", "done")
    assert rolled.rng == state.rng and len(rolled.forced_dice) < 4
    assert can_take_back(rolled, "usa").rule == "1f"


def test_1c_a_search_the_enemy_is_told_of_may_not_be_taken_back() -> None:
    """3d3: a search is announced to both sides: Japan has seen it."""
    state = until(started(seed=1), "air movement and search")
    side = acting(state)[0]
    search = next(
        (a for a in legal_actions(state, side) if a.kind in ("search", "sea-search")), None
    )
    assert search is not None, [a.text() for a in legal_actions(state, side)]
    searched, events = apply(state, side, search)
    assert any(e.audience == "all" for e in events)
    refused = can_take_back(searched, side)
    assert refused.actions == 0 and refused.rule == "1c" and "has seen it" in refused.why


def test_1c_a_shift_on_the_open_operations_card_is_logged_to_both_and_stands() -> None:
    """3b: shifting an air unit in the Ready Step is an event both sides read (2c)."""
    state = until(started(seed=1), "ready")
    side = acting(state)[0]
    shift = next(a for a in legal_actions(state, side) if a.kind in ("arm", "ready"))
    shifted, _ = apply(state, side, shift)
    other = "Japan" if side == "usa" else "the United States"
    assert can_take_back(shifted, side).why == f"{other} has seen it (1c)"


def test_other_seats_unseen_setup_actions_leave_the_count_and_commute() -> None:
    """7a2.2, both sides set up at once: the other side's actions, which this seat cannot
    see, leave its count as it was, and taking its last action out from under them
    (replaying them without it, then it) gives the same game: what the server relies on."""
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game("one", frozenset(), seed)
        log: list[tuple[str, Action]] = []
        while state.step == "setup" and len(log) < 30:
            seat = rng.choice(acting(state))
            acts = [a for a in legal_actions(state, seat) if a.kind != "done" or rng.random() < 0.1]
            action = rng.choice(acts or legal_actions(state, seat))
            state, _ = apply(state, seat, action)
            log.append((seat, action))
            for taker in SIDES:
                if can_take_back(state, taker).actions:
                    assert_commutes(seed, log, taker, state)


def assert_commutes(seed: int, log: list[tuple[str, Action]], taker: str, now: State) -> None:
    last = max(i for i, (seat, _) in enumerate(log) if seat == taker)
    state = new_game("one", frozenset(), seed)
    for seat, action in log[:last] + log[last + 1 :]:
        state, _ = apply(state, seat, action)
    assert can_take_back(state, taker).actions == can_take_back(now, taker).actions - 1
    again, _ = apply(state, taker, log[last][1])
    assert again == now


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_take_back_flag_never_changes_on_what_the_seat_cannot_see(seed: int) -> None:
    """Through random games: when another seat's action leaves a seat's view as it was,
    that seat's take-back flag stays as it was too (else the flag would tell it that
    something happened, DESIGN.md Hidden information)."""
    rng = random.Random(seed)
    state = new_game("one", frozenset(), seed)
    for _ in range(400):
        seats = acting(state)
        if not seats:
            break
        seat = rng.choice(seats)
        before = {s: view(state, s) for s in SIDES if s != seat}
        state, _ = apply(state, seat, rng.choice(legal_actions(state, seat)))
        for other, was in before.items():
            now = view(state, other)
            if without(now) == without(was):
                assert now["prompt"]["take_back"] == was["prompt"]["take_back"]


def test_1c_issue_31_an_arming_the_enemys_card_shows_is_not_offered_back() -> None:
    """Issue 31, item 6 (Scenario One, seed 200): Japan arms in the set-up; no event
    tells the United States, but its copy of Japan's open Operations Card (2c) shows the
    carrier arming. Something was seen by someone else: no take-back (1c)."""
    state = new_game("one", frozenset(), 200)
    arm = next(a for a in legal_actions(state, "japan") if a.kind == "arm")
    armed, events = apply(state, "japan", arm)
    assert not any(e.audience != "japan" for e in events)
    assert without(view(armed, "usa")) != without(view(state, "usa"))
    refused = can_take_back(armed, "japan")
    assert (refused.actions, refused.rule) == (0, "1c")
    assert "the United States has seen it" in refused.why
    assert view(armed, "japan")["prompt"]["take_back"] is False


def undone(
    scenario: str, seed: int, mode: str, log: list[tuple[str, Action]], seat: str
) -> tuple[State, list[Any]]:
    """The game as the store takes back `seat`'s last action: the log replayed without it
    (the actions after it, other seats' of a simultaneous step, kept), and its events."""
    last = max(i for i, (s, _) in enumerate(log) if s == seat)
    state = new_game(scenario, frozenset(), seed, mode)
    told: list[Any] = []
    for i, (who, action) in enumerate(log):
        if i != last:
            state, events = apply(state, who, action)
            told.extend(events)
    return state, told


@pytest.mark.parametrize(
    ("scenario", "seed", "mode"),
    [
        ("one", 200, "two-player"),
        ("one", 7, "two-player"),
        ("three", 5, "umpired"),
        # a landing's look at a base's day of damage (Bases 3) once left a record of none,
        # which the views then showed: the game replayed without it looked otherwise
        ("coral-sea", 3, "two-player"),
    ],
)
def test_1c_issue_31_take_back_is_offered_only_where_nobody_else_would_see_a_change(
    scenario: str, seed: int, mode: str
) -> None:
    """At every state of a random game's first 150 actions: where a seat is offered its
    take-back, every other player's and the spectator's view, less its own take-back
    flag, is the same after the take-back as before it (the umpire, who sees every move
    as it is made, aside: 18c1, app/rules/modes/takeback.py)."""
    from app.rules.engine.events import events_for
    from app.rules.modes.seats import SPECTATOR, is_umpire, seats

    rng = random.Random(seed)
    state = new_game(scenario, frozenset(), seed, mode)
    log: list[tuple[str, Action]] = []
    told: list[Any] = []
    offered = 0
    for _ in range(150):
        movers = acting(state)
        if not movers:
            break
        seat = rng.choice(movers)
        action = rng.choice(legal_actions(state, seat))
        state, events = apply(state, seat, action)
        log.append((seat, action))
        told.extend(events)
        for who in seats(state):
            if not view(state, who.id)["prompt"]["take_back"]:
                continue
            offered += 1
            back, back_told = undone(scenario, seed, mode, log, who.id)
            others = [s.id for s in seats(state) if s.id != who.id and not is_umpire(state, s.id)]
            for other in (*others, SPECTATOR):
                assert without(view(back, other)) == without(view(state, other)), (
                    f"{who.id}'s take-back after {len(log)} actions changes {other}'s view"
                )
                assert events_for(back_told, other) == events_for(told, other), (
                    f"{who.id}'s take-back after {len(log)} actions changes {other}'s log"
                )
    assert offered > 0
