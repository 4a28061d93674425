"""Rules at hand: a short explanation of each rule number the pages print, in our own
words with the engine's numbers, from `scenarios/rules-help.toml`."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

FILE = "rules-help.toml"
RULE_NUMBER = re.compile(r"(1[0-8]|[1-9])([a-k](\d+(\.\d+)*)?)?")


@dataclass(frozen=True)
class RuleHelp:
    rule: str
    title: str
    text: str


@dataclass(frozen=True)
class RulesHelp:
    rules: Mapping[str, RuleHelp]
    provenance: str

    def get(self, rule: str) -> RuleHelp | None:
        return self.rules.get(rule)


def parse(data: Mapping[str, Any]) -> RulesHelp:
    """The file's entries, each checked: a rule number as the rulebook writes it, a title
    and a text; ValueError naming the entry otherwise."""
    provenance = data.get("provenance")
    if not isinstance(provenance, str) or not provenance:
        raise ValueError(f"scenarios/{FILE}: a provenance line is needed")
    out: dict[str, RuleHelp] = {}
    for rule, entry in (data.get("rule") or {}).items():
        if not RULE_NUMBER.fullmatch(rule):
            raise ValueError(f"scenarios/{FILE}: rule {rule!r} is not a rule number")
        title, text = entry.get("title"), entry.get("text")
        if not isinstance(title, str) or not isinstance(text, str) or not title or not text:
            raise ValueError(f"scenarios/{FILE}: rule {rule} needs a title and a text")
        if set(entry) - {"title", "text"}:
            raise ValueError(f"scenarios/{FILE}: rule {rule}: unknown keys {set(entry)}")
        out[rule] = RuleHelp(rule, title, text)
    return RulesHelp(MappingProxyType(out), provenance)


@cache
def rules_help(folder: Path | None = None) -> RulesHelp:
    from app.data import SCENARIOS_DIR

    with open((folder or SCENARIOS_DIR) / FILE, "rb") as f:
        return parse(tomllib.load(f))
