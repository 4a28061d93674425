"""Issue 30, free scrolling: the sticky prompt bar never covers the map. A player who turns
the mouse wheel over the page (no element scrolled to, so no scroll-padding at work) still
sees the Searchboard's top row below the bar: on a wide screen the board keeps its place
below the bar while the page scrolls on (the Operations Cards, the log), and scrolls
within its own box when it is taller than the room left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import ApiGame
from browser.pages import SeatPage

pytestmark = pytest.mark.browser

# The boxes of the bar and of the map's top row (Scenario One's hexes A1, C1 ... S1), and
# what of the map shows: its box clipped by every box that scrolls it
BOXES = """() => {
  const prompt = document.getElementById('r-prompt');
  const bar = prompt.getBoundingClientRect();
  const board = document.querySelector('#r-searchboard svg.board');
  let top = board.getBoundingClientRect().top;
  for (let e = board.parentElement; e; e = e.parentElement) {
    const s = getComputedStyle(e);
    if (/(auto|scroll|hidden)/.test(s.overflowY)) {
      top = Math.max(top, e.getBoundingClientRect().top);
    }
  }
  const row = [...document.querySelectorAll('#r-searchboard [data-hex]')]
    .filter(h => /^[A-Z]1$/.test(h.dataset.hex))
    .map(h => h.getBoundingClientRect().top);
  return {barTop: bar.top, barBottom: bar.bottom, barPosition: getComputedStyle(prompt).position,
          shownTop: Math.max(top, 0), rowTop: Math.min(...row), rows: row.length,
          scrollY: window.scrollY};
}"""


@pytest.mark.parametrize(
    ("width", "steps"), [(1366, 2), (1366, 4), (1366, 12), (800, 2), (800, 12)]
)
def test_issue30_the_wheel_never_puts_the_map_under_the_prompt(
    browser: Any, server: Server, artifacts: Path, width: int, steps: int
) -> None:
    """At 1366 the bar sticks to the top and the board below it; at 800 (one column)
    the bar is at the bottom of the screen."""
    game = ApiGame.create(server.url, seed=30)
    game.set_up()
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = SeatPage(context.new_page(), game.link("usa"), artifacts).open()
    p = page.page
    try:
        page.synced()
        board = p.locator("#r-searchboard svg.board").bounding_box()
        assert board is not None
        p.mouse.move(board["x"] + board["width"] / 2, board["y"] + 40)
        for _ in range(steps):
            p.mouse.wheel(0, 120)
            p.wait_for_timeout(60)
        p.wait_for_timeout(200)
        found = p.evaluate(BOXES)
        p.screenshot(path=str(artifacts / f"wheel-{width}-{steps}.png"))  # the viewport, as seen
        assert found["rows"] == 20, found  # A1 ... T1
        assert found["scrollY"] > 0, f"the wheel did not scroll the page: {found}"
        if width > 900:
            assert found["barPosition"] == "sticky", found
            assert found["rowTop"] >= found["barBottom"] - 0.5, (
                f"the top row is under the bar: {found}"
            )
            assert found["shownTop"] >= found["barBottom"] - 0.5, (
                f"the map is under the bar: {found}"
            )
        else:  # the bar at the bottom: nothing of the map's top is under it
            assert found["barPosition"] == "fixed", found
            assert found["barTop"] > 900 / 2, found
            assert found["rowTop"] + 60 <= found["barTop"], f"the top row is under the bar: {found}"
        assert not page.errors, page.errors
    finally:
        context.close()
