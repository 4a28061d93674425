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
from browser.games import HTTP, ApiGame

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
    at5, _, _ = moved(page, at4)
    assert at5 < at4 and url_at(page) == at5
    page.go_back()
    assert moved(page, at5)[0] == at4, "Back goes to the step before"
    page.screenshot(path=str(artifacts / "replay-stepped.png"), full_page=True)


def test_2b_replay_arrow_keys_step_by_action_shift_by_step_brackets_by_battle_pages_by_turn(
    page: Any, server: Server, ended: ApiGame
) -> None:
    open_at(page, server, ended, 1)
    page.keyboard.press("ArrowRight")
    assert moved(page, 1)[0] == 2 and url_at(page) == 2
    page.keyboard.press("ArrowLeft")
    assert moved(page, 2)[0] == 1
    at, turn, step = where(page)
    page.keyboard.press("Shift+ArrowRight")
    at2, turn2, step2 = moved(page, at)
    assert at2 > at and (turn2, step2) != (turn, step)
    page.keyboard.press("]")
    at3 = moved(page, at2)[0]
    assert "battle 1" in page.inner_text("#replay-at")
    turn3 = where(page)[1]
    page.keyboard.press("PageDown")
    at4, turn4, _ = moved(page, at3)
    assert turn4 == turn3 + 1 and at4 > at3
    page.keyboard.press("PageUp")
    assert moved(page, at4)[0] < at4
    back = where(page)[0]
    page.keyboard.press("End")
    moved(page, back)
    assert "everything revealed" in page.inner_text("#replay-at")


def test_2b_replay_play_steps_on_by_itself_until_paused(
    page: Any, server: Server, ended: ApiGame
) -> None:
    open_at(page, server, ended, 0)
    page.select_option("select.speed", "250")
    page.click("button.play")
    page.wait_for_function("() => Number(document.body.dataset.at) >= 3", timeout=10_000)
    assert page.inner_text("button.play") == "Pause"
    page.click("button.play")
    # a step asked for before the pause may still land (one at most, within 250 ms); from
    # then on the replay stays where it stopped
    page.wait_for_function("() => document.querySelector('button.play').ariaPressed === 'false'")
    page.wait_for_timeout(400)
    stopped = where(page)[0]
    page.wait_for_timeout(900)
    assert where(page)[0] == stopped and url_at(page) == stopped
    assert page.get_attribute("button.play", "aria-pressed") == "false"


def test_18b_replay_views_are_the_seats_the_engine_declares_and_both_sides_on_one_board(
    page: Any, server: Server, ended: ApiGame
) -> None:
    """The views offered are the game's seats as GET /api/scenarios lists them for its
    mode (asked of the engine), then both sides; a switch keeps the step."""
    scenarios = HTTP.get(f"{server.url}/api/scenarios").json()
    one = next(s for s in scenarios if s["id"] == "one")
    mode = next(m for m in one["modes"] if m["mode"] == "two-player")
    seating = next(x for x in mode["seatings"] if not x.get("teams"))
    declared = [s["seat"] for s in seating["seats"]]
    open_at(page, server, ended, 30)
    offered = page.eval_on_selector_all(
        ".replay-nav .views a.switch", "els => els.map(e => e.dataset.seat)"
    )
    assert offered == [s for s in declared if s != "usa"] + ["omniscient"]
    page.click(".replay-nav a.switch[data-seat=omniscient]")
    page.wait_for_selector("body.replay-page.omniscient")
    assert url_at(page) == 30 and "seat=omniscient" in page.url
    assert page.locator("section#r-searchboard svg.board").count() == 1
    assert page.locator("#r-searchboard [data-key^='tf:japan:']").count() > 0
    assert page.locator("#r-searchboard [data-key^='tf:usa:']").count() > 0
    assert page.inner_text(".views strong.switch") == "Both sides"
    page.click(".replay-nav a.switch[data-seat=japan]")
    page.wait_for_selector("body.replay-page.japan")
    assert url_at(page) == 30


def test_2b_replay_at_a_phone_width_by_keyboard_alone(
    browser: Any, server: Server, ended: ApiGame, artifacts: Path
) -> None:
    ctx = browser.new_context(viewport=PHONE)
    try:
        page = ctx.new_page()
        open_at(page, server, ended, 5)
        wide = page.evaluate("document.documentElement.scrollWidth")
        nav = page.evaluate("document.querySelector('.replay-nav').scrollWidth")
        assert nav <= PHONE["width"] and wide <= PHONE["width"], (nav, wide)
        page.focus("tr[data-grain=action] a:has-text('Next action')")
        page.keyboard.press("Enter")
        assert moved(page, 5)[0] == 6
        focused = page.evaluate("document.activeElement.textContent")
        assert focused == "Next action", "the focus stays on the control pressed"
        page.keyboard.press("Enter")
        assert moved(page, 6)[0] == 7
        page.screenshot(path=str(artifacts / "replay-phone.png"), full_page=False)
    finally:
        ctx.close()


def test_7a3_the_score_line_beside_the_victory_condition_counts_what_the_end_counts(
    page: Any, server: Server, ended: ApiGame
) -> None:
    """The status line's tally (units eliminated and flipped, 7a3) at the last step is the
    result's (Scenario One has no bonus points), next to the victory condition (7b4.1)."""
    page.goto(f"{server.url}/games/{ended.id}/replay?seat=japan")
    result = page.inner_text("#r-victory .winner")
    line = page.inner_text("#r-status #score-line")
    assert "(7b4.1)" in page.inner_text("#r-status .goal")
    for side in ("Japan", "United States"):
        m = re.search(rf"{side} (\d+) victory points", result)
        assert m, result
        assert f"{side} {m.group(1)}" in line, (line, result)
    page.goto(f"{server.url}/games/{ended.id}/replay?seat=japan&at=0")
    assert "Japan 0, United States 0" in page.inner_text("#score-line")
