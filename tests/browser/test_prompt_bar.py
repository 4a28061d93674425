"""Issue 13, the board is the page: the prompt bar shows at most 8 buttons, the rest of
the choices folded and sorted in board order (A1, A2 ... A10, B1), and the Searchboard
takes at least half of a 1366 x 900 viewport; a folded choice is made by a click on its
hex."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.games import ApiGame
from browser.pages import SeatPage

pytestmark = pytest.mark.browser

DESK = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
MAX_BUTTONS = 8
VISIBLE_BUTTONS = """() => [...document.querySelectorAll('#r-prompt button')].filter(b => {
  const r = b.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && b.checkVisibility({visibilityProperty: true});
}).length"""
# the part of the viewport the Searchboard covers (its visible box, clipped to the window)
BOARD_SHARE = """() => {
  const r = document.querySelector('#r-searchboard svg.board').getBoundingClientRect();
  const clip = document.querySelector('#r-searchboard .board-scroll') || document.body;
  const c = clip.getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, c.right, innerWidth) - Math.max(r.left, c.left, 0));
  const h = Math.max(0, Math.min(r.bottom, c.bottom, innerHeight) - Math.max(r.top, c.top, 0));
  return w * h / (innerWidth * innerHeight);
}"""


def natural(code: str) -> tuple[str, int]:
    m = re.fullmatch(r"([A-Z])(\d+)", code)
    assert m, code
    return m[1], int(m[2])


def open_seat(browser: Any, game: ApiGame, seat: str, folder: Path, viewport: Any) -> SeatPage:
    ctx = browser.new_context(viewport=viewport)
    page = SeatPage(ctx.new_page(), game.link(seat), folder).open()
    page.synced()
    return page


@pytest.mark.parametrize("seat", ["usa", "japan"])
def test_at_setup_the_prompt_bar_has_at_most_8_buttons_and_the_board_half_the_screen(
    browser: Any, server: Server, artifacts: Path, seat: str
) -> None:
    game = ApiGame.create(server.url)
    page = open_seat(browser, game, seat, artifacts, DESK)
    p = page.page
    page.shot(f"setup-{seat}-1366")
    assert p.evaluate(VISIBLE_BUTTONS) <= MAX_BUTTONS
    share = p.evaluate(BOARD_SHARE)
    assert share >= 0.5, f"the Searchboard covers {share:.0%} of the viewport"
    # a counter picked: its choices (99 hexes for a task force, 7a2.2) stay folded, in board order
    subject = p.locator("#act .subject").first
    if subject.is_visible():
        subject.click()
        assert p.evaluate(VISIBLE_BUTTONS) <= MAX_BUTTONS
    folded = p.locator("#act details.all-choices")
    assert folded.count() >= 1
    hexes = [
        h
        for h in p.eval_on_selector_all(
            "#act details.all-choices button[data-target^='sb:']",
            "bs => bs.map(b => b.getAttribute('data-target').slice(3))",
        )
    ]
    groups: dict[str, list[str]] = {}
    for key, h in zip(
        p.eval_on_selector_all(
            "#act details.all-choices button[data-target^='sb:']",
            "bs => bs.map(b => b.closest('[data-fold]').getAttribute('data-fold'))",
        ),
        hexes,
        strict=True,
    ):
        groups.setdefault(key, []).append(h)
    assert groups, "no folded hex choices"
    for key, codes in groups.items():
        assert codes == sorted(codes, key=natural), (key, codes[:12])
    page.shot(f"setup-{seat}-picked-1366")
    p.context.close()


def test_a_folded_hex_choice_is_made_by_clicking_the_hex(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """7a2.2: TF 16 placed in L3 by picking its counter and clicking the hex, the list of
    99 hexes left folded."""
    game = ApiGame.create(server.url)
    page = open_seat(browser, game, "usa", artifacts, DESK)
    p = page.page
    page.pick("[data-key='tf:usa:TF16']")
    assert not p.locator("#act details.all-choices[open]").count()
    page.target("[data-tkey='sb:L3']")
    assert page.view()["searchboard"]["forces"]["TF16"] == "L3"
    p.set_viewport_size(PHONE)
    page.shot("setup-usa-390")
    assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    p.context.close()


def test_board_order_is_a_natural_sort_on_the_hex_code() -> None:
    """A1, A2 ... A10, B1 (not L1, L10, L11, L2); choices without a hex after, by words."""
    from app.web.choices import Choice
    from app.web.prompt_bar import board_order

    codes = ["L10", "B1", "L2", "A10", "L1", "A2", "A1", "L11"]
    picks = [Choice({"kind": "place", "hex": c}, f"Place in {c}", "tf:usa:TF16") for c in codes]
    done = Choice({"kind": "done"}, "Done")
    ordered = sorted([done, *picks], key=board_order)
    assert [c.action.get("hex") for c in ordered] == [
        "A1",
        "A2",
        "A10",
        "B1",
        "L1",
        "L2",
        "L10",
        "L11",
        None,
    ]


def test_the_take_back_button_counts_in_the_bar_of_8() -> None:
    from app.web.choices import Choice, Subject
    from app.web.prompt_bar import prompt_bar

    searches = [
        Choice({"kind": "sea-search", "hex": f"K{i}"}, f"K{i}", None, f"sb:K{i}")
        for i in range(1, 7)
    ]
    done = Choice({"kind": "done"}, "Done")
    forces = [Subject("tf:usa:TF16", "Task Force 16")]
    without = prompt_bar(forces, {}, [done, *searches], take_back=False)
    assert len(without.aimed.shown) == 6 and not without.aimed.folded  # 1 + 1 + 6 = 8
    kept = prompt_bar(forces, {}, [done, *searches], take_back=True)
    assert kept.aimed.shown == [] and len(kept.aimed.folded) == 6  # 7 would not fit
    assert kept.plain.shown == [done] and kept.subjects == forces
