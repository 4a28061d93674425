"""17 in Chromium: a four-player team game of Scenario Three, one browser context per
player. Each sets up only his own task forces and names his flagship (17a, 17b, 17c2),
the Turn is played through on the four pages, and a radio note (17c3) written at Turn 7
reaches its addressee late, at Turn 9, the sender having rolled lower than the enemy;
Japan is told the sender's flagship hex (17c4)."""

from __future__ import annotations

from typing import Any

from browser.conftest import Server
from browser.games import HTTP, ApiGame
from browser.pages import SeatPage, acting

LAPTOP = {"width": 1366, "height": 900}
SEED = 1  # the first radio note of Turn 7 rolls 1 against 6: delivered at Turn 9, not 8
SETUP = {
    "usa-tf16": ({"TF16": "N3"}, "Enterprise"),
    "usa-tf17": ({"TF17": "N4"}, "Yorktown"),
    "japan-i": ({"MobileForce": "H2"}, "Akagi"),
    "japan-vi": ({"EscortForce": "C9", "SecondFleet": "F8"}, "Kongo"),
}
NOTE = "TF 16 strikes Mobile Force at first light"


def events(game: ApiGame, seat: str) -> list[dict[str, Any]]:
    r = HTTP.get(f"{game.base}/api/games/{game.id}/log", headers=game.auth(seat))
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()
    return found


def click_through(pages: dict[str, SeatPage], turn: int) -> None:
    """Each player whose move it is clicks Done on his own page, until the radio step
    of `turn`."""
    for _ in range(200):
        found = acting(pages)
        assert found is not None, "nobody may act"
        page, view = found
        if view["step"] == "radio" and view["turn"] == turn:
            return
        page.synced()
        acts = view["prompt"]["actions"]
        if {"kind": "done"} in acts:
            page.done()
            continue
        [entry, *_] = [a for a in acts if a["kind"] == "enter"]  # 3c: a force due to enter
        page.pick(f'#act .subject[data-key="tf:{view["viewer"]["side"]}:{entry["force"]}"]')
        page.target(f'#r-searchboard [data-tkey="sb:{entry["hex"]}"]')
    raise AssertionError(f"Turn {turn}'s radio step never came")


def test_17_four_players_in_four_browsers_with_a_radio_note_delivered_late(
    server: Server, browser: Any, artifacts: Any
) -> None:
    r = HTTP.post(
        f"{server.url}/api/games", json={"scenario": "three", "teams": True, "seed": SEED}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    game = ApiGame(server.url, body["id"], {s["seat"]: s["token"] for s in body["seats"]})
    assert sorted(game.tokens) == sorted(SETUP)
    contexts = [browser.new_context(viewport=LAPTOP) for _ in SETUP]
    try:
        pages = {
            seat: SeatPage(c.new_page(), game.link(seat), artifacts).open()
            for c, seat in zip(contexts, SETUP, strict=True)
        }
        # 17a, 17b: each player is offered his own task forces only, and places them
        for seat, (forces, flagship) in SETUP.items():
            page = pages[seat]
            subjects = page.keys("#act .subject")
            side = seat.split("-")[0]
            others = [
                m for s, (f, _) in SETUP.items() if s != seat and s.startswith(side) for m in f
            ]
            assert all(f"tf:{side}:{m}" in subjects for m in forces), subjects
            assert not [m for m in others if f"tf:{side}:{m}" in subjects], subjects
            for marker, hex_ in forces.items():
                page.pick(f'#act .subject[data-key="tf:{side}:{marker}"]')
                page.target(f'#r-searchboard [data-tkey="sb:{hex_}"]')
            # issue 30: a choice of the prompt bar itself (in sight where there is room),
            # not one of the ship's behind its counter
            named = f"Name {flagship} your flagship"
            assert page.page.locator("#act .choices[data-for] button", has_text=named).count() == 0
            page.synced()
            page.choose(f"{named} (17c2)")
            page.shot("set-up")
            page.done()
        tf16, tf17 = pages["usa-tf16"], pages["usa-tf17"]
        view = tf16.synced()
        assert view["status"] == "playing" and view["step"] == "radio" and view["turn"] == 7
        assert tf17.synced()["searchboard"]["forces"] == {"TF16": "N3", "TF17": "N4"}

        # 17c3: the note is written on the page and sent
        tf16.page.fill(".radio-note textarea", NOTE)
        before = tf16.version()
        tf16.page.click(".radio-note button[type=submit]")
        tf16.page.wait_for_function(
            "v => Number(document.getElementById('r-prompt').dataset.v) > v", arg=before
        )
        [sent] = [e for e in events(game, "japan-i") if e["kind"] == "radio"]
        assert (sent["written"], sent["delivery"], sent["roll"], sent["against"]) == (7, 9, 1, 6)
        tf16.synced()
        assert NOTE in tf16.text(".radio") and "due at the start of Turn 9" in tf16.text(".radio")
        tf17.synced()
        assert "From Task Force 16" in tf17.text(".radio") and NOTE not in tf17.text("body")
        for seat in ("japan-i", "japan-vi"):  # 17c4: the flagship's hex, never the note
            pages[seat].synced()
            assert "flagship is in N3 (17c4)" in pages[seat].text("#r-log")
            assert NOTE not in pages[seat].page.content()
        tf16.shot("note-sent")
        tf17.shot("note-waiting")

        # the Turn, played through on the four pages; at Turn 8 the note is still out
        click_through(pages, 8)
        tf17.synced()
        assert NOTE not in tf17.page.content()
        assert "due at the start of Turn 9" in tf17.text(".radio")
        click_through(pages, 9)
        tf17.synced()
        assert NOTE in tf17.text(".radio") and NOTE in tf17.text("#r-log")
        tf17.shot("note-delivered")
        for seat in ("japan-i", "japan-vi"):
            assert NOTE not in pages[seat].page.content()
        for page in pages.values():
            html = page.page.content()
            assert not [s for s, t in game.tokens.items() if t in html and s != page.seat]
            assert not page.errors, page.errors
    finally:
        for c in contexts:
            c.close()
