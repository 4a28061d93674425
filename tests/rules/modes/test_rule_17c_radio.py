"""17c3, 17c4 (and 17c2's loss of the radio): notes between the players of a side.

Each Turn of a team game opens with a radio step at the start of its Assembly Step: the
notes due are delivered, then each player may write one to his teammate. The server
rolls the sender's die against an opposing player's: equal or higher, delivery at the
next Turn's Assembly Step, else two Turns later (17c3). Sending announces the sender's
flagship hex to the enemy (17c4); a player whose flagship is eliminated neither sends
nor receives (17c2).
"""

from __future__ import annotations

import json

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, view
from app.rules.base.units import eliminate
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import Event, events_for
from app.rules.engine.state import GONE, State
from app.rules.modes.seats import acting

from ..helpers import kinds, play
from .test_rule_17_teams import set_up, team_game

NOTE = "Strike the carriers at dawn"


def at_radio() -> State:
    """Scenario Three's first Turn (7), every player at its radio step."""
    state, _ = set_up(team_game(), radio=True)
    assert state.step == "radio" and set(acting(state)) == {
        "japan-i",
        "japan-vi",
        "usa-tf16",
        "usa-tf17",
    }
    return state


def send(
    state: State, dice: tuple[int, int] | None = None, seat: str = "usa-tf16", to: str = "usa-tf17"
) -> tuple[State, list[Event]]:
    """`seat` writes NOTE to `to`; `dice` are the sender's and the opposing player's."""
    if dice is not None:
        state.forced_dice = list(dice)
    return apply(state, seat, Action("radio", (to, NOTE)))


def next_radio(state: State) -> tuple[State, list[Event]]:
    """Every player passes the rest of the Turn (Done where offered, else the first
    action offered), up to the next Turn's radio step."""
    turn = state.turn
    events: list[Event] = []
    while not (state.step == "radio" and state.turn > turn):
        assert state.status != "finished"
        seat = next(s for s in acting(state) if legal_actions(state, s))
        acts = legal_actions(state, seat)
        state, out = apply(state, seat, DONE if DONE in acts else acts[0])
        events += out
    return state, events


def texts_seen(state: State, seat: str) -> str:
    return json.dumps(view(state, seat))


def test_17c3_the_radio_step_opens_each_turn_before_the_launches() -> None:
    """17c3: "write and send notes ... at the start of a Turn's Assembly Step"."""
    state = at_radio()
    assert {a.text() for a in legal_actions(state, "usa-tf16")} == {"done", "radio usa-tf17 "}
    assert {a.text() for a in legal_actions(state, "japan-vi")} == {"done", "radio japan-i "}
    for seat in ("japan-i", "japan-vi", "usa-tf16"):
        state, _ = play(state, seat, "done")
        assert state.step == "radio"
    state, _ = play(state, "usa-tf17", "done")
    assert state.step in ("assembly", "ready") and state.turn == 7  # on to the launches


def test_17c3_an_equal_or_higher_roll_delivers_the_note_at_the_next_turns_assembly() -> None:
    """17c3: the sender rolls 5 against 5: delivered at Turn 8's Assembly Step."""
    state, events = send(at_radio(), (5, 5))
    [outside] = kinds(events, "radio")
    assert outside.audience == "all"
    assert outside.data == {
        "side": "usa",
        "from": "usa-tf16",
        "to": "usa-tf17",
        "written": 7,
        "delivery": 8,
        "roll": 5,
        "against": 5,
    }
    assert NOTE in texts_seen(state, "usa-tf16")  # the writer keeps his copy
    assert NOTE not in texts_seen(state, "usa-tf17")  # the addressee has it folded
    assert view(state, "usa-tf17")["radio"] == [
        {"from": "usa-tf16", "to": "usa-tf17", "written": 7, "delivery": 8, "status": "waiting"}
    ]
    state, later = next_radio(state)
    assert state.turn == 8
    [given] = kinds(later, "radio-delivered")
    assert given.audience == "usa-tf17" and given.data["text"] == NOTE
    assert [e["text"] for e in events_for(later, "usa-tf17") if e["kind"] == "radio-delivered"]
    for seat in ("usa-tf16", "japan-i", "japan-vi", "spectator"):
        assert not [e for e in events_for(later, seat) if e["kind"] == "radio-delivered"]
    assert view(state, "usa-tf17")["radio"][0] | {} == {
        "from": "usa-tf16",
        "to": "usa-tf17",
        "written": 7,
        "delivery": 8,
        "status": "delivered",
        "text": NOTE,
    }


def test_17c3_a_lower_roll_delivers_the_note_two_turns_later() -> None:
    """17c3: the sender rolls 3 against 7: the note waits for Turn 9's Assembly Step."""
    state, events = send(at_radio(), (3, 7))
    assert kinds(events, "radio")[0].data["delivery"] == 9
    state, later = next_radio(state)
    assert state.turn == 8 and not kinds(later, "radio-delivered")
    assert NOTE not in texts_seen(state, "usa-tf17")
    state, later = next_radio(state)
    assert state.turn == 9 and [e.data["written"] for e in kinds(later, "radio-delivered")] == [7]
    assert NOTE in texts_seen(state, "usa-tf17")


def test_17c3_one_note_a_turn_and_only_to_a_teammate() -> None:
    """17c3: one note a Turn from each player (RULES?), addressed to his teammate."""
    state, _ = send(at_radio(), (5, 5))
    assert [a.text() for a in legal_actions(state, "usa-tf16")] == ["done"]
    before = state.clone()
    with pytest.raises(IllegalAction) as refused:
        send(state)
    assert refused.value.rule == "17c3" and "Turn 7" in str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        send(state, seat="japan-i", to="usa-tf17")
    assert refused.value.rule == "17c3" and "teammate" in str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        apply(state, "usa-tf17", Action("radio", ("usa-tf17", NOTE)))
    assert refused.value.rule == "17c3" and "yourself" in str(refused.value)
    with pytest.raises(IllegalAction) as refused:
        apply(state, "usa-tf17", Action("radio", ("usa-tf16", " ")))
    assert "text" in str(refused.value)
    assert state == before


def test_17c4_sending_announces_the_flagship_hex_to_the_opposing_side() -> None:
    """17c4: TF 16's flagship Enterprise is in N3: Japan is told N3, not the ship."""
    state, events = send(at_radio(), (5, 5))
    [told] = kinds(events, "flagship-revealed")
    assert told.audience == "japan" and told.data == {"side": "usa", "by": "usa-tf16", "hex": "N3"}
    for seat in ("japan-i", "japan-vi"):
        spotted = view(state, seat)["searchboard"]["spotted"]
        assert {"turn": 7, "hex": "N3", "how": "radio"}.items() <= spotted[-1].items()
        assert "Enterprise" not in json.dumps(view(state, seat)["searchboard"])
        assert NOTE not in texts_seen(state, seat)
        assert NOTE not in json.dumps(events_for(events, seat))
    assert not [e for e in events_for(events, "spectator") if e["kind"] == "flagship-revealed"]


def test_17c2_a_player_whose_flagship_is_eliminated_may_not_send() -> None:
    """17c2: "that player may not send or receive messages for the rest of the game"."""
    state = at_radio()
    eliminate(state, state.units["usa"]["Enterprise"], [], "test")
    assert [a.text() for a in legal_actions(state, "usa-tf16")] == ["done"]
    before = state.clone()
    with pytest.raises(IllegalAction) as refused:
        send(state)
    assert refused.value.rule == "17c2" and "Enterprise" in str(refused.value)
    assert state == before
    state, _ = play(state, "usa-tf16", "done")  # he is still asked: nothing shows
    assert "usa-tf16" not in acting(state)


def test_17c2_a_note_to_a_player_whose_flagship_is_eliminated_is_lost() -> None:
    """17c2: the addressee whose flagship is sunk before delivery never receives it."""
    state, _ = send(at_radio(), (5, 5))
    eliminate(state, state.units["usa"]["Yorktown"], [], "test")
    assert state.units["usa"]["Yorktown"].box == GONE
    state, later = next_radio(state)
    assert not kinds(later, "radio-delivered")
    assert view(state, "usa-tf16")["radio"][0]["status"] == "lost"
    assert NOTE not in texts_seen(state, "usa-tf17")


def test_17c3_in_an_umpired_game_the_note_goes_by_the_umpire() -> None:
    """17c3 with 18b: the players are separated - the note's passing is told to the
    sender's side only (the umpire rolls), its flagship hex to the enemy (17c4)."""
    state, _ = set_up(new_game("three", frozenset(), 7, "umpired", True), radio=True)
    state, events = send(state, (3, 7))
    assert {e.kind: e.audience for e in events} == {"radio": "usa", "flagship-revealed": "japan"}
    assert not [e for e in events_for(events, "japan-i") if e["kind"] == "radio"]
    state, later = next_radio(state)
    state, later = next_radio(state)
    assert [(e.audience, e.data["text"]) for e in kinds(later, "radio-delivered")] == [
        ("usa-tf17", NOTE)
    ]
