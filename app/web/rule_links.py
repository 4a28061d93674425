"""Rules at hand: every rule number printed on a page ("(3c)", "Rule 7b4.1.") becomes a
link to its short explanation (scenarios/rules-help.toml): `/rules#rule-3c` without
script, a popup beside it with app/static/rules.js. Done on a page's HTML, in its text
only: never inside a tag, nor inside an element that is itself a control or no place
for one (a link, a button, a label, a form field, a summary, SVG text, a title).
"""

from __future__ import annotations

import re
from functools import cache

from app.data.rules_help import rules_help

# A rule number in running text: "3c", "4b4", "12b2.3", "7b4.1", not part of a word, a
# number or a range of hex letters ("0-9a-f"); a bare section number only in brackets
# ("(3)") or after "Rule".
NUMBER = r"(?:1[0-8]|[1-9])[a-k](?:\d+(?:\.\d+)*)?"
RULE = re.compile(
    rf"(?<![\w.\-/#=])(?P<rule>{NUMBER})(?![\w/])(?!\.\d)"
    r"|(?<=\()(?P<section>1[0-8]|[1-9])(?=\))"
    r"|(?<=Rule )(?P<named>1[0-8]|[1-9])(?![\w.]\d)"
)
TAG = re.compile(r"(<[^>]*>)")
NAME = re.compile(r"</?\s*([a-zA-Z][\w:-]*)")
# Elements whose text is left alone: controls, and places where a link may not go.
SKIP = frozenset(
    {
        *("a", "button", "label", "select", "option", "textarea", "summary"),
        *("script", "style", "title", "text", "tspan", "kbd", "code"),
    }
)


@cache
def known() -> frozenset[str]:
    return frozenset(rules_help().rules)


def rule_href(rule: str) -> str:
    return f"/rules#rule-{rule}"


def _link(match: re.Match[str]) -> str:
    rule = match.group("rule") or match.group("section") or match.group("named")
    if rule not in known():
        return match.group(0)
    return f'<a class="rule" href="{rule_href(rule)}" data-rule="{rule}">{rule}</a>'


def link_rules(html: str) -> str:
    """`html` with each rule number of its text a link to the rule's explanation."""
    out: list[str] = []
    skipping: list[str] = []
    for part in TAG.split(html):
        if part.startswith("<"):
            name = NAME.match(part)
            tag = name.group(1).lower() if name else ""
            if tag in SKIP and not part.endswith("/>"):
                if part.startswith("</"):
                    if skipping and skipping[-1] == tag:
                        skipping.pop()
                else:
                    skipping.append(tag)
            out.append(part)
        elif skipping or not part.strip():
            out.append(part)
        else:
            out.append(RULE.sub(_link, part))
    return "".join(out)
