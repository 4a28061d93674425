"""17 in Chromium: a four-player team game of Scenario Three made from the home page's
form ("Two players a side"), one browser context per player, played by clicking through
Turn 9.

- 17c1: before play the two American players talk on their side's own channel; neither
  Japanese page ever shows it. Once play starts the channel is closed.
- 17a, 17b, 17c2: each player sets up only his own task forces and names his flagship.
- 17c3: at Turn 7 Task Force 16 writes a radio note to his teammate; the sender rolls
  lower than the enemy, so it is delivered late, at the start of Turn 9, not 8.
- 17c4: Japan is told the sender's flagship hex, never the note.
- The Turns are clicked through on the four pages until Turn 10 begins.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser.conftest import Server
from browser.games import HTTP
from browser.pages import TIMEOUT_MS, SeatPage, acting, seats_from_home

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 900}
SEED = 1  # the first radio note of Turn 7 rolls 1 against 6: delivered at Turn 9, not 8
SETUP = {
    "usa-tf16": ({"TF16": "N3"}, "Enterprise"),
    "usa-tf17": ({"TF17": "N4"}, "Yorktown"),
    "japan-i": ({"MobileForce": "H2"}, "Akagi"),
    "japan-vi": ({"EscortForce": "C9", "SecondFleet": "F8"}, "Kongo"),
}
PLAN = "I take the carriers north"  # 17c1: on the side's channel, before play
NOTE = "TF 16 strikes Mobile Force at first light"  # 17c3: by radio, at Turn 7
JAPAN = ("japan-i", "japan-vi")


def events(page: SeatPage) -> list[dict[str, Any]]:
    game, token = page.parts["game"], page.parts["token"]
    r = HTTP.get(f"{page.base}/api/games/{game}/log", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()
    return found


def offered(page: SeatPage) -> list[str]:
    """The chat's channels the page offers now."""
    page.page.wait_for_selector("#chat-to[data-offered]", state="attached", timeout=TIMEOUT_MS)
    return page.page.eval_on_selector_all("#chat-to option", "os => os.map(o => o.textContent)")


def click_through(pages: dict[str, SeatPage], turn: int, step: str = "radio") -> None:
    """Each player whose move it is clicks Done on his own page (or brings in a task force
    due to enter, 3c), until `step` of `turn`."""
    for _ in range(200):
        found = acting(pages)
        assert found is not None, "nobody may act"
        page, view = found
        if view["step"] == step and view["turn"] == turn:
            return
        page.synced()
        acts = view["prompt"]["actions"]
        if {"kind": "done"} in acts:
            page.done()
            continue
        [entry, *_] = [a for a in acts if a["kind"] == "enter"]  # 3c: a force due to enter
        page.pick(f'#act .subject[data-key="tf:{view["viewer"]["side"]}:{entry["force"]}"]')
        page.target(f'#r-searchboard [data-tkey="sb:{entry["hex"]}"]')
    raise AssertionError(f"Turn {turn}'s {step} step never came")


def side_channel(pages: dict[str, SeatPage]) -> None:
    """17c1: Task Force 16 writes on the US side's channel; Task Force 17 reads it."""
    tf16, tf17 = pages["usa-tf16"], pages["usa-tf17"]
    assert offered(tf16) == ["Everyone", "My side only"]
    tf16.page.select_option("#chat-to", label="My side only")
    tf16.page.fill("#chat-text", PLAN)
    tf16.page.click("#chat-form button[type=submit]")
    tf16.page.wait_for_selector(f"#chat-log li:has-text({PLAN!r})", timeout=TIMEOUT_MS)
    tf17.page.wait_for_selector(
        f"#chat-log li:has-text('(to your side): {PLAN}')", timeout=TIMEOUT_MS
    )
    tf17.page.locator("#between").screenshot(path=str(tf17.folder / "side-channel.png"))


def set_up(pages: dict[str, SeatPage]) -> None:
    """17a, 17b: each player is offered his own task forces only, places them and names
    his flagship (17c2), by clicking."""
    for seat, (forces, flagship) in SETUP.items():
        page = pages[seat]
        subjects = page.keys("#act .subject")
        side = seat.split("-")[0]
        others = [m for s, (f, _) in SETUP.items() if s != seat and s.startswith(side) for m in f]
        assert all(f"tf:{side}:{m}" in subjects for m in forces), subjects
        assert not [m for m in others if f"tf:{side}:{m}" in subjects], subjects
        for marker, hex_ in forces.items():
            page.pick(f'#act .subject[data-key="tf:{side}:{marker}"]')
            page.target(f'#r-searchboard [data-tkey="sb:{hex_}"]')
        # issue 30: a choice of the prompt bar itself, not one behind the ship's counter
        named = f"Name {flagship} your flagship"
        assert page.page.locator("#act .choices[data-for] button", has_text=named).count() == 0
        page.synced()
        page.choose(f"{named} (17c2)")
        page.done()


def radio_note(pages: dict[str, SeatPage]) -> None:
    """17c3: the note is written on the page and sent; 17c4: Japan hears the flagship."""
    tf16, tf17 = pages["usa-tf16"], pages["usa-tf17"]
    tf16.page.fill(".radio-note textarea", NOTE)
    before = tf16.version()
    tf16.page.click(".radio-note button[type=submit]")
    tf16.page.wait_for_function(
        "v => Number(document.getElementById('r-prompt').dataset.v) > v", arg=before
    )
    [sent] = [e for e in events(pages["japan-i"]) if e["kind"] == "radio"]
    assert (sent["written"], sent["delivery"], sent["roll"], sent["against"]) == (7, 9, 1, 6)
    tf16.synced()
    assert NOTE in tf16.text(".radio") and "due at the start of Turn 9" in tf16.text(".radio")
    tf17.synced()
    assert "From Task Force 16" in tf17.text(".radio") and NOTE not in tf17.text("body")
    for seat in JAPAN:  # 17c4: the flagship's hex, never the note
        pages[seat].synced()
        assert "flagship is in N3 (17c4)" in pages[seat].text("#r-log")
    tf16.shot("note-sent", ".radio")


def never_told(pages: dict[str, SeatPage]) -> None:
    """17c1, 17c3: neither Japanese page holds the US side's talk, in any form."""
    for seat in JAPAN:
        html = pages[seat].page.content()
        assert PLAN not in html and NOTE not in html, seat
        assert "carriers north" not in html and "first light" not in html, seat


def test_17_four_players_through_turn_9_with_the_side_channel_and_a_radio_note(
    server: Server, browser: Any, artifacts: Any
) -> None:
    viewports = dict.fromkeys(SETUP, LAPTOP)
    with seats_from_home(
        browser, server.url, artifacts, viewports, "three", teams=True, seed=SEED
    ) as table:
        links, pages = table.links, table.pages
        tf16, tf17 = pages["usa-tf16"], pages["usa-tf17"]
        side_channel(pages)
        never_told(pages)
        set_up(pages)
        view = tf16.synced()
        assert view["status"] == "playing" and view["step"] == "radio" and view["turn"] == 7
        assert tf17.synced()["searchboard"]["forces"] == {"TF16": "N3", "TF17": "N4"}
        # 17c3: from the first Turn, the side's channel is closed
        tf16.page.wait_for_function(
            "() => !document.getElementById('chat-to').dataset.offered.includes('side:')",
            timeout=TIMEOUT_MS,
        )
        assert "My side only" not in offered(tf16)

        radio_note(pages)
        never_told(pages)

        # the Turns, played through on the four pages; at Turn 8 the note is still out
        click_through(pages, 8)
        tf17.synced()
        assert NOTE not in tf17.page.content()
        assert "due at the start of Turn 9" in tf17.text(".radio")
        click_through(pages, 9)
        tf17.synced()
        assert NOTE in tf17.text(".radio") and NOTE in tf17.text("#r-log")
        tf17.shot("note-delivered", ".radio")
        never_told(pages)

        # Turn 9 to its end: Turn 10 begins on every page
        click_through(pages, 10)
        for page in pages.values():
            page.synced()
            assert "Turn 10" in page.text("#r-status"), page.seat
        never_told(pages)
        for page in pages.values():
            html = page.page.content()
            assert not [s for s, link in links.items() if token(link) in html and s != page.seat]
            assert not page.errors, page.errors
        pages["japan-i"].shot("turn-10", "#r-log")


def token(link: str) -> str:
    return link.split("#token=")[1]
