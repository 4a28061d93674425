"""Issue 34 in Chromium: a seat page kept live by what changed in its regions (htmx's
out-of-band swaps of the socket's <template>s, as midway.js unwraps them: SVG parsed as
SVG) holds, after dozens of actions, the same document a page loaded fresh at that
version holds, region by region (version stamps aside, and the whitespace a removed
element leaves). Both seats of a game of Scenario One and of Coral Sea (the theatre map's
square zones), played with random legal actions over the API."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from live import Server

from app.web import render
from browser.games import HTTP, ApiGame
from browser.pages import SeatPage

pytestmark = pytest.mark.browser

DESK = {"width": 1366, "height": 900}
# Each region as the page holds it: the DOM (SVG in its namespace), without version
# stamps, swap attributes and htmx's transient classes, whitespace-only text dropped and
# other whitespace runs one space.
REGIONS_NOW = """(ids) => {
  function norm(node) {
    if (node.nodeType === 3) {
      const t = node.nodeValue.replace(/\\s+/g, " ");
      return t.trim() ? t : "";
    }
    if (node.nodeType !== 1) return "";
    const attrs = [...node.attributes]
      .filter(a => a.name !== "data-v" && a.name !== "hx-swap-oob")
      .map(a => a.name === "class"
        ? [a.name, a.value.split(/\\s+/).filter(c => c && !c.startsWith("htmx-")).join(" ")]
        : [a.name, a.value])
      .filter(([n, v]) => n !== "class" || v)
      .sort()
      .map(([n, v]) => `${n}="${v}"`).join(" ");
    const ns = node.namespaceURI === "http://www.w3.org/2000/svg" ? "svg:" : "";
    const kids = [...node.childNodes].map(norm).join("");
    return `<${ns}${node.localName} ${attrs}>${kids}</${node.localName}>`;
  }
  const out = {};
  for (const id of ids) {
    const el = document.getElementById(id);
    out[id] = el ? norm(el) : null;
  }
  return out;
}"""
IDS = [f"r-{name}" for name in render.REGIONS]


def act_at_random(game: ApiGame, rng: random.Random) -> bool:
    """One legal action of a seat asked to act, chosen at random; False once none is."""
    views = {s: game.view(s) for s in game.tokens}
    ready = [s for s, v in views.items() if v["prompt"]["actions"]]
    if not ready:
        return False
    seat = rng.choice(sorted(ready))
    action = rng.choice(views[seat]["prompt"]["actions"])
    r = HTTP.post(
        f"{game.base}/api/games/{game.id}/actions",
        json={"version": views[seat]["version"], "action": action},
        headers=game.auth(seat),
    )
    assert r.status_code == 200, (action, r.text)
    return True


def same_as_fresh(live: SeatPage, fresh: SeatPage) -> int:
    """The live page and a page loaded now hold the same regions; how many templates the
    live page was sent is not known here: the count of regions compared."""
    view = live.synced()
    fresh.page.reload()
    fresh.live()
    fresh.synced()
    assert fresh.view()["version"] == view["version"]
    now = live.page.evaluate(REGIONS_NOW, IDS)
    loaded = fresh.page.evaluate(REGIONS_NOW, IDS)
    for region in IDS:
        assert now[region] == loaded[region], (live.seat, view["version"], region)
    return len(IDS)


@pytest.mark.parametrize("scenario", ["one", "coral-sea"])
def test_34_a_live_page_patched_for_dozens_of_actions_is_the_page_loaded_fresh(
    browser: Any, server: Server, artifacts: Path, scenario: str
) -> None:
    game = ApiGame.create(server.url, scenario=scenario, seed=34)
    rng = random.Random(34)
    contexts = [browser.new_context(viewport=DESK) for _ in range(2)]
    live = {s: SeatPage(contexts[0].new_page(), game.link(s), artifacts) for s in game.tokens}
    fresh = {s: SeatPage(contexts[1].new_page(), game.link(s), artifacts) for s in game.tokens}
    templates: list[int] = []

    def counted(frame: Any) -> None:
        templates.append(str(frame).count("<template"))

    for page in live.values():
        page.page.on("websocket", lambda ws: ws.on("framereceived", counted))
    try:
        for page in [*live.values(), *fresh.values()]:
            page.open()
        compared = 0
        for n in range(1, 61):
            if not act_at_random(game, rng):
                break
            for page in live.values():
                page.synced()
            if n % 15 == 0:
                for seat in live:
                    compared += same_as_fresh(live[seat], fresh[seat])
        assert compared >= 4 * len(IDS)
        assert sum(templates) > 50, "what changed was sent, not the regions whole"
        for page in [*live.values(), *fresh.values()]:
            assert not page.errors, page.errors
    finally:
        for c in contexts:
            c.close()
