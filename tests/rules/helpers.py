"""Helpers for rules tests: build positions, play actions by their text, force dice."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from app.rules import Action, Event, State, apply, legal_actions, new_game
from app.rules.engine.state import ARMING, READY, SIDES, Side
from app.rules.engine.steps import StepId, goto


def edited(state: State) -> State:
    """A position set up by hand: the engine works out a state's choices once and never
    changes a state it has answered for (app/rules/engine/play.py), so a state changed by hand
    goes back to it as a new state."""
    return state.clone()


def play(state: State, seat: str, *texts: str) -> tuple[State, list[Event]]:
    """Apply actions given in their text form ("launch B5"), checking each is legal."""
    events: list[Event] = []
    for text in texts:
        action = Action.from_text(text)
        assert action in legal_actions(state, seat), (
            f"{text!r} is not legal for {seat} in {state.step}; legal: "
            f"{[a.text() for a in legal_actions(state, seat)][:30]}"
        )
        state, out = apply(state, seat, action)
        events += out
    return state, events


def started(seed: int = 1, placements: dict[Side, dict[str, str]] | None = None) -> State:
    """Scenario One after both sides' setup, with default placements."""
    placements = placements or {"usa": {"TF16": "N3", "TF17": "N4"}, "japan": {"MobileForce": "H2"}}
    state = new_game("one", frozenset(), seed)
    for side in SIDES:
        texts = [f"place {m} {h}" for m, h in placements[side].items()]
        state, _ = play(state, side, *texts, "done")
    return state


def position(
    turn: int,
    forces: dict[Side, dict[str, tuple[str, Iterable[str]]]],
    arming: Iterable[tuple[Side, str]] = (),
    dice: Iterable[int] = (),
    options: frozenset[str] = frozenset(),
) -> State:
    """A Scenario One position at the start of `turn`: forces {side: {marker: (hex, ships)}}."""
    state = new_game("one", options, 0)
    state.status = "playing"
    state.turn = turn
    for side, markers in forces.items():
        for marker, (hex_, ships) in markers.items():
            state.boards[side].forces[marker] = hex_
            for sid in ships:
                state.put(replace(state.units[side][sid], area=marker))
    for side, uid in arming:
        state.put(replace(state.units[side][uid], box=ARMING))
    for side in SIDES:
        for u in state.units[side].values():
            if not u.ship:
                assert u.box in (READY, ARMING)
    state.forced_dice = list(dice)
    out: list[Event] = []
    goto(state, StepId.SIDES, out)
    return state


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]
