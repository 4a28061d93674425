"""Rules at hand: a rule number on the seat page opens its short explanation beside it,
by click and by keyboard (Enter on the focused number; Escape gives the focus back);
without script the number is a link to /rules, where the entry has its own anchor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import SeatPage

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
POP = "#rule-pop[role=dialog]"


def test_7a_a_rule_number_opens_its_explanation_by_click_and_by_keyboard(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url)
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        seat = SeatPage(ctx.new_page(), game.link("japan"), artifacts).open()
        page = seat.page
        number = page.locator("#r-status a.rule[data-rule='7a']").first
        assert number.get_attribute("href") == "/rules#rule-7a"
        number.click()
        page.wait_for_selector(POP)
        words = page.inner_text(POP)
        assert "Rule 7a" in words and "setup areas" in words, words
        seat.shot("rule-7a")
        page.keyboard.press("Escape")
        page.wait_for_selector(POP, state="detached")
        assert page.evaluate("document.activeElement.dataset.rule") == "7a"
        goal = page.locator("#r-status .goal a.rule").first
        rule = goal.get_attribute("data-rule")
        goal.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(POP)
        assert f"Rule {rule}" in page.inner_text(POP)
        assert page.evaluate("document.activeElement.className") == "rule-pop-close"
        page.keyboard.press("Enter")  # Close
        page.wait_for_selector(POP, state="detached")
        assert page.evaluate("document.activeElement.dataset.rule") == rule
        assert not seat.errors, seat.errors
    finally:
        ctx.close()


def test_7a_without_script_a_rule_number_is_a_link_to_its_entry(server: Server) -> None:
    page = HTTP.get(f"{server.url}/rules")
    assert page.status_code == 200
    assert 'id="rule-7a"' in page.text and 'id="rule-7b4.1"' in page.text
    assert "our own words" in page.text


def test_7a_at_a_phone_width_the_explanation_fits_the_screen(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        seat = SeatPage(ctx.new_page(), game.link("usa"), artifacts).open()
        page = seat.page
        page.locator("#r-status .goal a.rule").first.click()
        page.wait_for_selector(POP)
        box = page.locator(POP).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert page.locator("#r-status #score-line").is_visible()
        page.screenshot(path=str(artifacts / "rule-phone.png"))
    finally:
        ctx.close()
