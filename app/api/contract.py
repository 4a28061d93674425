"""The OpenAPI schema (GET /openapi.json) as the server really answers (issue 16).

Routes declare the refusals they answer with `refusals(...)`; this module adds what is
true of every operation (the middleware's 400, 413 and 429, app.api.limits and
app.api.quotas), puts the engine's catalogue into the enumerations (scenario ids,
optional rules, modes: from `describe_scenarios()`, never listed twice), replaces
FastAPI's default 422 body (its `detail` is a list; ours is a string, app.api.errors),
and links the operations: a creation's answer opens its seats' views, a view's prompt
holds the actions its seat may post.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from app.api.answers import Refusal
from app.api.schemas import LISTED, MODE, OPTION_NAME, SCENARIO_ID
from app.games.store import GAME_ID

Schema = dict[str, Any]

WHY: dict[int, str] = {
    400: "a body that is not UTF-8 JSON text, or JSON nested deeper than the server reads",
    401: "no seat token, or not a seat token of this game (Authorization: Bearer <token>)",
    403: "the seat may not do this now",
    404: "no such game",
    409: "the request conflicts with the game as it is now",
    410: "the game's log cannot be replayed by the rules this server runs",
    413: "a request body larger than the server takes",
    422: (
        "a malformed request (`errors` lists the problems) or one that asks for what does "
        "not exist or what the rules forbid (`rule` names the rule)"
    ),
    429: "a quota is spent: try again after Retry-After seconds",
}
# The middleware answers these to any request, before a route sees it.
EVERY_OPERATION = (400, 413, 429)
RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds until the quota allows one more (the quotas' 429)",
        "required": False,
        "schema": {"type": "integer", "minimum": 1},
    }
}
DESCRIPTION = (
    "Avalon Hill's MIDWAY played over the internet, the server as referee. A game's "
    "creation gives each seat a token (Authorization: Bearer <token>); a seat's view "
    "lists the actions it may post (prompt.actions). Every refusal is a 4xx whose "
    "`detail` says why in words."
)
SEAT_TOKEN = {"type": "string", "pattern": "^Bearer [A-Za-z0-9_-]+$"}
DEFAULT_422 = "#/components/schemas/HTTPValidationError"


Responses = dict[int | str, dict[str, Any]]


def refusals(
    *codes: int, why: dict[int, str] | None = None, ok: type | None = None, **more: Any
) -> Responses:
    """The `responses=` of a route: each code a Refusal, described by `why` or WHY; `ok`
    documents the 200 of a route that passes a document through (`more`: its details)."""
    said = why or {}
    answers: Responses = {
        code: {"model": Refusal, "description": said.get(code, WHY[code])}
        for code in sorted({*codes, *said})
    }
    if ok is not None:
        answers[200] = {"model": ok, **more}
    return answers


def operation_id(route: APIRoute) -> str:
    """Operation ids are the routes' function names (the links below name them)."""
    return route.name


def catalogue(rules_module: str) -> list[Schema]:
    """The engine's scenarios, with their optional rules and modes."""
    describe: Callable[[], list[Schema]] = importlib.import_module(rules_module).describe_scenarios
    return describe()


def enumerations(scenarios: list[Schema]) -> dict[str, Schema]:
    """ScenarioId lists the scenarios a game can be created in (the others are refused)."""
    ids = [str(s["id"]) for s in scenarios if s.get("playable", True)]
    options = sorted({str(o) for s in scenarios for o in s.get("options", ())})
    modes = list(dict.fromkeys(str(m["mode"]) for s in scenarios for m in s.get("modes", ())))
    return {
        SCENARIO_ID: {"type": "string", "enum": ids, "description": "a playable scenario"},
        OPTION_NAME: {"type": "string", "enum": options, "description": "an optional rule"},
        MODE: {"type": "string", "enum": modes, "description": "a mode of play"},
    }


def _bearer(seat: int) -> str:
    return f"Bearer {{$response.body#/seats/{seat}/token}}"


def _seat_links(target: str, seat: int, game: str = "$response.body#/id") -> Schema:
    return {
        "operationId": target,
        "parameters": {"path.game_id": game, "header.Authorization": _bearer(seat)},
    }


SEATED = ("get_view", "get_log", "get_glance", "get_chat", "post_chat", "post_pulse")
SEATED_MORE = ("put_notices", "post_claim")
SAME_SEAT = {
    "path.game_id": "$request.path.game_id",
    "header.Authorization": "$request.header.Authorization",
}
ACT = {
    "operationId": "post_action",
    "parameters": SAME_SEAT,
    "requestBody": {
        "version": "$response.body#/version",
        "action": "$response.body#/prompt/actions/0",
    },
    "description": "the seat's first legal action at its view's version",
}


def links() -> dict[str, dict[str, dict[str, Schema]]]:
    """Operation id -> status -> the links of its answer (OpenAPI 3 links)."""
    created = {
        f"{target}_{seat}": _seat_links(target, seat)
        for seat in (0, 1)
        for target in SEATED + SEATED_MORE
    }
    finished = {
        t: {"operationId": t, "parameters": {"path.game_id": "$response.body#/id"}}
        for t in ("get_replay", "get_record")
    }
    return {
        "create_game": {"201": created | finished},
        "get_view": {"200": {"post_action": ACT}},
        "post_action": {
            "200": {"get_view": {"operationId": "get_view", "parameters": SAME_SEAT}},
            "409": {"get_view": {"operationId": "get_view", "parameters": SAME_SEAT}},
        },
        "open_game": {
            "201": {
                "join_game": {
                    "operationId": "join_game",
                    "parameters": {"path.game_id": "$response.body#/id"},
                },
            }
        },
        "join_game": {
            "200": {
                "get_view": {
                    "operationId": "get_view",
                    "parameters": {
                        "path.game_id": "$request.path.game_id",
                        "header.Authorization": "Bearer {$response.body#/token}",
                    },
                }
            }
        },
        "import_record": {"201": finished},
    }


def _listed(node: Any) -> Any:
    """Each `{"x-listed": name}` placeholder replaced by a reference to that enumeration
    (its siblings, such as a default, kept beside the reference)."""
    if isinstance(node, list):
        return [_listed(item) for item in node]
    if not isinstance(node, dict):
        return node
    if LISTED in node:
        rest = {k: v for k, v in node.items() if k not in (LISTED, "type")}
        ref = {"$ref": f"#/components/schemas/{node[LISTED]}"}
        return {"allOf": [ref], **rest} if rest else ref
    return {k: _listed(v) for k, v in node.items()}


def _operations(schema: Schema) -> Iterable[Schema]:
    for item in schema.get("paths", {}).values():
        yield from (op for method, op in item.items() if method != "parameters")


def _every_operation(op: Schema) -> None:
    """The middleware's refusals, no FastAPI default 422 where none is answered, the
    seat token's header as it must be (without it, the answer is 401) and the form of a
    game's id (any other is an unknown game, 404)."""
    for parameter in op.get("parameters", ()):
        if parameter["in"] == "header" and parameter["name"] == "Authorization":
            parameter.update(required=True, schema=SEAT_TOKEN)
        if parameter["in"] == "path" and parameter["name"] == "game_id":
            parameter["schema"] = {"type": "string", "pattern": f"^{GAME_ID.pattern}$"}
    answers: dict[str, Schema] = op.setdefault("responses", {})
    for status, said in list(answers.items()):
        body = said.get("content", {}).get("application/json", {}).get("schema", {})
        if body.get("$ref") == DEFAULT_422:
            del answers[status]
    refusal = {"$ref": "#/components/schemas/Refusal"}
    for code in EVERY_OPERATION:
        answer = answers.setdefault(str(code), {"description": WHY[code]})
        if answer["description"] != WHY[code]:
            answer["description"] = f"{answer['description']}; or {WHY[code]}"
        answer["content"] = {"application/json": {"schema": refusal}}
        if code == 429:
            answer["headers"] = RETRY_AFTER


def truthful(schema: Schema, scenarios: list[Schema]) -> Schema:
    schema = _listed(schema)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    components.update(enumerations(scenarios))
    components["Refusal"] = Refusal.model_json_schema(ref_template="#/components/schemas/{model}")
    components.update(components["Refusal"].pop("$defs", {}))
    by_id = {op.get("operationId"): op for op in _operations(schema)}
    for op in by_id.values():
        _every_operation(op)
    for source, answers in links().items():
        for status, its_links in answers.items():
            by_id[source]["responses"][status]["links"] = its_links
    return schema


def install(app: FastAPI, rules_module: str) -> None:
    """Serve the truthful schema at /openapi.json (built once, on first use)."""

    def openapi() -> Schema:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                description=DESCRIPTION,
                routes=app.routes,
            )
            app.openapi_schema = truthful(schema, catalogue(rules_module))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
