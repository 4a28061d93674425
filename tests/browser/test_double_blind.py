"""18 in Chromium: a double-blind game of Scenario One (the server is the umpire), two
browser contexts, set up and played by clicking through Turn 8: the launch, a scout's
route handed in hex by hex and flown by the umpire (18c1), the air strike, the battle and
the air return; each page shows its own side's Operations Card only (18b), and the
searched side hears nothing of the search."""

from __future__ import annotations

from typing import Any

import pytest

from browser.conftest import Server
from browser.games import HTTP
from browser.pages import SeatPage, pass_until, place_by_clicking
from browser.test_play import LAPTOP

pytestmark = pytest.mark.browser

SEED = 10  # Turn 8: the US is Side B


def test_18_double_blind_scenario_one_through_a_turn(
    browser: Any, server: Server, artifacts: Any
) -> None:
    r = HTTP.post(
        f"{server.url}/api/games",
        json={"scenario": "one", "mode": "double-blind", "seed": SEED},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    links = {s["seat"]: server.url + s["url"] for s in body["seats"]}
    assert set(links) == {"japan", "usa"}  # 18: no umpire's seat, the server umpires
    contexts = [browser.new_context(viewport=LAPTOP) for _ in range(2)]
    try:
        jp = SeatPage(contexts[0].new_page(), links["japan"], artifacts).open()
        us = SeatPage(contexts[1].new_page(), links["usa"], artifacts).open()
        pages = {"japan": jp, "usa": us}
        try:
            set_up(jp, us)
            pass_until(pages, "assembly", turn=8)
            launch(jp, us)
            pass_until(pages, "scout routes", turn=8)
            scout_route(jp, us)
            strike(jp, us)
            battle(jp, us)
            air_return(jp, us)
        except Exception:
            jp.shot("FAILED")
            us.shot("FAILED")
            raise
        assert jp.errors == [] and us.errors == []
    finally:
        for c in contexts:
            c.close()


def private_cards(us: SeatPage, jp: SeatPage, fought: bool = False) -> None:
    """18b: neither page shows the enemy's Operations Card; 18c2: after the battle, only
    the enemy units the umpire reported on, those it fought."""
    told_us = set(us.keys("#r-cards .card.japan [data-key^='u:japan:']"))
    told_jp = set(jp.keys("#r-cards .card.usa [data-key^='u:usa:']"))
    assert told_us <= ({"u:japan:Akagi"} if fought else set()), told_us
    assert told_jp <= ({f"u:usa:{u}" for u in ("B3", "B5", "T3")} if fought else set()), told_jp


def set_up(jp: SeatPage, us: SeatPage) -> None:
    place_by_clicking(jp, us)
    private_cards(us, jp)


def launch(jp: SeatPage, us: SeatPage) -> None:
    """3a, 18c1: both sides at once; the US launches O, B3, B5 and T3; Japan, not shown
    the US card, sees nothing of it."""
    jp.synced()
    assert jp.view()["prompt"]["actions"] and us.view()["prompt"]["actions"]
    for unit in ("O", "B3", "B5", "T3"):
        us.pick(f'#r-cards [data-key="u:usa:{unit}"]')
        us.target('#r-cards [data-tkey="box:usa:TF17:strike"]')
    jp.synced()
    assert "launched 4 of 4" not in jp.text("#r-cards") and "B5" not in jp.text("#r-log")
    private_cards(us, jp)
    us.done()


def scout_route(jp: SeatPage, us: SeatPage) -> None:
    """18c1: the scout's whole route handed in by clicking hexes; the umpire flies it once
    both sides are done, and reports the Mobile Force in J2 to the US only."""
    us.synced()
    assert "Scout routes" in us.text("#r-prompt")
    for h in ("K2", "J2"):
        us.pick('#r-searchboard [data-key="g:usa:O"]')
        us.target(f'#r-searchboard [data-tkey="sb:{h}"]')
    assert us.view()["searchboard"]["routes"] == {"O": ["K2", "J2"]}
    assert us.page.locator("#r-searchboard polyline.path").count() >= 1
    us.shot("route")
    us.done()
    jp.synced()
    # nothing of the US route (night Turn 7's own line, its scout routes passed, apart: 3a1)
    told = [ln for ln in jp.text("#r-log").splitlines() if "routes" in ln.lower()]
    assert all(ln.startswith("T7 Japan") and "K2" not in ln for ln in told), told
    jp.done()
    us.synced()
    us.page.wait_for_selector(
        '#r-searchboard [data-key="seen:japan:MobileForce"]', state="attached"
    )
    assert us.view()["searchboard"]["flying"]["O"]["hex"] == "J2"
    jp.synced()
    assert not jp.page.locator('#r-searchboard [data-tkey="sb:J2"].enemy-searched').count()
    assert "J2" not in jp.text("#r-log") and "K2" not in jp.text("#r-log")
    us.shot("spotted")


def strike(jp: SeatPage, us: SeatPage) -> None:
    """After the scouts, the air strikes: Side B (the US) first."""
    assert us.view()["step"] == "air movement and search"
    for h in ("K2", "J2"):
        us.pick('#r-searchboard [data-key="g:usa:L2-strike"]')
        us.target(f'#r-searchboard [data-tkey="sb:{h}"]')
    us.done()
    jp.synced()
    jp.done()


def battle(jp: SeatPage, us: SeatPage) -> None:
    """4a-4d in J2, fought on the Battleboard both see; the dice are the umpire's (18c2)."""
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
    us.choose("T3 approaches Akagi from I11")
    jp.synced()
    jp.pick('#r-battle svg [data-key="u:japan:Akagi"]')
    jp.target('#r-battle [data-key="u:usa:B5"]')  # in the stack of B3 and B5 on Akagi
    jp.choose("Fire the anti-aircraft combat")
    jp.shot("aa-fired")
    jp.synced()
    assert " vs " not in jp.text("#r-dice")  # 18c2: the firing side is told no dice
    us.synced()
    assert "Anti-aircraft (4c): Akagi at B5" in us.text("#r-dice")  # its own unit's damage
    jp.done()
    us.synced()
    us.choose("Bomb Akagi: dive bombing")
    us.shot("bombed")
    pass_until({"japan": jp, "usa": us}, "air return")


def air_return(jp: SeatPage, us: SeatPage) -> None:
    """5a with 18c3: the US lands what is still flying on Yorktown; then Turn 9."""
    us.synced()
    for unit in sorted(us.view()["searchboard"]["flying"]):
        us.pick(f'#r-cards .card.usa [data-key="u:usa:{unit}"]')
        us.target('#r-cards [data-tkey="box:usa:Yorktown:arming"]')
    pass_until({"japan": jp, "usa": us}, "assembly", turn=9)
    for p in (jp, us):
        p.synced()
        assert "Turn 9" in p.text("#r-status")
    assert "Yorktown" not in jp.text("#r-log")  # 18b: where the US lands is its own
    private_cards(us, jp, fought=True)
    us.shot("turn9")
    jp.shot("turn9")
