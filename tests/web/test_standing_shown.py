"""Issue 30, quiet Turns: the prompt region shows the seat's standing "Done for this Turn"
(app/games/standing.py) - offered beside Done in a quiet step, said to stand with a Cancel
while it does, and said to have stopped, with why, where the seat has a decision."""

from __future__ import annotations

import json
from typing import Any

from app import rules
from app.bots import choose
from app.web import render
from app.web.render import Seat

GAME = "0123456789abcdef"


def doc(state: Any, seat: str, **more: Any) -> dict[str, Any]:
    view: dict[str, Any] = json.loads(json.dumps(rules.view(state, seat)))
    return {**view, "id": GAME, "version": 9, "seat": seat, **more}


def prompt(view: dict[str, Any]) -> str:
    return render.regions(view, [], Seat(GAME, view["seat"]), ("prompt",))["prompt"]


def first_turn() -> Any:
    """Scenario One set up (7a) by the computer's quick level: Turn 7's first step."""
    state = rules.new_game("one", [], 30, "two-player", False)
    while True:
        seat = next(s.id for s in rules.seats(state) if rules.legal_actions(state, s.id))
        view = rules.view(state, seat)
        if view["step"] != "setup":
            return state, seat
        state, _ = rules.apply(state, seat, rules.Action.from_json(choose(view, [], "quick")))


def test_issue30_done_for_this_turn_offered_in_a_quiet_step_and_said_to_stand() -> None:
    state, seat = first_turn()
    html = prompt(doc(state, seat))
    assert '<button form="stand" class="stand"' in html and '<form id="stand"' in html
    standing = {"turn": state.turn, "stands": True, "stopped": None}
    html = prompt(doc(state, seat, standing=standing))
    assert "Done for this Turn</strong> stands" in html and "Cancel it" in html
    assert 'form="stand"' not in html  # no second order while one stands


def test_issue30_a_standing_order_is_shown_stopped_at_a_decision() -> None:
    """7a: the set-up is no quiet step: an order there is shown stopped, saying why, and
    no new one is offered."""
    state = rules.new_game("one", [], 30, "two-player", False)
    seat = next(s.id for s in rules.seats(state) if rules.legal_actions(state, s.id))
    standing = {"turn": rules.view(state, seat)["turn"], "stands": True, "stopped": None}
    html = prompt(doc(state, seat, standing=standing))
    assert "Done for this Turn stopped</strong> at a decision in setup" in html
    assert "Cancel it" not in html and 'form="stand"' not in html
    stopped = {**standing, "stands": False, "stopped": "air units in the air must land (3f, 5)"}
    state, seat = first_turn()
    html = prompt(doc(state, seat, standing=stopped))
    assert "stopped</strong> at air units in the air must land" in html
    assert '<button form="stand" class="stand"' in html  # it may be given again
