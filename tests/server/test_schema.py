"""The OpenAPI schema tells the truth (issue 16): schemathesis, driven by the schema of a
live server, finds no 5xx and no answer the schema does not document.

Runs of the schemathesis CLI against one server (SQLite, MIDWAY_ALLOW_SEED=1, no
quotas; tests/live.py), with the hooks of tests/server/schema_hooks.py:

1. every operation, every phase (examples, coverage, fuzzing, and stateful along the
   schema's links: a creation's seat tokens open its seats' routes);
2. then, until the requests add up to 2,000: stateful only, over the games' own
   operations: games are created, then their seats read their views and post actions,
   most of them real legal actions (the hook takes one of the view's prompt.actions at
   random).

Every check runs but positive_data_acceptance (tests/server/schemathesis.toml says why).
Figures (requests by status code, time) are printed; `pytest -s` shows them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from live import in_ci

from app.api import create_app
from app.api.contract import EVERY_OPERATION, enumerations
from app.rules import describe_scenarios
from app.settings import Settings
from server.conftest import Server

HERE = Path(__file__).resolve().parent
HOOKS = HERE / "schema_hooks.py"
CONFIG = HERE / "schemathesis.toml"
GAME_OPERATIONS = "^(create_game|get_view|post_action|get_log|get_glance)$"
# Test cases per operation of the first run and of each play run; play runs (each with
# a seed of its own) follow until the requests add up to MIN_REQUESTS.
EVERYTHING_EXAMPLES = int(os.environ.get("MIDWAY_SCHEMA_EXAMPLES", "15"))
PLAY_EXAMPLES = int(os.environ.get("MIDWAY_SCHEMA_PLAY_EXAMPLES", "40"))
MIN_REQUESTS = int(os.environ.get("MIDWAY_SCHEMA_MIN_REQUESTS", "2000"))
MAX_PLAY_RUNS = 6
RUN_SECONDS = 900


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    openapi: dict[str, Any] = create_app(Settings()).openapi()
    return openapi


def operations(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {op["operationId"]: op for item in schema["paths"].values() for op in item.values()}


def test_enumerations_are_the_engines_catalogue(schema: dict[str, Any]) -> None:
    """Scenario ids, optional rules and modes come from describe_scenarios(), listed once:
    the ids are those a game can be created in."""
    catalogue = describe_scenarios()
    components = schema["components"]["schemas"]
    assert components["ScenarioId"]["enum"] == [s["id"] for s in catalogue if s["playable"]]
    assert components["OptionName"]["enum"] == sorted({o for s in catalogue for o in s["options"]})
    assert components["Mode"]["enum"] == list(
        dict.fromkeys(m["mode"] for s in catalogue for m in s["modes"])
    )
    new_game = components["NewGame"]["properties"]
    assert new_game["scenario"]["allOf"] == [{"$ref": "#/components/schemas/ScenarioId"}]
    assert new_game["options"]["items"] == {"$ref": "#/components/schemas/OptionName"}
    assert new_game["mode"]["allOf"] == [{"$ref": "#/components/schemas/Mode"}]
    assert "x-listed" not in json.dumps(schema)


def test_an_unplayable_scenario_is_not_in_the_enumeration() -> None:
    catalogue = [
        {"id": "one", "playable": True, "options": ["14"], "modes": [{"mode": "two-player"}]},
        {"id": "nine", "playable": False, "options": ["11a"], "modes": [{"mode": "umpired"}]},
    ]
    listed = enumerations(catalogue)
    assert listed["ScenarioId"]["enum"] == ["one"]
    assert listed["OptionName"]["enum"] == ["11a", "14"]
    assert listed["Mode"]["enum"] == ["two-player", "umpired"]


def test_every_refusal_is_documented_with_detail_a_string(schema: dict[str, Any]) -> None:
    """app.api.errors answers `{"detail": "words"}`: FastAPI's default 422 body, whose
    detail is a list, is documented nowhere."""
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    refusal = schema["components"]["schemas"]["Refusal"]
    assert refusal["properties"]["detail"] == {"title": "Detail", "type": "string"}
    assert refusal["required"] == ["detail"]
    for name, op in operations(schema).items():
        for status, answer in op["responses"].items():
            if status.startswith("4"):
                body = answer["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/Refusal"}, (name, status)


def test_every_operation_documents_the_middlewares_refusals(schema: dict[str, Any]) -> None:
    """The body limit (400, 413) and the quotas (429) answer before any route."""
    for name, op in operations(schema).items():
        for status in EVERY_OPERATION:
            assert str(status) in op["responses"], (name, status)
        assert "Retry-After" in op["responses"]["429"]["headers"]


@pytest.mark.parametrize(
    ("operation", "statuses"),
    [
        ("create_game", {"201", "403", "422"}),
        ("get_view", {"200", "401", "404", "410"}),
        ("post_action", {"200", "401", "403", "404", "409", "410", "422"}),
        ("get_replay", {"200", "403", "404"}),
        ("post_chat", {"201", "401", "404", "413", "422", "429"}),
        ("join_game", {"200", "404", "409", "422"}),
        ("post_claim", {"200", "401", "404", "409", "410"}),
    ],
)
def test_routes_document_their_own_answers(
    schema: dict[str, Any], operation: str, statuses: set[str]
) -> None:
    """Each route's refusals beside the middleware's (which every operation has)."""
    middleware = {str(s) for s in EVERY_OPERATION}
    answers = operations(schema)[operation]["responses"]
    assert set(answers) - middleware == statuses - middleware
    for status in statuses & middleware:  # a route's own reason, beside the middleware's
        assert "; or " in answers[status]["description"]


def test_seat_routes_require_the_bearer_header(schema: dict[str, Any]) -> None:
    """Without it the answer is 401: documented as required, in the form the server reads."""
    seated = [op for op in operations(schema).values() if "401" in op["responses"]]
    assert len(seated) >= 9
    for op in seated:
        (header,) = [p for p in op["parameters"] if p["in"] == "header"]
        assert header["name"] == "Authorization" and header["required"] is True
        assert header["schema"]["pattern"] == "^Bearer [A-Za-z0-9_-]+$"
        (game,) = [p for p in op["parameters"] if p["in"] == "path"]
        assert game["schema"]["pattern"] == "^[0-9a-f]{16}$"  # any other id: 404


def test_links_carry_the_creations_seat_tokens_and_the_views_actions(
    schema: dict[str, Any],
) -> None:
    ops = operations(schema)
    created = ops["create_game"]["responses"]["201"]["links"]
    assert created["get_view_1"]["parameters"] == {
        "path.game_id": "$response.body#/id",
        "header.Authorization": "Bearer {$response.body#/seats/1/token}",
    }
    act = ops["get_view"]["responses"]["200"]["links"]["post_action"]
    assert act["parameters"]["header.Authorization"] == "$request.header.Authorization"
    assert act["requestBody"]["action"] == "$response.body#/prompt/actions/0"


def schemathesis_or_skip() -> None:
    if importlib.util.find_spec("schemathesis") is not None:
        return
    message = "schemathesis is not installed (pip install -e '.[dev]')"
    if in_ci():
        pytest.fail(f"{message}; CI=true: the schema check must run")
    pytest.skip(message)


def failures(output: str) -> str:
    """The run's failures, each line cut short (a fuzzer's bodies can be megabytes)."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if "FAILURES" in line), 0)
    return "\n".join(line[:300] for line in lines[start : start + 200])


def run(server: Server, tmp_path: Path, name: str, seed: int, *options: str) -> dict[str, Any]:
    """One schemathesis run: its counts (schema_hooks.py), or a failure with its output."""
    counts = tmp_path / f"{name}-counts.json"
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": str(HOOKS),
        "SCHEMA_BASE_URL": server.url,
        "SCHEMA_COUNTS": str(counts),
        "SCHEMA_SEED": str(seed),
    }
    command = [
        *(sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG)),
        *("run", f"{server.url}/openapi.json", "--checks", "all"),
        *("--exclude-checks", "positive_data_acceptance", "--workers", "1"),
        *("--seed", str(seed), "--generation-database", "none", "--no-color", *options),
    ]
    start = time.monotonic()
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=RUN_SECONDS
    )
    seconds = time.monotonic() - start
    (tmp_path / f"{name}.txt").write_text(done.stdout + done.stderr)
    assert done.returncode == 0, f"schemathesis found problems:\n{failures(done.stdout)}"
    report: dict[str, Any] = json.loads(counts.read_text())
    print(f"\n{name} (seed {seed}): {report['requests']} requests in {seconds:.0f} s")
    return report


def merged(*reports: dict[str, Any]) -> dict[str, Any]:
    by_status: Counter[str] = Counter()
    by_operation: Counter[str] = Counter()
    for report in reports:
        by_status.update(report["by_status"])
        by_operation.update(report["by_operation"])
    return {
        "requests": sum(r["requests"] for r in reports),
        "by_status": dict(sorted(by_status.items())),
        "by_operation": by_operation,
        "legal_actions_posted": sum(r["legal_actions_posted"] for r in reports),
    }


@pytest.mark.slow
def test_schemathesis_finds_no_5xx_and_no_schema_violation(
    make_server: Any, tmp_path: Path
) -> None:
    """Issue 16: every answer is documented (status code, content type, headers, body),
    none is a 5xx, and the fuzzer plays real games with real tokens and legal actions."""
    schemathesis_or_skip()
    server = make_server(f"sqlite:///{tmp_path / 'schema.db'}")
    start = time.monotonic()
    reports = [run(server, tmp_path, "everything", 16, "--max-examples", str(EVERYTHING_EXAMPLES))]
    for seed in range(17, 17 + MAX_PLAY_RUNS):
        if sum(r["requests"] for r in reports) >= MIN_REQUESTS:
            break
        reports.append(
            run(
                server,
                tmp_path,
                "play",
                seed,
                *("--phases", "stateful", "--max-examples", str(PLAY_EXAMPLES)),
                *("--include-operation-id-regex", GAME_OPERATIONS),
            )
        )
    seconds = time.monotonic() - start
    total = merged(*reports)
    print(
        f"\nschemathesis: {total['requests']} requests in {seconds:.0f} s, "
        f"by status {total['by_status']}, "
        f"{total['legal_actions_posted']} legal actions posted by the hook, "
        f"{total['by_operation']['post_action 200']} actions accepted"
    )
    assert not [s for s in total["by_status"] if s.startswith("5")], total["by_status"]
    assert total["requests"] >= MIN_REQUESTS, total
    operations = total["by_operation"]
    assert operations["create_game 201"] >= 10, "games were created"
    assert operations["get_view 200"] >= 50, "seats read their views with their tokens"
    assert operations["post_action 200"] >= 20, "seats' legal actions were accepted"
    assert total["legal_actions_posted"] >= 20
