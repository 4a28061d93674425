"""Hostile requests (issue 3, Done when): malformed JSON, unknown fields, huge bodies,
wrong tokens and wrong game ids are answered 4xx with a message, never 5xx, and the
game is unchanged. Hypothesis sends at least 1,000 requests per backend
(MIDWAY_FUZZ_EXAMPLES raises it for a longer run)."""

from __future__ import annotations

import collections
import json
import os
from typing import Any
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.client import Api, Game
from server.conftest import Server

EXAMPLES = int(os.environ.get("MIDWAY_FUZZ_EXAMPLES", "1000"))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
words = st.text(min_size=0, max_size=30)
header_words = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=255, exclude_characters="\x7f"),
    max_size=60,
)
wrong_versions = st.one_of(
    st.integers().filter(lambda v: v != 1),
    st.integers(0, 5).filter(lambda v: v != 1),
    st.integers(2, 5),
    st.text(max_size=5),
    st.none(),
    st.floats(),
)

ROUTES = [("POST", "/api/games/{game_id}/actions")] * 8 + [
    ("GET", "/api/games/{game_id}"),
    ("GET", "/api/games/{game_id}/log"),
    ("GET", "/api/games/{game_id}/replay"),
    ("POST", "/api/games"),
    ("GET", "/api/scenarios"),
    ("POST", "/api/games/{game_id}/nothing"),
]


@st.composite
def actions(draw: st.DrawFn, prompt: list[dict[str, Any]]) -> Any:
    """A prompt action (sent with a wrong version), a mangled one, or junk."""
    base = dict(draw(st.sampled_from(prompt)))
    choice = draw(st.integers(0, 7))
    if choice >= 4:
        return base
    if choice == 1:
        base[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
        return base
    if choice == 2:
        base["kind"] = draw(words)
        return base
    if choice == 3:
        return {k: draw(json_values) for k in base}
    return draw(json_values)


@st.composite
def requests(draw: st.DrawFn, game: Game, other: Game, prompt: list[dict[str, Any]]) -> Any:
    game_id = draw(
        st.sampled_from([game.id] * 12 + [other.id, "0" * 16, "", "../games", "x" * 200])
        if draw(st.integers(0, 9)) < 8
        else words
    )
    game_id = quote(game_id, safe="")
    token = draw(
        st.sampled_from(
            [game.tokens["japan"], game.tokens["usa"]] * 4 + [other.tokens["usa"], None]
        )
        if draw(st.integers(0, 9)) < 8
        else header_words
    )
    method, path = draw(st.sampled_from(ROUTES))
    path = path.format(game_id=game_id)
    if draw(st.integers(0, 9)) == 0:
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
    body_kind = draw(st.sampled_from(["action", "action", "json", "bytes", "huge", "none"]))
    content: bytes | None
    if body_kind == "action":
        body: dict[str, Any] = {"version": draw(wrong_versions), "action": draw(actions(prompt))}
        if draw(st.integers(0, 4)) == 0:
            body[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
        if draw(st.integers(0, 4)) == 0:
            body.pop(draw(st.sampled_from(["version", "action"])))
        content = json.dumps(body).encode()
    elif body_kind == "json":
        content = json.dumps(draw(json_values)).encode()
    elif body_kind == "bytes":
        content = draw(st.binary(max_size=200))
    elif body_kind == "huge":
        content = b'{"version": 1, "action": "' + b"x" * draw(st.integers(70_000, 200_000)) + b'"}'
    else:
        content = None
    headers: dict[str, bytes | str] = {}
    if token is not None:
        scheme = draw(st.sampled_from(["Bearer ", "Bearer ", "bearer ", "Basic ", ""]))
        headers["Authorization"] = (scheme + token).strip().encode("latin-1")
    content_type = draw(
        st.sampled_from(
            ["application/json"] * 8 + ["text/plain", "application/x-www-form-urlencoded", None]
        )
    )
    if content_type is not None:
        headers["Content-Type"] = content_type
    return method, path, headers, content


def state_of(api: Api, game: Game) -> Any:
    return [api.view(game, seat) for seat in ("japan", "usa")]


def test_fuzz_hostile_requests_are_4xx_with_a_message_and_change_nothing(server: Server) -> None:
    """Issue 3: >= 1,000 hostile requests, never a 5xx, every refusal a 4xx with a
    `detail` message, and afterwards both seats' views exactly as before."""
    with Api(server.url) as api:
        game, other = api.create(seed=1), api.create(seed=2)
        before = state_of(api, game)
        prompt = before[0]["prompt"]["actions"] + before[1]["prompt"]["actions"]
        sent = []
        http = httpx.Client(base_url=server.url, timeout=30)

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(requests(game, other, prompt))
        def hostile(request: Any) -> None:
            method, path, headers, content = request
            r = http.request(method, path, headers=headers, content=content)
            sent.append(r.status_code)
            assert r.status_code < 500, (request, r.text)
            if r.status_code >= 400:
                detail = r.json()["detail"]
                assert isinstance(detail, str) and detail, r.text
            if path == f"/api/games/{game.id}/actions":
                assert r.status_code >= 400

        try:
            hostile()
        finally:
            http.close()
        assert len(sent) >= EXAMPLES
        assert {401, 404, 405, 413, 422} <= set(sent), sorted(collections.Counter(sent).items())
        assert state_of(api, game) == before
