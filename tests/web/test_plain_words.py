"""Issue 30: the log in a player's words - an area search (Searches 1) that found nothing
is one line, not one "nothing there" a zone; a side's part of a step passed does not say
the step itself was skipped (4b4: after the anti-aircraft fire)."""

from __future__ import annotations

import json
import re
from typing import Any

from app import rules
from app.rules import Action, apply, new_game
from app.web import battleboard, render, searchboard, theatre
from app.web.choices import Namer
from app.web.events import Line, Narrator
from app.web.narration import gathered, log_lines
from app.web.render import Seat


def coral_sea_air_movement() -> Any:
    """Coral Sea set up; Turn 1's air movement and search step, the American to act."""
    s = new_game("coral-sea", frozenset(), 1)
    for force in ("StrikingForce", "CoveringGroup", "InvasionForce", "SupportGroup"):
        s, _ = apply(s, "japan", Action("place", (force, "C2B")))
    s, _ = apply(s, "japan", Action("done"))
    for force, zone in (("TF17", "H7H"), ("TF44", "H7G")):
        s, _ = apply(s, "usa", Action("place", (force, zone)))
    s, _ = apply(s, "usa", Action("done"))
    for _ in range(60):
        searches = [a for a in rules.legal_actions(s, "usa") if a.kind == "search-area"]
        if searches:
            return s, searches
        s, _ = apply(
            s, next(x for x in ("japan", "usa") if rules.legal_actions(s, x)), Action("done")
        )
    raise AssertionError("no area search offered")


def test_ptvm_searches_1_an_area_search_finding_nothing_is_one_line() -> None:
    s, searches = coral_sea_air_movement()
    empty = next(a for a in searches if a.values[0] in ("H6", "H7", "I6", "G7", "I5"))
    s, out = apply(s, "usa", empty)
    events = json.loads(json.dumps(rules.events_for(out, "usa")))
    zones = [e for e in events if e["kind"] == "search"]
    assert len(zones) == 9 and not any(e.get("found") for e in zones)  # one event a zone
    view = json.loads(json.dumps(rules.view(s, "usa")))
    lines = [ln for ln in gathered(log_lines(Namer(view, "usa"), events)) if ln.kind == "search"]
    area = empty.values[0]
    assert [ln.text for ln in lines] == [
        f"United States air search of area {area} (its 9 zones): nothing there"
    ]


def line(n: int, text: str, kind: str = "search") -> Line:
    return Line(n, 3, "air movement and search", kind, text)


def test_ptvm_searches_1_a_sighting_keeps_its_own_line_and_breaks_the_run() -> None:
    nothing = [line(i, f"Japan air search of C2{z}: nothing there") for i, z in enumerate("ABC")]
    seen = line(3, "Japan air search of C2D: spotted Task Force 17: 3 ships")
    after = [line(4 + i, f"Japan air search of C2{z}: nothing there") for i, z in enumerate("EF")]
    other = line(6, "United States air search of C2G: nothing there")
    told = gathered([*nothing, seen, *after, other])
    assert [ln.text for ln in told] == [
        "Japan air search of C2A, C2B, C2C: nothing there",
        "Japan air search of C2D: spotted Task Force 17: 3 ships",
        "Japan air search of C2E, C2F: nothing there",
        "United States air search of C2G: nothing there",
    ]
    assert [ln.n for ln in told] == [0, 3, 4, 6]


def test_4b4_a_side_passing_the_anti_aircraft_step_does_not_say_it_was_skipped() -> None:
    text = (
        Narrator(Namer({}, "usa"))
        .line(
            0,
            {
                "kind": "step-skipped",
                "side": "usa",
                "step": "anti-aircraft combat",
                "rule": "4b4",
                "turn": 8,
            },
        )
        .text
    )
    assert "skipped" not in text
    assert text == (
        "United States had nothing to do in the anti-aircraft combat step: passed (4b4)"
    )


def test_ptvm_starting_positions_the_setup_area_in_the_rules_words_on_the_map() -> None:
    """Coral Sea's Japanese forces set up "north edge or at Rabaul": the map's label and
    each zone's note say so, not the data's id "north-edge-or-Rabaul"."""
    state = new_game("coral-sea", frozenset(), 1)
    view = json.loads(json.dumps(rules.view(state, "japan")))
    board = searchboard.searchboard(view, "japan", grid=theatre.layout())
    labels = {c.area_label for c in board.cells if c.area_label}
    notes = " ".join(n for c in board.cells for n in c.notes)
    assert "setup on the north edge or at Rabaul" in labels, labels
    assert "north-edge-or-Rabaul" not in " ".join(labels) + notes


def test_bombers_4_a_battle_s_done_attacks_by_their_printed_names() -> None:
    """The Battleboard's list of attacks done names the target as printed ("New Orleans",
    "Port Moresby") and an attack on a base as one (Bombers 4), not "base-strike of
    PortMoresby"."""
    assert battleboard._resolved("NewOrleans/dive", "usa") == "dive bombing of New Orleans"
    assert battleboard._resolved("Akagi/torpedo", "japan") == "torpedo bombing of Akagi"
    assert (
        battleboard._resolved("PortMoresby/base-strike", "usa")
        == "the attack on Port Moresby (Bombers 4)"
    )


def test_17c1_17c2_the_status_line_names_the_overall_commander_and_the_flagships() -> None:
    """A team game's player reads on his page who gives his side's orders (17c1) and,
    once named, each player's flagship (17c2); the enemy's page says nothing of them."""
    state = new_game("three", frozenset(), 1, "two-player", True)
    state, _ = apply(state, "usa-tf16", Action("flagship", ("Enterprise",)))
    pages = {  # the words, less the links of the rule numbers
        seat: re.sub(
            r"<[^>]+>",
            "",
            render.regions(rules.view(state, seat), [], Seat("g", seat), ("status",))["status"],
        )
        for seat in ("usa-tf16", "usa-tf17", "japan-i")
    }
    assert "Overall commander (17c1): Task Force 17 and Midway" in pages["usa-tf16"]
    assert "Overall commander (17c1): Task Force 17 and Midway (you)" in pages["usa-tf17"]
    for seat in ("usa-tf16", "usa-tf17"):
        assert "flagships (17c2): Enterprise (Task Force 16)" in pages[seat]
    assert "Enterprise" not in pages["japan-i"] and "Task Force 17" not in pages["japan-i"]
    assert "Overall commander (17c1): " in pages["japan-i"]


def test_17c2_naming_a_flagship_is_in_sight_in_the_prompt_not_behind_a_counter() -> None:
    """Issue 30: a team player's set-up: his flagship's choices are buttons of the bar
    itself, not a ship's choices behind "More counters" (no Done until he names one)."""
    state = new_game("three", frozenset(), 1, "two-player", True)
    html = render.regions(rules.view(state, "usa-tf16"), [], Seat("g", "usa-tf16"), ("prompt",))
    in_sight = re.sub(r"<details.*?</details>", "", html["prompt"], flags=re.S)
    in_sight = re.sub(r'<div class="choices"[^>]*hidden>.*?</div>', "", in_sight, flags=re.S)
    for ship in ("Enterprise", "Hornet"):
        assert f"Name {ship} your flagship (17c2)</button>" in in_sight, ship


def test_ptvm_searches_1_the_map_marks_the_side_s_own_area_search() -> None:
    """Issue 30: after an area search, the searching side's map marks its nine zones as
    searched this Turn (as the hexes its flights search), and the legend's keys are drawn
    as the cells are - not "dotted", which is the reef's pattern."""
    s, searches = coral_sea_air_movement()
    area = searches[0].values[0]
    s, _ = apply(s, "usa", searches[0])
    view = json.loads(json.dumps(rules.view(s, "usa")))
    board = searchboard.searchboard(view, "usa", grid=theatre.layout())
    searched = {c.name for c in board.cells if "searched" in c.classes}
    assert searched == {f"{area}{z}" for z in "ABCDEFGHI"}, searched
    html = render.regions(view, [], Seat("g", "usa"), ("searchboard",))["searchboard"]
    assert '<span class="key searched"></span> searched by you this Turn' in html
    assert '<span class="key enemy-searched"></span> enemy searches' in html
    assert "dotted" not in html and "hatched" not in html
