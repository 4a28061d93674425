"""Take-back in the browser (issue 14, Done when): two players in two browsers; Japan
places the Mobile Force, takes it back from the keyboard with the page's Take back button
(the American page never changes), places it again; after the last setup Done has
rolled for Side A (1f) no page offers a take-back, and one posted anyway is refused with
the rule, the game unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import ApiGame
from browser.pages import TIMEOUT_MS, SeatPage

pytestmark = pytest.mark.browser

BUTTON = "#takeback button.take-back"


def offered(page: SeatPage) -> bool:
    return page.page.locator(BUTTON).count() == 1


def test_take_back_before_a_roll_works_and_after_one_is_not_offered_and_refused(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url, seed=10)
    jp_ctx, us_ctx = browser.new_context(), browser.new_context()
    try:
        jp = SeatPage(jp_ctx.new_page(), game.link("japan"), artifacts).open()
        us = SeatPage(us_ctx.new_page(), game.link("usa"), artifacts).open()
        try:
            before_the_roll(jp, us)
            after_the_roll(jp, us)
        except Exception:
            jp.shot("FAILED")
            us.shot("FAILED")
            raise
        assert jp.errors == [] and us.errors == []
    finally:
        jp_ctx.close()
        us_ctx.close()


def before_the_roll(jp: SeatPage, us: SeatPage) -> None:
    jp.synced()
    us_view = us.synced()
    assert not offered(jp) and not offered(us)
    jp.pick('#act .subject[data-key="tf:japan:MobileForce"]')
    jp.target('#r-searchboard [data-tkey="sb:J1"]')
    assert "tf:japan:MobileForce" in jp.board_keys()
    assert offered(jp), "the placement rolled nothing and showed nothing: it may be taken back"
    jp.shot("placed")

    button = jp.page.locator(BUTTON)
    assert button.evaluate("b => b.tabIndex") >= 0  # in the page's tab order
    before = jp.version()
    button.focus()
    jp.page.keyboard.press("Enter")
    jp.page.wait_for_function(
        "v => Number(document.getElementById('r-prompt').dataset.v) > v",
        arg=before,
        timeout=TIMEOUT_MS,
    )
    jp.synced()
    assert "tf:japan:MobileForce" not in jp.board_keys()
    assert not offered(jp), "nothing more to take back"
    assert "taken back" in jp.text("#flash")
    jp.shot("taken-back")

    assert us.view() == us_view, "the American view and version never showed it"
    assert us.version() == us_view["version"]
    assert us.page.get_attribute("#sync", "data-v") == str(us_view["version"])

    jp.pick('#act .subject[data-key="tf:japan:MobileForce"]')  # the move cleared it (issue 13)
    jp.target('#r-searchboard [data-tkey="sb:J2"]')
    jp.done()
    jp.synced()
    assert not offered(jp), (
        "7a2.2: the US page no longer waits for Japan: its Done was seen (1c, issue 31)"
    )


def after_the_roll(jp: SeatPage, us: SeatPage) -> None:
    us.synced()
    us.pick('#act .subject[data-key="tf:usa:TF17"]')
    us.target('#r-searchboard [data-tkey="sb:L2"]')
    us.pick('#act .subject[data-key="tf:usa:TF16"]')
    us.target('#r-searchboard [data-tkey="sb:N4"]')
    assert offered(us)
    us.done()  # the game starts: the dice say which side is Side A (1f)
    for page in (jp, us):
        page.synced()
        assert "Turn 7" in page.text("#r-status")
        assert not offered(page), f"{page.seat}: a die was rolled since"
    us.shot("rolled")

    view = us.view()
    us.page.evaluate(
        """([game, v]) => htmx.ajax("POST", `/games/${game}/takeback`,
            {source: "body", swap: "none", values: {version: v}})""",
        [us.parts["game"], view["version"]],
    )
    us.page.wait_for_function(
        "() => document.getElementById('flash').textContent.includes('Rule 1f')",
        timeout=TIMEOUT_MS,
    )
    assert "a die was rolled (1f)" in us.text("#flash")
    assert us.page.get_attribute("#conn", "data-state") == "live"
    us.shot("refused")
    assert us.view() == view and jp.view()["version"] == jp.synced()["version"]
    assert not offered(us)
