"""The README's screenshots: a seat page, a battle, a replay, the umpire's console and the
theatre map, taken in Chromium.

    .venv/bin/python -m tools.screenshots [folder]   (default docs/screenshots)

A server is started on a temporary SQLite database (seeds allowed); a Scenario One game
is played over the API to its air movement and its first battle, a second one with a
battle to its end, whose replay is stepped to that battle with both sides on one board;
an umpired Scenario One game to the US scout's search of the Mobile Force's hex, its
reports waiting on the umpire's console (18c1); a Coral Sea game ("Pacific Theatre Via
Midway") set up, its Japanese forces at Rabaul; a Scenario One game against the computer
(issue 35: the strong computer plays the United States), the Japanese player's page some
Turns in. The pages are shot at 1366 x 900 as a player would see them.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.conftest import CHROMIUM_ARGS, chromium_path
from browser.games import HTTP, ApiGame
from live import Server

from app.rules.engine.steps import StepId

VIEWPORT = {"width": 1366, "height": 900}
COMPUTER_PAUSE = "2"  # seconds the server waits before each of the computer's moves
CORAL_SEA = {  # Starting Positions: the Invasion Force and its cover at Rabaul
    "japan": {
        "StrikingForce": "C2B",
        "CoveringGroup": "C2B",
        "InvasionForce": "C2B",
        "SupportGroup": "C2B",
    },
    "usa": {"TF17": "H7H", "TF44": "H7G"},
}


def umpired_game(base: str) -> ApiGame:
    """An umpired Scenario One game (18) at its first scout routes flown: scout O's route
    K2-J2 handed in and flown, its two spotting reports waiting for the umpire (18c1)."""
    r = HTTP.post(f"{base}/api/games", json={"scenario": "one", "mode": "umpired", "seed": 10})
    assert r.status_code == 201, r.text
    body = r.json()
    game = ApiGame(base, body["id"], {s["seat"]: s["token"] for s in body["seats"]})
    game.set_up()
    game.pass_until(StepId.ASSEMBLY, turn=8)
    game.act("usa", kind="launch", unit="O")
    game.act("usa", kind="done")
    game.pass_until(StepId.SCOUT_ROUTES, turn=8)
    for h in ("K2", "J2"):
        game.act("usa", kind="route", unit="O", hex=h)
    game.act("usa", kind="done")
    game.act("japan", kind="done")
    return game


def coral_sea_game(base: str) -> ApiGame:
    """A Coral Sea game set up (7a2.2): the Japanese forces at Rabaul, the Allied carriers
    off New Caledonia; the Turn's Assembly Step."""
    game = ApiGame.create(base, scenario="coral-sea", seed=1)
    for seat, forces in CORAL_SEA.items():
        for force, zone in forces.items():
            game.act(seat, kind="place", force=force, hex=zone)
        game.act(seat, kind="done")
    return game


def computer_game(base: str, turn: int = 8) -> ApiGame:
    """A Scenario One game whose United States the strong computer plays (issue 35): the
    Mobile Force placed in J2, then Done at every step (the computer moving meanwhile)
    until `turn`'s Assembly Step asks the Japanese player."""
    body = {"scenario": "one", "seed": 35, "computer": {"seats": ["usa"], "level": "strong"}}
    r = HTTP.post(f"{base}/api/games", json=body)
    assert r.status_code == 201, r.text
    game = ApiGame(base, r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]})
    game.act("japan", kind="place", force="MobileForce", hex="J2")
    game.act("japan", kind="done")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        view = game.view("japan")
        if not view["prompt"]["actions"]:
            time.sleep(0.2)  # the computer's move
        elif view["turn"] >= turn and view["step"] == StepId.ASSEMBLY:
            return game
        else:
            game.act("japan", kind="done")
    raise AssertionError(f"the game against the computer never reached Turn {turn}")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    executable = chromium_path()
    if executable is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = Server(
            f"sqlite:///{folder}/midway.db",
            Path(folder) / "server.log",
            {"MIDWAY_COMPUTER_PAUSE_SECONDS": COMPUTER_PAUSE},
        ).start()
        try:
            game = ApiGame.create(server.url)
            game.set_up()
            game.to_air_movement()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport=VIEWPORT)

                def shot(
                    url: str, name: str, ready: str, part: str | None = None, at: str = "center"
                ) -> None:
                    page.goto(url)
                    page.wait_for_selector(ready)
                    if part is not None:  # scrolled to it, as the player would
                        scroll = f"e => e.scrollIntoView({{block: '{at}'}})"
                        page.locator(part).first.evaluate(scroll)
                    page.screenshot(path=str(out / name))
                    print(out / name)

                shot(game.link("usa"), "seat-page.png", "#conn[data-state=live]")
                game.to_torpedo_approach()
                shot(game.link("usa"), "battle.png", "#r-battle svg", "#r-battle g.piece")
                done = ApiGame.create(server.url)  # a second game, with a battle, to its end
                done.set_up()
                done.to_air_movement()
                done.to_anti_aircraft()
                done.to_turn_nine()
                done.finish()
                page.goto(f"{server.url}/games/{done.id}/replay?seat=omniscient&at=0")
                page.wait_for_selector(".replay-nav .autoplay:not([hidden])")
                page.keyboard.press("]")  # the next battle, as a player steps to it
                page.wait_for_selector("#replay-at:has-text('battle 1')")
                shot(page.url, "replay.png", "#replay-at")
                umpired = umpired_game(server.url)
                waiting = "#r-umpire .draft"
                shot(umpired.link("umpire"), "umpire-console.png", waiting, "#r-umpire", "start")
                coral = coral_sea_game(server.url)
                live = "#conn[data-state=live]"
                shot(coral.link("japan"), "theatre-map.png", live, "#r-searchboard", "start")
                against = computer_game(server.url)
                page.goto(against.link("japan"))
                page.wait_for_selector(live)
                against.act("japan", kind="done")  # the computer's move, after its pause
                page.wait_for_selector("#prompt-text:has-text('the computer is thinking')")
                page.screenshot(path=str(out / "against-the-computer.png"))
                print(out / "against-the-computer.png")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
