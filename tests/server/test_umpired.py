"""Umpired games through the HTTP contract (18): the `umpired` mode with the umpire's seat,
and `double-blind` with none; each player's view holds only his own side's Operations
Card, and the log only what his side may hear."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import apply, new_game
from server.between_helpers import post_all
from server.client import Api
from server.conftest import Server
from tools.fuzz import play_game

UMPIRED = ("umpired", "double-blind")


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def test_18_scenarios_list_both_umpired_modes_and_their_seats(api: Api) -> None:
    """GET /api/scenarios: every scenario offers both modes; the engine gives the seats."""
    for scenario in api.http.get("/api/scenarios").json():
        modes = {m["mode"]: m for m in scenario["modes"]}
        assert set(UMPIRED) <= set(modes), scenario["id"]
        plain = {x["teams"]: [s["seat"] for s in x["seats"]] for x in modes["umpired"]["seatings"]}
        assert plain[False] == ["japan", "usa", "umpire"]
        blind = {
            x["teams"]: [s["seat"] for s in x["seats"]] for x in modes["double-blind"]["seatings"]
        }
        assert blind[False] == ["japan", "usa"]
        if scenario["teams"]:
            assert plain[True] == ["japan-i", "japan-vi", "usa-tf16", "usa-tf17", "umpire"]


@pytest.mark.parametrize("teams", [False, True])
def test_18_an_umpired_game_gives_the_creator_the_umpires_link(api: Api, teams: bool) -> None:
    game = api.create(scenario="three", mode="umpired", teams=teams)
    links = {s["seat"]: s for s in game.body["seats"]}
    assert "umpire" in links and links["umpire"]["side"] is None
    assert links["umpire"]["url"].startswith(f"/games/{game.id}/seat/umpire#token=")
    view = api.view(game, "umpire")
    assert view["viewer"]["seat"] == "umpire" and view["mode"] == "umpired"
    assert set(view["operations_cards"]) == {"japan", "usa"}
    assert set(view["searchboards"]) == {"japan", "usa"}
    assert view["prompt"]["actions"] == []


@pytest.mark.parametrize("mode", UMPIRED)
def test_18b_a_player_sees_only_his_own_operations_card(api: Api, mode: str) -> None:
    game = api.create(scenario="one", mode=mode)
    assert "umpire" in game.tokens if mode == "umpired" else "umpire" not in game.tokens
    for side, enemy in (("usa", "japan"), ("japan", "usa")):
        view = api.view(game, side)
        assert view["operations_cards"][side]["units"]
        assert view["operations_cards"][enemy]["units"] == {}
        assert "searchboards" not in view


def test_18_an_umpire_action_from_a_player_or_a_player_action_from_the_umpire(api: Api) -> None:
    """The umpire's seat acts for no side: a player's action from it is refused, with
    the game unchanged."""
    game = api.create(scenario="one", mode="umpired")
    usa = api.view(game, "usa")
    place = next(a for a in usa["prompt"]["actions"] if a["kind"] == "place")
    umpire = api.view(game, "umpire")
    r = api.act(game, "umpire", umpire["version"], place)
    assert 400 <= r.status_code < 500, r.text
    assert api.view(game, "umpire") == umpire and api.view(game, "usa") == usa


def test_18c2_the_free_roll_option_is_a_422_in_an_umpired_game(api: Api) -> None:
    r = api.http.post(
        "/api/games", json={"scenario": "one", "mode": "double-blind", "options": ["11a"]}
    )
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "11a" and "18c2" in r.json()["detail"]


def test_18_an_unknown_mode_is_a_422_naming_those_offered(api: Api) -> None:
    r = api.http.post("/api/games", json={"scenario": "one", "mode": "triple-blind"})
    assert r.status_code == 422
    assert "umpired" in r.text and "double-blind" in r.text


def test_18b_a_players_log_holds_nothing_of_the_enemys_setup(api: Api) -> None:
    """Setting up (7a2.2) in a double-blind game: the enemy's placements never reach the
    other player's view or log."""
    game = api.create(scenario="one", mode="double-blind")
    japan = api.view(game, "japan")
    for action in japan["prompt"]["actions"]:
        if action["kind"] == "place":
            r = api.act(game, "japan", japan["version"], action)
            assert r.status_code == 200, r.text
            japan = api.view(game, "japan")
    log = api.http.get(f"/api/games/{game.id}/log", headers=game.auth("usa"))
    assert log.status_code == 200, log.text
    assert "MobileForce" not in log.text
    assert "MobileForce" not in str(api.view(game, "usa"))


@pytest.mark.parametrize("seat", ["umpire", "usa", "japan"])
def test_18_every_seat_page_of_an_umpired_game_renders(api: Api, seat: str) -> None:
    """The pages show each seat's view: the umpire's, and a player's without the enemy's card."""
    game = api.create(scenario="two", mode="umpired")
    page = api.http.get(f"/games/{game.id}/seat/{seat}")
    assert page.status_code == 200, page.text
    regions = api.http.get(f"/games/{game.id}/regions", headers=game.auth(seat))
    assert regions.status_code == 200, regions.text
    if seat != "umpire":
        enemy = "japan" if seat == "usa" else "usa"
        own_ship = "Yorktown" if seat == "usa" else "Akagi"
        enemy_ship = "Akagi" if seat == "usa" else "Yorktown"
        assert own_ship in regions.text, enemy
        assert enemy_ship not in regions.text


def test_18_the_umpires_seat_is_never_free_in_the_lobby(api: Api) -> None:
    """The umpire's link is the creator's: a lobby game lists only players' seats as free,
    and joining the umpire's is refused, the game unchanged."""
    r = api.http.post("/api/lobby", json={"scenario": "one", "mode": "umpired", "keep": "usa"})
    assert r.status_code == 201, r.text
    opened = r.json()
    assert opened["seats_free"] == ["japan"]
    assert sorted(s["seat"] for s in opened["seats"]) == ["umpire", "usa"]
    r = api.http.post(f"/api/lobby/{opened['id']}/join", json={"seat": "umpire"})
    assert r.status_code == 409, r.text
    assert "not free" in r.json()["detail"]
    listed = {g["id"]: g for g in api.http.get("/api/lobby").json()}
    assert listed[opened["id"]]["seats_free"] == ["japan"]
    r = api.http.post("/api/lobby", json={"scenario": "one", "mode": "umpired", "keep": "umpire"})
    assert r.status_code == 201, r.text
    assert r.json()["seats_free"] == ["japan", "usa"]


def test_18_the_umpire_may_not_claim_a_game(api: Api) -> None:
    """Paces: an overdue player's opponent may claim the game; the umpire plays no side,
    so his claim is refused with the reason, the game unchanged."""
    game = api.create(scenario="one", mode="umpired", pace_days=1)
    before = api.view(game, "umpire")
    r = api.http.post(f"/api/games/{game.id}/claim", headers=game.auth("umpire"))
    assert 400 <= r.status_code < 500, r.text
    assert "umpire plays no side" in r.json()["detail"]
    assert api.view(game, "umpire") == before


def test_18_secret_dice_reach_nobody_until_the_end_then_the_replay(api: Api) -> None:
    """The server as umpire (double-blind): its secret dice (18c1 lies, 18c2 damage
    reports) are in no player's log while the game runs, and in the replay once it ends."""
    seed = 2  # a Scenario One game with battles and a 15a "lie" (tools/fuzz.py's agent)
    log = play_game("one", seed, options=frozenset({"15a"}), mode="double-blind").log
    game = api.create(seed=seed, scenario="one", mode="double-blind", options=["15a"])
    state = new_game("one", frozenset({"15a"}), seed, "double-blind")
    half = 0
    while not any(e.kind == "umpire-die" for e in apply(state, *log[half])[1]):
        state = apply(state, *log[half])[0]
        half += 1
    half += 1  # just after the first secret die, well before the end
    assert half < len(log) - 10
    post_all(api, game, log[:half])
    for seat in ("japan", "usa"):
        seen = api.http.get(f"/api/games/{game.id}/log", headers=game.auth(seat)).text
        assert "umpire-die" not in seen and "search-roll" not in seen
    post_all(api, game, log[half:])
    shown = api.http.get(f"/api/games/{game.id}/replay").json()
    secret = [e for e in shown["events"] if e["kind"] == "umpire-die"]
    assert {e["for"] for e in secret} == {"lie", "damage report"}
    assert all(1 <= e["die"] <= 10 for e in secret)


def first_report(mode: str = "umpired") -> tuple[list[tuple[str, Any]], int]:
    """A Scenario One game (option 15a, tools/fuzz.py's agent) and how many of its
    actions lead to its first report for a side that waits for the umpire (18c; the
    agent's umpire may have let a kind through at once, or released one already)."""
    log = play_game("one", 1, options=frozenset({"15a"}), mode=mode).log
    state = new_game("one", frozenset({"15a"}), 1, mode)
    for n, (seat, action) in enumerate(log, start=1):
        state, events = apply(state, seat, action)
        if any(e.kind == "report-draft" for e in events) and waiting(state.drafts):
            return log, n
    raise AssertionError("no report in the game")


def waiting(reports: Any) -> list[Any]:
    """The reports (drafts, or their JSON on the umpire's console) waiting for him."""
    return [r for r in reports if (r["status"] if isinstance(r, dict) else r.status) == "waiting"]


def views(api: Api, game: Any) -> dict[str, Any]:
    return {seat: api.view(game, seat) for seat in ("japan", "usa", "umpire")}


def test_18c_a_players_token_posting_an_umpire_action_is_a_4xx_naming_18(api: Api) -> None:
    log, n = first_report()
    game = api.create(seed=1, scenario="one", mode="umpired", options=["15a"])
    post_all(api, game, log[:n])
    before = views(api, game)
    (report,) = waiting(before["umpire"]["umpire"]["reports"])
    assert report["status"] == "waiting"
    for seat in ("japan", "usa"):
        release = {"kind": "release-report", "report": report["report"]}
        r = api.act(game, seat, before[seat]["version"], release)
        assert 400 <= r.status_code < 500, r.text
        assert r.json()["rule"] == "18" and "umpire" in r.json()["detail"]
    assert views(api, game) == before


def test_18c_a_report_released_twice_is_a_4xx_naming_why(api: Api) -> None:
    log, n = first_report()
    game = api.create(seed=1, scenario="one", mode="umpired", options=["15a"])
    post_all(api, game, log[:n])
    umpire = api.view(game, "umpire")
    report = waiting(umpire["umpire"]["reports"])[0]
    side = report["side"]
    spotted = len(api.view(game, side)["searchboard"]["spotted"])
    release = {"kind": "release-report", "report": report["report"]}
    r = api.act(game, "umpire", umpire["version"], release)
    assert r.status_code == 200, r.text
    assert len(api.view(game, side)["searchboard"]["spotted"]) == spotted + 1
    before = views(api, game)
    r = api.act(game, "umpire", before["umpire"]["version"], release)
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "18c1" and "released on Turn" in r.json()["detail"]
    assert views(api, game) == before


def test_18d_an_edited_report_is_the_sides_and_the_replay_tells_it_beside_the_truth(
    api: Api,
) -> None:
    """The umpire edits the first spotting report; the side's view and log hold his
    words; once the game is over the record pairs each report with the truth."""
    log, n = first_report()
    game = api.create(seed=1, scenario="one", mode="umpired", options=["15a"])
    post_all(api, game, log[:n])
    umpire = api.view(game, "umpire")
    report = waiting(umpire["umpire"]["reports"])[0]
    edit = {"kind": "edit-report", "report": report["report"], "text": "7 ships, maybe more"}
    r = api.act(game, "umpire", umpire["version"], edit)
    assert r.status_code == 200, r.text
    side = report["side"]
    assert api.view(game, side)["searchboard"]["spotted"][-1]["said"] == "7 ships, maybe more"
    enemy = "japan" if side == "usa" else "usa"
    for seat, seen in ((side, True), (enemy, False)):
        text = api.http.get(f"/api/games/{game.id}/log", headers=game.auth(seat)).text
        assert ("7 ships, maybe more" in text) is seen, seat
        assert "report-edited" not in text and "report-draft" not in text
    # the rest as the fuzzer's agent played it, its umpire too (18c), but for this report
    post_all(api, game, [(x, a) for x, a in log[n:] if a.get("report") != report["report"]])
    record = api.http.get(f"/api/games/{game.id}/replay").json()
    pairs = {p["report"]: p for p in record["told_versus_truth"]}
    first = pairs[report["report"]]
    assert first["edited"] == "7 ships, maybe more" and first["told"]["ships"] == 7
    assert first["truth"] == report["truth"]
    assert any(e["kind"] == "report-edited" for e in record["events"])


def test_18_double_blind_replay_tells_every_report_beside_the_truth(api: Api) -> None:
    log = play_game("one", 1, options=frozenset({"15a"}), mode="double-blind").log
    game = api.create(seed=1, scenario="one", mode="double-blind", options=["15a"])
    post_all(api, game, log)
    pairs = api.http.get(f"/api/games/{game.id}/replay").json()["told_versus_truth"]
    assert pairs and all(p["status"] == "released" and p["told"] for p in pairs)
    assert {p["reports"] for p in pairs} == {"spotting", "damage"}


def test_18c_the_console_shows_the_umpire_the_report_and_no_player_anything_of_it(
    api: Api,
) -> None:
    log, n = first_report()
    game = api.create(seed=1, scenario="one", mode="umpired", options=["15a"])
    post_all(api, game, log[:n])
    report = waiting(api.view(game, "umpire")["umpire"]["reports"])[0]
    rid = report["report"]
    page = api.http.get(f"/games/{game.id}/regions", headers=game.auth("umpire")).text
    assert f"Release {rid}" in page and f"Hold {rid}" in page and f"Edit {rid}" in page
    assert 'id="r-searchboard-japan"' in page and 'id="r-searchboard-usa"' in page
    for seat in ("japan", "usa"):
        page = api.http.get(f"/games/{game.id}/regions", headers=game.auth(seat)).text
        assert "Umpire's console" not in page and f"Release {rid}" not in page
        assert "report-draft" not in page and "waits for the umpire" not in page


@pytest.mark.parametrize("mode", UMPIRED)
def test_18a_a_players_chat_to_all_is_a_422_naming_18a(api: Api, mode: str) -> None:
    """Issue 30: the chat's "all" would let the players talk around the umpire (18a, 18c);
    the server refuses it, nothing stored; in the umpired mode the umpire's channel is
    open, and the pulse says which channels the page may offer."""
    game = api.create(scenario="one", mode=mode)

    def say(seat: str, audience: str, text: str = "I am in H5") -> Any:
        return api.http.post(
            f"/api/games/{game.id}/chat",
            json={"audience": audience, "text": text},
            headers=game.auth(seat),
        )

    r = say("usa", "all")
    assert r.status_code == 422 and r.json()["rule"] == "18a" and "18a" in r.json()["detail"]
    pulse = api.http.post(
        f"/api/games/{game.id}/pulse",
        json={"place": "0123456789abcdef", "since": 0},
        headers=game.auth("usa"),
    ).json()
    offered = [c["audience"] for c in pulse["channels"]["to"]]
    if mode == "umpired":
        assert offered == ["seat:umpire"] and say("usa", "seat:umpire").status_code == 201
        chat = api.http.get(f"/api/games/{game.id}/chat", headers=game.auth("umpire")).json()
        assert [m["text"] for m in chat] == ["I am in H5"]
        assert say("umpire", "all", "Weather clear").status_code == 201
    else:
        assert offered == [] and "18a" in pulse["channels"]["closed"]
    assert (
        "I am in H5"
        not in api.http.get(f"/api/games/{game.id}/chat", headers=game.auth("japan")).text
    )
