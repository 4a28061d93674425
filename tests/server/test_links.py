"""Links from configuration, never from the request (issue 16): the created page's seat
links, and the kept seat's link when a game is opened in the lobby, are relative, or start
with MIDWAY_BASE_URL when it is set; a forged Host header changes nothing. Through real
HTTP on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from app.settings import Settings
from server.conftest import Server

FORGED = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
HREF = re.compile(r'href="([^"]*)"')


def created_page(url: str, route: str = "/games", **form: str) -> tuple[str, str]:
    """The creation's redirect (its Location) and the created page it leads to (with
    `route` "/games/open", the opening's and the opened page)."""
    r = httpx.post(f"{url}{route}", data={"scenario": "one", **form}, headers=FORGED)
    assert r.status_code == 303, r.text
    location = r.headers["location"]
    assert "evil.example" not in location
    path = location[location.index("/games/") :].split("#")[0]  # less the configured base
    page = httpx.get(url + path, headers=FORGED)
    assert page.status_code == 200 and "evil.example" not in page.text
    return location, page.text


def test_created_page_links_are_relative_whatever_the_host_header(server: Server) -> None:
    location, page = created_page(server.url)
    assert re.fullmatch(r"/games/[0-9a-f]{16}/created#japan=[\w-]+&usa=[\w-]+", location)
    links = [h for h in HREF.findall(page) if "/games/" in h]
    seat_links = [h for h in links if "/seat/" in h]
    assert len(seat_links) == 2  # their tokens are put in by created.js, from the fragment
    for href in links:
        assert href.startswith("/games/") or href.startswith("/api/games/"), href


def test_created_page_links_start_with_the_configured_base_url(
    make_server: Any, database_url: str
) -> None:
    base = "https://midway.example/play"
    server = make_server(database_url, MIDWAY_BASE_URL=base)
    location, page = created_page(server.url)
    assert location.startswith(base + "/games/")
    seat_links = [h for h in HREF.findall(page) if "/seat/" in h]
    assert len(seat_links) == 2
    assert all(h.startswith(base + "/games/") for h in seat_links), seat_links
    assert f'href="{base}/games/' in page and f'href="{base}/api/games/' in page


@pytest.mark.parametrize(
    "bad", ["evil.example", "javascript:alert(1)", "https://a.example/?x=1", "http://a b"]
)
def test_base_url_setting_must_be_an_http_address(bad: str) -> None:
    with pytest.raises(ValueError):
        Settings(base_url=bad)
    assert Settings(base_url="http://127.0.0.1:8000").base_url == "http://127.0.0.1:8000"


@pytest.mark.parametrize("base", ["", "https://midway.example/play"])
def test_lobby_page_seat_link_comes_from_the_configuration_not_the_host_header(
    make_server: Any, database_url: str, base: str
) -> None:
    """Opening a game in the lobby redirects to its own page (issue 13: a reload never
    opens another); the kept seat's link (its token in the redirect's fragment, for the
    creator's tab only) and the page's links never take the request's Host."""
    server = make_server(database_url, MIDWAY_BASE_URL=base)
    location, page = created_page(server.url, "/games/open", keep="japan")
    assert re.fullmatch(rf"{re.escape(base)}/games/[0-9a-f]{{16}}/opened#japan=[\w-]+", location)
    seat_links = [h for h in HREF.findall(page) if "/seat/" in h]
    assert len(seat_links) == 1 and seat_links[0].startswith(f"{base}/games/"), seat_links
    assert seat_links[0].endswith("/seat/japan") and "token" not in page
    assert "Free for anyone to join: usa" in page
    lobby = httpx.get(f"{server.url}/api/lobby").json()
    path = location[location.index("/games/") :].split("#")[0]
    assert httpx.get(server.url + path).status_code == 200  # a reload
    assert httpx.get(f"{server.url}/api/lobby").json() == lobby
