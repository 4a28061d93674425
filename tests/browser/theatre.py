"""Coral Sea ("Pacific Theatre Via Midway") on the page, for the browser tests: the
task forces set up by clicking (Starting Positions), both players clicking Done until a
step asks something, a choice of the prompt bar by its words."""

from __future__ import annotations

import time

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


def set_up_by_clicking(
    pages: dict[str, SeatPage], start: dict[str, dict[str, str]] | None = None
) -> None:
    """7a2.2: the first task force clicked onto its zone on the map; the others, whose zone
    a marker already fills, by their choice in the prompt bar."""
    for seat in ("japan", "usa"):
        page = pages[seat]
        page.synced()
        placed: set[str] = set()
        for force, zone in (start or START)[seat].items():
            key = f"tf:{seat}:{force}"
            page.pick(f'#act .subject[data-key="{key}"]')
            if zone in placed:
                click_choice(page, key, f"in {zone}")
            else:
                page.target(f'#r-searchboard [data-tkey="sb:{zone}"]')
            placed.add(zone)
        page.shot("set-up", "#r-searchboard")
        page.done()
