"""Issue 30, "Every mode as a player meets it": a Coral Sea seat page ("Pacific Theatre Via
Midway") in Chromium at 1366 x 900, measured as the player sees it.

- The theatre map's task force markers are readable at the default zoom: a marker is at
  least 18 px a side and its name at least 9 px high; a base's name is not under a marker
  (their boxes do not meet) - the base at Rabaul (C2B) holds the Japanese stack.
- The sticky prompt bar does not cover the map: the page scrolled to its end leaves the map
  below the bar, and a zone of its top row stepped to with the arrow keys stays below it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from live import Server

from browser.games import ApiGame
from browser.pages import SeatPage

pytestmark = pytest.mark.browser

DESK = {"width": 1366, "height": 900}
START = {  # Starting Positions: the Invasion Force and its cover at Rabaul (C2B)
    "japan": ["StrikingForce", "CoveringGroup", "InvasionForce", "SupportGroup"],
    "usa": {"TF17": "H7H", "TF44": "H7G"},
}

BOXES = """(() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            width: r.width, height: r.height}; };
  const sb = document.querySelector('#r-searchboard');
  return {
    marks: [...sb.querySelectorAll('g.mark')].map(m => ({
      key: m.dataset.key || m.dataset.stack, box: box(m.querySelector('rect.bg')),
      name: box(m.querySelector('.t-name')), text: m.querySelector('.t-name').textContent})),
    labels: [...sb.querySelectorAll('.base-mark .base-name, .base-mark .base-state')]
      .map(t => ({text: t.textContent, box: box(t)})),
  };
})()"""


def set_up(server: Server) -> ApiGame:
    game = ApiGame.create(server.url, scenario="coral-sea", seed=1)
    for force in START["japan"]:
        game.act("japan", kind="place", force=force, hex="C2B")
    game.act("japan", kind="done")
    for force, zone in START["usa"].items():
        game.act("usa", kind="place", force=force, hex=zone)
    game.act("usa", kind="done")
    return game


def meets(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


def test_issue_30_theatre_markers_readable_and_clear_of_labels(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = set_up(server)
    for seat in ("japan", "usa"):
        context = browser.new_context(viewport=DESK)
        page = SeatPage(context.new_page(), game.link(seat), artifacts).open()
        try:
            page.shot(f"{seat}-map")
            found = page.page.evaluate(BOXES)
            assert found["marks"], f"{seat}: no task force marker on the map"
            for m in found["marks"]:
                assert m["box"]["width"] >= 18 and m["box"]["height"] >= 18, m
                assert m["name"]["height"] >= 9, m
                for label in found["labels"]:
                    assert not meets(label["box"], m["box"]), (label, m)
            if seat == "japan":  # the stack sits on Rabaul's base: its name is above it
                rabaul = [lb for lb in found["labels"] if lb["text"] == "Rabaul"]
                assert rabaul and rabaul[0]["box"]["bottom"] <= found["marks"][0]["box"]["top"]
            assert not page.errors, page.errors
        finally:
            context.close()


def test_issue_30_sticky_prompt_leaves_the_map_top_visible(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = set_up(server)
    context = browser.new_context(viewport=DESK)
    page = SeatPage(context.new_page(), game.link("usa"), artifacts).open()
    p = page.page
    try:
        bottom = "document.getElementById('r-prompt').getBoundingClientRect().bottom"
        edge = "document.querySelector('#r-searchboard .map-edge').getBoundingClientRect().top"
        column = "document.querySelector('.col-board')"
        bottom_of_page = "window.scrollTo(0, document.body.scrollHeight)"

        # the page scrolled to its end (the log): the map keeps its place below the bar
        p.evaluate(bottom_of_page)
        assert p.evaluate("window.scrollY") > 0, "the page is too short to scroll"
        assert p.evaluate(edge) >= p.evaluate(bottom), "the map's top is under the prompt"
        p.screenshot(path=str(artifacts / "map-scrolled-to.png"))  # the viewport, as seen

        # the map, taller than the room left, scrolled down in its own box; the player steps
        # up to its top row with the arrow keys: the box scrolls back, below the bar
        p.evaluate(f"{column}.scrollTop = {column}.scrollHeight")
        assert p.evaluate(edge) < p.evaluate(f"{column}.getBoundingClientRect().top")
        p.locator('#r-searchboard [data-hex="A3A"]').focus()
        for _ in range(6):
            p.keyboard.press("ArrowUp")
        top_zone = '#r-searchboard [data-hex="A1A"]'
        assert p.evaluate("document.activeElement.dataset.hex") == "A1A"
        zone_top = p.evaluate(f"document.querySelector('{top_zone}').getBoundingClientRect().top")
        assert zone_top >= p.evaluate(bottom), "the focused zone is under the prompt"
        p.screenshot(path=str(artifacts / "top-zone-focused.png"))
        assert not page.errors, page.errors
    finally:
        context.close()
