"""Issue 30, a phone pass: every seat's page (each side, the umpire's console, a team's
seat, a double-blind seat, a theatre scenario's seat), the replay and the home page at
390 x 844. Nothing is wider than the screen; every control a finger presses is at least
24 px a side (WCAG 2.5.8; a link inside a sentence aside); and where the seat is to act,
the prompt's Done and "Done for this Turn" are on the screen and take the tap (no other
element over them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.bots import choose
from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import TIMEOUT_MS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SMALL = """() => [...document.querySelectorAll(
    'button, select, input, textarea, summary, [role=button], a')].filter(e => {
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height || r.right <= 0 || e.closest('svg')) return false;
  if (e.type === 'hidden') return false;
  if (e.tagName === 'A' && getComputedStyle(e).display === 'inline') return false;
  return r.height < 24 || r.width < 24;
}).map(e => `${e.tagName.toLowerCase()}.${e.className} "${(e.textContent || e.name || '')
  .trim().slice(0, 30)}" ${Math.round(e.getBoundingClientRect().width)}x${
  Math.round(e.getBoundingClientRect().height)}`)"""
# a button is on the screen and takes a tap at its middle
TAPPABLE = """sel => { const b = document.querySelector(sel); if (!b) return 'missing';
  const r = b.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
    return `off the screen: ${JSON.stringify(r)}`; }
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return at === b || b.contains(at) ? 'ok' : `covered by ${at && at.outerHTML.slice(0, 80)}`; }"""


def create(base: str, **body: Any) -> ApiGame:
    r = HTTP.post(f"{base}/api/games", json={"seed": 30, **body})
    assert r.status_code == 201, r.text
    created = r.json()
    return ApiGame(base, created["id"], {s["seat"]: s["token"] for s in created["seats"]})


def set_up(game: ApiGame, to_the_end: bool = False) -> None:
    """Set-up (7) as the computer's quick level would make it, for every seat (and the
    rest of the game, `to_the_end`)."""
    for _ in range(3000):
        views = {s: game.view(s) for s in game.tokens}
        acting = [s for s, v in views.items() if v["prompt"]["actions"]]
        if not acting or (views[acting[0]]["step"] != "setup" and not to_the_end):
            return
        action = choose(views[acting[0]], [], "quick")
        if action.get("text") == "":
            action["text"] = "Holding course"
        game.act(acting[0], **action)
    raise AssertionError("set-up never ended")


SEATS = {  # page -> (game, the seat shown)
    "american": ({"scenario": "one"}, "usa"),
    "japanese": ({"scenario": "one"}, "japan"),
    "umpire": ({"scenario": "one", "mode": "umpired"}, "umpire"),
    "team": ({"scenario": "three", "teams": True}, "usa-tf16"),
    "double-blind": ({"scenario": "one", "mode": "double-blind"}, "usa"),
    "theatre": ({"scenario": "coral-sea"}, "usa"),
}


def check(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"))
    wide = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{name}: the page is {wide} px wider than the screen"
    small = page.evaluate(SMALL)
    assert not small, f"{name}: controls under 24 px: {small}"


@pytest.mark.parametrize("name", sorted(SEATS))
def test_issue30_a_seat_page_at_390_by_844(
    browser: Any, server: Server, artifacts: Path, name: str
) -> None:
    body, seat = SEATS[name]
    game = create(server.url, **body)
    set_up(game)
    if seat != "umpire":  # the seat shown is the one to act
        for _ in range(20):
            if game.view(seat)["prompt"]["actions"]:
                break
            other = next(s for s in game.tokens if game.view(s)["prompt"]["actions"])
            game.act(other, kind="done")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(game.link(seat))
        page.wait_for_selector("#conn[data-state=live]", timeout=TIMEOUT_MS)
        page.wait_for_selector("#r-prompt #prompt-text", timeout=TIMEOUT_MS)
        check(page, artifacts, name)
        if seat != "umpire":
            assert page.evaluate(TAPPABLE, "#act button.done") == "ok"
            assert page.evaluate(TAPPABLE, "#r-prompt button.stand") == "ok"
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the page's end
            assert page.evaluate(TAPPABLE, "#act button.done") == "ok"
    finally:
        context.close()


def test_issue30_the_replay_and_the_home_page_at_390_by_844(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url, scenario="four")  # 7e: one Turn
    set_up(game, to_the_end=True)
    assert game.view("usa")["status"] == "finished"
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/games/{game.id}/replay")
        page.wait_for_selector(".replay-nav", timeout=TIMEOUT_MS)
        check(page, artifacts, "replay")
        page.goto(f"{server.url}/")
        page.wait_for_selector("#lobby", timeout=TIMEOUT_MS)
        check(page, artifacts, "home")
    finally:
        context.close()
