"""Issue 34: a live page is sent what changed in its regions (app.web.patches), not the
regions re-rendered whole. Along random games of every kind of seat, a page that swaps in
what its socket sends, as htmx and midway.js swap it (patches.Page), holds what a fresh
render of the whole page shows; a task force moved one hex costs a message of a few
hundred bytes of Searchboard, never the Searchboard whole; a page that reconnects is
brought exactly to the view."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

from app import rules
from app.rules.engine.state import State
from app.rules.modes.seats import acting
from app.web import render
from app.web.live import LivePage
from app.web.patches import Page, Shown, diff, shown
from app.web.render import Context, LiveRegions, Seat
from tests.web.games import KINDS, play_on
from tools.fuzz import choose

WHOLE_BOARD = '<section id="r-searchboard"'


def fresh(view: dict[str, Any], log: list[dict[str, Any]], seat: str) -> dict[str, str]:
    """Every region rendered from nothing."""
    c = Context(view, log, Seat(view["id"], seat))
    return {n: render.render_region(c, n)[0] for n in render.REGIONS}


def held(page: Page, name: str) -> str:
    region = page.element(f"r-{name}")
    assert region is not None, name
    return shown(region).strip()


def seat_view(state: State, seat: str, game: str, version: int) -> dict[str, Any]:
    view = json.loads(json.dumps(rules.view(state, seat)))
    view.update(id=game, version=version, seat=seat)
    return view


@pytest.mark.parametrize(("scenario", "options", "mode", "teams"), KINDS)
def test_34_a_patched_page_holds_what_a_fresh_render_shows(
    scenario: str, options: tuple[str, ...], mode: str, teams: bool
) -> None:
    rng = random.Random(34)
    game = f"{0x3400 + KINDS.index((scenario, options, mode, teams)):016x}"
    state = rules.new_game(scenario, frozenset(options), 7, mode, teams)
    seats = [s.id for s in rules.seats(state)]
    lives = {s: LiveRegions() for s in seats}
    sockets = {s: Shown() for s in seats}
    pages = {s: Page() for s in seats}
    logs: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    patches = boards_whole = 0
    for version in range(1, 101):
        for seat in seats:
            view = seat_view(state, seat, game, version)
            got = lives[seat].render(view, logs[seat], Seat(game, seat))
            message = render.synced(version) + sockets[seat].message(got)
            patches += message.count("<template ")
            boards_whole += version > 1 and WHOLE_BOARD in message
            pages[seat].apply(message)
            expected = fresh(view, logs[seat], seat)
            for name in render.REGIONS:
                assert held(pages[seat], name) == shown(expected[name]).strip(), (version, name)
        if state.status == "finished":
            break
        state = play_on(state, rng, logs)
    assert patches > 100  # what changed was sent, not the regions whole
    assert all(p.refreshes == 0 for p in pages.values())
    if scenario == "one":
        assert boards_whole == 0, "the Searchboard is never sent whole once the page has it"


def test_34_a_battle_is_patched_piece_by_piece() -> None:
    """The Battleboard (4a-4d: some 420 hexes, 90 kB) is sent once, when a battle comes;
    then its pieces, trays and notes that changed, SVG within <svg> (patches.Page fails
    on an SVG element sent as HTML, which a page would not draw); a page that swaps them
    in holds the Battleboard a fresh render shows, at every version of the battle."""
    rng = random.Random(1)
    game = "00000000000034bb"
    state = rules.new_game("one", frozenset(), 1)
    seats = [s.id for s in rules.seats(state)]
    lives = {s: LiveRegions() for s in seats}
    sockets = {s: Shown() for s in seats}
    pages = {s: Page() for s in seats}
    logs: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    fought = patched = boards = 0
    for version in range(1, 400):
        for seat in seats:
            view = seat_view(state, seat, game, version)
            message = sockets[seat].message(lives[seat].render(view, logs[seat], Seat(game, seat)))
            pages[seat].apply(render.synced(version) + message)
            patched += message.count('data-in="r-battle"')
            boards += '<section id="r-battle" class="region battle"' in message
            expected = fresh(view, logs[seat], seat)["battle"]
            fought += "bb-cells" in expected
            assert held(pages[seat], "battle") == shown(expected).strip(), version
        if fought > 40 or state.status == "finished":
            break
        state = play_on(state, rng, logs)
    assert fought > 40, "a battle was fought"
    assert patched > 20 and boards <= 4, (patched, boards)
    assert all(p.refreshes == 0 for p in pages.values())


def test_34_a_page_that_missed_a_patch_is_told_apart() -> None:
    """The check above sees a lost swap: one element left as it was."""
    state = rules.new_game("one", frozenset(), 7)
    rng = random.Random(5)
    live, socket, page = LiveRegions(), Shown(), Page()
    for version in range(1, 80):
        view = seat_view(state, "usa", "00000000000034aa", version)
        message = socket.message(live.render(view, [], Seat(view["id"], "usa")))
        swaps = [m.group() for m in re.finditer(r"<template [^>]*>.*?</template>", message, re.S)]
        replaced = [s for s in swaps if 'hx-swap-oob="true"' in s]
        if version > 1 and replaced:
            page.apply(message.replace(replaced[0], "", 1))
            expected = fresh(view, [], "usa")
            assert any(held(page, n) != shown(expected[n]).strip() for n in render.REGIONS)
            return
        page.apply(message)
        state = play_on(state, rng)
    raise AssertionError("no patch was sent")


def test_34_a_task_force_moved_one_hex_is_a_small_message() -> None:
    """3c: a task force marker moved one hex changes two cells' worth of the mover's
    Searchboard: the message carries that, not the board's 55 kB."""
    state = rules.new_game("one", frozenset(), 7)
    rng = random.Random(8)
    game = "00000000000034bb"
    live, socket = LiveRegions(), Shown()
    moved = False
    for version in range(1, 400):
        view = seat_view(state, "usa", game, version)
        message = render.synced(version) + socket.message(live.render(view, [], Seat(game, "usa")))
        if version > 1 and moved:
            board = "".join(
                re.findall(r'<template [^>]*data-in="r-searchboard".*?</template>', message, re.S)
            )
            assert WHOLE_BOARD not in message
            assert 0 < len(board) < 1500, board
            assert len(message) < 6000, message
            print(f"a task force moved: {len(message)} bytes, of the Searchboard {len(board)}")
            return
        seat = rng.choice(acting(state))
        action = choose(state, seat, rng)
        moved = seat == "usa" and str(action).startswith("move ")
        state, _events = rules.apply(state, seat, action)
    raise AssertionError("the Americans never moved a task force")


def test_34_an_element_moved_between_lists_is_removed_first() -> None:
    """A counter moved from one box of a card to another: its removal comes before it is
    put in anew (by its id, which must then be its only one)."""
    c1, c2, c3 = (f'<b id="c{n}">{"counter " * 40}{n}</b>' for n in (1, 2, 3))
    old = f'<div id="a"><div id="x">\n{c1}\n{c2}\n</div>\n<div id="y">\n{c3}\n</div></div>'
    new = f'<div id="a"><div id="x">\n{c1}\n</div>\n<div id="y">\n{c3}\n{c2}\n</div></div>'
    ops = diff(old, new)
    assert ops is not None
    assert {(o.how, o.target) for o in ops} == {("delete", "c2"), ("afterend", "c3")}
    socket, page = Shown(), Page()
    page.apply(old.replace('<div id="a"', '<div id="a" data-v="1"', 1))
    socket.has("a", old.replace('<div id="a"', '<div id="a" data-v="1"', 1))
    message = socket.message({"a": new.replace('<div id="a"', '<div id="a" data-v="2"', 1)})
    assert message.index('hx-swap-oob="delete"') < message.index("afterend")
    page.apply(message)
    assert shown(page.html) == shown(new)


def test_34_an_element_moved_is_not_sent_again() -> None:
    """A counter moved from one box of a card to another, as it was: its removal keeps
    it aside (data-keep) and a stand-in puts it in (data-move), its HTML not sent again;
    into a box that was empty, after the box's last element (beforeend). A page that
    did not keep it is told apart: it fetches its regions."""
    c1, c2 = (f'<b id="c{n}">{"counter " * 40}{n}</b>' for n in (1, 2))
    empty = '<span id="y-e" class="empty">empty</span>'
    x, y = '<div id="x"><i>X</i>', '<div id="y"><i>Y</i>'
    old = f'<div id="a" data-v="1">{x}{c1}{c2}</div>{y}{empty}</div></div>'
    new = f'<div id="a" data-v="2">{x}{c1}</div>{y}{c2}</div></div>'
    socket, page = Shown(), Page()
    page.apply(old)
    socket.has("a", old)
    message = socket.message({"a": new})
    assert "counter" not in message, message
    assert 'id="c2" hx-swap-oob="delete"' in message and "data-keep" in message
    assert 'hx-swap-oob="beforeend:#y"' in message and '<i data-move="c2"></i>' in message
    page.apply(message)
    assert shown(page.html) == shown(new) and page.refreshes == 0
    lost = Page()
    lost.apply(old)
    lost.apply(message.replace(" data-keep", ""))
    assert lost.refreshes == 1


class _Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


class _Service:
    def __init__(self) -> None:
        self.log: list[dict[str, Any]] = []

    async def log_through(self, game_id: str, seat: str) -> tuple[int, list[dict[str, Any]]]:
        return 0, list(self.log)

    def doc_in_memory(self, game_id: str, seat: str, version: int) -> None:
        return None

    async def with_standing(self, game_id: str, seat: str, view: dict[str, Any]) -> dict[str, Any]:
        return view  # no order of "Done for this Turn" stands


def test_34_a_page_that_reconnects_is_brought_exactly_to_the_view() -> None:
    """DESIGN.md, Realtime: a page that reconnects says the version it holds. At the
    view's version, nothing is sent, and the patches that follow apply to what it holds;
    at an older one, every region that differs comes whole."""
    rng = random.Random(9)
    game = "00000000000034cc"
    state = rules.new_game("one", frozenset(), 7)
    service, page = _Service(), Page()
    versions: list[int] = []

    async def connect(version: int | None) -> LivePage:
        live = LivePage(_Socket(), game, service, 60.0)  # type: ignore[arg-type]
        live.who, live.page_version = Seat(game, "usa"), version
        return live

    async def run() -> None:
        nonlocal state
        live = await connect(None)
        held_view: dict[str, Any] = {}
        for version in range(1, 90):
            if version % 40 == 0:  # the socket drops; the page reconnects at the view's version
                live = await connect(page_version())
                await live.on_message({"type": "view", "view": held_view, "version": version - 1})
                sent = live.ws.sent  # type: ignore[attr-defined]
                assert len(sent) == 1 and 'id="r-' not in sent[0] and "<template" not in sent[0]
                versions.append(version)
            elif version % 20 == 0:  # the socket drops; some actions go by unseen
                for _ in range(3):
                    seat = rng.choice(acting(state))
                    state, _ = rules.apply(state, seat, choose(state, seat, rng))
                live = await connect(page_version())
            view = seat_view(state, "usa", game, version)
            await live.on_message({"type": "view", "view": view, "version": version})
            held_view = view
            for m in live.ws.sent:  # type: ignore[attr-defined]
                page.apply(m)
            live.ws.sent.clear()  # type: ignore[attr-defined]
            expected = fresh(view, [], "usa")
            for name in render.REGIONS:
                assert held(page, name) == shown(expected[name]).strip(), (version, name)
            state = play_on(state, rng)

    def page_version() -> int:
        region = page.element("r-prompt")
        assert region is not None
        found = re.search(r'data-v="(\d+)"', region)
        assert found
        return int(found.group(1))

    asyncio.run(run())
    assert versions, "a page reconnected at the view's version"


@pytest.mark.parametrize(("scenario", "options", "mode", "teams"), KINDS)
def test_34_every_id_of_a_page_is_its_only_one(
    scenario: str, options: tuple[str, ...], mode: str, teams: bool
) -> None:
    """A patch finds its element by its id: along random games of every kind of seat, no
    id stands twice on a seat's page (HTML 3.2.6: an id is unique in its document)."""
    rng = random.Random(43)
    state = rules.new_game(scenario, frozenset(options), 3, mode, teams)
    seats = [s.id for s in rules.seats(state)]
    logs: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    ids = 0
    for version in range(1, 61):
        if version % 6 == 0:
            for seat in seats:
                html = "".join(
                    fresh(
                        seat_view(state, seat, "000000000000341d", version), logs[seat], seat
                    ).values()
                )
                found = re.findall(r' id="([^"]+)"', html)
                assert len(found) == len(set(found)), (
                    version,
                    seat,
                    sorted(i for i in set(found) if found.count(i) > 1),
                )
                ids += len(found)
        if state.status == "finished":
            break
        state = play_on(state, rng, logs)
    assert ids > 1000
