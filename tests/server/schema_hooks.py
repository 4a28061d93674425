"""Schemathesis hooks for the schema run (tests/server/test_schema.py, `make fuzz-schema`).

- Every answer is counted, by operation and status code; the counts are written as JSON
  to $SCHEMA_COUNTS when the run ends.
- The seat tokens that game creations and lobby joins hand out are remembered. A
  positive POST .../actions sent with one of them is given a real legal action most of
  the time: the hook reads the seat's view now and takes one of its prompt.actions at
  random, with the view's version, so the games move on past their first step.
"""

from __future__ import annotations

import atexit
import json
import os
import random
import threading
from collections import Counter
from typing import Any

import requests
import schemathesis
from schemathesis.core.parameters import ParameterLocation

LEGAL_SHARE = 0.85  # the other actions stay what the schema's links and generation make
ACT = "post_action"
HANDS_OUT_TOKENS = ("create_game", "open_game", "join_game")

lock = threading.Lock()
counts: Counter[tuple[str, int]] = Counter()
phases: Counter[str] = Counter()
tokens: set[str] = set()
legal_actions_posted = 0
rng = random.Random(int(os.environ.get("SCHEMA_SEED", "16")))


def _operation_id(case: Any) -> str:
    return str(case.operation.definition.raw.get("operationId", case.operation.label))


def _token_of(case: Any) -> str | None:
    scheme, _, token = str(case.headers.get("Authorization", "") if case.headers else "").partition(
        " "
    )
    return token if scheme == "Bearer" and token in tokens else None


def _positive_body(case: Any) -> bool:
    meta = case.meta
    return meta is None or not meta.is_negative_at(ParameterLocation.BODY)


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    global legal_actions_posted
    if _operation_id(case) != ACT or not _positive_body(case):
        return
    with lock:
        token = _token_of(case)
        chosen = rng.random() < LEGAL_SHARE
    if token is None or not chosen:
        return
    base = os.environ["SCHEMA_BASE_URL"]
    game = case.path_parameters.get("game_id", "")
    answer = requests.get(
        f"{base}/api/games/{game}", headers={"Authorization": f"Bearer {token}"}, timeout=30
    )
    if answer.status_code != 200:
        return
    view = answer.json()
    actions = view["prompt"]["actions"]
    if actions:
        with lock:
            action = rng.choice(actions)
            legal_actions_posted += 1
        case.body = {"version": view["version"], "action": action}


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    operation = _operation_id(case)
    with lock:
        counts[(operation, response.status_code)] += 1
        phases[case.meta.phase.name if case.meta else "?"] += 1
        if operation in HANDS_OUT_TOKENS and response.status_code in (200, 201):
            body = response.json()
            seats = [body] if "token" in body else body.get("seats", [])
            tokens.update(str(seat["token"]) for seat in seats)


def _write_counts() -> None:
    path = os.environ.get("SCHEMA_COUNTS")
    if not path:
        return
    with lock:
        report = {
            "requests": sum(counts.values()),
            "by_status": dict(sorted(_by_status().items())),
            "by_phase": dict(phases),
            "by_operation": {f"{op} {status}": n for (op, status), n in sorted(counts.items())},
            "legal_actions_posted": legal_actions_posted,
            "tokens_seen": len(tokens),
        }
    with open(path, "w") as out:
        json.dump(report, out, indent=1)


def _by_status() -> Counter[str]:
    total: Counter[str] = Counter()
    for (_, status), n in counts.items():
        total[str(status)] += n
    return total


atexit.register(_write_counts)
