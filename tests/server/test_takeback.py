"""Take-back (issue 14) over a live server on SQLite and PostgreSQL: a seat takes back its
own last actions while no die has been rolled and nothing revealed to anyone else since;
the other seats' views and versions never show it; across a roll it is a 422 naming the
rule, the game unchanged. Two processes: the other one's sockets and memory follow."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from server.client import Api, Game, apply_patch, receive
from server.conftest import Server


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def take_back(api: Api, game: Game, seat: str, version: int) -> httpx.Response:
    return api.http.post(
        f"/api/games/{game.id}/takeback", json={"version": version}, headers=game.auth(seat)
    )


def first(view: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(a for a in view["prompt"]["actions"] if a["kind"] == kind)


def act(api: Api, game: Game, seat: str, action: dict[str, Any]) -> dict[str, Any]:
    r = api.act(game, seat, api.view(game, seat)["version"], action)
    assert r.status_code == 200, r.text
    return api.view(game, seat)


def everything(api: Api, game: Game) -> dict[str, Any]:
    """What each seat can read: its view and its log."""
    out = {}
    for seat in ("japan", "usa"):
        log = api.http.get(f"/api/games/{game.id}/log", headers=game.auth(seat)).json()
        out[seat] = {"view": api.view(game, seat), "log": log}
    return out


def set_up(api: Api, game: Game) -> None:
    """Both sides place their task forces and say done (the last done rolls for Side A)."""
    for seat in ("japan", "usa"):
        for _ in range(3):
            view = api.view(game, seat)
            place = [a for a in view["prompt"]["actions"] if a["kind"] == "place"]
            placed = set(view["searchboard"]["forces"])
            todo = [a for a in place if a["force"] not in placed]
            if not todo:
                break
            act(api, game, seat, todo[0])
        act(api, game, seat, {"kind": "done"})


def test_7a2_2_a_setup_placement_taken_back_leaves_the_enemy_view_and_version(api: Api) -> None:
    """Japan places the Mobile Force, then takes it back: Japan's view is as before the
    placement, at a new version, and says nothing more can be taken back; the American
    view and version never changed."""
    game = api.create(seed=31)
    start = everything(api, game)
    assert start["japan"]["view"]["prompt"]["take_back"] is False
    placed = act(api, game, "japan", first(start["japan"]["view"], "place"))
    assert placed["prompt"]["take_back"] is True
    usa = api.view(game, "usa")
    assert usa == start["usa"]["view"] and usa["prompt"]["take_back"] is False

    r = take_back(api, game, "japan", placed["version"])
    assert r.status_code == 200, r.text
    assert r.json() == {"version": placed["version"] + 1}
    assert r.headers["cache-control"] == "no-store"
    now = everything(api, game)
    assert now["usa"] == start["usa"]
    japan = now["japan"]["view"]
    assert japan["version"] == placed["version"] + 1
    assert {**japan, "version": 1} == start["japan"]["view"]
    assert now["japan"]["log"] == start["japan"]["log"]


def test_a_take_back_from_under_the_enemys_unseen_setup_actions(api: Api) -> None:
    """Both sides set up at once (7a2.2): Japan places, the US places (Japan sees
    nothing of it), Japan takes back its placement: it may (the US action stays and
    stands), and neither the US view nor its version shows it."""
    game = api.create(seed=32)
    japan = act(api, game, "japan", first(api.view(game, "japan"), "place"))
    usa = act(api, game, "usa", first(api.view(game, "usa"), "place"))
    assert api.view(game, "japan") == japan, "the US placement is secret"
    before = everything(api, game)

    r = take_back(api, game, "japan", japan["version"])
    assert r.status_code == 200, r.text
    after = everything(api, game)
    assert after["usa"] == before["usa"]
    assert "MobileForce" not in after["japan"]["view"]["searchboard"]["forces"]
    assert after["usa"]["view"]["searchboard"]["forces"] == usa["searchboard"]["forces"]
    r = take_back(api, game, "usa", usa["version"])
    assert r.status_code == 200, r.text
    assert api.view(game, "usa")["searchboard"]["forces"] == {}
    assert api.view(game, "japan") == after["japan"]["view"]


def test_1c_a_done_the_enemy_saw_in_its_view_is_not_taken_back(api: Api) -> None:
    """7a2.2: Japan's setup Done (the US still setting up) shows in the American view
    (Waiting for the United States only). Something was seen by someone else: it is not
    offered back, a take-back is a 422 naming 1c, and nothing changes (issue 31: decided
    by what the other seats' views show, not by the events)."""
    game = api.create(seed=40)
    act(api, game, "japan", first(api.view(game, "japan"), "place"))
    usa_before = api.view(game, "usa")
    done = act(api, game, "japan", {"kind": "done"})
    usa_done = api.view(game, "usa")
    assert usa_done["version"] == usa_before["version"] + 1
    assert usa_done["prompt"]["waiting_for"] == ["usa"]
    assert done["prompt"]["take_back"] is False
    before = everything(api, game)
    r = take_back(api, game, "japan", done["version"])
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "1c" and "has seen it" in r.json()["detail"]
    assert everything(api, game) == before


def test_3c_a_sea_movement_taken_back_then_moved_elsewhere(api: Api) -> None:
    """3c: the side moving first moves a task force (secret, no die), takes the move back
    and moves it elsewhere; the other side's view and version never moved; after Done
    the move has passed (3) and a take-back is a 422 naming the rule."""
    game = api.create(seed=33)
    set_up(api, game)
    for _ in range(20):
        found = api.acting_seat(game)
        assert found is not None
        seat, view = found
        if view["step"] == "sea movement":
            break
        act(api, game, seat, {"kind": "done"})
    other = "japan" if seat == "usa" else "usa"
    watcher = everything(api, game)[other]
    moves = [a for a in view["prompt"]["actions"] if a["kind"] == "move"]
    moved = act(api, game, seat, moves[0])
    assert moved["prompt"]["take_back"] is True
    r = take_back(api, game, seat, moved["version"])
    assert r.status_code == 200, r.text
    back = api.view(game, seat)
    assert back["searchboard"]["forces"] == view["searchboard"]["forces"]
    assert {**back, "version": view["version"]} == view
    moved = act(api, game, seat, moves[-1])
    assert moved["searchboard"]["forces"][moves[-1]["force"]] == moves[-1]["hex"]
    assert everything(api, game)[other] == watcher
    done = act(api, game, seat, {"kind": "done"})
    assert done["prompt"]["take_back"] is False
    r = take_back(api, game, seat, done["version"])
    assert r.status_code == 422 and r.json()["rule"] == "3"
    assert "has the move now" in r.json()["detail"]


def test_1f_a_take_back_across_a_roll_is_422_naming_the_rule_and_the_game_unchanged(
    api: Api,
) -> None:
    """The last setup done rolls for Side A (1f): the US may not take it back, nor may
    Japan take back its own setup, which stood once the US saw its Done (1c). Each 422
    says why, with the rule; every view, version and log is as it was."""
    game = api.create(seed=34)
    set_up(api, game)
    before = everything(api, game)
    for seat, rule, why in (("usa", "1f", "a die was rolled"), ("japan", "1c", "has seen it")):
        r = take_back(api, game, seat, before[seat]["view"]["version"])
        assert r.status_code == 422, r.text
        body = r.json()
        assert body["rule"] == rule and why in body["detail"], body
        assert before[seat]["view"]["prompt"]["take_back"] is False
    assert everything(api, game) == before


def test_1c_an_action_the_enemy_has_seen_is_422(api: Api) -> None:
    """3b, 2c: a shift in the Ready Step is told to both sides; it stands."""
    game = api.create(seed=35)
    set_up(api, game)
    found = api.acting_seat(game)
    assert found is not None and found[1]["step"] == "ready"
    seat, view = found
    shift = next(a for a in view["prompt"]["actions"] if a["kind"] in ("arm", "ready"))
    shifted = act(api, game, seat, shift)
    before = everything(api, game)
    r = take_back(api, game, seat, shifted["version"])
    assert r.status_code == 422 and r.json()["rule"] == "1c"
    assert "has seen it (1c)" in r.json()["detail"]
    assert everything(api, game) == before


def test_take_back_refusals_stale_version_token_body_and_nothing(api: Api) -> None:
    """409 on a stale version (with the current one), 401 without or with another seat's
    game token, 404 for an unknown game, 422 for a bad body, 422 when the seat has done
    nothing yet; never a 500, the game unchanged."""
    game = api.create(seed=36)
    other = api.create(seed=37)
    start = everything(api, game)
    r = take_back(api, game, "japan", start["japan"]["view"]["version"])
    assert r.status_code == 422 and r.json()["detail"] == "nothing of yours to take back"
    placed = act(api, game, "japan", first(start["japan"]["view"], "place"))
    before = everything(api, game)
    r = take_back(api, game, "japan", placed["version"] - 1)
    assert r.status_code == 409 and r.json()["version"] == placed["version"]
    url = f"/api/games/{game.id}/takeback"
    assert api.http.post(url, json={"version": placed["version"]}).status_code == 401
    r = api.http.post(url, json={"version": placed["version"]}, headers=other.auth("japan"))
    assert r.status_code == 401
    r = api.http.post(
        "/api/games/0123456789abcdef/takeback", json={"version": 1}, headers=game.auth("japan")
    )
    assert r.status_code == 404
    for body in ({}, {"version": "2"}, {"version": 2, "undo": 3}, [], {"version": -1}):
        r = api.http.post(url, json=body, headers=game.auth("japan"))
        assert r.status_code == 422, (body, r.text)
    r = take_back(api, game, "usa", api.view(game, "usa")["version"])
    assert r.status_code == 422 and "nothing of yours" in r.json()["detail"]
    assert everything(api, game) == before


async def quiet(ws: ClientConnection, seconds: float) -> list[dict[str, Any]]:
    """Every message but heartbeats that arrives within `seconds`."""
    got = []
    try:
        async with asyncio.timeout(seconds):
            while True:
                got.append(await receive(ws, timeout=seconds))
    except TimeoutError:
        return got


def test_sockets_the_taker_gets_a_patch_the_enemy_nothing(server: Server, api: Api) -> None:
    """The taking seat's socket gets one patch to its new view; the other seat's socket
    gets nothing but heartbeats (the take-back never shows to it)."""
    game = api.create(seed=38)

    async def main() -> None:
        base = f"{server.ws_url}/api/games/{game.id}/ws?token="
        async with (
            connect(base + game.tokens["japan"]) as jp,
            connect(base + game.tokens["usa"]) as us,
        ):
            doc = (await receive(jp))["view"]
            await receive(us)
            view = await asyncio.to_thread(api.view, game, "japan")
            await asyncio.to_thread(act, api, game, "japan", first(view, "place"))
            doc = apply_patch(doc, (await receive(jp))["patch"])
            r = await asyncio.to_thread(take_back, api, game, "japan", doc["version"])
            assert r.status_code == 200, r.text
            message = await receive(jp)
            assert message["type"] == "patch" and message["version"] == doc["version"] + 1
            doc = apply_patch(doc, message["patch"])
            assert doc == await asyncio.to_thread(api.view, game, "japan")
            assert await quiet(us, 1.5) == []

    asyncio.run(main())


@pytest.mark.postgres
def test_two_processes_take_back_on_one_the_others_sockets_and_memory_follow(
    make_server: Any, pg_database: str
) -> None:
    """Process one holds the sockets (and so remembers the game); the take-back, and then
    another action that brings the log back to its old length, are posted to process
    two. One's socket gets the patch through NOTIFY, and what one answers is what two
    answers: its memory of the longer log is not taken for the new one."""
    one, two = make_server(pg_database), make_server(pg_database)
    with Api(one.url) as a, Api(two.url) as b:
        game = a.create(seed=39)

        async def main() -> None:
            url = f"{one.ws_url}/api/games/{game.id}/ws?token={game.tokens['japan']}"
            async with connect(url) as jp:
                doc = (await receive(jp))["view"]
                places = [x for x in doc["prompt"]["actions"] if x["kind"] == "place"]
                await asyncio.to_thread(act, b, game, "japan", places[0])
                doc = apply_patch(doc, (await receive(jp))["patch"])
                assert await asyncio.to_thread(a.view, game, "japan") == doc
                r = await asyncio.to_thread(take_back, b, game, "japan", doc["version"])
                assert r.status_code == 200, r.text
                doc = apply_patch(doc, (await receive(jp))["patch"])
                await asyncio.to_thread(act, b, game, "japan", places[-1])
                doc = apply_patch(doc, (await receive(jp))["patch"])
                assert doc["searchboard"]["forces"] == {places[-1]["force"]: places[-1]["hex"]}
                for seat in ("japan", "usa"):
                    assert await asyncio.to_thread(a.view, game, seat) == b.view(game, seat)

        asyncio.run(main())
