"""Issue 30 in Chromium: the chat as each mode's players meet it, and the umpire's word
on a player's page as he writes it (teams' side channel, 17c1: test_teams.py).

- Umpired (18a, 18c): a player writes to the umpire only; the umpire to anyone; his
  message of the game (`message usa ...`) shows on the player's page at once.
- Double-blind (18a): no chat for a player once play starts, and the page says why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import TIMEOUT_MS, SeatPage


def create(server: Server, **body: Any) -> ApiGame:
    r = HTTP.post(f"{server.url}/api/games", json={"scenario": "one", "seed": 7, **body})
    assert r.status_code == 201, r.text
    made = r.json()
    return ApiGame(server.url, made["id"], {s["seat"]: s["token"] for s in made["seats"]})


def open_pages(browser: Any, game: ApiGame, folder: Path) -> dict[str, SeatPage]:
    return {
        seat: SeatPage(browser.new_context().new_page(), game.link(seat), folder).open()
        for seat in game.tokens
    }


def offered(page: SeatPage) -> list[str]:
    page.page.wait_for_selector("#chat-to[data-offered]", state="attached", timeout=TIMEOUT_MS)
    return page.page.eval_on_selector_all("#chat-to option", "os => os.map(o => o.textContent)")


def say(page: SeatPage, to: str, text: str) -> None:
    page.page.select_option("#chat-to", label=to)
    page.page.fill("#chat-text", text)
    page.page.click("#chat-form button[type=submit]")
    page.page.wait_for_selector(f"#chat-log li:has-text({text!r})", timeout=TIMEOUT_MS)


def shot(page: SeatPage, folder: Path, name: str) -> None:
    page.page.locator("#between").screenshot(path=str(folder / f"{name}.png"))


def close(pages: dict[str, SeatPage]) -> None:
    for page in pages.values():
        assert not page.errors, page.errors
        page.page.context.close()


def test_18a_an_umpired_players_chat_goes_to_the_umpire_and_his_word_arrives_live(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = create(server, mode="umpired")
    pages = open_pages(browser, game, artifacts)
    try:
        ump, us, jp = pages["umpire"], pages["usa"], pages["japan"]
        assert offered(us) == ["The umpire"]
        assert offered(ump) == ["Everyone", "Japan", "United States"]
        say(us, "The umpire", "TF 16 will hold at L3")
        ump.page.wait_for_selector(
            "#chat-log li:has-text('usa (to you): TF 16 will hold at L3')", timeout=TIMEOUT_MS
        )
        say(ump, "Japan", "Noted, Admiral")
        jp.page.wait_for_selector("#chat-log li:has-text('Noted, Admiral')", timeout=TIMEOUT_MS)
        # 18c: the umpire's message of the game, on the player's page without a reload
        game.act("umpire", kind="message", to="usa", text="Weather closing in from the north")
        us.page.wait_for_selector(
            "#r-log :text('Weather closing in from the north')", timeout=5_000
        )
        assert "Weather closing" not in jp.text("#r-log")
        assert "TF 16" not in jp.text("#chat-log") and "Noted" not in us.text("#chat-log")
        shot(us, artifacts, "umpired-player-chat")
        shot(ump, artifacts, "umpired-umpire-chat")
        us.page.screenshot(path=str(artifacts / "umpired-player-page.png"))
    finally:
        close(pages)


def test_18a_double_blind_players_have_no_chat_once_play_starts(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = create(server, mode="double-blind")
    game.set_up()
    pages = open_pages(browser, game, artifacts)
    try:
        us = pages["usa"]
        assert offered(us) == []
        us.page.wait_for_selector("#chat-form[hidden]", state="attached", timeout=TIMEOUT_MS)
        assert "18a" in us.text("#chat-closed")
        shot(us, artifacts, "double-blind-closed")
    finally:
        close(pages)
