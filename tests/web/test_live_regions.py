"""Issue 17: a live page renders again only the regions whose inputs changed (the view
keys each region read, then a digest of its context entries), and what it skips is
exactly what it already shows. Along random games of every kind of seat, a page fed
every new view and log must hold, region by region, the HTML a fresh render of the
whole page gives (its version stamps aside)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app import rules
from app.rules.flow import acting
from app.web import render
from app.web.live import unversioned
from app.web.render import Context, LiveRegions, Seat
from tools.fuzz import choose

GAME = "00000000000000aa"


def fresh(view: dict[str, Any], log: list[dict[str, Any]], seat: str) -> dict[str, bytes]:
    """Every region rendered from nothing (no cache of any kind), without its stamp."""
    c = Context(view, log, Seat(view["id"], seat))
    return {n: unversioned(render.render_region(c, n)[0]) for n in render.REGIONS}


CASES = [
    ("one", (), "two-player", False),
    ("two", ("12a", "15a", "11a"), "two-player", False),
    ("three", (), "two-player", True),
    ("one", (), "umpired", False),
    ("coral-sea", (), "two-player", False),
]


@pytest.mark.parametrize(("scenario", "options", "mode", "teams"), CASES)
def test_issue17_a_live_page_holds_what_a_fresh_render_shows(
    scenario: str, options: tuple[str, ...], mode: str, teams: bool
) -> None:
    rng = random.Random(17)
    game = f"{CASES.index((scenario, options, mode, teams)):016x}"  # the cache is by game id
    state = rules.new_game(scenario, frozenset(options), 5, mode, teams)
    seats = [s.id for s in rules.seats(state)]
    pages = {s: LiveRegions() for s in seats}
    shown: dict[str, dict[str, bytes]] = {s: {} for s in seats}
    logs: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    skipped = 0
    for version in range(1, 121):
        for seat in seats:
            view = json.loads(json.dumps(rules.view(state, seat)))
            view.update(id=game, version=version, seat=seat)
            got = pages[seat].render(view, logs[seat], Seat(game, seat))
            skipped += len(render.REGIONS) - len(got)
            shown[seat] |= {n: unversioned(h) for n, h in got.items()}
            expected = fresh(view, logs[seat], seat)
            for name in render.REGIONS:
                assert shown[seat][name] == expected[name], (version, seat, name)
            for name in render.form_regions() & set(got):
                assert f'value="{version}"' in got[name] or 'name="version"' not in got[name]
        if state.status == "finished":
            break
        seat = rng.choice(acting(state))
        state, events = rules.apply(state, seat, choose(state, seat, rng))
        for s in seats:
            logs[s] = logs[s] + json.loads(json.dumps(rules.events_for(events, s)))
    assert skipped > 0  # the pages did skip regions: the check above is not vacuous


def test_issue17_a_region_notes_the_view_keys_it_read() -> None:
    """The status line reads the Turn; it does not read the Operations Cards."""
    state = rules.new_game("one", frozenset(), 5)
    view = {**rules.view(state, "usa"), "id": GAME, "version": 1, "seat": "usa"}
    _html, reads = render.render_region(Context(view, [], Seat(GAME, "usa")), "status")
    assert "turn" in reads and "operations_cards" not in reads
    _html, reads = render.render_region(Context(view, [], Seat(GAME, "usa")), "log")
    assert render.EVENTS in reads
    assert render.form_regions() >= {"prompt", "umpire"}
