"""Issue 30, battles in view: every battle ends with its result on both seats' pages (the
Dice panel: what attacked what, the dice, the hits, what was lost), made from each seat's
own log - in double-blind only what the reports told the side; a base raid's Battleboard
names the base it attacks, and its dice (the base's AA dice, the knockout die, Bases 3-4)
are in the Dice panel. Element screenshots of both pages go to test-artifacts/browser/."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from live import Server

from browser.games import HTTP, ApiGame
from browser.pages import SeatPage
from browser.test_play import LAPTOP
from browser.theatre import BOMBERS, DESK, RABAUL, done_until, set_up_by_clicking

pytestmark = pytest.mark.browser


BEFORE_BATTLE = ("scout routes", "scouting", "air movement and search", "search report")


def fight_on(game: ApiGame, until: str = "reorganization") -> None:
    """Both sides take legal actions (any offered, Done when none else) until the battle
    is over: the `until` step, or the Air Return."""
    rng = random.Random(3)
    for _ in range(200):
        views = {s: game.view(s) for s in ("usa", "japan")}
        if any(v["step"] in (until, "air return") for v in views.values()):
            return
        seat = next(s for s, v in views.items() if v["prompt"]["actions"])
        acts = [a for a in views[seat]["prompt"]["actions"] if a["kind"] != "done"]
        if views[seat]["step"] in BEFORE_BATTLE:
            acts = []  # flown where they fight: no flying on, no searching
        game.act(seat, **(rng.choice(acts) if acts else {"kind": "done"}))
    raise AssertionError("the battle did not end")


IN_SIGHT = """() => {
  const below = document.getElementById("r-prompt").getBoundingClientRect().bottom;
  return Array.from(document.querySelectorAll("#r-battle svg .piece")).some(p => {
    const r = p.getBoundingClientRect();
    return r.top >= below && r.bottom <= innerHeight;
  });
}"""


def element_shot(page: SeatPage, selector: str, name: str) -> None:
    path = page.folder / f"{page.seat}-{name}.png"
    page.folder.mkdir(parents=True, exist_ok=True)
    page.page.locator(selector).screenshot(path=str(path))
    page.shots.append(path)


def result_from_own_log(page: SeatPage, hex_: str) -> list[str]:
    """The battle's result panel: there, and every line of it a line of the seat's log."""
    page.synced()
    panel = page.page.locator(f'#r-dice .battle-result[data-hex="{hex_}"]')
    assert panel.count() == 1, page.text("#r-dice")
    items = [t.strip() for t in panel.locator("li").all_inner_texts()]
    log = page.text("#r-log")
    assert items and all(t in log for t in items if t != "Nothing you were told of."), items
    return items


def open_pages(browser: Any, game: ApiGame, artifacts: Path) -> dict[str, SeatPage]:
    return {
        s: SeatPage(browser.new_context(viewport=LAPTOP).new_page(), game.link(s), artifacts).open()
        for s in ("usa", "japan")
    }


def test_issue_30_two_player_battle_result_on_both_pages(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """4a-4e in J2 (the strike flown there by destination): both pages show the result -
    the anti-aircraft fire and the bombing, with their outcomes."""
    game = ApiGame.create(server.url)
    game.set_up()
    game.to_air_movement()
    game.to_anti_aircraft()
    fight_on(game)
    pages = open_pages(browser, game, artifacts)
    for seat, page in pages.items():
        items = result_from_own_log(page, "J2")
        joined = " ".join(items)
        assert "Anti-aircraft (4c)" in joined and "(4d)" in joined, joined
        element_shot(page, "#r-dice", "battle-result")
        assert page.errors == [], seat


def test_issue_30_double_blind_battle_result_is_what_the_side_was_told(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """18c2 in double-blind: each page's result is its own log's - the US hears of its
    bombing by the umpire's report, Japan of the attack on its ships."""
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
    game.act("usa", kind="route-to", unit="O", hex="J2")
    game.act("usa", kind="done")
    game.act("japan", kind="done")
    game.pass_until("air movement and search")
    game.act("usa", kind="fly-to", group="L2-strike", hex="J2")
    fight_on(game)
    pages = open_pages(browser, game, artifacts)
    told = {seat: result_from_own_log(page, "J2") for seat, page in pages.items()}
    for seat, page in pages.items():
        element_shot(page, "#r-dice", "battle-result")
        assert page.errors == [], seat
    assert told["usa"] != told["japan"] or told["usa"] == ["Nothing you were told of."]


def test_issue_30_base_raid_names_the_base_and_rolls_in_the_dice_panel(
    browser: Any, server: Server, artifacts: Path
) -> None:
    """Coral Sea: Port Moresby's B-17s raid Rabaul (Bombers 4, Bases 3-4). The Battleboard
    says they attack Rabaul; the raid's dice (Rabaul's AA dice, the knockout die) are in
    both Dice panels, and its result on both pages."""
    game = ApiGame.create(server.url, scenario="coral-sea", seed=1)
    contexts = {s: browser.new_context(viewport=DESK) for s in ("usa", "japan")}
    pages = {s: SeatPage(c.new_page(), game.link(s), artifacts).open() for s, c in contexts.items()}
    us = pages["usa"]
    set_up_by_clicking(pages)
    done_until(pages, "usa", "assembly", "launch")
    for unit in BOMBERS:
        game.act("usa", kind="launch", unit=unit)
    done_until(pages, "usa", "air movement and search", "fly")
    strike = next(a["group"] for a in us.view()["prompt"]["actions"] if a["kind"] == "fly")
    game.act("usa", kind="fly-to", group=strike, hex=RABAUL)
    for page in pages.values():  # a short screen: the Battleboard's units below the fold
        page.page.set_viewport_size({"width": DESK["width"], "height": 560})
    done_until(pages, "japan", "battle setup", "face")
    game.act("japan", kind="face", direction="N")
    game.act("japan", kind="formation")
    done_until(pages, "usa", "air attack setup", "target")
    game.act("usa", kind="target", unit=BOMBERS[0], target="Rabaul")
    for page in pages.values():
        page.synced()
        header = page.text("#r-battle")
        assert "air units attack Rabaul" in header, header[:300]
    for page in pages.values():  # the units in play scrolled into sight, below the prompt
        assert page.page.evaluate(IN_SIGHT), page.seat
    element_shot(us, "#r-battle", "base-raid-board")
    for unit in BOMBERS[1:]:
        game.act("usa", kind="target", unit=unit, target="Rabaul")
    fight_on(game)
    for page in pages.values():
        page.synced()
        dice = page.text("#r-dice")
        assert "No combat dice yet" not in dice, dice
        assert "Attack on Rabaul (Bombers 4)" in dice, dice
        assert "Japan's AA fire (Bases 4): 4 dice, hits" in dice, dice
        result_from_own_log(page, RABAUL)
        element_shot(page, "#r-dice", "base-raid-dice")
        assert page.errors == []
    for c in contexts.values():
        c.close()
