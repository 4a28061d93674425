"""Rules at hand: every rule number printed on a page ("(3c)", "Rule 7b4.1.") becomes a
link to its short explanation (scenarios/rules-help.toml): `/rules#rule-3c` without
script, a popup beside it with app/static/rules.js. Done on a page's HTML, in its text
only: never inside a tag, nor inside an element that is itself a control or no place
for one (a link, a button, a label, a form field, a summary, SVG text, a title).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from markupsafe import Markup, escape

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
# Elements whose text is left alone (controls, and places where a link may not go),
# each taken whole, and any other tag: what lies between them is running text.
SKIP = "a|button|label|select|option|textarea|summary|script|style|title|svg|text|tspan|kbd|code"
MARKUP = re.compile(rf"<({SKIP})\b[^>]*>.*?</\1\s*>|<[^>]*>", re.S)


@cache
def known() -> frozenset[str]:
    return frozenset(rules_help().rules)


def rule_href(rule: str) -> str:
    return f"/rules#rule-{rule}"


def rule_link(rule: str) -> Markup:
    """One rule number as the link to its explanation (for a template whose region is
    too large to scan: the Operations Cards, mostly counters)."""
    if rule not in known():
        return Markup.escape(rule)
    return Markup(f'<a class="rule" href="{rule_href(rule)}" data-rule="{rule}">{rule}</a>')


def linked(text: object) -> Markup:
    """A text of a template's running text (escaped unless Markup), its rule numbers
    links: for a region linked in its template, what `link_rules` does to the whole."""
    return _linked(str(escape(text)))


@lru_cache(maxsize=8192)
def _linked(html: str) -> Markup:
    return Markup(link_rules(html))  # the same words recur: a log's lines, a board's legend


def _link(match: re.Match[str]) -> str:
    rule = match.group("rule") or match.group("section") or match.group("named")
    return str(rule_link(rule)) if rule in known() else match.group(0)


def link_rules(html: str) -> str:
    """`html` with each rule number of its text a link to the rule's explanation."""
    out: list[str] = []
    done = 0
    for tag in MARKUP.finditer(html):
        if tag.start() > done:
            out.append(_link_text(html[done : tag.start()]))
        out.append(tag.group(0))
        done = tag.end()
    out.append(_link_text(html[done:]))
    return "".join(out)


@lru_cache(maxsize=16384)
def _link_text(text: str) -> str:
    """A stretch of running text linked (the same stretches recur from push to push)."""
    return RULE.sub(_link, text)
