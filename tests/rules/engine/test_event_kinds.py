"""Issue 33: event kinds as a type. Every kind the rules emit is an `EventKind`: an
unknown kind fails here, not silently the umpire's only (18c: the umpired modes' policy
gives an event it does not place to the umpire alone)."""

from __future__ import annotations

import ast
import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.rules.engine.events import EventKind
from app.rules.modes.umpire import PUBLIC, UMPIRE_ROLLS

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "app" / "rules"
GOLDEN = ROOT / "tests" / "golden"
KINDS = {k.value for k in EventKind}


def written_kinds(source: str) -> Iterator[tuple[int, str]]:
    """The kinds written as strings where events are made: an `Event("...")`'s first
    argument, and a module's `KIND = "..."` (the combat kinds of 4b, 11b, 11e, 16)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args:
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            first = node.args[0]
            if name in ("Event", "PendingCombat") and isinstance(first, ast.Constant):
                yield node.lineno, str(first.value)
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and any(isinstance(t, ast.Name) and t.id == "KIND" for t in node.targets)
        ):
            yield node.lineno, str(node.value.value)


def unknown_in(source: str) -> list[str]:
    return [f"{line}: {kind!r}" for line, kind in written_kinds(source) if kind not in KINDS]


def test_issue_33_every_kind_the_rules_write_is_an_event_kind() -> None:
    for path in sorted(RULES.rglob("*.py")):
        bad = unknown_in(path.read_text())
        assert not bad, f"{path.relative_to(ROOT)}: {bad} not in EventKind"


def test_issue_33_an_unknown_kind_is_found() -> None:
    source = 'out.append(Event("sighting", ALL, state.turn, state.step, {}))\n'
    assert unknown_in(source) == ["1: 'sighting'"]


def _events(doc: Any) -> Iterator[str]:
    if isinstance(doc, dict):
        if {"kind", "audience", "turn"} <= doc.keys():
            yield str(doc["kind"])
        for value in doc.values():
            yield from _events(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from _events(value)


def test_issue_33_every_kind_the_golden_playthroughs_hold_is_an_event_kind() -> None:
    """Every scenario and mode played (tests/golden): the kinds made at run time too (an
    action's kind, a combat's)."""
    seen: set[str] = set()
    for path in sorted(GOLDEN.glob("*.jsonl.gz")):
        with gzip.open(path, "rt") as lines:
            for line in lines:
                seen.update(_events(json.loads(line)))
    assert len(seen) > 50
    assert seen <= KINDS, sorted(seen - KINDS)


def test_issue_33_18c_the_umpires_tables_name_event_kinds() -> None:
    assert PUBLIC <= KINDS, sorted(PUBLIC - KINDS)
    assert UMPIRE_ROLLS <= KINDS, sorted(UMPIRE_ROLLS - KINDS)
