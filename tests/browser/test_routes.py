"""The page routes over plain HTTP: refusals are 4xx with words for people, never 5xx,
and nothing on a page is cached or framed, or loaded from another host."""

from __future__ import annotations

import pytest

from browser.conftest import Server
from browser.games import HTTP, ApiGame


@pytest.fixture
def game(server: Server) -> ApiGame:
    return ApiGame.create(server.url)


def test_home_creates_a_game_and_gives_one_link_per_seat(server: Server) -> None:
    posted = HTTP.post(f"{server.url}/games", data={"scenario": "one", "mode": "two-player"})
    assert posted.status_code == 303  # Post/Redirect/Get: the created page is its own URL
    r = HTTP.get(server.url + posted.headers["location"])
    assert r.status_code == 200
    assert r.text.count('class="seat-link"') == 2 and "/replay" in r.text
    assert HTTP.get(f"{server.url}/games/0123456789abcdef/created").status_code == 404
    assert r.headers["cache-control"] == "no-store"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    bad = HTTP.post(f"{server.url}/games", data={"scenario": "nine"})
    assert bad.status_code == 422 and "The game was not created" in bad.text
    seed = HTTP.post(f"{server.url}/games", data={"scenario": "one", "seed": "x1"})
    assert seed.status_code == 422 and "seed" in seed.text


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("version=1&action=%7B%22kind%22%3A%22done%22%7D", 422),  # 7a2.2: place first
        ("version=99&action=%7B%22kind%22%3A%22done%22%7D", 409),
        ("version=1&action=not-json", 422),
        ("version=x&action=%7B%7D", 422),
        ("version=1&action=%5B1%5D", 422),
        ("version=1&action=%7B%22kind%22%3A%22launch%22%7D", 422),
        ("", 422),
        ("\x00\xff", 422),
    ],
)
def test_hostile_clicks_are_refused_in_words(game: ApiGame, body: str, status: int) -> None:
    r = HTTP.post(
        f"{game.base}/games/{game.id}/act",
        content=body.encode("latin-1"),
        headers={**game.auth("usa"), "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == status, r.text
    assert 'id="flash"' in r.text and "Traceback" not in r.text


@pytest.mark.parametrize(
    ("method", "path", "token", "status"),
    [
        ("GET", "/games/{id}/regions", None, 401),
        ("GET", "/games/{id}/regions", "nope", 401),
        ("GET", "/games/0000000000000000/regions", "nope", 404),
        ("GET", "/games/not-an-id/regions", "nope", 404),
        ("POST", "/games/{id}/act", None, 401),
        ("POST", "/games/{id}/why", None, 401),
        ("POST", "/games/{id}/why", "nope", 401),
        ("GET", "/games/{id}/log", "nope", 401),
        ("GET", "/games/{id}/seat/umpire", None, 404),
        ("GET", "/games/..%2F..%2Fetc/seat/usa", None, 404),
        ("GET", "/static/..%2Fapp.py", None, 404),
        ("GET", "/static/.hidden", None, 404),
        ("GET", "/static/nothing.js", None, 404),
    ],
)
def test_refusals_are_4xx(
    game: ApiGame, method: str, path: str, token: str | None, status: int
) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = HTTP.request(method, game.base + path.format(id=game.id), headers=headers)
    assert r.status_code == status, r.text


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("subject=TF17&owner=usa&hex=C5", 200, "not in C5 (7b2)"),
        ("subject=TF17&owner=usa&hex=L5", 200, "makes a legal move"),
        ("hex=L5&unit=Yorktown", 422, "a hex or to a unit"),
        ("subject=" + "x" * 41, 422, "short word"),
        ("\x00\xff", 200, "pick one of your counters"),
    ],
)
def test_issue13_why_a_click_does_nothing_is_answered_in_words(
    game: ApiGame, body: str, status: int, words: str
) -> None:
    """Issue 13: the page asks why a click makes no legal action; the rules answer, or a
    click that is not well formed is refused in words (never a 500); nothing changes."""
    before = game.view("usa")["version"]
    r = HTTP.post(
        f"{game.base}/games/{game.id}/why",
        content=body.encode("latin-1"),
        headers={**game.auth("usa"), "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == status, r.text
    assert 'id="flash"' in r.text and words in r.text and "Traceback" not in r.text
    assert game.view("usa")["version"] == before


def test_static_files_are_compressed_and_kept(server: Server) -> None:
    home = HTTP.get(server.url + "/").text
    src = home.split('href="/static/midway.css')[1].split('"')[0]
    r = HTTP.get(f"{server.url}/static/midway.css{src}")
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert "immutable" in r.headers["cache-control"]
    assert r.headers["content-type"].startswith("text/css")


def test_17a_home_creates_a_team_game_with_one_link_per_player(server: Server) -> None:
    """17a: with teams, Scenario Three gives four links, each naming its command; a seat
    page exists for each seat the engine declares, and for no other."""
    home = HTTP.get(server.url + "/").text
    assert 'name="teams"' in home and "Scenario Three" in home
    r = HTTP.post(
        f"{server.url}/games", data={"scenario": "three", "mode": "two-player", "teams": "1"}
    )
    assert r.status_code == 303, r.text
    fragment = dict(pair.split("=") for pair in r.headers["location"].split("#")[1].split("&"))
    assert sorted(fragment) == ["japan-i", "japan-vi", "usa-tf16", "usa-tf17"]
    created = HTTP.get(server.url + r.headers["location"].split("#")[0]).text
    assert created.count('class="seat-link"') == 4
    assert "Task Force 16 (United States)" in created and 'data-seat="japan-vi"' in created
    link = created.split('data-seat="usa-tf16" data-base="')[1].split('"')[0]
    link = link if link.startswith("http") else server.url + link
    page = HTTP.get(link)
    assert page.status_code == 200 and "Task Force 16 (United States)" in page.text
    assert HTTP.get(link.replace("usa-tf16", "usa")).status_code == 404
    refused = HTTP.post(f"{server.url}/games", data={"scenario": "one", "teams": "1"})
    assert refused.status_code == 422 and "(17)" in refused.text


@pytest.mark.parametrize(
    ("options", "missing"), [(["16f5"], "16"), (["16k"], "16"), (["15b", "15a"], "14")]
)
def test_an_option_without_the_option_it_needs_is_refused_naming_both(
    server: Server, options: list[str], missing: str
) -> None:
    """15b needs 14 (15b: "only used if option 14 is also used"); 16f5 and 16k are parts
    of the surface combats of 16: refused by the form and by the API alike."""
    form = HTTP.post(f"{server.url}/games", data={"scenario": "one", "options": options})
    assert form.status_code == 422
    needing = next(o for o in options if o != "15a")
    assert f"optional rule {needing}" in form.text and f"needs optional rule {missing}" in form.text
    api = HTTP.post(f"{server.url}/api/games", json={"scenario": "one", "options": options})
    assert api.status_code == 422 and f"needs optional rule {missing}" in api.text
    ok = HTTP.post(f"{server.url}/games", data={"scenario": "one", "options": [*options, missing]})
    assert ok.status_code == 303


def test_scenario_four_brings_16_and_the_created_and_seat_pages_show_the_options(
    server: Server,
) -> None:
    """7e: Scenario Four requires option 16, so 16f5 alone is enough there; the options in
    play are on the created page and on the seat page's status."""
    r = HTTP.post(f"{server.url}/games", data={"scenario": "four", "options": ["16f5"]})
    assert r.status_code == 303, r.text
    page = HTTP.get(server.url + r.headers["location"]).text
    assert "<strong>16</strong> Surface combats" in page
    assert "<strong>16f5</strong> Japanese torpedo reloads" in page
    game = r.headers["location"].split("/")[2]
    token = r.headers["location"].split("japan=")[1].split("&")[0]
    regions = HTTP.get(
        f"{server.url}/games/{game}/regions", headers={"Authorization": f"Bearer {token}"}
    )
    assert "Optional rules: 16, 16f5" in regions.text
    basic = HTTP.post(f"{server.url}/games", data={"scenario": "one"})
    shown = HTTP.get(server.url + basic.headers["location"]).text
    assert "none (the basic game)" in shown
