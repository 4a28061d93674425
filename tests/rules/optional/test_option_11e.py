"""Option 11e: submarine attacks at the end of the Air Return Phase."""

from __future__ import annotations

from app.rules import legal_actions
from app.rules.engine.events import Event
from app.rules.engine.state import Spotting, State
from app.rules.engine.steps import StepId, goto

from ..helpers import kinds, play, position

REST = ["Akagi", "Hiryu", "Kaga", "Soryu", "Chikuma", "Tone", "Kirishima", "DD2"]


def after_air_return(turn: int, dice: list[int], spotted: bool = True) -> tuple[State, list[Event]]:
    s = position(
        turn,
        {
            "usa": {"TF17": ("L3", [])},
            "japan": {"MobileForce": ("H4", ["Haruna", "Nagara", "DD1"]), "Group-A": ("I2", REST)},
        },
        dice=[4, 6, *dice],
        options=frozenset({"11e"}),
    )
    if spotted:
        found = {"MobileForce": ["Haruna", "Nagara", "DD1"]}
        s.boards["usa"].intel.append(Spotting(turn, "H4", found, "air search"))
    out: list[Event] = []
    goto(s, StepId.SUBMARINE_ATTACK, out)
    return s, out


def test_11e1_three_times_or_more_gives_an_attack() -> None:
    s, out = after_air_return(8, [9, 3])
    assert kinds(out, "submarine-roll")[0].data["attacker"] == "usa"
    assert s.waiting == ["usa"]
    targets = {a.text() for a in legal_actions(s, "usa") if a.kind == "submarine"}
    assert targets == {
        "submarine MobileForce Haruna",
        "submarine MobileForce Nagara",
        "submarine MobileForce DD1",
    }


def test_11e1_less_than_three_times_no_attack() -> None:
    s, out = after_air_return(8, [8, 3])
    assert kinds(out, "submarine-roll")[0].data["attacker"] is None and s.step != "submarine attack"


def test_11e2_no_exact_information_no_attack() -> None:
    s, _ = after_air_return(8, [9, 3], spotted=False)
    assert s.step != "submarine attack"


def test_11e3_destroyers_in_the_task_force_defend_and_night_helps() -> None:
    """11e3.2: +1 a destroyer (DD #1 is six ships, CATALOG 1b); 11e3.1: +3 at night, -1 vs DD."""
    s, _ = after_air_return(8, [9, 3, 10, 4])
    s, ev = play(s, "usa", "submarine MobileForce Haruna")
    sub = kinds(ev, "submarine attack")[0].data
    assert (sub["attacker_modifier"], sub["defender_modifier"]) == (0, 6)
    assert (sub["attacker_number"], sub["defender_number"], sub["outcome"]) == (10, 10, "miss")
    s, _ = after_air_return(7, [9, 3, 10, 1])  # Turn 7 is a night Turn
    s, ev = play(s, "usa", "submarine MobileForce DD1")
    sub = kinds(ev, "submarine attack")[0].data
    assert sub["attacker_modifier"] == 3 - 1 and sub["outcome"] == "hit"  # 12 vs 7
    assert s.units["japan"]["DD1"].hits == 1 and s.turn == 8  # on to the Turn Record Phase
