"""Rules at hand (issue 13), cheaply (issue 17): the regions too large to scan for rule
numbers on every push (LINKED_IN_TEMPLATE: the boards, the cards, the log) link theirs in
their templates. Along random games of every kind of seat, each such region is exactly
what scanning its HTML with `link_rules` would make of it rendered without links."""

from __future__ import annotations

import json
import random

import pytest

from app import rules
from app.web import render
from app.web.render import Context, Seat
from app.web.rule_links import link_rules
from tools.fuzz import _next_seat, choose

GAME = "00000000000000cc"
CASES = [
    ("one", (), "two-player", False),
    ("two", ("12a", "15a", "11a"), "two-player", False),
    ("three", (), "two-player", True),
    ("four", (), "two-player", False),  # 16: surface battles on the Battleboard
    ("one", (), "umpired", False),
    ("coral-sea", (), "two-player", False),
]


@pytest.mark.parametrize(("scenario", "options", "mode", "teams"), CASES)
def test_issue17_regions_linked_in_their_templates_link_what_a_scan_would(
    scenario: str, options: tuple[str, ...], mode: str, teams: bool
) -> None:
    plain = render.make_env(linking=False)
    rng = random.Random(41)
    state = rules.new_game(scenario, frozenset(options), 13, mode, teams)
    seats = [s.id for s in rules.seats(state)]
    logs: dict[str, list[dict[str, object]]] = {s: [] for s in seats}
    links = 0
    for step in range(160):
        if state.status == "finished":
            break
        seat = _next_seat(state, rng)
        state, events = rules.apply(state, seat, choose(state, seat, rng))
        for s in seats:
            logs[s] = logs[s] + json.loads(json.dumps(rules.events_for(events, s)))
        if step % 4:
            continue
        for s in seats:
            view = {**json.loads(json.dumps(rules.view(state, s))), "id": GAME, "version": step}
            c = Context(view, logs[s], Seat(GAME, s))
            for name in sorted(render.LINKED_IN_TEMPLATE):
                ctx = c.for_region(name)
                linked = render.region_html(name, ctx)
                scanned = link_rules(plain.get_template(f"regions/{name}.html").render(ctx))
                assert linked == scanned, (step, s, name)
                links += linked.count('class="rule"')
    assert links > 0  # rule numbers were met and linked: the check is not vacuous
