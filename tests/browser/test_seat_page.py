"""The seat page itself: rendered from the seat's view only, small, on this host only,
honest about stale clicks, back by itself after a dropped connection, and usable with the
keyboard alone (issue 4)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import SETTLED, SeatPage

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1440, "height": 900}
BUDGET = 150 * 1024


def masked(html: str, game: ApiGame) -> str:
    for token in game.tokens.values():
        assert token not in html  # the token never reaches the page's markup
    return html.replace(game.id, "<game>")


def rendered_page(browser: Any, game: ApiGame, seat: str, folder: Path) -> str:
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = SeatPage(ctx.new_page(), game.link(seat), folder).open()
        page.synced()
        page.page.wait_for_function(SETTLED)
        page.page.wait_for_selector("body[data-your-move]")  # the pulse answered (issue 14)
        page.shot(f"game-{game.id[:4]}")
        html: str = page.page.evaluate("document.documentElement.outerHTML")
        return masked(html, game)
    finally:
        ctx.close()


def why_not(game: ApiGame, seat: str, click: dict[str, str]) -> str:
    """The page's answer to a click that makes no legal action (issue 13)."""
    r = HTTP.post(f"{game.base}/games/{game.id}/why", data=click, headers=game.auth(seat))
    assert r.status_code == 200, r.text
    return r.text


def test_american_page_is_identical_whatever_the_japanese_secret_placement(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """DESIGN.md, Hidden information: two games that differ only in where the Mobile Force
    was set up (J2 or H1, both in area II) give the American seat the same page, byte for
    byte once the game id is masked - over HTTP and in the browser, after a search."""
    games = [ApiGame.create(server.url), ApiGame.create(server.url)]
    for game, where in zip(games, ("J2", "H1"), strict=True):
        game.set_up(japan_hex=where)
        game.to_air_movement()
        game.act("usa", kind="fly", group="O", hex="K2")
        game.act("usa", kind="search", hex="K2")  # empty in both games
    regions = [masked(g.regions("usa"), g) for g in games]
    assert regions[0] == regions[1]
    # issue 13: why a click does nothing tells nothing of the secret either - a click on
    # the hex where the Mobile Force is in one game, on its marker, or on a hex alone
    clicks = [
        {"subject": "O", "owner": "usa", "hex": hex_} for hex_ in ("J2", "H1", "H2", "M5")
    ] + [{"subject": "MobileForce", "owner": "japan"}, {"hex": "J2"}, {"hex": "H1"}]
    answers = [[masked(why_not(g, "usa", c), g) for c in clicks] for g in games]
    assert answers[0] == answers[1]
    words = [re.sub(r"<[^>]+>", "", a) for a in answers[0]]  # a rule number is a link
    assert any("(3d1)" in w for w in words), words
    assert "K2: nothing there" in regions[0]
    pages = [rendered_page(browser, g, "usa", artifacts) for g in games]
    assert pages[0] == pages[1]
    japanese = [masked(g.regions("japan"), g) for g in games]
    assert japanese[0] != japanese[1]  # the secret did differ


def test_first_load_is_small_and_stays_on_this_host(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """The first load of a seat page - here mid-battle, the heaviest page, with the
    Battleboard, the Searchboard and both Operations Cards - transfers less than 150 KB
    and asks nothing of any other host."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    game.to_anti_aircraft()
    for seat in ("japan", "usa"):
        total, urls, big = first_load(browser, game.link(seat), artifacts)
        assert total < BUDGET, f"{seat}: {total} bytes"
        hosts = {urlsplit(u).netloc for u in urls if not u.startswith("data:")}
        assert hosts == {f"127.0.0.1:{server.port}"}, urls
        assert big and all(encoding == "gzip" for encoding in big.values()), big


def first_load(browser: Any, link: str, folder: Path) -> tuple[int, list[str], dict[str, Any]]:
    """Bytes transferred (bodies as sent, headers, websocket frames), every URL asked
    for, and the content encoding of each response over 4 KB."""
    ctx = browser.new_context(viewport=LAPTOP)
    finished: list[Any] = []
    sockets: list[Any] = []
    frames: list[int] = []
    try:
        page = ctx.new_page()
        page.on("requestfinished", lambda r: finished.append(r))
        page.on("websocket", lambda ws: sockets.append(ws))
        page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(len(p))))
        SeatPage(page, link, folder).open().synced()
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(folder / f"first-load-{link.split('/')[-1][:5]}.png"))
        sizes = {r.url: r.sizes() for r in finished}
        total = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes.values())
        big = {
            r.url: r.response().header_value("content-encoding")
            for r in finished
            if sizes[r.url]["responseBodySize"] > 4096
        }
        urls = [r.url for r in finished] + [ws.url for ws in sockets]
        return total + sum(frames), urls, big
    finally:
        ctx.close()


class Pipe:
    """The page's websocket, through Playwright: messages held, or the line cut."""

    def __init__(self) -> None:
        self.hold = False
        self.down = False
        self.held: list[str | bytes] = []
        self.routes: list[Any] = []

    def __call__(self, ws: Any) -> None:
        if self.down:
            ws.close(code=1012)
            return
        server = ws.connect_to_server()
        server.on_message(lambda m: self.held.append(m) if self.hold else ws.send(m))
        self.routes.append(ws)


def test_a_click_on_a_stale_view_is_refused_and_the_fresh_view_shown(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """409: the American page has not heard that Japan finished setting up; its click is
    refused with a clear message, nothing is done, and the page shows the fresh view."""
    game = ApiGame.create(server.url)
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        pipe = Pipe()
        page = ctx.new_page()
        page.route_web_socket(re.compile(r".*/live$"), pipe)
        us = SeatPage(page, game.link("usa"), artifacts).open()
        before = us.synced()["version"]
        pipe.hold = True
        game.act("japan", kind="place", force="MobileForce", hex="J2")
        game.act("japan", kind="done")
        assert game.view("usa")["version"] > before == us.version()
        us.pick('#act .subject[data-key="tf:usa:TF17"]')
        with page.expect_response(lambda r: r.url.endswith("/act")) as answer:
            page.locator('#r-searchboard [data-tkey="sb:L2"]').click()
        assert answer.value.status == 409
        # htmx swaps the answer in after the response event: wait for the flash to come
        page.wait_for_function("() => document.querySelector('#flash').innerText.trim() !== ''")
        flash = us.text("#flash")
        assert "Your view was out of date" in flash and "Nothing was done" in flash
        assert us.version() == game.view("usa")["version"]
        assert "tf:usa:TF17" not in us.board_keys()
        assert "Waiting for" not in us.text("#r-prompt")  # Japan is done: only the US sets up
        us.shot("stale")
        pipe.hold = False
        for message in pipe.held:  # late news of an older view changes nothing
            pipe.routes[-1].send(message)
        assert us.version() == game.view("usa")["version"]
        assert "selected" in (us.page.get_attribute('#act [data-key="tf:usa:TF17"]', "class") or "")
        us.target('#r-searchboard [data-tkey="sb:L2"]')
        assert game.view("usa")["searchboard"]["forces"]["TF17"] == "L2"
    finally:
        ctx.close()


def test_a_dropped_connection_reconnects_and_resyncs(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """The socket drops (1012, as when a server restarts); meanwhile Japan acts. The page
    says it is reconnecting, comes back by itself and shows what it missed."""
    game = ApiGame.create(server.url)
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        pipe = Pipe()
        page = ctx.new_page()
        page.route_web_socket(re.compile(r".*/live$"), pipe)
        us = SeatPage(page, game.link("usa"), artifacts).open()
        before = us.synced()["version"]
        pipe.down = True
        pipe.routes[-1].close(code=1012)
        page.wait_for_selector("#conn[data-state=reconnecting]")
        game.act("japan", kind="place", force="MobileForce", hex="J2")
        game.act("japan", kind="done")
        page.wait_for_timeout(300)
        assert us.version() == before
        us.shot("dropped")
        pipe.down = False
        us.live()
        us.synced()
        assert us.version() == game.view("usa")["version"] > before
        assert "Waiting for" not in us.text("#r-prompt")
        us.shot("resynced")
    finally:
        ctx.close()


def test_keyboard_alone_places_a_task_force(browser: Any, server: Server, artifacts: Path) -> None:
    """Tab to a counter, Enter; to the board; arrow keys to a hex; Enter: the move is made,
    and the focused hex shows it has the focus."""
    game = ApiGame.create(server.url)
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        us = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        keys = us.page.keyboard

        def tab_to(test: str) -> None:
            for _ in range(150):
                keys.press("Tab")
                if us.page.evaluate(f"(() => {{ const a = document.activeElement; {test} }})()"):
                    return
            raise AssertionError(f"Tab never reached: {test}")

        tab_to("return a.dataset.key === 'tf:usa:TF17'")
        keys.press("Enter")
        assert (
            us.page.get_attribute('#act .subject[data-key="tf:usa:TF17"]', "aria-pressed") == "true"
        )
        tab_to("return a.classList.contains('to-board')")
        keys.press("Enter")
        focused = "document.activeElement.getAttribute('data-hex')"
        assert us.page.evaluate(focused) == "L1"
        keys.press("ArrowDown")
        assert us.page.evaluate(focused) == "L2"
        visible = us.page.evaluate(
            """(() => { const a = document.activeElement;
                return a.matches(':focus-visible')
                    && getComputedStyle(a.querySelector('use')).stroke; })()"""
        )
        assert visible == "rgb(255, 159, 28)"
        us.shot("keyboard")
        version = us.version()
        keys.press("Enter")
        us.page.wait_for_function(
            "v => Number(document.getElementById('r-prompt').dataset.v) > v", arg=version
        )
        assert game.view("usa")["searchboard"]["forces"]["TF17"] == "L2"
        us.synced()
        tab_to("return a.id === 'c-u-usa-B3'")  # a counter on the Operations Card
        keys.press("Enter")
        tab_to("return a.dataset.tkey === 'box:usa:Yorktown:arming'")  # the lit box
        version = us.version()
        keys.press("Enter")
        us.page.wait_for_function(
            "v => Number(document.getElementById('r-prompt').dataset.v) > v", arg=version
        )
        carriers = game.view("usa")["operations_cards"]["usa"]["carriers"]
        assert "B3" in next(c for c in carriers if c["id"] == "Yorktown")["arming"]
        assert us.errors == []
    finally:
        ctx.close()


def finished_game(server: Server) -> ApiGame:
    """A Scenario One game with a battle (4), played to its end (7a3)."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    game.to_anti_aircraft()
    game.to_turn_nine()
    game.finish()
    return game


def test_the_end_shows_victory_points_by_unit_and_the_result(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """7a3, 7b4.1: after the last Turn each page breaks the victory points down by unit."""
    game = finished_game(server)
    victory = game.view("usa")["victory"]
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        us = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        us.page.wait_for_selector("#r-victory h2")
        text = us.text("#r-victory")
        usa_points = victory["points"]["usa"]
        assert f"United States scores {usa_points}" in text
        row = us.page.locator("#r-victory tr", has_text="Akagi")
        assert "flipped" in row.inner_text() and usa_points > 0
        winner = {"usa": "United States wins", "japan": "Japan wins", "tie": "A tie"}
        assert winner[victory["winner"]] in text
        assert "The game is over" in us.text("#r-prompt") or "Waiting" not in us.text("#r-prompt")
        us.shot("victory")
    finally:
        ctx.close()


def test_the_replay_page_steps_through_the_finished_game_as_each_side_saw_it(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """From the result (7a3) to the replay: the end with both sides' positions, then any
    action of the game as one side saw it, by Start / Next / a Turn, and the other side's
    view at the same point. Nothing on it can be clicked to act."""
    game = finished_game(server)
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        us = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        us.page.wait_for_selector("#r-victory a.replay-link")
        us.page.click("#r-victory a.replay-link")
        page = us.page
        page.wait_for_selector("#replay-at")
        total = int(re.search(r"of (\d+)", page.inner_text("#replay-at")).group(1))  # type: ignore[union-attr]
        assert f"After action {total} of {total}" in page.inner_text("#replay-at")
        assert "everything revealed" in page.inner_text("#replay-at")
        assert page.locator("#r-victory h2").count() == 1
        assert page.locator("#r-prompt, [hx-post]").count() == 0
        page.click("a[rel=first]")
        page.wait_for_selector("#replay-at:has-text('After action 0 of')")
        page.click("a[rel=next]")
        page.wait_for_selector("#replay-at:has-text('After action 1 of')")
        page.click("a[data-turn='9']")
        page.wait_for_selector("#replay-at:has-text('(Turn 9,')")
        at = page.inner_text("#replay-at")
        page.click("a.switch[data-seat=japan]")
        page.wait_for_selector("body.replay-page.japan")
        assert page.inner_text("#replay-at") == at
        assert "Japan" in page.inner_text("header h1")
        assert page.locator("svg.board[data-board=sb]").count() == 1
        page.screenshot(path=str(artifacts / "replay-japan-turn-9.png"), full_page=True)
        page.click("a.switch[data-seat=omniscient]")
        page.wait_for_selector("body.replay-page.omniscient")
        assert page.inner_text("#replay-at") == at
        assert page.locator("#r-searchboard svg.board").count() == 1, "both sides on one board"
        assert page.locator("#r-searchboard [data-key^='tf:japan:']").count() > 0
        assert page.locator("#r-searchboard [data-key^='tf:usa:']").count() > 0
        assert page.locator("details.older").count() == 0, "the whole log is on the page"
        page.screenshot(path=str(artifacts / "replay-both-turn-9.png"), full_page=True)
    finally:
        ctx.close()


def test_a_seat_link_without_its_token_says_so(browser: Any, server: Server) -> None:
    game = ApiGame.create(server.url)
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = ctx.new_page()
        page.goto(game.link("usa").split("#")[0])
        page.wait_for_selector("#flash.error")
        assert "needs its seat link" in page.inner_text("#flash")
        page = ctx.new_page()  # a fragment change alone would not load the page again
        page.goto(game.link("usa").split("#")[0] + "#token=not-a-token")
        page.wait_for_selector("#flash.error")
        assert "not a seat token of this game" in page.inner_text("#flash")
        assert page.inner_text("#conn") == "Not connected"
    finally:
        ctx.close()


def test_17b_each_american_player_places_only_his_own_task_force_on_a_shared_board(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """17a, 17b in the browser: in a Scenario Three team game the two American players
    each see only their own task force to place; the one placed shows on the other's page
    (one Searchboard a side on the table); neither page holds another seat's token."""
    r = HTTP.post(f"{server.url}/api/games", json={"scenario": "three", "teams": True})
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = {s["seat"]: s["token"] for s in body["seats"]}
    game = ApiGame(server.url, body["id"], tokens)
    contexts = [browser.new_context(viewport=LAPTOP) for _ in range(2)]
    try:
        tf16, tf17 = (
            SeatPage(c.new_page(), game.link(s), artifacts).open()
            for c, s in zip(contexts, ("usa-tf16", "usa-tf17"), strict=True)
        )
        assert "Task Force 16" in tf16.text("h1") and "Task Force 17" in tf17.text("h1")
        subjects16, subjects17 = tf16.keys("#act .subject"), tf17.keys("#act .subject")
        assert "tf:usa:TF16" in subjects16 and "tf:usa:TF17" not in subjects16
        assert "tf:usa:TF17" in subjects17 and "tf:usa:TF16" not in subjects17
        tf16.pick('#act .subject[data-key="tf:usa:TF16"]')
        tf16.target('#r-searchboard [data-tkey="sb:N3"]')
        tf17.synced()
        assert "tf:usa:TF16" in tf17.board_keys()
        for page in (tf16, tf17):
            html = page.page.evaluate("document.documentElement.outerHTML")
            assert not [s for s, t in tokens.items() if t in html and s != page.seat]
            assert not page.errors, page.errors
    finally:
        for c in contexts:
            c.close()
