"""Issue 13: big events are announced on the page - the base at Midway eliminated, an
aircraft carrier sunk (4b5), the game's end (7a3) - to each seat whose log has them, and
to no other."""

from __future__ import annotations

import json
import re

from app import rules
from app.rules import Event, State, events_for
from app.rules.engine.state import FLIP
from app.web import render
from app.web.render import Seat

from ..base.test_basic_rules import JAPAN_SHIPS, action_phase, fly, game
from ..base.test_rule_4_combat import japan_strike
from ..helpers import play

BIG = re.compile(
    r'<li id="lg-\d+" data-kind="[\w-]+" data-big="\d+"><span class="t">T\d+</span> (.*?)</li>'
)
TAG = re.compile(r"<[^>]+>")  # a line's rule links (rules at hand), read as their text


def announced(s: State, seat: str, events: list[Event]) -> list[str]:
    """The log lines the seat's page announces."""
    view = json.loads(json.dumps(rules.view(s, seat)))
    view.update(id="0123456789abcdef", version=1, seat=seat)
    log = json.loads(json.dumps(events_for(events, seat)))
    html = render.regions(view, log, Seat("0123456789abcdef", seat), ("log",))["log"]
    return [TAG.sub("", line) for line in BIG.findall(html)]


def test_4b5_midway_eliminated_is_announced_on_both_pages() -> None:
    s = game(
        [10, 1],  # AD: 10 + 7 = 17 against 1 + (7 - 2 hits) = 6: the base flipped on its back
        japan={"MobileForce": ("K3", JAPAN_SHIPS)},
        damage={("usa", "Midway"): FLIP + 2},
    )
    s, events = action_phase(s, japan=["AD"], japan_fly=fly("K3-strike", "K4", "L4", "M5"))
    s, out = play(s, "japan", "target AD Midway")
    s, more = play(s, "usa", "done")
    events += out + more
    for seat in ("usa", "japan"):
        news = announced(s, seat, events)
        assert len(news) == 1 and news[0].startswith("United States Midway"), (seat, news)
        assert "eliminated" in news[0]


def test_4b5_a_carrier_sunk_is_announced_and_an_air_unit_lost_is_not() -> None:
    s = japan_strike([10, 1], ["AD"], arming=[("usa", "B3")])
    s, events = play(s, "japan", "target AD Yorktown")
    s, out = play(s, "usa", "done")
    events += out
    for seat in ("usa", "japan"):
        news = announced(s, seat, events)
        assert len(news) == 1 and news[0].startswith("United States Yorktown eliminated"), news


def test_7a3_the_end_is_announced_and_a_side_only_event_only_to_its_side() -> None:
    """The game-over line reaches both seats; a line told to one side (a step passed for
    it) is never announced, and the enemy's page never has it."""
    s = rules.new_game("one", frozenset(), 10)
    events: list[Event] = []
    for seat, force, hex_ in (("japan", "MobileForce", "J2"), ("usa", "TF17", "L2")):
        s, out = play(s, seat, f"place {force} {hex_}")
        events += out
    s, out = play(s, "usa", "place TF16 N4", "done")
    events += out
    s, out = play(s, "japan", "done")
    events += out
    while s.status != "finished":
        seat = next(x for x in ("usa", "japan") if rules.legal_actions(s, x))
        s, out = play(s, seat, "done")
        events += out
    for seat in ("usa", "japan"):
        news = announced(s, seat, events)
        assert len(news) == 1 and news[0].startswith("The game is over (7a3)"), news
        other = "japan" if seat == "usa" else "usa"
        mine = [e for e in events_for(events, seat) if e["kind"] == "step-skipped"]
        assert mine and all(e["side"] == seat for e in mine)
        assert not [
            e
            for e in events_for(events, seat)
            if e.get("side") == other and e["kind"] == "step-skipped"
        ]
