"""Issue 4, Done when: two players, two browsers, one Scenario One game created from the
home page, set up, and a whole day Turn played by clicking - a search that spots, a
battle with anti-aircraft fire and bombing, air return - with each page showing what its
side may know and nothing else."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import Server
from browser.pages import SeatPage, full_page_shot, pass_until

pytestmark = pytest.mark.browser

SEED = 10  # Turn 8: the US is Side B; the AA hits B5, the dive bombing flips Akagi
DICE = re.compile(r"\d+ vs \d+: (one hit|no damage|flipped|eliminated)")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1440, "height": 900}


def create_from_home(page: Any, server: Server, folder: Path) -> dict[str, str]:
    page.goto(server.url + "/")
    page.check("input[name=scenario][value=one]")
    page.fill("input[name=seed]", str(SEED))
    full_page_shot(page, folder / "00-home.png")
    page.click("button[type=submit]")
    page.wait_for_selector("a.seat-link[href*='#token=']")
    full_page_shot(page, folder / "00-created.png")
    # the links are relative (no MIDWAY_BASE_URL): the browser resolves them against the page
    links = {
        s: page.eval_on_selector(f"a.seat-link[data-seat={s}]", "a => a.href")
        for s in ("japan", "usa")
    }
    assert page.get_attribute("a.replay-link", "href", timeout=1000)
    return {s: str(v) for s, v in links.items()}


def assert_hidden(us: SeatPage, jp: SeatPage, spotted: bool) -> None:
    """3c, 3d3: each Searchboard shows own markers, and enemy ones only once spotted."""
    us_keys, jp_keys = us.board_keys(), jp.board_keys()
    assert not [k for k in us_keys if k.startswith("tf:japan")]
    seen = [k for k in us_keys if k.startswith("seen:japan")]
    assert seen == (["seen:japan:MobileForce"] if spotted else []), us_keys
    assert not [k for k in jp_keys if k.startswith(("tf:usa", "seen:usa"))], jp_keys
    for name in ("TF17", "TF16", "TF 17", "TF 16", "Task Force"):
        assert name not in jp.text("#r-searchboard"), name
    assert "L2" not in jp.text("#r-log") and "N4" not in jp.text("#r-log")
    if not spotted:
        assert "MobileForce" not in us.text("#r-searchboard")
        assert "Mobile Force" not in us.text("#r-searchboard")
        assert "J2" not in us.text("#r-log")


def no_page_scroll(page: SeatPage, width: int) -> None:
    """Readable at this width: the page itself never scrolls sideways (boards scroll inside)."""
    assert page.page.evaluate("document.documentElement.scrollWidth") <= width


def test_two_browsers_play_scenario_one_through_a_day_turn(
    browser: Any, server: Server, artifacts: Path
) -> None:
    jp_ctx, us_ctx = browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)
    try:
        links = create_from_home(jp_ctx.new_page(), server, artifacts)
        jp = SeatPage(jp_ctx.new_page(), links["japan"], artifacts).open()
        us = SeatPage(us_ctx.new_page(), links["usa"], artifacts).open()
        assert "#token" not in jp.page.url and "#token" not in us.page.url
        try:
            set_up(jp, us)
            night_turn(jp, us)
            assembly(jp, us)
            air_movement(jp, us)
            battle(jp, us)
            air_return(jp, us)
        except Exception:
            jp.shot("FAILED")
            us.shot("FAILED")
            raise
    finally:
        jp_ctx.close()
        us_ctx.close()


def set_up(jp: SeatPage, us: SeatPage) -> None:
    """7a2.2: the Mobile Force in area II (J2); Task Forces 17 and 16 east of the Dateline."""
    jp.shot("setup")
    jp.pick('#act .subject[data-key="tf:japan:MobileForce"]')
    assert jp.page.locator("#r-searchboard .hex.target").count() == 7  # area II
    jp.target('#r-searchboard [data-tkey="sb:J2"]')
    assert "tf:japan:MobileForce" in jp.board_keys()
    jp.done()
    us.synced()
    us.pick('#act .subject[data-key="tf:usa:TF17"]')
    assert us.page.locator("#r-searchboard .hex.target").count() == 99  # columns L-T
    us.target('#r-searchboard [data-tkey="sb:L2"]')
    us.pick('#act .subject[data-key="tf:usa:TF16"]')
    us.target('#r-searchboard [data-tkey="sb:N4"]')
    us.shot("setup")
    assert_hidden(us, jp, spotted=False)
    us.done()
    jp.synced()
    assert "Turn 7" in jp.text("#r-status") and "Night" in jp.text("#r-status")


def night_turn(jp: SeatPage, us: SeatPage) -> None:
    """Turn 7 is a night Turn (3a1): nothing flies; both sides pass each step."""
    pages = {"japan": jp, "usa": us}
    pass_until(pages, "assembly", turn=8)
    for p in pages.values():
        p.synced()
        assert "Turn 8" in p.text("#r-status") and "Day" in p.text("#r-status")
        assert "Side A: Japan" in p.text("#r-status")
    assert_hidden(us, jp, spotted=False)
    us.shot("turn8")


def assembly(jp: SeatPage, us: SeatPage) -> None:
    """3a: the US launches Yorktown's O, B3, B5 and T3 into Task Force 17's Normal Strike."""
    for unit in ("O", "B3", "B5", "T3"):
        us.pick(f'#r-cards [data-key="u:usa:{unit}"]')
        us.target('#r-cards [data-tkey="box:usa:TF17:strike"]')
    strike = us.page.locator('#r-cards [data-tkey="box:usa:TF17:strike"]')
    assert strike.inner_text().split().count("US") == 4
    jp.synced()
    assert "launched 4 of 4" in jp.text("#r-cards .card.usa")  # 2c: the cards are open
    us.shot("launched")
    us.done()
    pass_until({"japan": jp, "usa": us}, "air movement and search")


def air_movement(jp: SeatPage, us: SeatPage) -> None:
    """3d: scout O flies L2-K2-J2 and searches J2 (3d3): the Mobile Force is spotted."""
    us.pick('#r-searchboard [data-key="g:usa:O"]')
    assert us.page.locator("#r-searchboard .hex.reach-home").count() > 20
    us.target('#r-searchboard [data-tkey="sb:K2"]')
    us.page.wait_for_function("() => !document.querySelector('.selected')")  # issue 13: a move
    # clears the selection
    us.pick('#r-searchboard [data-key="g:usa:O"]')
    us.target('#r-searchboard [data-tkey="sb:J2"]')
    assert_hidden(us, jp, spotted=False)
    started = time.monotonic()
    us.page.locator("#act button[name=action]", has_text="Search J2").click()
    jp.page.wait_for_selector('#r-searchboard [data-tkey="sb:J2"].enemy-searched', timeout=1000)
    assert time.monotonic() - started < 1.0  # the other page updates by itself, at once
    us.synced()
    us.page.wait_for_selector(
        '#r-searchboard [data-key="seen:japan:MobileForce"]', state="attached"
    )
    mark = us.page.text_content('#r-searchboard [data-key="seen:japan:MobileForce"]') or ""
    assert "seen T8" in mark and "Mobile Force" in mark  # the marker prints its name
    assert "spotted Mobile Force" in us.text("#r-log")
    assert_hidden(us, jp, spotted=True)
    us.shot("spotted")
    jp.shot("searched")
    us.pick('#r-searchboard [data-key="g:usa:L2-strike"]')
    us.target('#r-searchboard [data-tkey="sb:K2"]')
    us.pick('#r-searchboard [data-key="g:usa:L2-strike"]')
    us.target('#r-searchboard [data-tkey="sb:J2"]')
    us.shot("strike")
    us.done()
    jp.synced()
    jp.done()  # Side A moves nothing


def battle(jp: SeatPage, us: SeatPage) -> None:
    """4a-4d in hex J2: the Japanese set up, the US strike attacks Akagi, AA, bombing."""
    jp.synced()
    assert jp.page.is_visible("#r-battle svg") and us.page.is_visible("#r-battle svg")
    jp.choose("Face the ships N")
    jp.pick('#r-battle .tray [data-key="u:japan:Akagi"]')
    jp.target('#r-battle [data-tkey="bb:J11"]')
    jp.choose("Place the remaining ships in formation")
    us.synced()
    for unit in ("B3", "B5"):
        us.pick(f'#r-battle .tray [data-key="u:usa:{unit}"]')
        us.target('#r-battle svg [data-key="u:japan:Akagi"]')
    us.pick('#r-battle .tray [data-key="u:usa:T3"]')
    us.target('#r-battle [data-tkey="bb:I11"]', posts=False)  # next to Akagi and Hiryu
    assert "More than one choice there" in us.text("#flash")
    assert us.page.locator("#act button.ambiguous").count() == 2
    us.choose("T3 approaches Akagi from I11")
    us.shot("air-setup")
    jp.synced()
    jp.pick('#r-battle svg [data-key="u:japan:Akagi"]')
    jp.target('#r-battle [data-key="u:usa:B5"]')  # in the stack of B3 and B5 on Akagi
    jp.shot("aa-forming")
    jp.choose("Fire the anti-aircraft combat")
    for p in (jp, us):
        p.page.wait_for_selector("#r-dice .roll")
        assert DICE.search(p.text("#r-dice")), p.text("#r-dice")
        assert "Anti-aircraft (4c): Akagi at B5" in p.text("#r-dice")
    jp.shot("aa-fired")
    jp.done()
    us.synced()
    us.choose("Bomb Akagi: dive bombing")
    for p in (jp, us):
        p.synced()
        dice = p.text("#r-dice")
        assert "Dive bombing (4d): B3, B5 on Akagi" in dice and DICE.search(dice), dice
        assert "Torpedo bombing (4d): T3 on Akagi" in dice
    akagi = jp.page.get_attribute('#r-cards [data-key="u:japan:Akagi"]', "title") or ""
    assert "back side up" in akagi  # 10 vs ... flipped it (4b4)
    us.shot("bombed")
    jp.shot("bombed")
    pass_until({"japan": jp, "usa": us}, "air return")


def air_return(jp: SeatPage, us: SeatPage) -> None:
    """5a: every US air unit lands back on Yorktown, in its Arming box."""
    us.synced()
    for unit in ("B3", "B5", "T3", "O"):
        us.pick(f'#r-cards .card.usa [data-key="u:usa:{unit}"]')
        us.target('#r-cards [data-tkey="box:usa:Yorktown:arming"]')
    for p in (jp, us):
        p.synced()
        assert "Turn 9" in p.text("#r-status")
    arming = us.text('#r-cards [data-tkey="box:usa:Yorktown:arming"]')
    assert all(u in arming for u in ("B3", "B5", "T3", "O"))
    assert "lands on Yorktown" in jp.text("#r-log")  # landing is public; where is not
    assert_hidden(us, jp, spotted=True)
    no_page_scroll(us, PHONE["width"])
    no_page_scroll(jp, LAPTOP["width"])
    us.shot("turn9")
    jp.shot("turn9")
    assert jp.errors == [] and us.errors == []  # no script error, no CSP refusal
