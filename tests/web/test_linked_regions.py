"""Rules at hand (issue 13), cheaply (issue 17): the regions too large to scan for rule
numbers on every push (LINKED_IN_TEMPLATE: the boards, the cards, the log) link theirs in
their templates. Along random games of every kind of seat, each such region is exactly
what scanning its HTML with `link_rules` would make of it rendered without links."""

from __future__ import annotations

import json

import pytest

from app import rules
from app.web import render
from app.web.render import Context, Seat
from app.web.rule_links import link_rules
from tests.web.games import KINDS, Kind, played

GAME = "00000000000000cc"
# with Scenario Four: 16's surface battles on the Battleboard
KINDS_AND_FOUR = [*KINDS[:3], ("four", (), "two-player", False), *KINDS[3:]]


@pytest.mark.parametrize("kind", KINDS_AND_FOUR)
def test_issue17_regions_linked_in_their_templates_link_what_a_scan_would(kind: Kind) -> None:
    plain = render.make_env(linking=False)
    links = 0
    for step, state, logs in played(kind, 13, 41, 160):
        if step % 4:
            continue
        for s in logs:
            view = {**json.loads(json.dumps(rules.view(state, s))), "id": GAME, "version": step}
            c = Context(view, logs[s], Seat(GAME, s))
            for name in sorted(render.LINKED_IN_TEMPLATE):
                ctx = c.for_region(name)
                linked = render.region_html(name, ctx)
                scanned = link_rules(plain.get_template(f"regions/{name}.html").render(ctx))
                assert linked == scanned, (step, s, name)
                links += linked.count('class="rule"')
    assert links > 0  # rule numbers were met and linked: the check is not vacuous
