"""Issue 33 (typed contracts): the rules ask for an optional rule (11-16) by its `OptionId`,
never by a string, and the ids are the data's (scenarios/options.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

from app.data.options import optional_rules
from app.rules.engine.options import OptionId

RULES = Path(__file__).resolve().parents[3] / "app" / "rules"


def test_issue_33_the_option_ids_are_the_datas() -> None:
    """11-16: every option of scenarios/options.toml has its member, and every member but
    Scenario Four's "for variety" facing (7e4.2, a key of that scenario's) is an option."""
    data = {o.rule for o in optional_rules().options.values()}
    assert {o.value for o in OptionId} - {OptionId.FACING_VARIANT.value} == data


def test_issue_33_no_rule_asks_for_an_option_by_a_string() -> None:
    """`"16" in state.options` (35 such tests once): a misspelt id is an option silently
    off. Each is `OptionId.SURFACE_COMBATS in state.options` now, which mypy checks."""
    found = []
    for path in sorted(RULES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            asks = any(isinstance(s, ast.Attribute) and s.attr == "options" for s in sides)
            named = any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides)
            if asks and named:
                found.append(f"{path.relative_to(RULES)}:{node.lineno}")
    assert found == []
