"""Issue 35 in the browser: a game against the computer made on the home page's form and
played by clicking, the computer answering on its own.

Scenario One double-blind (18): Japan by clicks to the end - Done where offered, else the
move the step asks for (browser.test_full_game_clicked.play_one); while the computer (the
United States) moves, the prompt says it is thinking. Then Scenario Two with teams (17a),
the computer playing both American commands, the two Japanese players through a Turn."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.pages import SeatPage
from browser.test_full_game_clicked import play_one

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
MAX_ACTIONS = 600


def create_against_computer(
    page: Any, server: Server, scenario: str, mode: str, teams: bool = False
) -> dict[str, str]:
    """The home page's form: the computer plays the United States. The seat links shown."""
    page.goto(server.url + "/")
    page.check(f"input[name=scenario][value={scenario}]")
    page.check(f"input[name=mode][value={mode}]")
    if teams:
        page.check("input[name=teams]")
    page.select_option("select[name=computer]", "usa")
    page.select_option("select[name=computer_level]", "quick")
    page.click("button[type=submit].primary")
    page.wait_for_selector("a.seat-link[href*='#token=']")
    assert "The computer plays" in page.inner_text(".computer-seats")
    seats = page.eval_on_selector_all("a.seat-link", "els => els.map(a => a.dataset.seat)")
    return {
        s: str(page.eval_on_selector(f"a.seat-link[data-seat='{s}']", "a => a.href")) for s in seats
    }


def wait_for_move(page: SeatPage, timeout: float = 30) -> dict[str, Any]:
    """The seat's view once it may act or the game is over (the computer moves meanwhile);
    whether the prompt said the computer was thinking."""
    deadline = time.monotonic() + timeout
    while True:
        view = page.synced()
        if view["prompt"]["actions"] or view["status"] == "finished":
            return view
        assert time.monotonic() < deadline, f"the computer did not move: {view['prompt']}"
        time.sleep(0.1)


def test_issue35_scenario_one_double_blind_against_the_computer_by_clicking(
    browser: Any, server: Server, artifacts: Path
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    links = create_against_computer(context.new_page(), server, "one", "double-blind")
    assert list(links) == ["japan"], "the computer's seat has no link"
    japan = SeatPage(context.new_page(), links["japan"], artifacts).open()
    thinking = 0
    tried: dict[str, set[str]] = {}
    for _ in range(MAX_ACTIONS):
        view = japan.synced()
        if view["status"] == "finished":
            break
        if not view["prompt"]["actions"]:
            prompt = japan.text("#prompt-text")
            if "usa" in view["prompt"]["waiting_for"]:
                thinking += "the computer is thinking" in prompt
            wait_for_move(japan)
            continue
        where = f"Turn {view['turn']} {view['step']}"
        play_one(japan, tried.setdefault(where, set()))
    else:
        raise AssertionError(f"no result after {MAX_ACTIONS} actions")
    japan.synced()
    assert japan.page.locator("#r-victory h2").is_visible()
    assert thinking >= 1, "the prompt never said the computer was thinking"
    assert not japan.errors, japan.errors
    japan.shot("result")


def test_issue35_a_team_game_with_the_computer_on_both_american_seats(
    browser: Any, server: Server, artifacts: Path
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    links = create_against_computer(context.new_page(), server, "two", "two-player", teams=True)
    assert sorted(links) == ["japan-i", "japan-vi"]
    pages = {s: SeatPage(context.new_page(), link, artifacts).open() for s, link in links.items()}
    first = pages["japan-i"].synced()["turn"]
    tried: dict[str, set[str]] = {}
    for _ in range(MAX_ACTIONS):
        views = {s: p.synced() for s, p in pages.items()}
        if views["japan-i"]["turn"] > first:
            break
        acting = [s for s, v in views.items() if v["prompt"]["actions"]]
        if not acting:
            time.sleep(0.1)
            continue
        seat = acting[0]
        where = f"{seat} Turn {views[seat]['turn']} {views[seat]['step']}"
        named = [a for a in views[seat]["prompt"]["actions"] if a["kind"] == "flagship"]
        done = {"kind": "done"} in views[seat]["prompt"]["actions"]
        if named and not done:  # 17c2: his flagship, a choice of the prompt bar
            ship = named[0]["ship"]
            pages[seat].choose(f"Name {ship} your flagship (17c2)")
            continue
        play_one(pages[seat], tried.setdefault(where, set()))
    else:
        raise AssertionError("the Turn did not end")
    for p in pages.values():
        assert not p.errors, p.errors
