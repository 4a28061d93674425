"""18 in Chromium: an umpired game of Scenario One played to its result (7b, 7a3), made
from the home page's form, one browser context each for the umpire, Japan and the United
States, every move a click on the page.

- 18b: the umpire's console shows both Searchboards and both Operations Cards.
- 18c1: Turn 8, the US scout O's route to J2 handed in and flown by the umpire; each hex
  it enters waits on his console as a report, marked "awaited" on the US Searchboard. He
  holds J2's (it finds the Mobile Force) and releases the one that found nothing with
  "Release 1 ... that found nothing" (issue 30); J2 stays awaited until he clicks its
  Release, when the US page marks the Mobile Force.
- 18d: Turn 9, scout N's route to J2; the umpire edits J2's report in his own words and
  releases it: the US page shows his words and their marker, never the truth, and Japan's
  page nothing of either. The others go with "Release all ... that found nothing".
- 7b: Turns 10 and 11 clicked through to the result, which every page shows.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser.conftest import Server
from browser.pages import (
    TIMEOUT_MS,
    SeatPage,
    pass_until,
    place_by_clicking,
    seats_from_home,
)

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
SEED = 10
EDIT = "3 ships, steaming east"


def umpire_posts(page: SeatPage, selector: str) -> None:
    """The umpire clicks a console button; wait until his page shows what followed (the
    click's answer is only the flash: his live socket brings the regions)."""
    before = page.pushed_version()
    page.page.locator(selector).click()
    page.page.wait_for_function(
        "v => Number(document.getElementById('sync').dataset.v) > v",
        arg=before,
        timeout=TIMEOUT_MS,
    )
    page.synced()


def no_page_scroll(page: SeatPage) -> None:
    wide = page.page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= page.page.viewport_size["width"], wide  # type: ignore[index]


def awaited(page: SeatPage, hex_: str) -> bool:
    """Issue 30: a hex whose report the umpire has not released, marked on the board."""
    cell = page.page.locator(f'#r-searchboard g.hex[data-hex="{hex_}"]')
    if "report-awaited" not in (cell.get_attribute("class") or ""):
        return False
    assert "awaits the umpire (18c1)" in (cell.get_attribute("aria-label") or "")
    return True


def draft_of(ump: SeatPage, hex_: str) -> str:
    """The id of the report waiting on the console for the search of `hex_`."""
    drafts = ump.page.locator("#r-umpire .draft", has_text=f"Spotting report of {hex_} ")
    assert drafts.count() == 1, ump.text("#r-umpire .drafts")
    return drafts.first.get_attribute("data-report") or ""


def launch(us: SeatPage, unit: str, force: str) -> None:
    """3a: a scout taken off its carrier's card to the task force's strike box."""
    us.synced()
    us.pick(f'#r-cards [data-key="u:usa:{unit}"]')
    us.target(f'#r-cards [data-tkey="box:usa:{force}:strike"]')
    us.done()


def route_to(us: SeatPage, jp: SeatPage, unit: str, hex_: str) -> list[str]:
    """18c1: the scout's whole route handed in by its last hex (issue 30: the page fills in
    the way); both sides done, the umpire flies it. The hexes it searched."""
    us.synced()
    us.pick(f'#r-searchboard [data-key="g:usa:{unit}"]')
    us.target(f'#r-searchboard [data-tkey="sb:{hex_}"]')
    route: list[str] = us.view()["searchboard"]["routes"][unit]
    assert route[-1] == hex_, route
    us.done()
    jp.synced()
    jp.done()
    us.synced()
    assert us.view()["searchboard"]["flying"][unit]["hex"] == hex_
    return route


def land(us: SeatPage, unit: str, carrier: str) -> None:
    """5a: the scout back on its carrier's card."""
    us.synced()
    us.pick(f'#r-cards .card.usa [data-key="u:usa:{unit}"]')
    us.target(f'#r-cards [data-tkey="box:usa:{carrier}:arming"]')


def test_18_an_umpired_scenario_one_to_its_result_with_reports_held_edited_and_released(
    server: Server, browser: Any, artifacts: Any
) -> None:
    viewports = {"umpire": LAPTOP, "japan": LAPTOP, "usa": PHONE}
    with seats_from_home(
        browser, server.url, artifacts, viewports, "one", "umpired", seed=SEED
    ) as table:
        links, pages = table.links, table.pages
        ump, jp, us = pages["umpire"], pages["japan"], pages["usa"]
        players = {"japan": jp, "usa": us}
        # 18b: the umpire's copy shows both Searchboards and both Operations Cards
        assert ump.page.locator("#r-searchboard-japan svg.board").count() == 1
        assert ump.page.locator("#r-searchboard-usa svg.board").count() == 1
        assert ump.page.locator("#r-cards .card.japan").count() == 1
        assert ump.page.locator("#r-cards .card.usa").count() == 1
        assert "No report waits for you" in ump.text("#r-umpire")

        # 7a2.2: both sides set up by clicking; Turn 8, the US launches scout O
        place_by_clicking(jp, us)
        pass_until(players, "assembly", turn=8)
        launch(us, "O", "TF17")
        pass_until(players, "scout routes", turn=8)
        [first, found] = route_to(us, jp, "O", "J2")
        assert "Mobile Force" not in us.page.content()
        assert not us.page.locator('#r-searchboard [data-key^="seen:japan"]').count()
        assert awaited(us, first) and awaited(us, "J2")
        us.shot("reports-awaited", "#r-searchboard")
        ump.synced()
        nothing, sighting = draft_of(ump, first), draft_of(ump, found)
        draft = ump.page.locator(f'#r-umpire .draft[data-report="{sighting}"]')
        assert "Truth: MobileForce" in draft.inner_text()
        batch = ump.page.locator("#r-umpire button.release-all")
        assert batch.all_inner_texts() == [
            "Release 1 spotting report that found nothing",
            "Release all 2 spotting reports",
        ]
        ump.shot("reports-waiting", "#r-umpire")

        # 18c: J2's held; the one that found nothing released with every other like it
        umpire_posts(ump, f'#r-umpire .draft[data-report="{sighting}"] button.hold')
        assert "held" in draft.locator(".held-tag").inner_text()
        umpire_posts(ump, '#r-umpire button.release-all:has-text("found nothing")')
        assert not ump.page.locator(f'#r-umpire .draft[data-report="{nothing}"]').count()
        us.synced()
        assert not awaited(us, first) and awaited(us, "J2")  # held: still awaited
        assert not us.page.locator('#r-searchboard [data-key^="seen:japan"]').count()
        us.shot("report-held", "#r-searchboard")

        # the US flies on without it; then the umpire releases J2's by its own button
        pass_until(players, "air return", turn=8)
        ump.synced()
        umpire_posts(ump, f'#r-umpire .draft[data-report="{sighting}"] button.release')
        assert "No report waits for you" in ump.text("#r-umpire")
        us.synced()
        us.page.wait_for_selector(
            '#r-searchboard [data-key="seen:japan:MobileForce"]', state="attached"
        )
        assert not awaited(us, "J2")
        us.shot("report-released", "#r-searchboard")
        land(us, "O", "Yorktown")

        # Turn 9: scout N's route to J2; 18d: J2's report edited in the umpire's words
        pass_until(players, "assembly", turn=9)
        launch(us, "N", "TF16")
        pass_until(players, "scout routes", turn=9)
        route = route_to(us, jp, "N", "J2")
        ump.synced()
        sighting = draft_of(ump, "J2")
        draft = ump.page.locator(f'#r-umpire .draft[data-report="{sighting}"]')
        draft.locator("summary").click()
        draft.locator("input[name=text]").fill(EDIT)
        umpire_posts(ump, f'#r-umpire .draft[data-report="{sighting}"] .edit-form button')
        assert f"Report {sighting} edited (18d): “{EDIT}”" in ump.text("#r-umpire .um-own")
        others = len(route) - 1
        plural = "s" if others > 1 else ""
        umpire_posts(
            ump,
            f'#r-umpire button.release-all:has-text("{others} spotting report{plural} that")',
        )
        assert "No report waits for you" in ump.text("#r-umpire")
        ump.shot("report-edited", "#r-umpire")

        us.synced()
        us.page.wait_for_selector('#r-searchboard [data-key="seen:japan:?J2"]', state="attached")
        mark = us.page.text_content('#r-searchboard [data-key="seen:japan:?J2"]') or ""
        assert "3 ships" in mark
        assert not us.page.locator("#r-searchboard g.report-awaited").count()
        assert f"the umpire reports “{EDIT}”" in us.text("#r-log")
        us.shot("report-told", "#r-searchboard")
        jp.synced()
        assert EDIT not in jp.page.content() and sighting not in jp.text("#r-log")

        pass_until(players, "air return", turn=9)
        land(us, "N", "Enterprise")

        # 7b: Turns 10 and 11 clicked through; the result on every page
        finish(players)
        for p in pages.values():
            p.synced()
            assert p.page.locator("#r-victory h2").is_visible(), p.seat
            p.shot("result", "#r-victory")
        assert EDIT not in jp.page.content()
        no_page_scroll(ump)
        no_page_scroll(us)
        ump.page.set_viewport_size(PHONE)  # the console on a phone: nothing scrolls sideways
        no_page_scroll(ump)
        ump.shot("console-phone", "#r-umpire")
        for p in pages.values():
            html = p.page.content()
            assert not [s for s, link in links.items() if token(link) in html and s != p.seat]
            assert not p.errors, p.errors


def token(link: str) -> str:
    return link.split("#token=")[1]


def finish(players: dict[str, SeatPage]) -> None:
    """Both players click Done, in the order the game asks, until the game is over."""
    for _ in range(200):
        views = {s: p.view() for s, p in players.items()}
        if all(v["status"] == "finished" for v in views.values()):
            return
        seat = next(s for s, v in views.items() if v["prompt"]["actions"])
        players[seat].synced()
        players[seat].done()
    raise AssertionError("the game did not end")
