"""The theatre map of "Pacific Theatre Via Midway" in Chromium, with the page's own script:
no theatre game can be created yet, so the board is rendered from a hand-built seat view
and put into a page with midway.js. A picked air unit's reach is shaded with the cells'
own coordinates - eight neighbours, a diagonal counting one (RULES-NOTES.md) - and from an
off-board base through its marked squares and their numbers (Off-Board Bases 1); the
arrow keys step from zone to zone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.web import render, searchboard, theatre
from app.web.render import Seat
from browser.conftest import ROOT

pytestmark = pytest.mark.browser

STATIC = ROOT / "app" / "static"


def seat_view() -> dict[str, Any]:
    """The United States seat: F2 (movement 3) at Port Moresby (A4D), F1 (movement 5) at
    Australia, off the west edge."""
    fighter = {"side": "usa", "basing": "green", "type": "F"}
    return {
        "scenario": {"id": "coral-sea"},
        "seats": [{"seat": "usa", "side": "usa"}, {"seat": "japan", "side": "japan"}],
        "searchboard": {},
        "operations_cards": {
            "usa": {
                "forces": [],
                "carriers": [
                    {"id": "AUS", "name": "Australia", "ready": ["F1"], "arming": []},
                    {"id": "PM", "name": "Port Moresby", "ready": ["F2"], "arming": []},
                ],
                "units": {
                    "AUS": {"id": "AUS", "name": "Australia", "side": "usa", "type": "base"},
                    "PM": {"id": "PM", "name": "Port Moresby", "side": "usa", "type": "base"},
                    "F1": {"id": "F1", **fighter, "factors": {"movement": 5}},
                    "F2": {"id": "F2", **fighter, "factors": {"movement": 3}},
                },
            }
        },
    }


def page_html(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(theatre, "on_theatre", lambda view: True)
    view = seat_view()
    ctx = {
        "board": searchboard.searchboard(view, "usa"),
        "who": Seat("g", "usa", "usa"),
        "replay": False,
        "umpire_boards": [],
        "v": 1,
    }
    board = render.env().get_template("regions/searchboard.html").render(ctx)
    reach = {"reach": searchboard.reach_data(view, "usa"), "v": 1}
    board += render.env().get_template("regions/reach.html").render(reach)
    defs = render.env().get_template("defs.html").render()
    css = (STATIC / "midway.css").read_text()
    picks = "".join(f'<button data-key="u:usa:{u}">{u}</button>' for u in ("F1", "F2"))
    return (
        f"<!doctype html><html><head><style>{css}</style></head>"
        f'<body class="seat-page usa" data-game="g" data-seat="usa">{defs}'
        f'<div id="flash"></div><div id="conn"></div><form id="act"></form>{picks}'
        f"{board}</body></html>"
    )


def shaded(page: Any) -> dict[str, list[str]]:
    return page.evaluate(
        """(() => Object.fromEntries(["reach-home", "reach-only"].map(k =>
            [k, [...document.querySelectorAll("#r-searchboard .hex." + k)]
                .map(c => c.dataset.hex).sort()])))()"""
    )


def test_ptvm_reach_on_square_zones_and_from_an_off_board_base(
    browser: Any, monkeypatch: pytest.MonkeyPatch, artifacts: Path
) -> None:
    html = page_html(monkeypatch)
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        url = "http://theatre.test/"  # a page of its own origin (the script keeps a token)
        page.route(url, lambda r: r.fulfill(body=html, content_type="text/html"))
        page.goto(url)
        for name in ("htmx-2.0.11.min.js", "htmx-ext-ws-2.0.4.min.js", "midway.js"):
            page.add_script_tag(path=str(STATIC / name))
        page.click('button[data-key="u:usa:F2"]')
        assert not errors, errors
        reach = shaded(page)
        # three steps from A4D (0, 10), diagonals counting one: x 0-3, y 7-13
        assert len(reach["reach-home"]) == 4 * 7 and not reach["reach-only"]
        assert {"A4D", "A3D", "B4A", "B5A"} <= set(reach["reach-home"])
        assert "A3A" not in reach["reach-home"] and "B4B" not in reach["reach-home"]  # 4 steps
        page.screenshot(path=str(artifacts / "theatre-reach-port-moresby.png"))
        page.click('button[data-key="u:usa:F2"]')  # dropped
        page.click('button[data-key="u:usa:F1"]')
        reach = shaded(page)
        # Australia: A7G is 4 zones from it, A7D 5; a movement of 5 reaches one step past A7G
        assert reach["reach-home"] == ["A7D", "A7E", "A7G", "A7H"]
        page.focus('[data-hex="F4E"]')
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.hex") == "F4F"
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.dataset.hex") == "F4I"
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.dataset.hex") == "F5C"
        assert not errors, errors
    finally:
        ctx.close()
