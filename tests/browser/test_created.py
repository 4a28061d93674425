"""Issue 13, Creating a game: the created page is its own URL (Post/Redirect/Get), so a
reload never makes another game; its seat links (tokens in the fragment only) have copy
buttons and wrap on a phone."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.pages import full_page_shot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}


def games_count(server: Server) -> int:
    path = server.database_url.removeprefix("sqlite:///")
    with closing(sqlite3.connect(path)) as db, db:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])


def create(page: Any, server: Server) -> dict[str, str]:
    page.goto(server.url + "/")
    page.check("input[name=scenario][value=one]")
    page.click("button[type=submit].primary")
    page.wait_for_selector("a.seat-link[href*='#token=']")
    return {
        s: str(page.eval_on_selector(f"a.seat-link[data-seat={s}]", "a => a.href"))
        for s in ("japan", "usa")
    }


def test_a_reload_of_the_created_page_makes_no_new_game(
    browser: Any, server: Server, artifacts: Path
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    before = games_count(server)
    links = create(page, server)
    assert games_count(server) == before + 1
    assert "/created" in page.url and "token" not in page.url  # the secrets left the URL
    full_page_shot(page, artifacts / "created-1366.png")
    page.reload()
    page.wait_for_selector("a.seat-link[href*='#token=']")
    again = {
        s: str(page.eval_on_selector(f"a.seat-link[data-seat={s}]", "a => a.href"))
        for s in ("japan", "usa")
    }
    assert again == links  # the same links, from this tab's sessionStorage
    assert games_count(server) == before + 1  # and no second game
    # another tab has not the links: it says so instead of showing tokenless ones
    other = context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#links-missing:not([hidden])")
    assert other.locator("a.seat-link[href*='#token=']:visible").count() == 0
    context.close()


def test_copy_buttons_copy_each_seat_link(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=LAPTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = context.new_page()
    links = create(page, server)
    for seat, link in links.items():
        page.click(f"button.copy[data-seat={seat}]")
        page.wait_for_function(
            "s => document.querySelector(`button.copy[data-seat=${s}]`)"
            ".parentNode.querySelector('.copied').textContent === 'Copied'",
            arg=seat,
        )
        assert page.evaluate("navigator.clipboard.readText()") == link
    context.close()


def test_the_created_page_fits_a_phone(browser: Any, server: Server, artifacts: Path) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    create(page, server)
    full_page_shot(page, artifacts / "created-390.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


def test_the_create_form_describes_each_option_and_keeps_their_dependencies(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """Each optional rule has its sentence; ticking 16f5 ticks 16, unticking 14 unticks
    15b; Scenario Four (7e) ticks and locks 16; the presets tick their boxes."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(server.url + "/")
    options = page.locator("input[name=options]")
    assert options.count() == 20
    for i in range(options.count()):
        rule = options.nth(i).get_attribute("value")
        text = page.text_content(f"#opt-{rule}") or ""
        assert len(text.split()) >= 8, (rule, text)  # a sentence, not a name

    def ticked() -> set[str]:
        return set(
            page.eval_on_selector_all("input[name=options]:checked", "bs => bs.map(b => b.value)")
        )

    page.check("input[name=options][value='16f5']")
    assert ticked() == {"16", "16f5"}
    page.uncheck("input[name=options][value='16']")
    assert ticked() == set()
    page.check("input[name=options][value='15b']")
    assert ticked() == {"14", "15b"}
    page.uncheck("input[name=options][value='14']")
    assert ticked() == set()
    page.click("button.preset:has-text('Recommended')")
    assert ticked() == {"11a", "11b", "11d", "12a", "13", "14", "15a", "15b"}
    page.click("button.preset:has-text('Everything')")
    assert len(ticked()) == 20
    page.click("button.preset:has-text('Basic')")
    assert ticked() == set()
    page.check("input[name=scenario][value=four]")
    assert ticked() == {"16"} and page.is_disabled("input[name=options][value='16']")
    page.check("input[name=options][value='16k']")
    full_page_shot(page, artifacts / "home-1366.png")
    page.click("button[type=submit].primary")
    page.wait_for_selector("a.seat-link[href*='#token=']")
    chosen = page.text_content(".options-chosen") or ""
    assert "16 Surface combats" in chosen and "16k First Surface Turn" in chosen
    page.set_viewport_size(PHONE)
    page.goto(server.url + "/")
    full_page_shot(page, artifacts / "home-390.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
