"""Between moves in the browser (issue 14, Done when): my games kept over a reload, a seat
open in two places, joining a lobby game, the tab title on your move, chat between the
two seats live, a correspondence pace and its claim, notices away from the page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import TIMEOUT_MS, SeatPage

pytestmark = pytest.mark.browser


def seat_page(browser: Any, link: str, folder: Path) -> SeatPage:
    return SeatPage(browser.new_context().new_page(), link, folder).open()


def test_seat_link_opened_once_is_listed_on_the_home_page_after_a_reload(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """Open a seat link once; the home page of the same browser lists the game with its
    scenario, seat, Turn and state, after a reload too, with its link to open again."""
    game = ApiGame.create(server.url)
    ctx = browser.new_context()
    try:
        seat = SeatPage(ctx.new_page(), game.link("japan"), artifacts).open()
        home = ctx.new_page()
        home.goto(server.url + "/")
        home.reload()
        row = home.locator(f'#my-games tr[data-game="{game.id}"][data-seat="japan"]')
        row.wait_for(timeout=TIMEOUT_MS)
        home.wait_for_function(
            "g => document.querySelector(`#my-games tr[data-game='${g}']`).dataset.state",
            arg=game.id,
            timeout=TIMEOUT_MS,
        )
        view = game.view("japan")
        expected = "your move" if view["prompt"]["actions"] else "waiting"
        assert row.locator(".state").inner_text() == expected
        assert row.locator(".turn").inner_text() == f"Turn {view['turn']}"
        assert "Scenario One" in row.locator(".scenario").inner_text()
        assert game.tokens["japan"] in (row.locator("a.open-seat").get_attribute("href") or "")
        home.screenshot(path=str(artifacts / "home.png"))
        assert not seat.errors
    finally:
        ctx.close()


def test_a_seat_open_in_two_places_says_so_on_both(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url)
    first = seat_page(browser, game.link("usa"), artifacts)
    second = seat_page(browser, game.link("usa"), artifacts)
    for page in (first, second):
        page.page.wait_for_selector("#elsewhere:not([hidden])", timeout=TIMEOUT_MS)
    other = seat_page(browser, game.link("japan"), artifacts)
    other.page.wait_for_function(
        "() => document.getElementById('presence').textContent.includes('usa: online')",
        timeout=TIMEOUT_MS,
    )
    assert other.page.locator("#elsewhere").is_hidden()
    for page in (first, second, other):
        assert not page.errors
        page.page.context.close()


def test_joining_a_lobby_game(browser: Any, server: Server, artifacts: Path) -> None:
    """A game opened to anyone is listed in the lobby; Join takes its free seat: the
    joiner lands on that seat's live page, and the game leaves the lobby."""
    r = HTTP.post(f"{server.url}/api/lobby", json={"scenario": "one", "keep": "japan"})
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        button = page.locator(f'#lobby tr[data-game="{game_id}"] button.join-seat')
        button.wait_for(timeout=TIMEOUT_MS)
        assert button.inner_text() == "Join as usa"
        button.click()
        page.wait_for_url(f"**/games/{game_id}/seat/usa", timeout=TIMEOUT_MS)
        page.wait_for_selector("#conn[data-state=live]", timeout=TIMEOUT_MS)
        page.screenshot(path=str(artifacts / "joined.png"))
        lobby = HTTP.get(f"{server.url}/api/lobby").json()
        assert game_id not in {g["id"] for g in lobby}
        page.goto(server.url + "/")
        page.locator(f'#my-games tr[data-game="{game_id}"][data-seat="usa"]').wait_for(
            timeout=TIMEOUT_MS
        )
    finally:
        ctx.close()


def test_tab_title_changes_when_the_other_seat_moves(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """The waiting seat's tab title says nothing; once the other seat moves and it is
    this seat's move, the title says so (and the favicon changes)."""
    game = ApiGame.create(server.url)
    game.set_up()
    acting = next(s for s in ("japan", "usa") if game.view(s)["prompt"]["actions"])
    waiting = "usa" if acting == "japan" else "japan"
    assert not game.view(waiting)["prompt"]["actions"]
    page = seat_page(browser, game.link(waiting), artifacts)
    page.page.wait_for_selector("body[data-your-move='0']", timeout=TIMEOUT_MS)
    assert "Your move" not in page.page.title()
    # issue 30: the site's own icon while waiting (not an empty one), served as SVG
    idle = page.page.eval_on_selector("link[rel=icon]", "l => l.href")
    assert "/static/favicon.svg" in idle, idle
    served = HTTP.get(idle)
    assert served.status_code == 200 and served.headers["content-type"] == "image/svg+xml"
    for _ in range(50):
        if game.view(waiting)["prompt"]["actions"]:
            break
        game.act(acting, kind="done")
    page.page.wait_for_function("() => document.title.includes('Your move')", timeout=TIMEOUT_MS)
    icon = page.page.get_attribute("link[rel=icon]", "href") or ""
    assert icon.startswith("data:image/svg+xml")
    assert not page.errors
    page.page.context.close()


def test_chat_between_the_two_seats_live(browser: Any, server: Server, artifacts: Path) -> None:
    """Japan writes; the American page shows it without a reload, as text; the answer
    comes back the same way."""
    game = ApiGame.create(server.url)
    pages = {s: seat_page(browser, game.link(s), artifacts) for s in ("japan", "usa")}
    pages["japan"].page.fill("#chat-text", "Good hunting <b>Yankee</b>")
    pages["japan"].page.click("#chat-form button[type=submit]")
    said = "#chat-log li:has-text('Good hunting <b>Yankee</b>')"
    pages["usa"].page.wait_for_selector(said, timeout=TIMEOUT_MS)
    assert pages["usa"].page.locator("#chat-log b").count() == 0  # text, not markup
    pages["usa"].page.fill("#chat-text", "Likewise")
    pages["usa"].page.press("#chat-text", "Enter")
    pages["japan"].page.wait_for_selector("#chat-log li:has-text('Likewise')", timeout=TIMEOUT_MS)
    pages["japan"].page.screenshot(path=str(artifacts / "chat.png"))
    for page in pages.values():
        assert not page.errors
        page.page.context.close()


def test_pace_shown_and_an_overdue_opponent_claimed_from_the_page(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """A game of one day a move: the waiting seat's page shows the pace and the other
    seat's due time; once that seat is overdue (no vacation left) a Claim button appears,
    and claiming says so on the page and ends the game."""
    r = HTTP.post(
        f"{server.url}/api/games",
        json={"scenario": "one", "seed": 7, "pace_days": 1, "vacation_days": 0},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    game = ApiGame(server.url, body["id"], {s["seat"]: s["token"] for s in body["seats"]})
    game.set_up()
    late = next(s for s in ("japan", "usa") if game.view(s)["prompt"]["actions"])
    other = "usa" if late == "japan" else "japan"
    tick = HTTP.post(f"{server.url}/api/_clock/tick", json={"at": datetime.now(UTC).isoformat()})
    assert tick.status_code == 200, tick.text
    page = seat_page(browser, game.link(other), artifacts)
    pace = page.page.locator("#pace")
    pace.wait_for(timeout=TIMEOUT_MS)
    assert "Pace: 1 day a move" in pace.inner_text()
    page.page.wait_for_function(
        "s => document.getElementById('pace').textContent.includes(s + ': due')",
        arg=late,
        timeout=TIMEOUT_MS,
    )
    assert page.page.locator("#claim").count() == 0
    later = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    assert HTTP.post(f"{server.url}/api/_clock/tick", json={"at": later}).status_code == 200
    page.page.locator("#claim").wait_for(timeout=TIMEOUT_MS)
    assert "overdue since" in pace.inner_text()
    page.page.click("#claim")
    page.page.wait_for_function(
        "() => document.getElementById('pace').textContent.includes('claimed by you')",
        timeout=TIMEOUT_MS,
    )
    page.page.screenshot(path=str(artifacts / "claimed.png"))
    glance = HTTP.get(f"{server.url}/api/games/{game.id}/glance", headers=game.auth(late))
    assert glance.json()["pace"]["claimed_by"] == other
    assert not page.errors
    page.page.context.close()


def test_notices_away_from_the_page_are_asked_for_on_the_seat_page(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """The seat opts into email and a reminder from its page; a bad address is refused
    with the server's reason, nothing saved."""
    game = ApiGame.create(server.url)
    page = seat_page(browser, game.link("japan"), artifacts)
    p = page.page
    p.click("#away summary")
    p.fill("#away-email", "not an address")
    p.evaluate("() => document.getElementById('away-email').type = 'text'")  # past the browser
    p.click("#away-form button[type=submit]")
    p.wait_for_function(
        "() => document.getElementById('away-said').textContent.length > 0", timeout=TIMEOUT_MS
    )
    assert "Saved" not in p.locator("#away-said").inner_text()
    p.fill("#away-email", "yamamoto@example.org")
    p.fill("#away-hours", "6")
    p.click("#away-form button[type=submit]")
    p.wait_for_function(
        "() => document.getElementById('away-said').textContent.startsWith('Saved')",
        timeout=TIMEOUT_MS,
    )
    assert p.locator("#away-said").inner_text() == (
        "Saved: notices by email, a reminder after 6 h."
    )
    p.screenshot(path=str(artifacts / "away.png"))
    assert not page.errors
    p.context.close()


def test_a_game_opened_in_the_lobby_has_its_own_page_and_a_reload_opens_no_other(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """Issue 13 (Post/Redirect/Get) for the lobby: opening a game from the home page's form
    lands on the game's own page with the kept seat's link; a reload shows it again and
    opens no second game; once the free seat is joined, the page says so."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.check("input[name=scenario][value=one]")
        page.select_option("select[name=keep]", "japan")
        lobby = len(HTTP.get(f"{server.url}/api/lobby").json())
        page.click("button.open")
        page.wait_for_selector("a.seat-link[data-seat=japan][href*='#token=']")
        assert "/opened" in page.url and "token" not in page.url
        link = page.eval_on_selector("a.seat-link", "a => a.href")
        assert "Free for anyone to join: usa" in page.inner_text("main")
        page.screenshot(path=str(artifacts / "opened.png"))
        page.reload()
        page.wait_for_selector("a.seat-link[data-seat=japan][href*='#token=']")
        assert page.eval_on_selector("a.seat-link", "a => a.href") == link
        listed = HTTP.get(f"{server.url}/api/lobby").json()
        assert len(listed) == lobby + 1
        game_id = page.url.split("/games/")[1].split("/")[0]
        r = HTTP.post(f"{server.url}/api/lobby/{game_id}/join", json={})
        assert r.status_code == 200, r.text
        page.reload()
        page.wait_for_selector("a.seat-link[data-seat=japan][href*='#token=']")
        assert "Every seat is taken" in page.inner_text("main")
        assert page.locator("#links-missing").is_hidden()
    finally:
        context.close()
