"""The README's screenshots: a seat page, a battle and a replay, taken in Chromium.

    .venv/bin/python -m tools.screenshots [folder]   (default docs/screenshots)

A server is started on a temporary SQLite database (seeds allowed); a Scenario One game
is played over the API to its air movement and its first battle, a second one with a
battle to its end, whose replay is stepped to that battle with both sides on one board;
the pages are shot at 1366 x 900 as a player would see them.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.conftest import CHROMIUM_ARGS, chromium_path
from browser.games import ApiGame
from live import Server

VIEWPORT = {"width": 1366, "height": 900}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    executable = chromium_path()
    if executable is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = Server(f"sqlite:///{folder}/midway.db", Path(folder) / "server.log").start()
        try:
            game = ApiGame.create(server.url)
            game.set_up()
            game.to_air_movement()
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport=VIEWPORT)

                def shot(url: str, name: str, ready: str, part: str | None = None) -> None:
                    page.goto(url)
                    page.wait_for_selector(ready)
                    if part is not None:  # scrolled to it, as the player would
                        centre = "e => e.scrollIntoView({block: 'center'})"
                        page.locator(part).first.evaluate(centre)
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
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
