"""Issue 35: the computer is a seat and reads only what a person at that seat reads.

app/bots imports nothing of the rules engine, the server or the game's storage - not even
the seat-facing functions: the server hands it the seat's view document (whose prompt is
the legal actions) and log, and it returns one of those actions. With no import of the
engine it cannot reach a State, the seed or the enemy's hidden positions; a test walks its
imports and fails on any other (as tests/rules/engine/test_engine.py keeps the engine pure).
"""

from __future__ import annotations

import ast
from pathlib import Path

BOTS = Path(__file__).resolve().parents[2] / "app" / "bots"
# The standard library's pure parts the policy uses; no I/O, no clock, no process state.
ALLOWED = {
    "__future__",
    "collections",
    "dataclasses",
    "functools",
    "hashlib",
    "json",
    "random",
    "typing",
}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            names.add(node.module or "")
    return names


def test_bots_import_only_bots_and_pure_stdlib() -> None:
    """Issue 35: no module of app.rules, app.games, app.api, app.data; no time, os, io."""
    files = sorted(BOTS.rglob("*.py"))
    assert len(files) >= 5
    for path in files:
        for name in imported(path):
            top = name.split(".")[0]
            ok = name == "app.bots" or name.startswith("app.bots.") or top in ALLOWED
            assert ok, f"{path.name} imports {name}: app/bots may read only the seat's view and log"


def test_bots_read_no_builtin_escape_hatch() -> None:
    """No __import__, importlib, eval, exec or open in app/bots (an import by other means)."""
    for path in sorted(BOTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Name):
                assert node.id not in {"__import__", "eval", "exec", "open", "globals"}, (
                    f"{path.name} uses {node.id}"
                )
