"""Issue 34: a live page is sent what changed in a region, not the region re-rendered.

A region (or a part of the Operations Cards: a *unit*, an element with an id and a
version stamp, `data-v`) is compared, as this socket last sent it, with its fresh HTML,
element by element among those with an id:

- the same elements with ids in the same order, and the HTML around them the same: each
  element that changed is compared in turn (its own elements with ids), else sent whole;
- a list (elements with ids, only whitespace between them) whose elements were added,
  removed or moved: the removed ones deleted, the added ones put after (or before) their
  neighbour, the moved ones both (the fewest: those out of the longest run in the same
  order), the others compared as above; none of the old ones left: the new ones put at
  the end of the list's element;
- anything else: the element sent whole (for the unit itself: the region, as before).

An element deleted and put in again as it was (a counter from one box of a card to
another, along a list) is moved, not sent again: its removal keeps it aside
(`data-keep`) and a stand-in puts it in (`<i data-move="id">`). Whether an element or a
unit goes whole or in swaps is decided counting what may be moved, then, for a unit,
once the message's moves are known.

Each change is an htmx out-of-band swap of a `<template>` (`hx-swap-oob`: "true" for an
element replaced by its id, "delete", "afterend:#id", "beforebegin:#id" or
"beforeend:#id"), whose content the page's script (midway.js) takes out of the template
before htmx swaps it in: a template parses SVG within `<svg>` as SVG, which a fragment of
a websocket message would not. Each template says which unit it patches (`data-in`,
unless the template before it is of the same) and, the first of its unit's in a message,
between which of its versions (`data-from`, `data-to`): the page applies them only to the
unit as this socket left it, skips them when the unit already shows that version or a
later one, and else (an answer over HTTP brought a version in between) fetches its
regions whole.

The page's whitespace may then differ from a fresh render's where an element was removed
(the line breaks beside it stay): nothing the page shows.

What the socket last sent is kept as `Node`s: of an element, its HTML and the elements
with ids found in it, so that a comparison looks through only the HTML between the first
and the last character that changed (a Searchboard of 567 zones, one of them searched)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import NamedTuple

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
ID = ' id="'
NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
SAFE_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
STAMP = re.compile(r' data-v="(-?\d+)"')
OWN = re.compile(r' (?:data-v="-?\d+"|hx-swap-oob="true")')


@cache
def _opens(name: str) -> re.Pattern[str]:
    """The start tags of elements named `name` that are not self-closing."""
    return re.compile(rf"<{re.escape(name)}(?=[\s>])[^>]*(?<!/)>")


def element_end(html: str, lt: int) -> int:
    """Where the element whose start tag begins at `lt` ends (after its end tag)."""
    name = NAME.match(html, lt + 1)
    if name is None:
        raise ValueError(f"no tag at {lt}")
    gt = html.index(">", lt)
    if html[gt - 1] == "/" or name.group().lower() in VOID:
        return gt + 1
    close, opens = f"</{name.group()}>", _opens(name.group())
    depth, pos = 1, gt + 1
    while True:
        end = html.find(close, pos)
        if end < 0:
            raise ValueError(f"<{name.group()}> at {lt} does not end")
        depth += len(opens.findall(html, pos, end)) - 1
        pos = end + len(close)
        if depth == 0:
            return pos


class Child(NamedTuple):
    id: str
    start: int
    end: int
    svg: bool  # within an <svg>: its HTML parses as SVG only there


ID_TAG = re.compile(r'<[A-Za-z][A-Za-z0-9-]*(?=[\s/>])[^>]*? id="([^"]*)"')


def children(html: str, svg: bool = False) -> tuple[list[str], list[Child]]:
    """The outermost elements with an id within the element `html` (not itself), and the
    HTML around them: texts[0] child[0] texts[1] ... child[n-1] texts[n]."""
    body = html.index(">") + 1
    texts: list[str] = []
    kids: list[Child] = []
    last = body
    depth = 0  # of <svg> elements open at `last` (when not within one already)
    while True:
        found = ID_TAG.search(html, last)
        if found is None:
            break
        lt = found.start()
        end = element_end(html, lt)
        if not svg:
            depth += html.count("<svg", last, lt) - html.count("</svg>", last, lt)
        texts.append(html[last:lt])
        kids.append(Child(found.group(1), lt, end, svg or depth > 0))
        last = end
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
    was: str = ""  # of an element deleted: its HTML as the page holds it
    keep: bool = False  # of an element deleted: kept aside, to be put in again (moved)

    def size(self) -> int:
        return len(self.html) + len(self.target) + 120

    def guess(self) -> int:
        """Its size should the elements with ids it puts in be moved (`moved`), not sent,
        less what an element it deletes would cost sent again elsewhere: what it is
        compared by with the element sent whole, before a message knows."""
        if self.how == "delete":
            return self.size() - max(0, len(self.was) - len(MOVED))
        if self.how not in INSERTS:
            return self.size()
        return self.size() - sum(len(p) - len(MOVED) for p in pieces(self.html) if own_id(p))

    def template(self, unit: str | None, versions: tuple[int, int] | None) -> str:
        """The swap as a template: of unit `unit` (None: the previous template's), from
        and to `versions` (None: a later swap of a unit the message patched already)."""
        patch = "" if unit is None else f' data-in="{unit}"'
        if versions is not None:
            patch += f' data-from="{versions[0]}" data-to="{versions[1]}"'
        body = f"<svg>{self.html}</svg>" if self.svg else self.html
        patch += " data-svg" if self.svg else ""
        patch += " data-keep" if self.keep else ""
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


class Node:
    """An element as the page holds it, with what is known of its elements with ids (its
    `children`, once worked out, and those of them compared since, by id): what the next
    comparison need not work out again."""

    __slots__ = ("html", "parse", "sub")

    def __init__(self, html: str, parse: Parse | None = None) -> None:
        self.html = html
        self.parse = parse
        self.sub: dict[str, Node] = {}

    def children(self, svg: bool) -> Parse:
        if self.parse is None:
            self.parse = children(self.html, svg)
        return self.parse


Parse = tuple[list[str], list[Child]]
BLOCK = 2048


def common_prefix(a: str, b: str) -> int:
    """How many characters `a` and `b` begin with alike."""
    n, at = min(len(a), len(b)), 0
    while at + BLOCK <= n and a[at : at + BLOCK] == b[at : at + BLOCK]:
        at += BLOCK
    hi = min(at + BLOCK, n)
    while at < hi:  # the first block that differs: halved until found
        mid = (at + hi + 1) // 2
        if a[at:mid] == b[at:mid]:
            at = mid
        else:
            hi = mid - 1
    return at


def common_suffix(a: str, b: str, most: int) -> int:
    """How many characters `a` and `b` end with alike, at most `most`."""
    n, la, lb, at = min(len(a), len(b), most), len(a), len(b), 0
    while at + BLOCK <= n and a[la - at - BLOCK : la - at] == b[lb - at - BLOCK : lb - at]:
        at += BLOCK
    hi = min(at + BLOCK, n)
    while at < hi:  # the last `at` alike: halved until found
        mid = (at + hi + 1) // 2
        if a[la - mid : la - at] == b[lb - mid : lb - at]:
            at = mid
        else:
            hi = mid - 1
    return at


def reparsed(old: Node, new: str, svg: bool, p: int, q: int) -> Parse:
    """The children of `new`, an element much like `old` (the first `p` characters of
    both alike, and the last `q`): those before the first character that differs and
    after the last are old's (moved by the difference in length); only the HTML between
    is looked through."""
    texts, kids = old.children(svg)
    html = old.html
    body = new.index(">") + 1
    if p < body or not kids:
        return children(new, svg)
    delta = len(new) - len(html)
    i = bisect_right([k.end for k in kids], p)
    j = i
    while j < len(kids) and kids[j].start < len(html) - q:
        j += 1
    start = kids[i - 1].end if i else body
    stop = kids[j].start + delta if j < len(kids) else len(new)
    mid_texts: list[str] = []
    mid_kids: list[Child] = []
    depth = int(kids[i - 1].svg) if i and not svg else 0
    last = start
    while True:
        found = ID_TAG.search(new, last, stop)
        if found is None:
            break
        lt = found.start()
        end = element_end(new, lt)
        if end > stop:
            return children(new, svg)
        if not svg:
            depth += new.count("<svg", last, lt) - new.count("</svg>", last, lt)
        mid_texts.append(new[last:lt])
        mid_kids.append(Child(found.group(1), lt, end, svg or depth > 0))
        last = end
    mid_texts.append(new[last:stop])
    moved = [Child(k.id, k.start + delta, k.end + delta, k.svg) for k in kids[j:]]
    return texts[:i] + mid_texts + texts[j + 1 :], kids[:i] + mid_kids + moved


def diff(old: str, new: str, svg: bool = False) -> list[Op] | None:
    """The swaps that make element `old` (as the page has it) into `new`, the same
    element (its id and start tag), or None if it must be sent whole."""
    return compare(Node(old), new, svg)[0]


def compare(old: Node, new: str, svg: bool = False) -> tuple[list[Op] | None, Node]:
    """The swaps that make element `old` into `new` (None: send it whole), and `new` as
    the page will hold it."""
    if old.html == new or same(old.html, new):
        return [], old if old.html == new else Node(new)
    if head(old.html) != head(new):
        return None, Node(new)  # its own attributes changed
    svg = svg or new.startswith("<svg")  # its elements are SVG, if it is not
    html = old.html
    p = common_prefix(html, new)
    q = common_suffix(html, new, min(len(html), len(new)) - p)
    ot, oc = old.children(svg)
    nt, nc = reparsed(old, new, svg, p, q)
    node = Node(new, (nt, nc))
    old_ids, new_ids = [c.id for c in oc], [c.id for c in nc]
    if len(set(old_ids)) < len(oc) or len(set(new_ids)) < len(nc):
        return None, node
    ops: list[Op] = []
    if old_ids == new_ids:
        if ot != nt:
            return None, node
        pairs = list(zip(oc, nc, strict=True))
    else:
        # a list: elements with ids with only whitespace between them, some removed
        # or added, the others in the same order
        both = set(new_ids)
        kept = in_order([i for i in old_ids if i in both], new_ids)
        if not oc or not nc or ot[0] != nt[0] or ot[-1] != nt[-1]:
            return None, node
        if not all(_blank(t) for t in ot[1:-1]) or not all(_blank(t) for t in nt[1:-1]):
            return None, node
        if not all(SAFE_ID.fullmatch(i) for i in old_ids + new_ids):
            return None, node
        parent = own_id(html)
        if not kept and (parent is None or not _blank(nt[-1][: nt[-1].rfind("</")])):
            return None, node
        ops += [
            Op("delete", c.id, svg=c.svg, was=html[c.start : c.end]) for c in oc if c.id not in kept
        ]
        if kept:
            ops += _insertions(new, nt, nc, kept)
        else:  # none kept: the new ones put at the end of the element, the old ones gone
            assert parent is not None
            run = new[nc[0].start : nc[-1].end]
            ops.append(Op("beforeend", parent, run, nc[0].svg))
        by_id = {c.id: c for c in oc}
        pairs = [(by_id[c.id], c) for c in nc if c.id in kept]
    alike = len(html) - q  # what starts there in `old` is as it was
    for o, n in pairs:
        if o.end <= p or o.start >= alike:
            if o.id in old.sub:
                node.sub[n.id] = old.sub[o.id]
            continue
        was = old.sub.get(o.id) or Node(html[o.start : o.end])
        now = new[n.start : n.end]
        if same(was.html, now):
            continue
        if not SAFE_ID.fullmatch(n.id):
            return None, node
        inner, node.sub[n.id] = compare(was, now, n.svg)
        if inner is None or sum(op.guess() for op in inner) >= len(now):
            inner = [Op("true", n.id, now, n.svg)]
        ops += inner
    return ops, node


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


def own_id(html: str) -> str | None:
    """The id of element `html` (in its start tag), if it is one a swap may name."""
    found = ID_TAG.match(html)
    return found.group(1) if found and SAFE_ID.fullmatch(found.group(1)) else None


def unit_id(html: str) -> str:
    """The id of the element `html` is (a region, a part of one)."""
    start = html.index(ID) + len(ID)
    return html[start : html.index('"', start)]


def stamp(html: str) -> int:
    found = STAMP.search(html, 0, html.index(">") + 1)
    return int(found.group(1)) if found else 0


class Shown:
    """What one page holds of each region as this socket last sent it (with the parts
    sent alone since put in it); `message` gives, for the regions and parts rendered
    anew, the swaps that bring the page there (an element whole the first time, or when
    that is no larger)."""

    def __init__(self) -> None:
        self.regions: dict[str, Node] = {}  # by name (LiveRegions')

    def has(self, name: str, html: str) -> None:
        """The page holds this HTML of the region (a page loaded at the socket's version)."""
        self.regions[name] = Node(html)

    def message(self, fresh: dict[str, str]) -> str:
        """The swaps that bring the page from what it holds to the regions and parts
        rendered anew (`fresh`, by name): the removals first, as an element moved from
        one list to another is put in anew by its id, which must then be its only one;
        an element put in as it was taken out is moved (`moved`), not sent again. A
        region or part whose swaps come to more than its HTML is sent whole."""
        out: list[str | Swap] = []
        for name, html in fresh.items():
            self._patch(name, html, out)
        swaps = [x for x in out if isinstance(x, Swap)]
        moved(swaps)
        wholes = {x.unit: x.whole for x in swaps}
        sizes = {u: 0 for u in wholes}
        for x in swaps:
            sizes[x.unit] += x.op.size()
        whole = {u for u, n in sizes.items() if n >= len(wholes[u])}
        if whole:  # sent whole instead; the others' moves made again without them
            swaps = [x for x in swaps if x.unit not in whole]
            for x in swaps:
                x.op = x.first
            moved(swaps)
            sent: set[str] = set()
            kept: list[str | Swap] = []
            for item in out:
                if isinstance(item, Swap) and item.unit in whole:
                    if item.unit not in sent:
                        sent.add(item.unit)
                        kept.append(item.whole)
                    continue
                kept.append(item)
            out = kept
        removals: list[str | Swap] = [x for x in swaps if x.op.how == "delete"]
        rest = [x for x in out if isinstance(x, str) or x.op.how != "delete"]
        return templates(removals + rest)

    def _patch(self, name: str, html: str, out: list[str | Swap]) -> None:
        """What to send of region or part `name` (render.part_name), rendered anew as
        `html`: nothing when the page shows it so already, the swaps that make it so, or
        the element whole."""
        region, _, part = name.partition("/")
        held = self.regions.get(region)
        if not part:
            if held is None:
                self.regions[name] = Node(html)
                out.append(html)
                return
            ops, self.regions[name] = compare(held, html)
            _swaps(ops, held.html, html, out)
            return
        mark = -1 if held is None else held.html.find(f'{ID}{part}"')
        if held is None or mark < 0:
            out.append(html)
            return
        start = held.html.rindex("<", 0, mark)
        end = element_end(held.html, start)
        body = html.index(">") + 1
        kept = html[:body].replace(' hx-swap-oob="true"', "", 1) + html[body:]
        self.regions[region] = Node(held.html[:start] + kept + held.html[end:])
        was = held.html[start:end]
        _swaps(diff(was, html), was, html, out)


@dataclass
class Swap:
    """An op of a message, on unit `unit` (a region, a part) from version `before` to
    `after`; `whole`, the unit's HTML, `first` the op before any move was made of it."""

    op: Op
    unit: str
    before: int
    after: int
    whole: str
    first: Op


def templates(items: list[str | Swap]) -> str:
    """A message's elements and swaps, in order: a swap names its unit only when the
    template before it is of another, and the versions it goes from and to only in the
    first of its unit's swaps (the others are applied where that one was)."""
    out: list[str] = []
    last: str | None = None
    seen: set[str] = set()
    for x in items:
        if isinstance(x, str):
            out.append(x)
            continue
        unit = None if x.unit == last else x.unit
        versions = None if x.unit in seen else (x.before, x.after)
        out.append(x.op.template(unit, versions))
        last = x.unit
        seen.add(x.unit)
    return "".join(out)


MOVED = '<i data-move="{}"></i>'
MOVING = re.compile(r'<i data-move="([^"]*)"></i>')


def moved(swaps: list[Swap]) -> None:
    """Of the elements deleted, those put in again as they were (a counter from one box
    of a card to another, a button along its list) are moved: deleted kept aside
    (`data-keep`), and put in by a stand-in (`<i data-move="id">`, what the page's
    script swaps for the element kept), not sent again."""
    gone = {s.op.target: i for i, s in enumerate(swaps) if s.op.how == "delete" and s.op.was}
    if not gone:
        return
    for n, s in enumerate(swaps):
        op = s.op
        if op.how not in INSERTS:
            continue
        out, pos, changed = [], 0, False
        for lt, end in spans(op.html):
            piece = op.html[lt:end]
            found = own_id(piece)
            i = gone.get(found) if found else None
            if found and i is not None and swaps[i].op.was == piece and swaps[i].op.svg == op.svg:
                out += [op.html[pos:lt], MOVED.format(found)]
                swaps[i].op = replace(swaps[i].op, keep=True)
                del gone[found]
                changed = True
            else:
                out.append(op.html[pos:end])
            pos = end
        if changed:
            out.append(op.html[pos:])
            swaps[n].op = replace(op, html="".join(out))


def spans(html: str) -> Iterator[tuple[int, int]]:
    """Where each top-level element of `html` starts and ends."""
    lt = html.find("<")
    while lt >= 0:
        end = element_end(html, lt)
        yield lt, end
        lt = html.find("<", end)


def pieces(html: str) -> Iterator[str]:
    """The top-level elements of `html`."""
    for lt, end in spans(html):
        yield html[lt:end]


INSERTS = ("afterend", "beforebegin", "beforeend")


def _swaps(ops: list[Op] | None, held: str, html: str, out: list[str | Swap]) -> None:
    if ops is None or sum(op.guess() for op in ops) >= len(html):
        out.append(html)
        return
    unit = unit_id(html)
    before, after = stamp(held), stamp(html)
    out += [Swap(op, unit, before, after, html, op) for op in ops]


ATTR = re.compile(r'([\w:-]+)(?:="([^"]*)")?')


def _attrs(html: str) -> dict[str, str]:
    head = html[: html.index(">")]
    return {m.group(1): m.group(2) or "" for m in ATTR.finditer(head, head.index(" "))}


def elements(message: str) -> list[str]:
    """The top-level elements of a socket's message."""
    return list(pieces(message))


class Page:
    """A page's regions, as htmx and the page's script (midway.js) swap in what its
    socket sends, on their HTML: what the benchmark's page seats and the tests hold.
    Each region whole by its id, in `html`."""

    def __init__(self, only: str | None = None) -> None:
        self.html = ""
        self.refreshes = 0  # patches that found their unit at another version
        self.only = only  # the id of the one region to hold (None: all)
        self.kept: dict[str, str] = {}  # elements deleted to be put in again (moved)

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
        self.kept = {}
        unit = ""  # the unit of the template before
        for el in elements(message):
            a = _attrs(el)
            if el.startswith("<template"):
                unit = a.setdefault("data-in", unit)
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
        unit = a["data-in"]
        if "data-to" not in a:  # a later swap of its unit: applied where the first was
            if unit not in patching:
                return
            before = after = patching[unit]
        else:
            before, after = int(a["data-from"]), int(a["data-to"])
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
        else:  # the page would parse an SVG element as HTML, and not draw it
            tops = {NAME.match(p, 1).group() for p in pieces(body)}  # type: ignore[union-attr]
            assert not tops & SVG_ONLY, f"SVG sent as HTML: {body[:200]}"
        for moving in MOVING.findall(body):
            if moving not in self.kept:
                self.refreshes += 1
                return
            body = body.replace(MOVED.format(moving), self.kept.pop(moving), 1)
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
            if "data-keep" in a:
                self.kept[a["id"]] = self.html[start:end]
            self.html = self.html[:start] + self.html[end:]
        elif how == "beforeend":
            end = self.html.rindex("</", start, end)
            self.html = self.html[:end] + body + self.html[end:]
        elif how == "afterend":
            self.html = self.html[:end] + body + self.html[end:]
        elif how == "beforebegin":
            self.html = self.html[:start] + body + self.html[start:]
        else:
            raise ValueError(how)


# elements of SVG alone, which a template must hold within <svg> (data-svg)
SVG_ONLY = frozenset(
    {"g", "path", "use", "polygon", "polyline", "circle", "ellipse", "rect", "line", "defs"}
)


def shown(html: str) -> str:
    """HTML as a page shows it: without version stamps and swap attributes, whitespace
    between elements dropped and other runs of it one space (what a patch may leave
    otherwise: the line breaks beside an element removed)."""
    html = re.sub(r' (?:data-v="-?\d+"|hx-swap-oob="true")', "", html)
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html))
