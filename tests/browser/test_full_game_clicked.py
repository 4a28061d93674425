"""Issue 13, Done when: a whole Scenario One game (7b: Turns 7 to 11) played to its result
by clicking only, on both seats, in two Chromium contexts - the United States at 1366 x
900, Japan on a 390 px phone. The game is seeded, so it is the same game every run.

Each player follows a simple policy: Done where it is offered, else the move the step asks
for (a task force placed, a battle fought, a unit landed) made by picking the counter on
the board and clicking a lit hex or box, else the prompt's first choice. The API is only
the oracle (whose move it is, the seat's version); every action is a click on the page.
At every step: the prompt bar shows at most 8 buttons; the board covers at least half of
the 1366 x 900 viewport; the phone page is no wider than 390 px; after each action the
keyboard focus is on the board or the prompt (SeatPage._posting)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import ApiGame
from browser.pages import SeatPage
from browser.test_prompt_bar import MAX_BUTTONS, VISIBLE_BUTTONS

pytestmark = pytest.mark.browser

DESK = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SEED = 10
MAX_ACTIONS = 300
# the part of the viewport the board in play covers, the page scrolled to its top: the
# Battleboard in a battle, else the Searchboard (its box, clipped to its scrolling frame
# and the window)
BOARD_SHARE = """() => {
  const y = scrollY;
  scrollTo(0, 0);  // the page as it opens, wherever the player has scrolled it to since
  const battle = document.querySelector('#r-battle:not([hidden]) svg.board');
  const board = battle || document.querySelector('#r-searchboard svg.board');
  const r = board.getBoundingClientRect();
  const frame = board.closest('.board-scroll') || document.body;
  const c = frame.getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, c.right, innerWidth) - Math.max(r.left, c.left, 0));
  const h = Math.max(0, Math.min(r.bottom, c.bottom, innerHeight) - Math.max(r.top, c.top, 0));
  scrollTo(0, y);
  return w * h / (innerWidth * innerHeight);
}"""
BOARDS = "#r-searchboard, #r-battle, #r-cards"


def check_table(page: SeatPage, viewport: dict[str, int], where: str) -> None:
    """What every step keeps true of the page (issue 13)."""
    p = page.page
    buttons = p.evaluate(VISIBLE_BUTTONS)
    assert buttons <= MAX_BUTTONS, f"{where}: {buttons} buttons in the prompt bar"
    if viewport == DESK:
        share = p.evaluate(BOARD_SHARE)
        assert share >= 0.5, f"{where}: the board covers {share:.0%} of the viewport"
    else:
        wide = p.evaluate("document.documentElement.scrollWidth")
        assert wide <= viewport["width"], f"{where}: the page is {wide} px wide"


def counter_for(page: SeatPage, key: str) -> str:
    """The counter to click for a subject: on a board or a card where it lies, else its
    button in the prompt."""
    for region in ("#r-battle", "#r-searchboard", "#r-cards"):
        sel = f'{region} [data-key="{key}"]:not(.subject)'
        if page.page.locator(sel).count():
            return sel
    return f'#act .subject[data-key="{key}"]'


def play_one(page: SeatPage, moved: set[str]) -> str:
    """One action of the policy, by clicks; returns what was done, for the record. A
    counter is moved once a step (`moved`): then the next one, as Done waits for them."""
    p = page.page
    done = p.locator("#act button.done")
    if done.count() and done.first.is_visible():
        page.done()
        return "done"
    keys = [str(k) for k in page.keys("#act .subject")]
    if keys:
        key = next((k for k in keys if k not in moved), keys[0])
        moved.add(key)
        page.pick(counter_for(page, key))
        lit = p.locator(f"{', '.join(f'{r} .target' for r in BOARDS.split(', '))}")
        if lit.count():
            tkey = lit.first.get_attribute("data-tkey") or lit.first.get_attribute("data-key")
            page.target(f'[data-tkey="{tkey}"], [data-key="{tkey}"]')
            return f"{key} -> {tkey}"
        group = p.locator(f'#act .choices[data-for="{key}"] button[name=action]')
        label = group.first.inner_text()
        page.choose(label)
        return f"{key}: {label}"
    first = p.locator("#act .general button[name=action]").first
    label = first.inner_text()
    page.choose(label)
    return label


# The United States' plan, besides Done: both task forces set up on Midway (M5, a hex
# under the base's counter); on Turn 8, nine carrier air units and 1SB241 take off, and
# in the Air Return the nine land on Midway first and fill it (5a3): 1SB241, green, can
# land on a base only, is flagged, and Done asks before it is lost (issue 13).
WHITE = ("B6", "S6", "T6", "B8", "S8", "T8", "B3", "B5", "T3")


def set_up_on_midway(page: SeatPage) -> None:
    for force in ("TF16", "TF17"):
        page.pick(counter_for(page, f"tf:usa:{force}"))
        page.target('[data-tkey="sb:M5"]')
    page.done()


def take_off(page: SeatPage) -> None:
    for unit in (*WHITE, "1SB241"):
        page.pick(f'#r-cards [data-key="u:usa:{unit}"]')
        page.target('#r-cards [data-tkey$=":strike"]')
    page.done()


def land_and_lose_one(page: SeatPage) -> None:
    p = page.page
    for unit in WHITE:
        page.pick(counter_for(page, f"u:usa:{unit}"))
        page.target('[data-tkey="box:usa:Midway:arming"]')
    note = p.locator("#r-prompt .at-risk")
    assert "1SB241" in note.inner_text() and "5a3" in note.inner_text(), note.inner_text()
    assert p.locator('#r-cards .at-risk-unit[data-key="u:usa:1SB241"]').count()
    p.locator("#act .done.ask").click()  # asks first, in the page
    confirm = p.locator("#confirm-loss .confirm-done")
    assert confirm.is_visible() and "1SB241" in p.inner_text("#confirm-loss")
    assert p.evaluate("document.activeElement.classList.contains('confirm-done')")
    p.screenshot(path=str(page.folder / "usa-confirm-loss.png"))
    p.keyboard.press("Escape")  # Go back: nothing lost yet
    assert not confirm.is_visible() and page.view()["step"] == "air return"
    p.locator("#act .done.ask").focus()
    p.keyboard.press("Enter")
    before = page.version()
    p.keyboard.press("Enter")  # the confirm button has the focus: the keyboard says Done
    p.wait_for_function(
        "v => Number(document.getElementById('r-prompt').dataset.v) > v", arg=before
    )
    page.focus_kept()
    gone = page.view()["operations_cards"]["usa"]["eliminated"]
    assert "1SB241" in [u["id"] for u in gone], gone


PLAN = {
    (7, "setup", "usa"): set_up_on_midway,
    (8, "assembly", "usa"): take_off,
    (8, "air return", "usa"): land_and_lose_one,
}


def test_issue13_a_whole_scenario_one_game_is_played_by_clicking(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url, seed=SEED)
    sizes = {"usa": DESK, "japan": PHONE}
    contexts = {s: browser.new_context(viewport=v) for s, v in sizes.items()}
    pages = {s: SeatPage(c.new_page(), game.link(s), artifacts).open() for s, c in contexts.items()}
    record: list[str] = []
    tried: dict[str, set[str]] = {}
    started = time.monotonic()
    try:
        for _ in range(MAX_ACTIONS):
            views = {s: pg.synced() for s, pg in pages.items()}
            if views["usa"]["status"] == "finished":
                break
            seat = next((s for s, v in views.items() if v["prompt"]["actions"]), None)
            assert seat is not None, f"nobody may act: {views['usa']['prompt']}"
            view = views[seat]
            where = f"Turn {view['turn']} {view['step']} ({seat})"
            for s, pg in pages.items():
                check_table(pg, sizes[s], where)
            moved = tried.setdefault(where, set())
            t = time.monotonic()
            planned = PLAN.pop((view["turn"], view["step"], seat), None)
            if planned is not None:
                planned(pages[seat])
                did = planned.__name__
            else:
                did = play_one(pages[seat], moved)
            record.append(f"{where}: {did} {time.monotonic() - t:.2f}s")
        else:
            raise AssertionError(f"no result after {MAX_ACTIONS} actions: {record[-5:]}")
        for s, pg in pages.items():
            pg.synced()
            assert pg.page.locator("#r-victory h2").is_visible(), s
            news = pg.page.locator("#news")  # issue 13: the end announced on both pages
            news.wait_for()
            assert "The game is over (7a3)" in news.inner_text(), news.inner_text()
            assert news.locator("[role=alert]").count() == 1
            pg.shot("result")
            news.locator(".news-close").click()
            assert news.is_hidden()
            pg.focus_kept()
            wide = pg.page.evaluate("document.documentElement.scrollWidth")
            assert wide <= sizes[s]["width"], f"the result: the page is {wide} px wide"
            assert not pg.errors, pg.errors
        assert game.view("usa")["victory"]
        assert not PLAN, f"never reached: {list(PLAN)}"
    except Exception:
        for pg in pages.values():
            pg.page.screenshot(path=str(artifacts / f"{pg.seat}-FAILED-viewport.png"))
            pg.shot("FAILED")
        (artifacts / "actions.txt").write_text("\n".join(record))
        raise
    finally:
        (artifacts / "actions.txt").write_text(
            "\n".join([*record, f"{time.monotonic() - started:.0f} s"])
        )
        for c in contexts.values():
            c.close()
