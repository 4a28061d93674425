"""Issue 13, steps that read the same way: a step with nothing for a side to do is passed
for it with a log line that says so, told to that side only; the Sides event says who
acts first as the engine will have it (3, or both at once under 18c1)."""

from __future__ import annotations

import json

import pytest

from app import rules
from app.rules import Event, apply, events_for, new_game
from app.rules.modes.seats import acting
from app.web.choices import Namer
from app.web.events import Narrator


def set_up(mode: str = "two-player") -> tuple[rules.State, list[Event]]:
    s = new_game("one", frozenset(), 10, mode)
    events: list[Event] = []
    for seat, texts in (
        ("japan", [("MobileForce", "J2")]),
        ("usa", [("TF17", "L2"), ("TF16", "N4")]),
    ):
        for force, hex_ in texts:
            s, out = apply(s, seat, {"kind": "place", "force": force, "hex": hex_})
            events += out
        s, out = apply(s, seat, {"kind": "done"})
        events += out
    return s, events


def words(s: rules.State, seat: str, events: list[Event]) -> list[str]:
    view = json.loads(json.dumps(rules.view(s, seat)))
    teller = Narrator(Namer(view, seat))
    return [teller.line(i, e).text for i, e in enumerate(events_for(events, seat))]


def test_3a1_a_night_assembly_is_skipped_for_each_side_with_a_line_of_its_own() -> None:
    """Turn 7 is a night Turn (3a1): neither side has an air unit to take off, so the
    Assembly Step passes for both; each side's log says so, the other's does not."""
    s, events = set_up()
    skipped = [e for e in events if e.kind == "step-skipped"]
    assert [(e.step, e.audience) for e in skipped] == [("assembly", "japan"), ("assembly", "usa")]
    us = words(s, "usa", events)
    assert "United States had no air unit to take off in the assembly step: passed (3a)" in us
    assert not [w for w in us if w.startswith("Japan had")]
    assert s.step == "ready"


def test_3_side_b_goes_first_is_said_only_where_it_is_so() -> None:
    """3: Side B performs each step first (the two-player game); 18c1: in an umpired game
    both sides perform the Action Phase at once."""
    s, events = set_up()
    sides = next(e for e in events if e.kind == "sides")
    assert s.waiting[0] == sides.data["B"] and not s.simultaneous
    line = next(w for w in words(s, "usa", events) if w.startswith("Side A"))
    assert line.endswith("Side B goes first (3)")
    s, events = set_up("double-blind")
    assert s.simultaneous
    line = next(w for w in words(s, "usa", events) if w.startswith("Side A"))
    assert "both sides act at once" in line and "(18c1)" in line


def done_clicks_through_the_turn(s: rules.State) -> tuple[rules.State, list[tuple[str, str]]]:
    """Every seat asked says Done until the next Turn's first question: (seat, step)."""
    turn, asked = s.turn, []
    while s.turn == turn:
        seat = next(x for x in acting(s) if x != "umpire")
        assert {a.kind for a in rules.legal_actions(s, seat)} >= {"done"}
        asked.append((seat, s.step))
        s, _ = apply(s, seat, {"kind": "done"})
    return s, asked


@pytest.mark.parametrize("mode", ["umpired", "double-blind"])
def test_3a1_a_night_turn_asks_nobody_for_the_air_units_steps_when_both_act_at_once(
    mode: str,
) -> None:
    """Issue 30, 3a1: "No air units may fly during night Turns". In the umpired modes both
    sides do the Action Phase at once (18c1, 18c3); the Assembly Step, the scouts' routes
    and the Air Return Phase of night Turn 7 ask neither side - each side's log says
    so - and an empty night Turn is three Done clicks a side (ready, sea movement, air
    movement and search: sea searches may be made at night), not six."""
    s, events = set_up(mode)
    skipped = [(e.step, e.audience) for e in events if e.kind == "step-skipped"]
    assert sorted(skipped) == [("assembly", "japan"), ("assembly", "usa")]
    assert s.step == "ready" and s.simultaneous
    s, asked = done_clicks_through_the_turn(s)
    assert sorted(asked) == sorted(
        (side, step)
        for side in ("japan", "usa")
        for step in ("ready", "sea movement", "air movement and search")
    )
    assert s.turn == 8 and s.step == "assembly"  # a day Turn: both asked again (18c1)
    assert sorted(acting(s)) == ["japan", "usa"]


def test_3a1_a_day_turn_still_asks_for_every_step_in_the_umpired_modes() -> None:
    """By day whether a side has a scout in the air, or an air unit to land, is its own
    secret (18b): each step asks both sides, even with nothing to do, so that neither
    learns the other's from being passed."""
    s, _ = set_up("umpired")
    s, _ = done_clicks_through_the_turn(s)
    s, asked = done_clicks_through_the_turn(s)
    steps = {step for _, step in asked}
    assert steps == {
        "assembly",
        "ready",
        "sea movement",
        "scout routes",
        "air movement and search",
        "air return",
    }
