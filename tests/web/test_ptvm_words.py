"""The page's words for "Pacific Theatre Via Midway": every event the fuzzer's play of the
three theatre scenarios produces has a line of the log of its own (not the catch-all
"Kind: field value" line), and every action it is offered has a label of its own - with and
without the options each scenario is played with. And the words for the expansion's actions
and events as a player reads them: Searches 1-2, Off-Board Bases 1, 3 and 5, Land-Based
Planes, Replacements, Bombers 3, 4 and 6."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app import rules
from app.rules import apply, new_game
from app.web.choices import GENERAL, Choice, Namer, choice
from app.web.events import Narrator
from tools.fuzz import UMPIRE, _next_seat, _umpire_turn, choose, mode_options

THEATRE = ("coral-sea", "eastern-solomons", "santa-cruz")
ACTIONS = 2500  # a game's first actions: its setup, a few days' Turns, battles


def fallback_label(a: dict[str, str]) -> str:
    """choices._optional's words for a kind it does not know."""
    return " ".join([a["kind"], *(str(v) for k, v in a.items() if k != "kind")]).capitalize()


def play(scenario: str, options: frozenset[str], seed: int) -> tuple[set[str], set[str]]:
    """The fuzzer's random play; returns the event kinds and the action kinds without words
    of their own, each with an example."""
    rng = random.Random(seed)
    state = new_game(scenario, options, seed)
    bare_events: set[str] = set()
    bare_actions: set[str] = set()
    labelled: dict[str, int] = {}
    for _ in range(ACTIONS):
        if state.status == "finished":
            break
        seat = UMPIRE if _umpire_turn(state, rng) else _next_seat(state, rng)
        offered = rules.legal_actions(state, seat)
        fresh = [a for a in offered if labelled.get(a.kind, 0) < 3]
        if fresh and seat != UMPIRE:
            view = json.loads(json.dumps(rules.view(state, seat)))
            n = Namer(view, seat)
            for a in fresh:
                labelled[a.kind] = labelled.get(a.kind, 0) + 1
                act: dict[str, str] = a.to_json()
                if a.kind not in GENERAL and choice(act, n).label == fallback_label(act):
                    bare_actions.add(f"{a.kind} {act}")
        action = choose(state, seat, rng)
        state, out = apply(state, seat, action)
        for e in rules.events_for(out, "usa") + rules.events_for(out, "japan"):
            seen = json.loads(json.dumps(e))
            teller = Narrator(Namer({}, "usa"))
            kind = str(seen.get("kind"))
            if teller.describe(kind, seen)[0] == teller._unknown(kind, seen):
                bare_events.add(f"{kind} {seen}")
    return bare_events, bare_actions


@pytest.mark.parametrize("scenario", THEATRE)
@pytest.mark.parametrize("which", ["none", "all"])
def test_ptvm_every_event_and_action_of_a_theatre_game_has_words(scenario: str, which: str) -> None:
    options = frozenset(mode_options("two-player", scenario)) if which == "all" else frozenset()
    events: set[str] = set()
    actions: set[str] = set()
    for seed in range(2):
        found = play(scenario, options, seed)
        events |= found[0]
        actions |= found[1]
    assert not events, sorted(events)
    assert not actions, sorted(actions)


# ------------------------------------------------------------- the words themselves


def coral_sea_view(seat: str) -> dict[str, Any]:
    state = new_game("coral-sea", frozenset(), 1)
    view: dict[str, Any] = json.loads(json.dumps(rules.view(state, seat)))
    return view


def label(action: dict[str, str], seat: str = "usa") -> Choice:
    return choice(action, Namer(coral_sea_view(seat), seat))


def test_ptvm_searches_1_an_area_search_reads_search_area() -> None:
    c = label({"kind": "search-area", "area": "F4"})
    assert c.label == "Search area F4 (Searches 1-2)"


def test_ptvm_off_board_bases_1_a_sortie_names_the_base_and_the_zones_flown() -> None:
    view = coral_sea_view("usa")
    card = view["operations_cards"]["usa"]
    australia = next(c for c in card["carriers"] if c["name"] == "Australia")
    unit = "CS-AusRB1"  # come in by Land-Based Planes, now in Australia's Ready box
    australia["ready"] = [unit]
    c = choice({"kind": "sortie", "unit": unit, "hex": "A7D"}, Namer(view, "usa"))
    name = Namer(view, "usa").unit("usa", unit)
    assert c.label == f"{name}: take off from Australia into A7D (5 zones flown, Off-Board Bases 1)"
    assert (c.subject, c.target) == (f"u:usa:{unit}", "sb:A7D")


def test_ptvm_off_board_bases_5_a_task_force_leaves_the_map_it_is_not_eliminated() -> None:
    view = coral_sea_view("japan")
    force = view["operations_cards"]["japan"]["forces"][0]["force"]
    c = choice({"kind": "exit", "force": force}, Namer(view, "japan"))
    assert "leave the map" in c.label and "Off-Board Bases 5" in c.label
    assert "eliminated" not in c.label


def tell(e: dict[str, Any], seat: str = "usa") -> str:
    return Narrator(Namer(coral_sea_view(seat), seat)).line(0, e).text


def test_ptvm_land_based_planes_and_replacements_in_the_log() -> None:
    text = tell(
        {
            "kind": "reinforcements",
            "side": "usa",
            "base": "Australia",
            "sighted": "rows-5-7",
            "units": [],
        }
    )
    assert text.startswith("United States reinforcements at Australia")
    assert "sighted in rows 5 to 7" in text and "Land-Based Planes" in text
    text = tell(
        {
            "kind": "replacement",
            "side": "japan",
            "unit": "CS-RabaulF1",
            "type": "F",
            "planes": 3,
            "to": "Rabaul",
            "step": "turn record",
        },
        "japan",
    )
    assert "one F plane" in text and "now 3 planes" in text and "(Replacements)" in text


def test_ptvm_off_board_bases_3_and_5_units_out_of_play_in_the_log() -> None:
    gone = tell({"kind": "exited", "side": "japan", "unit": "Kamikawa", "step": "sea movement"})
    assert gone.endswith("leaves the map and may not return (Off-Board Bases 5)")
    truk = {"kind": "exited", "side": "japan", "unit": "CS-RabaulT3", "step": "air return"}
    assert tell(truk).endswith("out of play (Off-Board Bases 3)")


def test_ptvm_bombers_4_bases_3_an_attack_on_a_base_in_the_log() -> None:
    text = tell(
        {
            "kind": "base-strike",
            "base": "Lae",
            "group": "B",
            "units": ["CS-MoresbyB1"],
            "fighter_cover": {},
            "aa": {"CS-MoresbyB1": 1},
            "bombers": 5,
            "hits": 2,
            "on_the_ground": {"CS-LaeF1": 1},
            "knockout": {"result": "below the knockout number", "die": None, "hits": 2},
            "knockout_number": 18,
            "rule": "Bombers 4",
        }
    )
    assert "Attack on Lae (Bombers 4): land bombers" in text
    assert "5 bombers over the base: 2 hits" in text
    assert "2 of 18 hits today: below the knockout number (Bases 3)" in text
    assert "1 plane" in text


def test_ptvm_bombers_3_and_6_in_the_log() -> None:
    text = tell(
        {
            "kind": "bomber-losses",
            "target": "Shokaku",
            "units": ["CS-MoresbyB1"],
            "bombers": 6,
            "attack": 2,
            "screening": 0,
            "defense": 6,
            "odds": "1-3",
            "band": "1-3",
            "losses": {"CS-MoresbyB1": 4},
        }
    )
    assert text.startswith("Bombers 3:") and "odds 1-3" in text and "4 planes" in text
    order = tell({"kind": "strike-order", "hex": "A3A", "first": "bombers"})
    assert order == "Battle in A3A: the land bombers attack first (Bombers 6)"
    order = tell({"kind": "strike-order", "hex": "A3A", "first": "dive-torpedo"})
    assert order == "Battle in A3A: the dive and torpedo bombers attack first (Bombers 6)"
