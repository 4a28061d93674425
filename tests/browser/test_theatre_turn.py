"""A Turn of Coral Sea ("Pacific Theatre Via Midway") played by clicking in Chromium, both
seats in their own browser contexts: the task forces set up by clicking (the Invasion Force
at Rabaul, Starting Positions), Port Moresby's four B-17 units take off from the base's
Operations Card, fly zone by zone to Rabaul (C2B) and attack the base (Bombers 4, Bases 3-4);
the base's damage today shows on its Operations Card and on the theatre map; the bombers
land back at Port Moresby (5a) and, in the next Turn's Ready Step, a click on one says why
it does not ready (Bombers 8). Screenshots: test-artifacts/browser/<test>/ and
/tmp/theatre-turn-*.png."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from live import Server

from app.rules.boards import theatre as square_grid
from browser.games import ApiGame
from browser.pages import SeatPage

RABAUL = "C2B"
BOMBERS = ["CS-MoresbyB1", "CS-MoresbyB2", "CS-MoresbyB3", "CS-MoresbyB4"]
DESK = {"width": 1366, "height": 900}
START = {  # Starting Positions: the Invasion Force at Rabaul; the Allied carriers far off
    "japan": {
        "StrikingForce": RABAUL,
        "CoveringGroup": RABAUL,
        "InvasionForce": RABAUL,
        "SupportGroup": RABAUL,
    },
    "usa": {"TF17": "H7H", "TF44": "H7G"},
}


def shot(page: SeatPage, name: str) -> None:
    page.shot(name)
    shutil.copy(page.shots[-1], f"/tmp/theatre-turn-{len(page.shots):02d}-{page.seat}-{name}.png")


def done_until(pages: dict[str, SeatPage], seat: str, step: str, kind: str = "") -> None:
    """Both players click Done, in the order the game asks, until `seat` is asked in `step`
    (and offered an action of `kind`, when given)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        views = {s: p.view() for s, p in pages.items()}
        mine = views[seat]
        offered = {a["kind"] for a in mine["prompt"]["actions"]}
        if mine["step"] == step and offered and (not kind or kind in offered):
            pages[seat].synced()
            return
        acting = next(s for s, v in views.items() if v["prompt"]["actions"])
        pages[acting].synced()
        pages[acting].done()
    raise AssertionError(f"{seat} never asked in {step}")


def click_choice(page: SeatPage, subject: str, words: str) -> None:
    """The picked counter's choice by its words, in the prompt bar (its folded list of all
    choices opened first when it is there)."""
    group = page.page.locator(f'#act .choices[data-for="{subject}"]')
    button = group.locator("button[name=action]", has_text=words).first
    fold = group.locator("details.all-choices:not([open])")
    if fold.count():
        fold.locator("summary").first.click()
    page._posting(button)


def set_up_by_clicking(pages: dict[str, SeatPage]) -> None:
    """7a2.2: the first task force clicked onto its zone on the map; the others, whose zone
    a marker already fills, by their choice in the prompt bar."""
    for seat in ("japan", "usa"):
        page = pages[seat]
        page.synced()
        placed: set[str] = set()
        for force, zone in START[seat].items():
            key = f"tf:{seat}:{force}"
            page.pick(f'#act .subject[data-key="{key}"]')
            if zone in placed:
                click_choice(page, key, f"in {zone}")
            else:
                page.target(f'#r-searchboard [data-tkey="sb:{zone}"]')
            placed.add(zone)
        shot(page, "set-up")
        page.done()


def fly_to(page: SeatPage, zone: str) -> None:
    """3d1 on the theatre map: the strike is flown a zone at a time, each step to the lit
    zone nearest `zone`, until it is there."""
    grid = square_grid()
    for _ in range(30):
        view = page.synced()
        flies = [a for a in view["prompt"]["actions"] if a["kind"] == "fly"]
        flying = view["searchboard"].get("flying") or {}
        if not flies or any(f["hex"] == zone for f in flying.values()):
            return
        step = min(flies, key=lambda a: grid.distance(a["hex"], zone))
        page.pick(f'#r-searchboard [data-key="g:usa:{step["group"]}"]')
        page.target(f'#r-searchboard [data-tkey="sb:{step["hex"]}"]')
        if step["hex"] == zone:
            return
    raise AssertionError(f"the strike never reached {zone}")


def test_ptvm_bombers_4_a_coral_sea_turn_played_by_clicking(
    browser: Any, server: Server, artifacts: Path
) -> None:
    game = ApiGame.create(server.url, scenario="coral-sea", seed=1)
    contexts = {s: browser.new_context(viewport=DESK) for s in ("usa", "japan")}
    pages = {s: SeatPage(c.new_page(), game.link(s), artifacts).open() for s, c in contexts.items()}
    us, jp = pages["usa"], pages["japan"]
    try:
        set_up_by_clicking(pages)
        assert jp.view()["searchboard"]["forces"]["InvasionForce"] == RABAUL

        # Assembly: the B-17s take off from Port Moresby's card into its strike box
        done_until(pages, "usa", "assembly", "launch")
        for unit in BOMBERS:
            us.pick(f'#r-cards [data-key="u:usa:{unit}"]')
            us.target('#r-cards [data-tkey="box:usa:PortMoresby:strike"]')
        shot(us, "took-off")

        # Air Movement: zone by zone to Rabaul
        done_until(pages, "usa", "air movement and search", "fly")
        fly_to(us, RABAUL)
        shot(us, "over-rabaul")

        # The battle in Rabaul's zone: Japan sets up its ships, the B-17s attack the base
        done_until(pages, "japan", "battle setup", "face")
        jp.choose("Face the ships N")
        jp.choose("Place the remaining ships in formation")
        done_until(pages, "usa", "air attack setup", "target")
        for unit in BOMBERS:
            us.pick(f'[data-key="u:usa:{unit}"]')
            us.target('[data-tkey="u:japan:Rabaul"], [data-key="u:japan:Rabaul"]')
        us.synced()
        log = us.text("#r-log")
        assert "Attack on Rabaul (Bombers 4): land bombers" in log, log[-2000:]
        damage = us.view()["operations_cards"]["japan"]["units"]["Rabaul"]["damage_today"]
        assert damage > 0
        jp.synced()
        assert f"{damage} hits today (Bases 3)" in jp.text("#r-cards")
        mark = jp.page.locator('#r-searchboard .base-mark[data-base="Rabaul"] .base-state')
        assert mark.first.text_content() == f"damage {damage}"
        shot(us, "rabaul-attacked")
        shot(jp, "rabaul-attacked")

        # Air Return: back to Port Moresby's Arming box
        done_until(pages, "usa", "air return", "land")
        for unit in BOMBERS:
            us.pick(f'[data-key="u:usa:{unit}"]')
            us.target('#r-cards [data-tkey="box:usa:PortMoresby:arming"]')
        shot(us, "landed")

        # The next Turn's Ready Step: a B-17 says why it does not ready (Bombers 8)
        done_until(pages, "usa", "ready")
        us.page.locator(f'#r-cards [data-key="u:usa:{BOMBERS[0]}"]').first.click()
        flash = us.page.locator("#flash")
        flash.filter(has_text="Bombers 8").wait_for(timeout=10_000)
        assert "may ready on Turn" in flash.inner_text()
        shot(us, "not-ready")
        assert us.errors == [] and jp.errors == []
    finally:
        for c in contexts.values():
            c.close()
