"""The page regions rendered straight from seat views, without a browser: random legal
play of every playable scenario, with and without every optional rule, rendered for both
seats at every step it reaches - nothing may fail to render, and no page may show an
enemy task force marker its side has not spotted. And the rulebook's words for dice."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from app import rules
from app.rules.board.boards import searchboard_of
from app.web import render
from app.web.choices import Namer
from app.web.events import Narrator
from app.web.render import Seat

MAX_ACTIONS = 1500
MARKER = re.compile(r'data-key="(tf|seen):(\w+):([^"]+)"')
MANY_HITS = re.compile(r"\b([3-9]|\d\d+) hits")
GONE_BOX = re.compile(r'<div [^>]*class="area gone-box"[^>]*>.*?</div></div>', re.S)


def games() -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for s in rules.describe_scenarios():
        if s["playable"]:
            out += [(s["id"], ()), (s["id"], tuple(s["options"]))]
    return out


def play(scenario: str, options: tuple[str, ...], seed: int) -> Iterator[tuple[Any, list[Any]]]:
    """States along a random game: the first of each step (in and out of a battle), and
    one every 150 actions."""
    try:
        state = rules.new_game(scenario, frozenset(options), seed)
    except ValueError as exc:
        pytest.skip(f"{scenario} with {options}: {exc}")
    rng = random.Random(seed)
    events: list[Any] = []
    seen: set[tuple[str, bool]] = set()
    for n in range(MAX_ACTIONS):
        if (state.step, state.battle is None) not in seen or n % 150 == 0:
            seen.add((state.step, state.battle is None))
            yield state, events
        seats = [s.id for s in rules.seats(state) if rules.legal_actions(state, s.id)]
        if not seats:
            break
        seat = rng.choice(seats)
        try:
            state, out = rules.apply(state, seat, choose(state, seat, rng))
        except (AssertionError, KeyError, TypeError, ValueError):
            break  # an engine failure is the rules tests' business; render what was reached
        events += out
    yield state, events


def choose(state: Any, seat: str, rng: random.Random) -> Any:
    """A random player that seeks battle: it launches, and flies and sails toward the
    enemy (peeking at the state, which only a test may do), then stops there."""
    actions = rules.legal_actions(state, seat)
    enemy = "usa" if seat == "japan" else "japan"
    grid = searchboard_of(state)  # the hex Searchboard, or the theatre map
    midway = [h for h in ("M5",) if grid.contains(h)]  # 7a2.2: Midway, on its own board
    targets = [h for h in state.boards[enemy].forces.values() if h] or midway
    targets = targets or list(grid.hexes())[:1]

    def near(h: str) -> int:
        return min(grid.distance(h, t) for t in targets)

    def weight(a: Any) -> float:
        here = where(state, seat, a)
        if here is not None:
            return 10.0 if near(a.values[-1]) < near(here) else 0.05
        return {"launch": 5.0, "search": 2.0, "arm": 0.2}.get(a.kind, 1.0)

    return rng.choices(actions, weights=[weight(a) for a in actions])[0]


def where(state: Any, seat: str, a: Any) -> str | None:
    """Where the marker or air group an action moves is now (None: not a move)."""
    board = state.boards[seat]
    if a.kind == "move":
        found: str | None = board.forces.get(a.values[0])
        return found
    if a.kind == "fly" and board.groups.get(a.values[0]):
        hex_: str = board.flights[board.groups[a.values[0]][0]].hex
        return hex_
    return None


def check(view: dict[str, Any], seat: str, regions: dict[str, str]) -> None:
    reports = view["searchboard"]["spotted"]
    spotted = {m for s in reports for m in s.get("forces") or {}}
    spotted |= {f"?{s['hex']}" for s in reports if not s.get("forces")}
    for kind, side, marker in MARKER.findall(regions["searchboard"]):
        if side != seat:
            assert kind == "seen" and marker in spotted, (seat, kind, side, marker)
    eliminated(view, regions)


def eliminated(view: dict[str, Any], regions: dict[str, str]) -> None:
    """Issue 13: an eliminated unit is in its side's "Sunk / destroyed" box, without hit
    markers; no page says "6 hits" (hit markers are 1 or 2, 4b5)."""
    for html in regions.values():
        assert not MANY_HITS.search(html), MANY_HITS.search(html)
    boxes = "".join(GONE_BOX.findall(regions["cards"]))
    for side, card in (view.get("operations_cards") or {}).items():
        for u in card.get("eliminated") or []:
            assert f'data-key="u:{side}:{u["id"]}"' in boxes, (side, u["id"])
    assert "hit-marker" not in boxes


@pytest.mark.parametrize(("scenario", "options"), games())
def test_every_step_renders_for_both_seats(scenario: str, options: tuple[str, ...]) -> None:
    steps = set()
    # a view is one per (game, seat, version): the renderer keeps regions by that key
    for version, (state, events) in enumerate(play(scenario, options, seed=len(options) + 3)):
        for seat in (s.id for s in rules.seats(state)):
            view = json.loads(json.dumps(rules.view(state, seat)))
            view.update(id=f"{hash((scenario, options)) % 2**60:016x}", version=version, seat=seat)
            log = json.loads(json.dumps(rules.events_for(events, seat, state.status == "finished")))
            regions = render.regions(view, log, Seat("0123456789abcdef", seat))
            check(view, seat, regions)
            steps.add(state.step)
    assert len(steps) > 5, steps


def test_combat_numbers_read_as_in_10b1() -> None:
    """10b1: Haruna's AA at B5, 6 + 2 = 8 against 5 + 2 = 7: one hit."""
    view = json.loads(json.dumps(rules.view(rules.new_game("one", frozenset(), 1), "usa")))
    teller = Narrator(Namer(view, "usa"))
    teller.line(0, {"kind": "battle", "attacker": "usa", "hex": "H4", "ships": [], "air": []})
    aa = {
        "kind": "anti-aircraft",
        "ships": ["Haruna"],
        "target": "B5",
        "attacker_roll": 6,
        "attacker_modifier": 2,
        "attacker_number": 8,
        "defender_roll": 5,
        "defender_modifier": 2,
        "defender_number": 7,
        "outcome": "hit",
    }
    line = teller.line(1, aa)
    assert line.text == "Anti-aircraft (4c): Haruna at B5: 8 vs 7: one hit"
    assert line.roll is not None and line.roll.attacker == "Japan"
