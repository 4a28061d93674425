"""Issue 30: every mode as a player meets it. From the home page's own form, a game of
every mode (two-player 2c, umpired and double-blind 18) in every scenario, with teams (17a)
where GET /api/scenarios offers them; every seat link of the created page opened, and
each seat's board seen. The same through the lobby's "open" form, the opener's kept
seats opened from the opened page. No page or request answers 5xx, and axe-core and the
Nu HTML Checker pass one page of each kind (the created and opened pages, a seat of each
mode, the umpire's, a team player's, the theatre map).

One server, one browser; the seat pages of a game open side by side (each its own tab), so
their sockets and regions load at once."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from browser.checks import axe_violations, html_errors, markup
from browser.conftest import Server
from browser.games import HTTP
from browser.pages import TIMEOUT_MS, full_page_shot

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}


@dataclass(frozen=True)
class Kind:
    """A game the home page offers: its scenario, mode and teams, and the seats it gives."""

    scenario: str
    mode: str
    teams: bool
    seats: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.scenario} {self.mode}{' teams' if self.teams else ''}"


def kinds(base: str) -> list[Kind]:
    """Every scenario x mode x seating GET /api/scenarios lists for a playable scenario."""
    r = HTTP.get(f"{base}/api/scenarios")
    assert r.status_code == 200, r.text
    body = r.json()
    out = []
    for s in body if isinstance(body, list) else body["scenarios"]:
        if not s.get("playable"):
            continue
        for m in s["modes"]:
            for seating in m["seatings"]:
                seats = tuple(str(x["seat"]) for x in seating["seats"])
                out.append(Kind(s["id"], m["mode"], bool(seating["teams"]), seats))
    return out


def fill_form(page: Any, kind: Kind) -> None:
    """The home page's create form, as a player fills it in."""
    page.check(f"input[name=scenario][value={kind.scenario}]")
    page.check(f"input[name=mode][value={kind.mode}]")
    teams = page.locator("input[name=teams]")
    if teams.count():
        teams.set_checked(kind.teams)
    else:
        assert not kind.teams, "the form offers no teams"


def seat_links(page: Any) -> dict[str, str]:
    page.wait_for_selector("a.seat-link[href*='#token=']", timeout=TIMEOUT_MS)
    links: dict[str, str] = page.eval_on_selector_all(
        "a.seat-link", "els => Object.fromEntries(els.map(a => [a.dataset.seat, a.href]))"
    )
    return links


def open_seats(context: Any, links: dict[str, str]) -> dict[str, Any]:
    """Each seat's link in a tab of its own, all loading at once; each seen live."""
    tabs = {seat: context.new_page() for seat in links}
    for seat, tab in tabs.items():
        tab.goto(links[seat], wait_until="commit")
    for seat, tab in tabs.items():
        board_seen(tab, seat)
    return tabs


def board_seen(tab: Any, seat: str) -> None:
    """The seat's page is live and shows its board, drawn, titled for the seat: the
    Searchboard (or the theatre map), or in Scenario Four the Battleboard (16)."""
    tab.wait_for_selector("#conn[data-state=live]", timeout=TIMEOUT_MS)
    board = tab.locator("#r-battle:not([hidden]) svg.board, #r-searchboard svg.board").first
    board.wait_for(state="visible", timeout=TIMEOUT_MS)
    box = board.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200, (seat, box)
    assert tab.get_attribute("body", "data-seat") == seat
    assert tab.locator("#flash .error").count() == 0, tab.inner_text("#flash")


@pytest.mark.parametrize("route", ["/games", "/games/open"])
def test_the_created_and_opened_pages_of_every_mode_answer(server: Server, route: str) -> None:
    """Issue 30: a game created (or opened) from the home page's form in each mode, with
    teams where offered, leads to its page, which names the mode (18: the umpire's seat
    has its tag) - not a 500."""
    for kind in kinds(server.url):
        form = {"scenario": kind.scenario, "mode": kind.mode, "keep": kind.seats[0]}
        if kind.teams:
            form["teams"] = "1"
        r = HTTP.post(server.url + route, data=form)
        assert r.status_code == 303, (kind.name, r.status_code, r.text[:300])
        page = HTTP.get(server.url + r.headers["location"].split("#")[0])
        assert page.status_code == 200, (kind.name, page.status_code, page.text[:300])
        assert f'data-mode="{kind.mode}"' in page.text, kind.name
        if route == "/games":
            for seat in kind.seats:
                assert f'data-seat="{seat}"' in page.text, (kind.name, seat)
        if "umpire" in kind.seats and route == "/games":
            assert '<span class="side-tag umpire">Umpire</span>' in page.text


def test_every_mode_scenario_and_seat_from_the_home_and_lobby_forms(
    browser: Any, server: Server, artifacts: Path, tmp_path: Path
) -> None:
    started = time.monotonic()
    all_kinds = kinds(server.url)
    assert {k.mode for k in all_kinds} == {"two-player", "umpired", "double-blind"}
    assert {k.scenario for k in all_kinds} >= {
        *("one", "two", "three", "four"),
        *("coral-sea", "eastern-solomons", "santa-cruz"),
    }
    assert any(k.teams for k in all_kinds)
    failures: list[str] = []  # every answer of 5xx, to any page or request
    checked: dict[str, str] = {}  # one page of each kind: its name -> markup
    violations: dict[str, list[str]] = {}

    def check(name: str, page: Any) -> None:
        checked[name] = markup(page)
        violations[name] = axe_violations(page)
        full_page_shot(page, artifacts / f"{len(checked):02d}-{name.replace(' ', '-')}.png")

    def new_context() -> Any:
        """A browser of its own for each game: its My games list (localStorage) holds
        that game only, as a player's who creates one."""
        context = browser.new_context(viewport=LAPTOP, bypass_csp=True)
        context.on("response", lambda r: r.status >= 500 and failures.append(f"{r.status} {r.url}"))
        return context

    for kind in all_kinds:
        context = new_context()
        form = context.new_page()
        # the home page's form: every seat's link from the created page
        form.goto(server.url + "/")
        if not checked:
            check("home", form)
        fill_form(form, kind)
        form.click("button[type=submit].primary")
        links = seat_links(form)
        assert "/created" in form.url, (kind.name, form.url)
        assert set(links) == set(kind.seats), (kind.name, links)
        assert form.get_attribute(".mode-chosen .mode", "data-mode") == kind.mode
        if kind.mode == "umpired" and kind.teams and "created" not in checked:
            check("created", form)
        tabs = open_seats(context, links)
        if f"{kind.mode} seat" not in checked:  # a player's seat of each mode
            check(f"{kind.mode} seat", tabs[kind.seats[0]])
        if kind.mode == "umpired" and kind.teams and "umpire seat" not in checked:
            check("umpire seat", tabs["umpire"])
            check("team player seat", tabs[kind.seats[1]])
        if on_theatre(kind) and "theatre seat" not in checked:
            check("theatre seat", tabs["usa"])
        context.close()
        # the lobby's form: the opener keeps the first seat; the rest are free
        context = new_context()
        form = context.new_page()
        form.goto(server.url + "/")
        fill_form(form, kind)
        form.select_option("select[name=keep]", kind.seats[0])
        form.click("button.open[formaction='/games/open']")
        kept = seat_links(form)
        assert "/opened" in form.url, (kind.name, form.url)
        assert kind.seats[0] in kept and set(kept) <= set(kind.seats), (kind.name, kept)
        assert form.get_attribute(".mode-chosen .mode", "data-mode") == kind.mode
        free = form.inner_text("main")
        for seat in set(kind.seats) - set(kept):
            assert seat in free, (kind.name, seat, free)
        if kind.mode == "umpired" and kind.teams and "opened" not in checked:
            check("opened", form)
        open_seats(context, kept)
        context.close()
    elapsed = time.monotonic() - started
    # measured: 165 s on 2 cores under a load average of 13 (other work running)
    print(f"{len(all_kinds)} kinds of game, from both forms, in {elapsed:.1f} s")
    assert not failures, failures
    assert not any(violations.values()), violations
    errors = html_errors(checked, tmp_path)
    assert not errors, "\n".join(errors[:40])


def on_theatre(kind: Kind) -> bool:
    return kind.scenario in ("coral-sea", "eastern-solomons", "santa-cruz")
