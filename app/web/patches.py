"""Issue 34: a live page is sent what changed in a region, not the region re-rendered.

A region (or a part of the Operations Cards: a *unit*, an element with an id and a
version stamp, `data-v`) is compared, as this socket last sent it, with its fresh HTML,
element by element among those with an id:

- the same elements with ids in the same order, and the HTML around them the same: each
  element that changed is compared in turn (its own elements with ids), else sent whole;
- elements with ids added or removed where only whitespace stood beside them, the others
  in the same order: the removed ones deleted, the added ones put after (or before) their
  neighbour, the others compared as above;
- anything else: the element sent whole (for the unit itself: the region, as before).

Each change is an htmx out-of-band swap of a `<template>` (`hx-swap-oob`: "true" for an
element replaced by its id, "delete", "afterend:#id" or "beforebegin:#id"), whose content
the page's script (midway.js) takes out of the template before htmx swaps it in: a
template parses SVG within `<svg>` as SVG, which a fragment of a websocket message would
not. Each template says which unit it patches and between which of its versions
(`data-in`, `data-from`, `data-to`): the page applies it only to the unit as this socket
left it, skips it when the unit already shows that version or a later one, and else (an
answer over HTTP brought a version in between) fetches its regions whole.

The page's whitespace may then differ from a fresh render's where an element was removed
(the line breaks beside it stay): nothing the page shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
ID = ' id="'
NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
SAFE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
STAMP = re.compile(r' data-v="(-?\d+)"')
OWN = re.compile(r' (?:data-v="-?\d+"|hx-swap-oob="true")')


@cache
def _tags(name: str) -> re.Pattern[str]:
    """The start and end tags of elements named `name`."""
    return re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])")


def element_end(html: str, lt: int) -> int:
    """Where the element whose start tag begins at `lt` ends (after its end tag)."""
    name = NAME.match(html, lt + 1)
    if name is None:
        raise ValueError(f"no tag at {lt}")
    gt = html.index(">", lt)
    if html[gt - 1] == "/" or name.group().lower() in VOID:
        return gt + 1
    depth = 1
    for m in _tags(name.group()).finditer(html, gt + 1):
        end = html.index(">", m.end())
        if m.group(1):
            depth -= 1
            if depth == 0:
                return end + 1
        elif html[end - 1] != "/":
            depth += 1
    raise ValueError(f"<{name.group()}> at {lt} does not end")


@dataclass(frozen=True)
class Child:
    id: str
    start: int
    end: int
    svg: bool  # within an <svg>: its HTML parses as SVG only there


def children(html: str, svg: bool = False) -> tuple[list[str], list[Child]]:
    """The outermost elements with an id within the element `html` (not itself), and the
    HTML around them: texts[0] child[0] texts[1] ... child[n-1] texts[n]."""
    body = html.index(">") + 1
    texts: list[str] = []
    kids: list[Child] = []
    pos = last = body
    while True:
        i = html.find(ID, pos)
        if i < 0:
            break
        lt = html.rfind("<", pos, i)
        if lt < 0 or html.find(">", lt, i) >= 0 or html[lt + 1] in "/!":
            pos = i + len(ID)  # not in a start tag
            continue
        quote = html.index('"', i + len(ID))
        end = element_end(html, lt)
        inside = svg or html.count("<svg", body, lt) > html.count("</svg>", body, lt)
        texts.append(html[last:lt])
        kids.append(Child(html[i + len(ID) : quote], lt, end, inside))
        pos = last = end
    texts.append(html[last:])
    return texts, kids


@dataclass(frozen=True)
class Op:
    """One out-of-band swap: `how` ("true", "delete", "afterend", "beforebegin") of the
    element `target` with `html` (SVG when `svg`)."""

    how: str
    target: str
    html: str = ""
    svg: bool = False

    def size(self) -> int:
        return len(self.html) + len(self.target) + 120

    def template(self, unit: str, before: int, after: int) -> str:
        patch = f' data-in="{unit}" data-from="{before}" data-to="{after}"'
        body = f"<svg>{self.html}</svg>" if self.svg else self.html
        patch += " data-svg" if self.svg else ""
        if self.how in ("true", "delete"):
            head = f'id="{self.target}" hx-swap-oob="{self.how}"'
        else:
            head = f'hx-swap-oob="{self.how}:#{self.target}"'
        return f"<template {head}{patch}>{body}</template>"


def _blank(text: str) -> bool:
    return not text.strip()


def head(html: str) -> str:
    """An element's start tag without its version stamp and swap attribute: a region or a
    part of one is the same element at another version."""
    return OWN.sub("", html[: html.index(">") + 1])


def same(old: str, new: str) -> bool:
    """The same element, its stamp aside."""
    i, j = old.index(">") + 1, new.index(">") + 1
    return old[i:] == new[j:] and head(old) == head(new)


def diff(old: str, new: str, svg: bool = False) -> list[Op] | None:
    """The swaps that make element `old` (as the page has it) into `new`, the same
    element (its id and start tag), or None if it must be sent whole."""
    if old == new or same(old, new):
        return []
    if head(old) != head(new):
        return None  # its own attributes changed
    ot, oc = children(old, svg)
    nt, nc = children(new, svg)
    old_ids, new_ids = [c.id for c in oc], [c.id for c in nc]
    if len(set(old_ids)) < len(oc) or len(set(new_ids)) < len(nc):
        return None
    ops: list[Op] = []
    if old_ids == new_ids:
        if ot != nt:
            return None
        pairs = list(zip(oc, nc, strict=True))
    else:
        # a list: elements with ids with only whitespace between them, some removed
        # or added, the others in the same order
        both = set(new_ids)
        kept = in_order([i for i in old_ids if i in both], new_ids)
        if not kept:
            return None
        if ot[0] != nt[0] or ot[-1] != nt[-1]:
            return None
        if not all(_blank(t) for t in ot[1:-1]) or not all(_blank(t) for t in nt[1:-1]):
            return None
        if not all(SAFE_ID.fullmatch(i) for i in old_ids + new_ids):
            return None
        ops += [Op("delete", c.id) for c in oc if c.id not in kept]
        ops += _insertions(new, nt, nc, kept)
        by_id = {c.id: c for c in oc}
        pairs = [(by_id[c.id], c) for c in nc if c.id in kept]
    for o, n in pairs:
        was, now = old[o.start : o.end], new[n.start : n.end]
        if was == now or same(was, now):
            continue
        if not SAFE_ID.fullmatch(n.id):
            return None
        inner = diff(was, now, n.svg)
        if inner is None or sum(op.size() for op in inner) >= len(now):
            inner = [Op("true", n.id, now, n.svg)]
        ops += inner
    return ops


def in_order(old: list[str], new: list[str]) -> set[str]:
    """The most of `old` (ids also in `new`) that stand in the same order in both: the
    others are moved (removed, then put in anew)."""
    at = {i: n for n, i in enumerate(new)}
    seq = [at[i] for i in old]
    # the longest increasing run of positions (patience sorting)
    tails: list[int] = []
    prev: list[int] = [-1] * len(seq)
    ends: list[int] = []
    for k, x in enumerate(seq):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if tails[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        prev[k] = ends[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(x)
            ends.append(k)
        else:
            tails[lo], ends[lo] = x, k
    out: set[str] = set()
    k = ends[-1] if ends else -1
    while k >= 0:
        out.add(old[k])
        k = prev[k]
    return out


def _insertions(new: str, texts: list[str], kids: list[Child], kept: set[str]) -> list[Op]:
    """Each run of added elements of a list put after the kept one before it, or before
    the kept one after it (at the list's head), with the whitespace between."""
    ops: list[Op] = []
    i = 0
    while i < len(kids):
        if kids[i].id in kept:
            i += 1
            continue
        j = i
        while j + 1 < len(kids) and kids[j + 1].id not in kept:
            j += 1
        run = new[kids[i].start : kids[j].end]
        if i > 0:
            ops.append(Op("afterend", kids[i - 1].id, texts[i] + run, kids[i].svg))
        else:  # a kept one follows: the list keeps one
            ops.append(Op("beforebegin", kids[j + 1].id, run + texts[j + 1], kids[i].svg))
        i = j + 1
    return ops


def unit_id(html: str) -> str:
    """The id of the element `html` is (a region, a part of one)."""
    start = html.index(ID) + len(ID)
    return html[start : html.index('"', start)]


def stamp(html: str) -> int:
    found = STAMP.search(html, 0, html.index(">") + 1)
    return int(found.group(1)) if found else 0


class Shown:
    """What one page holds of each region as this socket last sent it (with the parts
    sent alone since put in it); `patch` gives, for a region or a part rendered anew, the
    swaps that bring the page there (the element whole the first time, or when that is
    no larger)."""

    def __init__(self) -> None:
        self.regions: dict[str, str] = {}  # by name (LiveRegions')

    def has(self, name: str, html: str) -> None:
        """The page holds this HTML of the region (a page loaded at the socket's version)."""
        self.regions[name] = html

    def message(self, fresh: dict[str, str]) -> str:
        """The swaps that bring the page from what it holds to the regions and parts
        rendered anew (`fresh`, by name): the removals first, as an element moved from
        one list to another is put in anew by its id, which must then be its only one."""
        removals: list[str] = []
        rest: list[str] = []
        for name, html in fresh.items():
            self._patch(name, html, removals, rest)
        return "".join(removals + rest)

    def _patch(self, name: str, html: str, removals: list[str], rest: list[str]) -> None:
        """What to send of region or part `name` (render.part_name), rendered anew as
        `html`: nothing when the page shows it so already, the swaps that make it so, or
        the element whole."""
        region, _, part = name.partition("/")
        held = self.regions.get(region)
        if not part:
            self.regions[name] = html
            self._swaps(held, html, removals, rest)
            return
        mark = -1 if held is None else held.find(f'{ID}{part}"')
        if held is None or mark < 0:
            rest.append(html)
            return
        start = held.rindex("<", 0, mark)
        end = element_end(held, start)
        body = html.index(">") + 1
        kept = html[:body].replace(' hx-swap-oob="true"', "", 1) + html[body:]
        self.regions[region] = held[:start] + kept + held[end:]
        self._swaps(held[start:end], html, removals, rest)

    @staticmethod
    def _swaps(held: str | None, html: str, removals: list[str], rest: list[str]) -> None:
        ops = None if held is None else diff(held, html)
        if held is None or ops is None or sum(op.size() for op in ops) >= len(html):
            rest.append(html)
            return
        unit = unit_id(html)
        before, after = stamp(held), stamp(html)
        for op in ops:
            (removals if op.how == "delete" else rest).append(op.template(unit, before, after))


ATTR = re.compile(r'([\w:-]+)(?:="([^"]*)")?')


def _attrs(html: str) -> dict[str, str]:
    head = html[: html.index(">")]
    return {m.group(1): m.group(2) or "" for m in ATTR.finditer(head, head.index(" "))}


def elements(message: str) -> list[str]:
    """The top-level elements of a socket's message."""
    out, pos = [], message.find("<")
    while pos >= 0:
        end = element_end(message, pos)
        out.append(message[pos:end])
        pos = message.find("<", end)
    return out


class Page:
    """A page's regions, as htmx and the page's script (midway.js) swap in what its
    socket sends, on their HTML: what the benchmark's page seats and the tests hold.
    Each region whole by its id, in `html`."""

    def __init__(self, only: str | None = None) -> None:
        self.html = ""
        self.refreshes = 0  # patches that found their unit at another version
        self.only = only  # the id of the one region to hold (None: all)

    def span(self, element_id: str) -> tuple[int, int] | None:
        mark = f'{ID}{element_id}"'
        i = self.html.find(mark)
        if i < 0:
            return None
        lt = self.html.rindex("<", 0, i)
        return lt, element_end(self.html, lt)

    def element(self, element_id: str) -> str | None:
        found = self.span(element_id)
        return None if found is None else self.html[found[0] : found[1]]

    def apply(self, message: str) -> None:
        patching: dict[str, int] = {}
        for el in elements(message):
            a = _attrs(el)
            if self.only is not None and self.only not in (a.get("id"), a.get("data-in")):
                continue
            if el.startswith("<template"):
                self._patch(el, a, patching)
                continue
            found = self.span(a["id"])
            if found is None:
                self.html += el
                continue
            held = self.html[found[0] : found[1]]
            if "data-v" in a and stamp(held) > int(a["data-v"]):
                continue  # an older version never replaces a newer one
            self.html = self.html[: found[0]] + el + self.html[found[1] :]

    def _patch(self, el: str, a: dict[str, str], patching: dict[str, int]) -> None:
        unit, before, after = a["data-in"], int(a["data-from"]), int(a["data-to"])
        found = self.span(unit)
        if found is None:
            self.refreshes += 1
            return
        have = stamp(self.html[found[0] : found[1]])
        if patching.get(unit) != after:
            if have > before:
                self.refreshes += have < after
                return
            patching[unit] = after
            head_end = self.html.index(">", found[0])
            head = STAMP.sub(f' data-v="{after}"', self.html[found[0] : head_end], count=1)
            self.html = self.html[: found[0]] + head + self.html[head_end:]
        body = el[el.index(">") + 1 : el.rindex("</template>")]
        if "data-svg" in a:
            body = body.removeprefix("<svg>").removesuffix("</svg>")
        how = a["hx-swap-oob"]
        how, _, target = how.partition(":#")
        span = self.span(target or a["id"])
        if span is None:
            self.refreshes += 1
            return
        start, end = span
        if how == "true":
            self.html = self.html[:start] + body + self.html[end:]
        elif how == "delete":
            self.html = self.html[:start] + self.html[end:]
        elif how == "afterend":
            self.html = self.html[:end] + body + self.html[end:]
        elif how == "beforebegin":
            self.html = self.html[:start] + body + self.html[start:]
        else:
            raise ValueError(how)


def shown(html: str) -> str:
    """HTML as a page shows it: without version stamps and swap attributes, whitespace
    between elements dropped and other runs of it one space (what a patch may leave
    otherwise: the line breaks beside an element removed)."""
    html = re.sub(r' (?:data-v="-?\d+"|hx-swap-oob="true")', "", html)
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html))
