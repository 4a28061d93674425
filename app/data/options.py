"""The optional rules (rulebook 11-16) from `scenarios/options.toml`: each one's number,
name and one-sentence description, the options it needs, the options a scenario always
brings (7e: Scenario Four requires 16), the options a scenario is not played with (the
expansion's scenarios have no scout units), and the create form's presets."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

FILE = "scenarios/options.toml"


@dataclass(frozen=True)
class OptionRule:
    rule: str
    name: str
    text: str
    needs: tuple[str, ...] = ()


@dataclass(frozen=True)
class OptionalRules:
    options: Mapping[str, OptionRule]
    scenario_brings: Mapping[str, tuple[str, ...]]
    presets: Mapping[str, tuple[str, ...]]
    scenario_refuses: Mapping[str, tuple[str, ...]]
    refuses_why: str

    def offered(self, scenario: str) -> list[str]:
        """The optional rules a game of `scenario` may be played with."""
        refused = self.scenario_refuses.get(scenario, ())
        return [rule for rule in self.options if rule not in refused]

    def chosen(self, scenario: str, options: Iterable[str]) -> frozenset[str]:
        """The options a game of `scenario` is played with: those asked for and those the
        scenario brings; ValueError naming the rule for an unknown option or one given
        without an option it needs."""
        asked = set(options)
        unknown = asked - set(self.options)
        if unknown:
            raise ValueError(
                f"unknown optional rules {sorted(unknown)}; available: {sorted(self.options)}"
            )
        refused = sorted(asked & set(self.scenario_refuses.get(scenario, ())))
        if refused:
            names = " and ".join(f"{r} ({self.options[r].name})" for r in refused)
            raise ValueError(
                f"optional rule {names} is not played in scenario {scenario}: {self.refuses_why}"
            )
        played = asked | set(self.scenario_brings.get(scenario, ()))
        for rule in sorted(played):
            missing = [n for n in self.options[rule].needs if n not in played]
            if missing:
                raise ValueError(
                    f"optional rule {rule} ({self.options[rule].name}) needs optional rule "
                    + " and ".join(f"{m} ({self.options[m].name})" for m in missing)
                )
        return frozenset(played)


def _strings(where: str, raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ValueError(f"{FILE}: {where}: expected a list of rule numbers")
    return tuple(raw)


def _text(where: str, raw: Any) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"{FILE}: {where}: expected a non-empty string")
    return raw


def parse(data: Mapping[str, Any]) -> OptionalRules:
    options: dict[str, OptionRule] = {}
    for i, raw in enumerate(data.get("option", [])):
        where = f"option[{i}]"
        rule = _text(f"{where}.rule", raw.get("rule"))
        if rule in options:
            raise ValueError(f"{FILE}: {where}.rule: duplicate rule {rule!r}")
        options[rule] = OptionRule(
            rule,
            _text(f"{where}.name", raw.get("name")),
            _text(f"{where}.text", raw.get("text")),
            _strings(f"{where}.needs", raw.get("needs", [])),
        )
    brings = {
        k: _strings(f"scenario_brings.{k}", v) for k, v in data.get("scenario_brings", {}).items()
    }
    refuses = {
        k: _strings(f"scenario_refuses.{k}", v)
        for k, v in data.get("scenario_refuses", {}).items()
        if k != "why"
    }
    why = _text("scenario_refuses.why", data["scenario_refuses"]["why"]) if refuses else ""
    presets = {k: _strings(f"presets.{k}", v) for k, v in data.get("presets", {}).items()}
    presets["everything"] = tuple(options)
    named = [(f"option {o.rule}.needs", o.needs) for o in options.values()]
    named += [(f"scenario_brings.{k}", v) for k, v in brings.items()]
    named += [(f"scenario_refuses.{k}", v) for k, v in refuses.items()]
    named += [(f"presets.{k}", v) for k, v in presets.items()]
    for where, rules in named:
        for rule in rules:
            if rule not in options:
                raise ValueError(f"{FILE}: {where}: no optional rule {rule!r}")
    return OptionalRules(
        MappingProxyType(options),
        MappingProxyType(brings),
        MappingProxyType(presets),
        MappingProxyType(refuses),
        why,
    )


@cache
def optional_rules(folder: Path | None = None) -> OptionalRules:
    from app.data import SCENARIOS_DIR

    with open((folder or SCENARIOS_DIR) / "options.toml", "rb") as f:
        return parse(tomllib.load(f))
