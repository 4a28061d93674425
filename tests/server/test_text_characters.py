"""Text a person writes (issue 31, item 8): chat, the umpire's notes and messages and a
radio note hold printable characters only. A bidi override reorders what other players
read, a zero-width or C1 character hides in it, an unpaired surrogate is stored by no
database: each is a 4xx naming the problem, in chat (app.games.chat) and in written
action fields (app.rules.engine.actions) alike; plain text from any script passes."""

from __future__ import annotations

import json

import pytest

from server.client import Api
from server.conftest import Server

HIDDEN = {
    "bidi override": "\u202e",
    "bidi isolate": "\u2066",
    "zero width space": "\u200b",
    "zero width joiner": "\u200d",
    "byte order mark": "\ufeff",
    "C1 control": "\x9b",
    "C0 control": "\x07",
    "private use": "\ue000",
}


@pytest.mark.parametrize("name", list(HIDDEN))
def test_8_chat_refuses_characters_that_do_not_print(server: Server, name: str) -> None:
    with Api(server.url) as api:
        game = api.create(seed=8)
        text = f"attack at {HIDDEN[name]}dawn"
        r = api.http.post(
            f"/api/games/{game.id}/chat", json={"text": text}, headers=game.auth("japan")
        )
        assert r.status_code == 400 or r.status_code == 422, r.text
        assert "refused" in r.json()["detail"]


def test_8_chat_refuses_a_lone_surrogate_and_keeps_other_scripts(server: Server) -> None:
    with Api(server.url) as api:
        game = api.create(seed=8)
        body = json.dumps({"text": "x"}).replace('"x"', '"a\\udc00b"')
        r = api.http.post(
            f"/api/games/{game.id}/chat",
            content=body,
            headers={**game.auth("japan"), "content-type": "application/json"},
        )
        assert 400 <= r.status_code < 500, r.text
        for text in ("Tora! Tora! Tora!", "トラ・トラ・トラ", "Mi\u00a0dway, tab\there"):
            r = api.http.post(
                f"/api/games/{game.id}/chat", json={"text": text}, headers=game.auth("usa")
            )
            assert r.status_code == 201, r.text
            assert r.json()["text"] == text


@pytest.mark.parametrize("name", list(HIDDEN))
def test_8_the_umpires_note_refuses_characters_that_do_not_print(server: Server, name: str) -> None:
    with Api(server.url) as api:
        game = api.create(seed=8, mode="umpired")
        version = api.view(game, "umpire")["version"]
        note = {"kind": "umpire-note", "text": f"fleet {HIDDEN[name]}sighted"}
        r = api.act(game, "umpire", version, note)
        assert r.status_code == 422, r.text
        assert "do not print" in r.json()["detail"]
        assert api.view(game, "umpire")["version"] == version  # nothing stored
