"""18 and Pacific Theatre Via Midway in Chromium: a double-blind game of Coral Sea (the
server is the umpire) made from the home page's form, both seats in their own browser
contexts, played by clicking through its first day - the seven day Turns, 0500 to 1700 -
to the first night Turn.

- 7a2.2: the task forces set up by clicking (Starting Positions; the Carrier Striking
  Force on the north edge, the rest at Rabaul).
- Bombers 4, Bases 3-4: on Turn 1 Port Moresby's four B-17 units take off from the base's
  Operations Card, fly to Rabaul by its zone (one click, issue 30) and raid the base; the
  battle ends with its result panel on both pages, and the base's hits today on its
  marker and its card - on the attacker's page as the umpire reported them (18c2).
- 5a: the bombers land back at Port Moresby; in Turn 2's Ready Step a click on one says
  why it does not ready (Bombers 8).
- 18b, 18c: all day, neither page's HTML holds an enemy task force the seat was not told
  of: the Americans never learn of the Carrier Striking Force, Japan never of Task Forces
  17 and 44; the Americans learn only of the forces in the zone they raided. Before the
  raid neither page shows a unit of the enemy's Operations Card.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from live import Server

from browser.pages import TIMEOUT_MS, SeatPage, seats_from_home
from browser.theatre import BOMBERS, DESK, RABAUL, done_until, set_up_by_clicking

pytestmark = pytest.mark.browser

SEED = 1
EDGE = "E1B"  # the north edge, far from the raid
START = {
    "japan": {
        "StrikingForce": EDGE,
        "CoveringGroup": RABAUL,
        "InvasionForce": RABAUL,
        "SupportGroup": RABAUL,
    },
    "usa": {"TF17": "H7H", "TF44": "H7G"},
}
# what each side is never told of, in any words the page could use
NEVER = {
    "usa": ("StrikingForce", "Carrier Striking Force", "Shokaku", "Zuikaku"),
    "japan": ("TF17", "TF 17", "Task Force 17", "TF44", "Task Force 44", "Yorktown", "Lexington"),
}
# the zones of the enemy's untold task forces, each named in the seat's HTML no more often
# than a like zone where nothing is (its cell on the map: code, label, target key)
HIDDEN_ZONES = {"usa": {EDGE: "E1C"}, "japan": {"H7H": "H7I", "H7G": "H7I"}}
DAY = 7  # Turns 1-7 are the day Turns; Turn 8 the first night Turn


def fogged(pages: dict[str, SeatPage], raided: bool) -> None:
    """18b, 18c: no enemy task force marker on a seat's page but those it was told of -
    for the US, once it raided Rabaul, the forces found there - and none of the enemy's
    untold forces named anywhere in its HTML."""
    for seat, page in pages.items():
        enemy = "japan" if seat == "usa" else "usa"
        html = page.page.content()
        assert not [w for w in NEVER[seat] if w in html], (seat, NEVER[seat])
        for zone, like in HIDDEN_ZONES[seat].items():
            assert html.count(zone) == html.count(like), (seat, zone)
        keys = page.keys(f'[data-key^="tf:{enemy}:"], [data-key^="seen:{enemy}:"]')
        told = {f"seen:japan:{f}" for f, z in START["japan"].items() if z == RABAUL}
        assert set(keys) <= (told if raided and seat == "usa" else set()), (seat, keys)
        if not raided:  # 18b: the enemy's Operations Card shows nothing not reported
            assert not page.keys(f'#r-cards .card.{enemy} [data-key^="u:{enemy}:"]'), seat


def take_off(us: SeatPage) -> None:
    """3a: the B-17s from Port Moresby's card to its strike box."""
    for unit in BOMBERS:
        us.pick(f'#r-cards [data-key="u:usa:{unit}"]')
        us.target('#r-cards [data-tkey="box:usa:PortMoresby:strike"]')
    us.shot("took-off", "#r-cards")


def fly_to_rabaul(us: SeatPage) -> None:
    """3d1, issue 30: the strike picked in the prompt bar, its destination clicked."""
    [strike] = {a["group"] for a in us.view()["prompt"]["actions"] if a["kind"] == "fly"}
    button = us.page.locator(f'#act .subject[data-key="g:usa:{strike}"]')
    if not button.is_visible():  # in the folded list of all counters
        us.page.locator('#act details[data-fold="subjects"] summary').click()
    us.pick(f'#act .subject[data-key="g:usa:{strike}"]')
    us.target(f'#r-searchboard [data-tkey="sb:{RABAUL}"]')
    assert us.view()["searchboard"]["flying"][BOMBERS[0]]["hex"] == RABAUL
    us.shot("over-rabaul", "#r-searchboard")


def raid(pages: dict[str, SeatPage]) -> int:
    """Bombers 4: Japan sets up its ships at Rabaul, the B-17s attack the base; both pages
    end the battle with its result (issue 30); Bases 3: the hits today on the base's
    marker and card, on both pages. The hits."""
    us, jp = pages["usa"], pages["japan"]
    done_until(pages, "japan", "battle setup", "face")
    jp.choose("Face the ships N")
    jp.choose("Place the remaining ships in formation")
    done_until(pages, "usa", "air attack setup", "target")
    for unit in BOMBERS:
        us.pick(f'[data-key="u:usa:{unit}"]')
        us.target('[data-tkey="u:japan:Rabaul"], [data-key="u:japan:Rabaul"]')
    done_until(pages, "usa", "air return", "land")
    damage = int(jp.view()["operations_cards"]["japan"]["units"]["Rabaul"]["damage_today"])
    assert damage > 0
    for page in pages.values():
        page.synced()
        panel = page.page.locator(f'#r-dice .battle-result[data-hex="{RABAUL}"]')
        assert panel.count() == 1, page.text("#r-dice")
        items = [t.strip() for t in panel.locator("li").all_inner_texts()]
        log = page.text("#r-log")
        assert items and all(t in log for t in items), (page.seat, items)
        page.page.locator("#r-dice").screenshot(path=str(page.folder / f"{page.seat}-raid.png"))
    # Bases 3: the base's hits today on its marker and its card
    mark = jp.page.locator('#r-searchboard .base-mark[data-base="Rabaul"] .base-state')
    assert mark.first.text_content() == f"damage {damage}"
    assert f"{damage} hits today (Bases 3)" in jp.text("#r-cards")
    # 18c2: the attacker is told the hits; neither side is shown the dice, and the Dice
    # panel says so (not "No combat dice yet" above the battle's result)
    told = f"The umpire reports (18c2, Bases 3): Rabaul {damage} hits today, not knocked out"
    assert told in us.text("#r-dice .battle-result")
    for page in pages.values():
        dice = page.text("#r-dice")
        assert "No combat dice yet" not in dice and "the umpire rolls them" in dice, dice
    jp.shot("rabaul-raided", "#r-searchboard")
    return damage


def land_and_not_ready(pages: dict[str, SeatPage]) -> None:
    """5a: back to Port Moresby's Arming box; Turn 2's Ready Step: a B-17 clicked says why
    it does not ready (Bombers 8)."""
    us = pages["usa"]
    for unit in BOMBERS:
        us.pick(f'[data-key="u:usa:{unit}"]')
        us.target('#r-cards [data-tkey="box:usa:PortMoresby:arming"]')
    done_until(pages, "usa", "ready")
    assert us.view()["turn"] == 2
    us.page.locator(f'#r-cards [data-key="u:usa:{BOMBERS[0]}"]').first.click()
    flash = us.page.locator("#flash")
    flash.filter(has_text="Bombers 8").wait_for(timeout=TIMEOUT_MS)
    assert "may ready on Turn" in flash.inner_text()
    us.shot("not-ready", "#r-cards")


def through_the_day(pages: dict[str, SeatPage]) -> None:
    """Both players click Done, in the order the game asks, until the first night Turn."""
    for _ in range(200):
        views = {s: p.view() for s, p in pages.items()}
        if all(v["turn"] > DAY for v in views.values()):
            return
        seat = next(s for s, v in views.items() if v["prompt"]["actions"])
        pages[seat].synced()
        pages[seat].done()
    raise AssertionError("the day never ended")


def test_18_double_blind_coral_sea_through_a_day_with_a_base_raid(
    browser: Any, server: Server, artifacts: Path
) -> None:
    # 18: no umpire's seat, the server umpires (seats_from_home checks the links' seats)
    viewports = {"usa": DESK, "japan": DESK}
    with seats_from_home(
        browser, server.url, artifacts, viewports, "coral-sea", "double-blind", seed=SEED
    ) as table:
        pages = table.pages
        us, jp = pages["usa"], pages["japan"]
        set_up_by_clicking(pages, START)
        assert jp.view()["searchboard"]["forces"]["StrikingForce"] == EDGE
        fogged(pages, raided=False)

        done_until(pages, "usa", "assembly", "launch")
        take_off(us)
        done_until(pages, "usa", "air movement and search", "fly")
        fly_to_rabaul(us)
        fogged(pages, raided=False)
        damage = raid(pages)
        fogged(pages, raided=True)
        land_and_not_ready(pages)

        through_the_day(pages)
        for page in pages.values():
            page.synced()
            status = page.text("#r-status")
            assert f"Turn {DAY + 1}" in status and "Night" in status, status
        mark = jp.page.locator('#r-searchboard .base-mark[data-base="Rabaul"] .base-state')
        assert mark.first.text_content() == f"damage {damage}"  # Bases 3: hits of the day
        fogged(pages, raided=True)
        for page in pages.values():
            page.shot("night", "#r-searchboard")
            assert page.errors == [], page.errors
