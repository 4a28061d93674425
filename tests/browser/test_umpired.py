"""18 in Chromium: an umpired game of Scenario One, one browser context each for the
umpire, Japan and the United States, through the day Turn 8 by clicking. The US scout's
route K2-J2 is handed in and flown by the umpire (18c1); its search of J2 finds the Mobile
Force; both reports wait on the umpire's console (18c), where he releases K2's as it is
and edits J2's (18d); the US page then shows his words, never the truth, and Japan's page
nothing of it."""

from __future__ import annotations

from typing import Any

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import TIMEOUT_MS, SeatPage, pass_until, place_by_clicking

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


def test_18_an_umpired_day_turn_with_a_spotting_report_edited_and_released(
    server: Server, browser: Any, artifacts: Any
) -> None:
    r = HTTP.post(
        f"{server.url}/api/games", json={"scenario": "one", "mode": "umpired", "seed": SEED}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    game = ApiGame(server.url, body["id"], {s["seat"]: s["token"] for s in body["seats"]})
    contexts = {
        "umpire": browser.new_context(viewport=LAPTOP),
        "japan": browser.new_context(viewport=LAPTOP),
        "usa": browser.new_context(viewport=PHONE),
    }
    pages = {
        seat: SeatPage(c.new_page(), game.link(seat), artifacts).open()
        for seat, c in contexts.items()
    }
    ump, jp, us = pages["umpire"], pages["japan"], pages["usa"]
    players = {"japan": jp, "usa": us}
    try:
        # 18b: the umpire's copy shows both Searchboards and both Operations Cards
        assert ump.page.locator("#r-searchboard-japan svg.board").count() == 1
        assert ump.page.locator("#r-searchboard-usa svg.board").count() == 1
        assert ump.page.locator("#r-cards .card.japan").count() == 1
        assert ump.page.locator("#r-cards .card.usa").count() == 1
        assert "No report waits for you" in ump.text("#r-umpire")
        ump.shot("console")

        # 7a2.2: both sides set up by clicking
        place_by_clicking(jp, us)
        pass_until(players, "assembly", turn=8)

        # 3a: the US launches scout O (18c1: both sides act at once in the Assembly Step)
        us.synced()
        us.pick('#r-cards [data-key="u:usa:O"]')
        us.target('#r-cards [data-tkey="box:usa:TF17:strike"]')
        us.done()
        pass_until(players, "scout routes", turn=8)

        # 18c1: O's route K2-J2 handed in; the umpire flies it once both sides are done,
        # each hex searched as O enters it (3d3.1); the reports wait for him
        us.synced()
        for h in ("K2", "J2"):
            us.pick('#r-searchboard [data-key="g:usa:O"]')
            us.target(f'#r-searchboard [data-tkey="sb:{h}"]')
        assert us.view()["searchboard"]["routes"] == {"O": ["K2", "J2"]}
        us.done()
        jp.synced()
        jp.done()
        us.synced()
        assert us.view()["searchboard"]["flying"]["O"]["hex"] == "J2"
        assert "Mobile Force" not in us.page.content()
        assert not us.page.locator('#r-searchboard [data-key^="seen:japan"]').count()
        # issue 30: both reports awaited, marked alike (J2's found the Mobile Force)
        for h in ("K2", "J2"):
            cell = us.page.locator(f'#r-searchboard g.hex[data-hex="{h}"]')
            assert "report-awaited" in (cell.get_attribute("class") or "")
            assert "awaits the umpire (18c1)" in (cell.get_attribute("aria-label") or "")
        us.shot("report-awaited")
        box = us.page.locator('#r-searchboard g.hex[data-hex="J2"]').bounding_box()
        assert box is not None
        near = {"x": box["x"] - 90, "y": box["y"] - 60, "width": 220, "height": 160}
        us.page.screenshot(path=str(artifacts / "report-awaited-near.png"), clip=near)
        ump.synced()
        empty = ump.page.locator('#r-umpire .draft[data-report="r1"]')
        assert "r1 Spotting report of K2 for United States, Turn 8 (18c1)" in empty.inner_text()
        draft = ump.page.locator('#r-umpire .draft[data-report="r2"]')
        assert "Truth: MobileForce" in draft.inner_text()
        assert "r2 Spotting report of J2 for United States, Turn 8 (18c1)" in draft.inner_text()
        ump.shot("report-waiting")
        ump.page.locator("#r-umpire").screenshot(path=str(artifacts / "console-waiting.png"))

        # 18c: K2's report released as it is, with every other that found nothing, in
        # one click (issue 30); 18d: J2's edited and released
        batch = ump.page.locator("#r-umpire button.release-all")
        assert batch.all_inner_texts() == [
            "Release 1 spotting report that found nothing",
            "Release all 2 spotting reports",
        ]
        umpire_posts(ump, '#r-umpire button.release-all:has-text("found nothing")')
        assert "r1" not in ump.text("#r-umpire .drafts")
        draft.locator("summary").click()
        draft.locator("input[name=text]").fill(EDIT)
        umpire_posts(ump, '#r-umpire .draft[data-report="r2"] .edit-form button')
        assert "No report waits for you" in ump.text("#r-umpire")
        assert f"Report r2 edited (18d): “{EDIT}”" in ump.text("#r-umpire .um-own")
        ump.shot("report-edited")

        us.synced()
        us.page.wait_for_selector('#r-searchboard [data-key="seen:japan:?J2"]', state="attached")
        mark = us.page.text_content('#r-searchboard [data-key="seen:japan:?J2"]') or ""
        assert not us.page.locator("#r-searchboard g.report-awaited").count()
        assert "3 ships" in mark
        assert f"the umpire reports “{EDIT}”" in us.text("#r-log")
        assert "Mobile Force" not in us.page.content()
        us.shot("report-told")
        jp.synced()
        assert EDIT not in jp.page.content() and "r2" not in jp.text("#r-log")

        # the rest of the Turn: O comes home (5a), every step done by clicking
        us.done()
        pass_until(players, "air return", turn=8)
        us.synced()
        us.pick('#r-cards .card.usa [data-key="u:usa:O"]')
        us.target('#r-cards [data-tkey="box:usa:Yorktown:arming"]')
        pass_until(players, "assembly", turn=9)
        for p in pages.values():
            p.synced()
            assert "Turn 9" in p.text("#r-status")
        ump.shot("turn9")
        no_page_scroll(ump)
        no_page_scroll(us)
        ump.page.set_viewport_size(PHONE)
        no_page_scroll(ump)
        ump.shot("console-phone")
        top = {"x": 0, "y": 0, "width": PHONE["width"], "height": 1400}
        ump.page.screenshot(path=str(artifacts / "console-phone-top.png"), clip=top)
        for p in pages.values():
            html = p.page.content()
            assert not [s for s, t in game.tokens.items() if t in html and s != p.seat]
            assert not p.errors, p.errors
    except Exception:
        for p in pages.values():
            p.shot("FAILED")
        raise
    finally:
        for c in contexts.values():
            c.close()
