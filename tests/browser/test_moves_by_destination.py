"""Issue 30, moves by destination, counted in Chromium: an air strike (or a scout) flown hex
by hex takes two clicks a hex (pick it, click the next hex); picked once, a click on its
lit destination flies it there (`fly-to`, `route-to` in the umpired modes: the engine
takes the hexes between). Counted in Scenario One (two-player and double-blind) and on
Coral Sea's zone map; the figures are printed (pytest -s) and checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from live import Server

from app.rules.board.boards import searchboard as hex_grid
from app.rules.board.boards import theatre as square_grid
from browser.games import HTTP, ApiGame
from browser.pages import SeatPage
from browser.test_play import LAPTOP
from browser.theatre import BOMBERS, DESK, done_until, set_up_by_clicking

pytestmark = pytest.mark.browser

COUNT_CLICKS = """() => {
  window.clicksCounted = 0;
  document.addEventListener("click", e => { if (e.isTrusted) window.clicksCounted++; }, true);
}"""


def clicks(page: SeatPage) -> int:
    return int(page.page.evaluate("() => window.clicksCounted"))


def counting(page: SeatPage) -> SeatPage:
    page.page.evaluate(COUNT_CLICKS)
    return page


def far(view: dict[str, Any], kind: str, subject: str, length: int) -> str:
    """A destination `length` hexes away, from the seat's prompt."""
    ways = view["prompt"]["destinations"][kind][subject]
    return sorted(h for h, n in ways.items() if n == length)[0]


def pick(page: SeatPage, subject: str) -> None:
    """Pick the strike or scout by its button in the prompt bar (one click; its counter on
    the board may stand in a stack, a click more)."""
    key = f"g:{page.seat}:{subject}"
    button = page.page.locator(f'#act .subject[data-key="{key}"]')
    if not button.is_visible():  # in the folded list of all counters
        page.page.locator('#act details[data-fold="subjects"] summary').click()
    page.pick(f'#act .subject[data-key="{key}"]')


def by_destination(page: SeatPage, subject: str, dest: str) -> int:
    """Pick the strike (or scout), click its destination: the clicks it took."""
    before = clicks(page)
    pick(page, subject)
    page.target(f'#r-searchboard [data-tkey="sb:{dest}"]')
    return clicks(page) - before


def hex_by_hex(page: SeatPage, subject: str, dest: str, kind: str) -> int:
    """The way before issue 30: pick, then the next hex toward `dest`, a hex at a time."""
    grid: Any = square_grid() if square_grid().contains(dest) else hex_grid()
    before = clicks(page)
    for _ in range(12):
        view = page.synced()
        steps = [a for a in view["prompt"]["actions"] if a["kind"] == kind]
        board = view["searchboard"]
        at = (board.get("routes") or {}).get(subject) or []
        members = view["searchboard"].get("groups", {}).get(subject) or [subject]
        here = at[-1] if at else board["flying"][members[0]]["hex"]
        if here == dest:
            return clicks(page) - before
        near = min(steps, key=lambda a: grid.distance(a["hex"], dest))
        pick(page, subject)
        page.target(f'#r-searchboard [data-tkey="sb:{near["hex"]}"]')
    raise AssertionError(f"{subject} never reached {dest}")


def scenario_one_page(browser: Any, server: Server, artifacts: Path) -> tuple[ApiGame, SeatPage]:
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()  # O, B3, B5 and T3 flying from TF 17 in L2
    page = SeatPage(browser.new_context(viewport=LAPTOP).new_page(), game.link("usa"), artifacts)
    return game, counting(page.open())


def test_issue_30_scenario_one_a_flight_by_its_destination(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """3d1: scout O flies its six hexes hex by hex in one game - 12 clicks - and by its
    destination in another - 2 clicks; the strike from Yorktown its five, 2 clicks."""
    _, before = scenario_one_page(browser, server, artifacts)
    dest = far(before.view(), "fly-to", "O", 6)
    old = hex_by_hex(before, "O", dest, "fly")
    assert before.view()["searchboard"]["flying"]["O"]["hex"] == dest

    _, after = scenario_one_page(browser, server, artifacts)
    assert far(after.view(), "fly-to", "O", 6) == dest
    new = by_destination(after, "O", dest)
    view = after.view()
    assert view["searchboard"]["flying"]["O"]["hex"] == dest
    strike_to = far(view, "fly-to", "L2-strike", 5)
    assert by_destination(after, "L2-strike", strike_to) == 2
    assert after.view()["searchboard"]["flying"]["B5"]["hex"] == strike_to
    assert after.view()["prompt"]["take_back"]  # one action, to take back whole
    after.shot("flown-by-destination")
    print(f"\nScenario One, two-player: a 6-hex flight {old} clicks before, {new} after")
    assert (old, new) == (12, 2)
    assert before.errors == [] and after.errors == []


def test_issue_30_double_blind_a_route_by_its_destination(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """18c1: scout O's route handed in hex by hex (12 clicks), cleared, then handed in by
    its end (2 clicks) - the same length; then the strike flies by destination (2)."""
    r = HTTP.post(
        f"{server.url}/api/games", json={"scenario": "one", "mode": "double-blind", "seed": 10}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    game = ApiGame(server.url, body["id"], {s["seat"]: s["token"] for s in body["seats"]})
    game.set_up()
    game.pass_until("assembly", turn=8)
    for unit in ("O", "B3", "B5", "T3"):
        game.act("usa", kind="launch", unit=unit)
    game.act("usa", kind="done")
    game.pass_until("scout routes", turn=8)
    contexts = [browser.new_context(viewport=LAPTOP) for _ in range(2)]
    us = counting(SeatPage(contexts[0].new_page(), game.link("usa"), artifacts).open())
    jp = SeatPage(contexts[1].new_page(), game.link("japan"), artifacts).open()
    dest = far(us.view(), "route-to", "O", 6)
    old = hex_by_hex(us, "O", dest, "route")
    game.act("usa", kind="unroute", unit="O")
    us.synced()
    new = by_destination(us, "O", dest)
    assert len(us.view()["searchboard"]["routes"]["O"]) == 6
    assert us.view()["searchboard"]["routes"]["O"][-1] == dest
    us.shot("route-by-destination")
    us.done()
    jp.synced()
    jp.done()
    us.synced()
    while us.view()["step"] != "air movement and search":  # 15a: nothing to spend here
        us.done()
    strike_to = far(us.view(), "fly-to", "L2-strike", 5)
    assert by_destination(us, "L2-strike", strike_to) == 2
    assert us.view()["searchboard"]["flying"]["B5"]["hex"] == strike_to
    print(f"\nScenario One, double-blind: a 6-hex scout route {old} clicks before, {new} after")
    assert (old, new) == (12, 2)
    assert us.errors == [] and jp.errors == []
    for c in contexts:
        c.close()


def coral_sea_bombers(browser: Any, server: Server, artifacts: Path) -> SeatPage:
    """Coral Sea, seed 1: the task forces set up, Port Moresby's B-17s in the air."""
    game = ApiGame.create(server.url, scenario="coral-sea", seed=1)
    pages = {
        s: SeatPage(browser.new_context(viewport=DESK).new_page(), game.link(s), artifacts).open()
        for s in ("usa", "japan")
    }
    set_up_by_clicking(pages)
    done_until(pages, "usa", "assembly", "launch")
    for unit in BOMBERS:
        game.act("usa", kind="launch", unit=unit)
    done_until(pages, "usa", "air movement and search", "fly")
    return counting(pages["usa"])


def test_issue_30_coral_sea_a_seven_zone_flight_by_its_destination(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """The theatre map: Port Moresby's B-17s fly seven zones zone by zone in one game, by
    their destination in another. The strike is picked in the prompt's list of all
    counters (a click to open it, once: it stays open after each action, issue 30), so
    1 + 2 x 7 = 15 clicks, against 1 + 2 = 3."""
    before = coral_sea_bombers(browser, server, artifacts)
    strike = next(a["group"] for a in before.view()["prompt"]["actions"] if a["kind"] == "fly")
    dest = far(before.view(), "fly-to", strike, 7)
    old = hex_by_hex(before, strike, dest, "fly")
    assert before.view()["searchboard"]["flying"][BOMBERS[0]]["hex"] == dest

    after = coral_sea_bombers(browser, server, artifacts)
    new = by_destination(after, strike, dest)
    assert after.view()["searchboard"]["flying"][BOMBERS[0]]["hex"] == dest
    assert after.page.locator('#act details[data-fold="subjects"][open]').count() == 1
    after.shot("seven-zones-by-destination")
    print(f"\nCoral Sea: a 7-zone flight {old} clicks before, {new} after")
    assert (old, new) == (15, 3)
    assert before.errors == [] and after.errors == []
