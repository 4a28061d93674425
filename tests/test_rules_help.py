"""Rules at hand: every rule number the engine and the pages can print - in a refusal, a
prompt, an event's words, the status line, the options, a scenario's victory condition -
has a short explanation in scenarios/rules-help.toml, and every entry is a rule the
rulebook (or RULES-NOTES.md) names."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from app.data import catalog
from app.data.options import optional_rules
from app.data.rules_help import RULE_NUMBER, parse, rules_help
from app.rules.base.setup import playable
from app.rules.engine.steps import STEPS
from app.web.events import STEP_RULE
from app.web.rule_links import RULE, link_rules

ROOT = Path(__file__).parents[1]
PRINTING = ("app/rules", "app/web", "app/games", "app/api")
RULEBOOK = Path("/work/shared/rulebook/midway-1991-rulebook.txt")
NOTES = Path("/work/shared/RULES-NOTES.md")
ERRORS = ("IllegalAction", "NotOffered", "BadRequest", "Forbidden")


def _docstrings(tree: ast.AST) -> set[int]:
    kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def _numbers(text: str) -> set[str]:
    return {m.group("rule") or m.group("section") or m.group("named") for m in RULE.finditer(text)}


def printed_by_code() -> dict[str, str]:
    """Rule numbers in the string constants of the code that makes words for people
    (docstrings aside), and the bare numbers refusals name ("3", "18"), with where."""
    out: dict[str, str] = {}
    for folder in PRINTING:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            skip = _docstrings(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    for n in _numbers(node.value) if id(node) not in skip else ():
                        out.setdefault(n, str(path.relative_to(ROOT)))
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ERRORS:
                    first = node.args[0] if node.args else None
                    if isinstance(first, ast.Constant) and RULE_NUMBER.fullmatch(str(first.value)):
                        out.setdefault(str(first.value), str(path.relative_to(ROOT)))
    return out


def printed_by_templates() -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((ROOT / "app/templates").rglob("*.html")):
        text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)
        text = re.sub(r"<[^>]*>", " ", text)  # tags' attributes are no text
        for n in _numbers(text):
            out.setdefault(n, str(path.relative_to(ROOT)))
    return out


def printed_by_data() -> dict[str, str]:
    """The steps' rules (the prompt bar), the optional rules (the status line), and each
    scenario's victory condition (its rule 4.1)."""
    out = {s.rule: f"step {s.name}" for s in STEPS.values() if s.rule}
    out |= {rule: f"step {step}" for step, rule in STEP_RULE.items()}
    out |= {rule: "scenarios/options.toml" for rule in optional_rules().options}
    games = [s for s in catalog().scenarios.values() if playable(s)]  # only a game's page says it
    # the expansion's scenarios print their own "Victory Points" section, not a rule 4.1
    out |= {f"{s.rule}4.1": f"scenario {s.id}" for s in games if s.theatre is None}
    return out


def test_every_rule_number_the_engine_can_print_has_an_explanation() -> None:
    known = rules_help().rules
    printed = printed_by_code() | printed_by_templates() | printed_by_data()
    assert len(printed) > 100, "the walk found the rule numbers"
    missing = {n: where for n, where in printed.items() if n and n not in known}
    assert not missing, missing


def test_each_explanation_is_a_rule_the_rulebook_names() -> None:
    if not RULEBOOK.is_file():
        pytest.skip("the rulebook transcription is not beside the project")
    book = RULEBOOK.read_text() + (NOTES.read_text() if NOTES.is_file() else "")
    unknown = [
        r
        for r in rules_help().rules
        if not re.search(rf"(?<![\w.]){re.escape(r)}(?![\w])", book)
        and r != "16h3"  # app/web/events.py names the friendly-ship torpedo hit so
    ]
    assert not unknown


def test_an_entry_is_checked_when_loaded() -> None:
    with pytest.raises(ValueError, match="provenance"):
        parse({"rule": {}})
    with pytest.raises(ValueError, match="'3z' is not a rule number"):
        parse({"provenance": "x", "rule": {"3z": {"title": "t", "text": "x"}}})
    with pytest.raises(ValueError, match="rule 3c needs a title and a text"):
        parse({"provenance": "x", "rule": {"3c": {"title": "t"}}})


def test_rule_numbers_in_text_become_links_and_nothing_else_does() -> None:
    html = (
        '<p>Sea movement (3c): Rule 7b4.1. Sides roll (3). <a href="/x">4b4</a> '
        "H4 1F6 3c/2c [0-9a-f] (1 hit)<button>3c</button><svg><text>2c</text></svg></p>"
    )
    out = link_rules(html)
    assert re.findall(r'data-rule="([^"]+)"', out) == ["3c", "7b4.1", "3"]
    assert '<a href="/x">4b4</a>' in out and "<button>3c</button>" in out
