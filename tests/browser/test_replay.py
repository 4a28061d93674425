"""The replay page as a wargame table: stepping a finished game by action, step of the
sequence of play (2b), battle (4a) and Turn, by link, by key and by itself (Play); every
step its own URL; the views of each seat the engine declares and of both sides on one
Searchboard; at a laptop's width and a phone's (390 px), by keyboard alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import ApiGame

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
AT = re.compile(r"After action (\d+) of (\d+) \(Turn (\d+), ([^),]+)")


@pytest.fixture(scope="module")
def ended(server: Server) -> ApiGame:
    """A Scenario One game with a battle (4), played to its end (7a3)."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    game.to_anti_aircraft()
    game.to_turn_nine()
    game.finish()
    return game


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=LAPTOP)
    yield ctx.new_page()
    ctx.close()


def where(page: Any) -> tuple[int, int, str]:
    """(action, Turn, step) the page is at, from its words."""
    m = AT.search(page.inner_text("#replay-at"))
    assert m, page.inner_text("#replay-at")
    return int(m.group(1)), int(m.group(3)), m.group(4)


def moved(page: Any, before: int) -> tuple[int, int, str]:
    page.wait_for_function(
        f"() => document.body.dataset.at && document.body.dataset.at !== '{before}'"
    )
    return where(page)


def url_at(page: Any) -> int:
    m = re.search(r"[?&]at=(\d+)", page.url)
    assert m, page.url
    return int(m.group(1))


def open_at(page: Any, server: Server, game: ApiGame, at: int, seat: str = "usa") -> None:
    page.goto(f"{server.url}/games/{game.id}/replay?seat={seat}&at={at}")
    page.wait_for_selector(".replay-nav .autoplay:not([hidden])")


def test_2b_replay_steps_by_action_step_battle_and_turn_each_step_its_own_url(
    page: Any, server: Server, ended: ApiGame, artifacts: Path
) -> None:
    open_at(page, server, ended, 0)
    assert where(page)[0] == 0 and page.locator("a[rel=prev]").count() == 0
    page.click("tr[data-grain=action] a:has-text('Next action')")
    assert moved(page, 0)[0] == 1 and url_at(page) == 1
    page.reload()
    page.wait_for_selector(".replay-nav .autoplay:not([hidden])")
    assert where(page)[0] == 1, "a reload lands on the same step"
    at, turn, step = where(page)
    page.click("tr[data-grain=step] a:has-text('Next step')")
    at2, turn2, step2 = moved(page, at)
    assert at2 > at and (turn2, step2) != (turn, step) and url_at(page) == at2
    page.click("tr[data-grain=battle] a:has-text('Next battle')")
    at3, turn3, _ = moved(page, at2)
    assert "battle 1" in page.inner_text("#replay-at") and url_at(page) == at3
    page.click("tr[data-grain=Turn] a:has-text('Next Turn')")
    at4, turn4, _ = moved(page, at3)
    assert turn4 == turn3 + 1 and url_at(page) == at4
    page.click("tr[data-grain=Turn] a:has-text('Previous Turn')")
    at5, turn5, _ = moved(page, at4)
    assert at5 < at4 and url_at(page) == at5
    page.go_back()
    assert moved(page, at5)[0] == at4, "Back goes to the step before"
    page.screenshot(path=str(artifacts / "replay-stepped.png"), full_page=True)

