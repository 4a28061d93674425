"""Issue 30, quiet Turns, on the page: "Done for this Turn" beside Done gets a seat through
an empty Turn in one click (the server says its Done in every quiet step of the Turn,
app/games/standing.py); the page says the order stands and offers to cancel it, and once
cancelled the seat is asked again."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import TIMEOUT_MS, SeatPage

pytestmark = pytest.mark.browser

DESK = {"width": 1366, "height": 900}


def wait_for(check: Any, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_issue30_done_for_this_turn_is_one_click_and_can_be_cancelled(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url, seed=30)
    game.set_up()
    pages = {
        s: SeatPage(browser.new_context(viewport=DESK).new_page(), game.link(s), artifacts).open()
        for s in ("japan", "usa")
    }
    jp, us = pages["japan"], pages["usa"]
    try:
        turn = game.view("japan")["turn"]
        clicks = {"japan": 0, "usa": 0}
        # Turn 7 (a night): each player's one click, in the order the game asks (3)
        while game.view("japan")["turn"] == turn:
            seat = next((s for s in ("japan", "usa") if game.view(s)["prompt"]["actions"]), None)
            if seat is None or clicks[seat]:
                time.sleep(0.05)  # the server is saying a standing Done
                continue
            page = pages[seat]
            page.synced()
            button = page.page.locator("#r-prompt button.stand")
            assert button.inner_text() == "Done for this Turn"
            button.click()
            clicks[seat] += 1
            if sum(clicks.values()) == 1:  # the other has yet to click: the order stands
                page.page.wait_for_selector("#stand-off", timeout=TIMEOUT_MS)
                assert "Done for this Turn stands" in page.text("#stand-off")
                assert page.page.locator("#stand-off button.stand-off").is_visible()
                page.shot("standing")
        assert clicks == {"japan": 1, "usa": 1}
        # Turn 8: Side B (3) gives the order, then cancels it while Side A assembles
        b = next(s for s in ("japan", "usa") if game.view(s)["prompt"]["actions"])
        a = "usa" if b == "japan" else "japan"
        pb, pa = pages[b], pages[a]
        pb.synced()
        pb.page.locator("#r-prompt button.stand").click()
        pb.page.wait_for_selector("#stand-off button.stand-off", timeout=TIMEOUT_MS)
        pb.page.locator("#stand-off button.stand-off").click()
        pb.page.wait_for_selector("#stand-off", state="detached", timeout=TIMEOUT_MS)
        assert game_standing(game, b) is None
        # Side A says Done by Done: Side B is asked again at Readying (3b)
        wait_for(lambda: bool(game.view(a)["prompt"]["actions"]), f"{a} never asked")
        pa.synced()
        pa.done()
        wait_for(lambda: bool(game.view(b)["prompt"]["actions"]), f"{b} never asked")
        assert game.view(b)["step"] == "ready"
        pb.synced()
        assert pb.page.locator("#act button.done").is_visible()
        assert pb.page.locator("#r-prompt button.stand").is_visible()
        assert jp.errors == [] and us.errors == []
    finally:
        for p in pages.values():
            p.page.context.close()


def game_standing(game: ApiGame, seat: str) -> Any:
    r = HTTP.get(f"{game.base}/api/games/{game.id}/standing", headers=game.auth(seat))
    assert r.status_code == 200, r.text
    return r.json()["order"]
