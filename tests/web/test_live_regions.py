"""Issue 17: a live page renders again only the regions whose inputs changed (the view
keys each region read, then a digest of its context entries), and what it skips is
exactly what it already shows; of the Operations Cards (a region in parts) it is sent
only the areas that changed. Along random games of every kind of seat, a page fed every
new view and log, and assembled as htmx assembles it (a region by its id, a part of one
into its region by the part's id), must hold, region by region, the HTML a fresh render
of the whole page gives (its version stamps aside)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from app import rules
from app.web import render
from app.web.live import LivePage
from app.web.render import Context, LiveRegions, Seat
from tests.web.games import KINDS, play_on

GAME = "00000000000000aa"
STAMPS = re.compile(r' data-v="-?\d+"')
OOB = ' hx-swap-oob="true"'
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"})


def unstamped(html: str) -> str:
    """HTML without its version stamps (a region's and its parts'): what the page shows."""
    return STAMPS.sub("", html)


def fresh(view: dict[str, Any], log: list[dict[str, Any]], seat: str) -> dict[str, str]:
    """Every region rendered from nothing (no cache of any kind), without its stamps."""
    c = Context(view, log, Seat(view["id"], seat))
    return {n: unstamped(render.render_region(c, n)[0]) for n in render.REGIONS}


class _End(Exception):
    pass


class _Element(HTMLParser):
    """Where the element that starts a piece of HTML ends."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.depth = 0
        self.lines = [0]

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag not in VOID:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        self.depth -= 1
        if self.depth == 0:
            raise _End


def element_span(html: str, element_id: str) -> tuple[int, int]:
    """The start and end of the one element with id `element_id` in `html`."""
    mark = f' id="{element_id}"'
    assert html.count(mark) == 1, element_id
    start = html.rindex("<", 0, html.index(mark))
    parser = _Element()
    rest = html[start:]
    try:
        parser.feed(rest)
    except _End:
        line, col = parser.getpos()
        offset = sum(len(x) + 1 for x in rest.split("\n")[: line - 1]) + col
        return start, start + rest.index(">", offset) + 1
    raise AssertionError(f"{element_id} does not end")


class Page:
    """What a seat page holds, swapped in as htmx swaps what a push brings."""

    def __init__(self) -> None:
        self.regions: dict[str, str] = {}

    def swap(self, got: dict[str, str]) -> None:
        for name, html in got.items():
            region, _, part = name.partition("/")
            if not part:
                self.regions[name] = html
                continue
            assert name == render.part_name(region, part)
            assert html.count(OOB) == 1 and f'<div id="{part}"' in html  # oob, by its id
            start, end = element_span(self.regions[region], part)
            held = self.regions[region]
            self.regions[region] = held[:start] + html.replace(OOB, "", 1) + held[end:]


CASES = KINDS


@pytest.mark.parametrize(("scenario", "options", "mode", "teams"), CASES)
def test_issue17_a_live_page_holds_what_a_fresh_render_shows(
    scenario: str, options: tuple[str, ...], mode: str, teams: bool
) -> None:
    rng = random.Random(17)
    game = f"{CASES.index((scenario, options, mode, teams)):016x}"  # the cache is by game id
    state = rules.new_game(scenario, frozenset(options), 5, mode, teams)
    seats = [s.id for s in rules.seats(state)]
    lives = {s: LiveRegions() for s in seats}
    pages = {s: Page() for s in seats}
    logs: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    skipped = parts_sent = 0
    for version in range(1, 121):
        for seat in seats:
            view = json.loads(json.dumps(rules.view(state, seat)))
            view.update(id=game, version=version, seat=seat)
            reconnect = version % 37 == 0  # a new socket: the first push brings it all
            if reconnect:
                lives[seat] = LiveRegions()
            got = lives[seat].render(view, logs[seat], Seat(game, seat))
            if reconnect:
                assert set(got) == set(render.REGIONS), (version, seat)
            skipped += len(render.REGIONS) - len(got)
            parts = [n for n in got if "/" in n]
            parts_sent += len(parts)
            for name in parts:  # each part sent alone carries its own version stamp
                assert f'data-v="{version}"' in got[name].split(">", 1)[0], name
            pages[seat].swap(got)
            expected = fresh(view, logs[seat], seat)
            for name in render.REGIONS:
                held = unstamped(pages[seat].regions[name])
                assert held == expected[name], (version, seat, name)
            for name in render.form_regions() & set(got):
                assert f'value="{version}"' in got[name] or 'name="version"' not in got[name]
        if state.status == "finished":
            break
        state = play_on(state, rng, logs)
    assert skipped > 0  # the pages did skip regions: the check above is not vacuous
    assert parts_sent > 0  # and were sent parts of the cards, not the whole


def test_issue17_a_page_that_missed_a_changed_part_is_told_apart() -> None:
    """The check above sees a part not sent: a card area left as it was, once it changed."""
    state = rules.new_game("one", frozenset(), 5)
    rng = random.Random(3)
    live, page = LiveRegions(), Page()
    for version in range(1, 60):
        view = {**json.loads(json.dumps(rules.view(state, "usa"))), "id": GAME, "seat": "usa"}
        view["version"] = version
        got = live.render(view, [], Seat(GAME, "usa"))
        parts = [n for n in got if "/" in n]
        if parts and version > 1:
            page.swap({n: h for n, h in got.items() if n != parts[0]})  # one part lost
            expected = fresh(view, [], "usa")["cards"]
            assert unstamped(page.regions["cards"]) != expected
            return
        page.swap(got)
        state = play_on(state, rng)
    raise AssertionError("no part of the cards was sent alone")


def test_issue17_a_fresh_render_holds_every_part_with_its_id() -> None:
    """A page loaded whole has each area of both cards as an element of its own, stamped."""
    state = rules.new_game("one", frozenset(), 5)
    view = {**rules.view(state, "usa"), "id": GAME, "version": 4, "seat": "usa"}
    c = Context(view, [], Seat(GAME, "usa"))
    html = render.render_region(c, "cards")[0]
    ids = [p.id for card in c["cards"] for p in card.parts]
    assert len(ids) == len(set(ids)) > 4
    for part_id in ids:
        start, end = element_span(html, part_id)
        assert 'data-v="4"' in html[start:end].split(">", 1)[0]
        assert OOB not in html[start:end]  # swapped with its region, not out of it
    assert "cp-usa-named-Midway" in ids and "cp-japan-flying" in ids


def test_issue17_a_region_notes_the_view_keys_it_read() -> None:
    """The status line reads the Turn; it does not read the Operations Cards."""
    state = rules.new_game("one", frozenset(), 5)
    view = {**rules.view(state, "usa"), "id": GAME, "version": 1, "seat": "usa"}
    _html, reads = render.render_region(Context(view, [], Seat(GAME, "usa")), "status")
    assert "turn" in reads and "operations_cards" not in reads
    _html, reads = render.render_region(Context(view, [], Seat(GAME, "usa")), "log")
    assert render.EVENTS in reads
    assert render.form_regions() >= {"prompt", "umpire"}


def test_issue17_a_form_region_as_before_is_stamped_anew_not_rendered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The prompt's forms send the version back with a click, so it is given at every
    version; when nothing else it is rendered from changed, its last HTML is given with
    the new version in its stamp and its forms, its template not rendered again."""
    rendered: list[str] = []
    region_html = render.region_html

    def counted(name: str, ctx: dict[str, Any]) -> str:
        if live_rendering:
            rendered.append(name)
        return region_html(name, ctx)

    monkeypatch.setattr(render, "region_html", counted)
    state = rules.new_game("one", frozenset(), 5)
    rng = random.Random(11)
    live = LiveRegions()
    game = "00000000000000fa"
    forms = 0
    live_rendering = False
    for version in range(1, 81):
        view = {**json.loads(json.dumps(rules.view(state, "usa"))), "id": game, "seat": "usa"}
        view["version"] = version
        live_rendering = True
        got = live.render(view, [], Seat(game, "usa"))
        live_rendering = False
        assert unstamped(got["prompt"]) == fresh(view, [], "usa")["prompt"], version
        assert f'data-v="{version}"' in got["prompt"].split(">", 1)[0]
        versions = re.findall(r'name="version" value="(-?\d+)"', got["prompt"])
        assert set(versions) <= {str(version)}, version
        forms += bool(versions)
        state = play_on(state, rng)
    renders = rendered.count("prompt")
    assert 0 < renders <= 80 - 10  # of 80 versions, ten or more were only stamped anew
    assert forms > 10  # and many of those given held forms


class _Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def test_issue17_the_socket_sends_what_the_page_lacks_of_a_region_in_parts() -> None:
    """LivePage skips what the page already holds: once a part was sent alone, the whole
    region as it held before is news again; once the whole was sent, so is a part as it
    was before it."""
    ws = _Socket()
    page = LivePage(ws, GAME, None, 60.0)  # type: ignore[arg-type]
    whole = '<section id="r-cards" data-v="{v}"><div id="cp-x" data-v="{v}">{t}</div></section>'
    part = '<div id="cp-x" data-v="{v}" hx-swap-oob="true">{t}</div>'
    pushes = [
        {"cards": whole.format(v=1, t="one")},
        {"cards/cp-x": part.format(v=2, t="two")},
        {"cards": whole.format(v=3, t="one")},  # the page holds "two": sent
        {"cards/cp-x": part.format(v=4, t="two")},  # the page holds "one": sent
        {"cards/cp-x": part.format(v=5, t="two")},  # the same again: not sent
    ]

    async def run() -> None:
        for fresh in pushes:

            async def render(fresh: dict[str, str] = fresh) -> dict[str, str]:
                return fresh

            page.render = render  # type: ignore[method-assign]
            await page.push()

    asyncio.run(run())
    bodies = [m.split("</div>", 1)[1] for m in ws.sent]  # after the sync stamp
    assert [">one<" in b or ">two<" in b for b in bodies] == [True, True, True, True, False]
