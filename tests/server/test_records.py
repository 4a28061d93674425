"""Records (issue 14): a finished game's record (creation record, revealed seed, every
action) downloads as JSON and imports on any server as a finished game, checked by
replaying it; a tampered record is refused with the action's number and the rule."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from server.between_helpers import post_all, random_game
from server.client import Api
from server.conftest import Server

SEED = 31


_RECORDS: dict[str, Any] = {}


@pytest.fixture
def record(server: Server) -> Any:
    """One finished game per backend, exported (played once per server)."""
    if server.url in _RECORDS:
        return copy.deepcopy(_RECORDS[server.url])
    with Api(server.url) as api:
        game = api.create(seed=SEED)
        said = api.http.post(
            f"/api/games/{game.id}/chat", json={"text": "Good luck"}, headers=game.auth("usa")
        )
        assert said.status_code == 201, said.text
        post_all(api, game, random_game("one", SEED))
        r = api.http.get(f"/api/games/{game.id}/record")
        assert r.status_code == 200, r.text
        assert "attachment" in r.headers["content-disposition"]
        _RECORDS[server.url] = r.json()
        return copy.deepcopy(_RECORDS[server.url])


def test_record_is_refused_before_the_end(server: Server) -> None:
    """The seed is secret while the game runs: no record then (403)."""
    with Api(server.url) as api:
        game = api.create(seed=SEED)
        r = api.http.get(f"/api/games/{game.id}/record")
        assert r.status_code == 403 and "finished" in r.json()["detail"]


def test_record_exported_imported_and_replayed_equal(server: Server, record: Any) -> None:
    """Import the record: a new finished game whose own record is the same record (its
    id aside), whose replay page opens at the end, and whose replay is the original's."""
    assert record["seed_sha256"] and isinstance(record["seed"], int) and record["actions"]
    with Api(server.url) as api:
        r = api.http.post("/api/records", json=record)
        assert r.status_code == 201, r.text
        imported = r.json()
        assert imported["id"] != record["id"]
        again = api.http.get(imported["record_url"]).json()
        assert {**again, "id": record["id"]} == record
        assert [(m["seat"], m["text"]) for m in again["chat"]] == [("usa", "Good luck")]
        original = api.http.get(f"/api/games/{record['id']}/replay").json()
        copy_ = api.http.get(f"/api/games/{imported['id']}/replay").json()
        assert copy_["events"] == original["events"]
        assert [a["action"] for a in copy_["actions"]] == [a["action"] for a in original["actions"]]
        page = api.http.get(imported["replay_url"])
        assert page.status_code == 200


def _refused(server: Server, record: Any) -> dict[str, Any]:
    with Api(server.url) as api:
        r = api.http.post("/api/records", json=record)
        assert r.status_code == 422, r.text
        body: dict[str, Any] = r.json()
        return body


def test_tampered_record_refused_with_the_action_number_and_rule(
    server: Server, record: Any
) -> None:
    """An action changed to one the rules forbid there: 422 naming the action and rule;
    nothing is stored."""
    bad = copy.deepcopy(record)
    bad["actions"][0]["action"] = {"kind": "search", "hex": "H4"}  # 7a: setup comes first
    body = _refused(server, bad)
    assert "action 1 " in body["detail"] and body.get("rule")


def test_tampered_record_refused_seed_events_and_truncation(server: Server, record: Any) -> None:
    """Another seed (its SHA-256 no longer matches), an event changed, a record cut
    short, a seat that is not the game's: each refused with what is wrong."""
    reseeded = copy.deepcopy(record)
    reseeded["seed"] += 1
    assert "seed_sha256" in _refused(server, reseeded)["detail"]
    rolled = copy.deepcopy(record)
    rolled["events"][-1] = {**rolled["events"][-1], "tampered": True}
    assert "events" in _refused(server, rolled)["detail"]
    short = copy.deepcopy(record)
    short["actions"] = short["actions"][:-1]
    assert "before the game is finished" in _refused(server, short)["detail"]
    stranger = copy.deepcopy(record)
    stranger["actions"][3]["seat"] = "umpire"
    assert "action 4" in _refused(server, stranger)["detail"]
    with Api(server.url) as api:
        assert api.http.post("/api/records", content=b"{not json").status_code == 422
        assert api.http.post("/api/records", json=[1, 2]).status_code == 422
