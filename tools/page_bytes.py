"""Where a live page's socket bytes go (issue 34), deterministically: seeded random games
replayed through each seat's page renderer (render.LiveRegions) and its socket's patches
(app.web.patches.Shown), every message a seat page would be sent after each action
measured and broken down by what it carries.

    python -m tools.page_bytes [--games 4] [--actions 150] [--top 25] [--uniform]
                               [--seat SEAT] [scenario ...]

For each scenario (default: one, coral-sea; two-player, no options) it prints the mean
bytes of a message (`message_mean`, what `page_bytes_per_action` of tools.bench_server
counts), then the bytes by region, and by kind of element: an element sent whole (its
id, digits and hashes folded: `b-*`), or a swap (`how` of the target), with the bytes of
the swaps' own markup (`<template ...>` and its end) apart from what they carry.
`--uniform` plays as the server bench's agents do (a seat that may act, then any of its
actions, alike); else as tools.fuzz does (`choose`)."""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from app import rules
from app.rules import legal_actions
from app.rules.engine.state import State
from app.rules.modes.seats import acting
from app.web import render
from app.web.patches import Shown, elements
from app.web.render import LiveRegions, Seat
from tools.fuzz import choose

TEMPLATE_HEAD = re.compile(r"<template [^>]*>")
ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
FOLD = re.compile(r"[0-9a-f]{8}\b|\d+")


def folded(element_id: str) -> str:
    """An id with its numbers and hashes folded: the kind of element it names."""
    return FOLD.sub("*", element_id)


@dataclass
class Tally:
    messages: int = 0
    total: int = 0
    sizes: list[int] = field(default_factory=list)
    regions: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)

    def add(self, message: str) -> None:
        size = len(message.encode())
        self.messages += 1
        self.total += size
        self.sizes.append(size)
        unit = "?"  # a template of the same unit as the one before names none
        for el in elements(message):
            unit = self._element(el, unit)

    def _element(self, el: str, unit: str) -> str:
        size = len(el.encode())
        head = el[: el.index(">") + 1]
        attrs = dict(ATTR.findall(head))
        if el.startswith("<template"):
            region = attrs.get("data-in", unit)
            how = attrs.get("hx-swap-oob", "?")
            target = attrs.get("id") or how.partition(":#")[2]
            kind = f"{region} {how.partition(':')[0]} {folded(target)}"
            wrapper = len(TEMPLATE_HEAD.match(el).group().encode()) + len("</template>")  # type: ignore[union-attr]
            self.kinds["(swap markup)"] += wrapper
            self.regions[region] += size
            self.kinds[kind] += size - wrapper
            self.counts[kind] += 1
            return region
        element_id = attrs.get("id", "?")
        region = element_id.split("/")[0]
        kind = f"{folded(element_id)} whole"
        self.regions[region] += size
        self.kinds[kind] += size
        self.counts[kind] += 1
        return unit


def seat_view(state: State, seat: str, game: str, version: int) -> dict[str, Any]:
    view = json.loads(json.dumps(rules.view(state, seat)))
    view.update(id=game, version=version, seat=seat)
    return view


def messages(
    scenario: str, seed: int, actions: int, uniform: bool = False, only: str | None = None
) -> Iterator[str]:
    """Every message each seat page's socket (or seat `only`'s) sends along a random game:
    after the first (the page loaded whole), one for each action that changed the seat's
    view or its log (the game service sends the socket nothing else)."""
    rng = random.Random(seed)
    game = f"{0x3400 + seed:016x}"
    state = rules.new_game(scenario, frozenset(), seed)
    seats = [s.id for s in rules.seats(state)]
    lives = {s: LiveRegions() for s in seats}
    sockets = {s: Shown() for s in seats}
    logs: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    last: dict[str, tuple[dict[str, Any], int]] = {}
    for version in range(1, actions + 2):
        for seat in seats if only is None else [only]:
            view = seat_view(state, seat, game, version)
            now = ({**view, "version": 0}, len(logs[seat]))
            if last.get(seat) == now:
                continue
            last[seat] = now
            got = lives[seat].render(view, logs[seat], Seat(game, seat))
            if version == 1:
                for name, html in got.items():
                    sockets[seat].has(name, html)
                continue
            yield render.synced(version) + sockets[seat].message(got)
        if state.status == "finished":
            return
        seat = rng.choice(acting(state))
        action = rng.choice(legal_actions(state, seat)) if uniform else choose(state, seat, rng)
        state, events = rules.apply(state, seat, action)
        for s in seats:
            logs[s] = logs[s] + json.loads(json.dumps(rules.events_for(events, s)))


def measure(
    scenario: str, games: int, actions: int, uniform: bool = False, only: str | None = None
) -> Tally:
    tally = Tally()
    for seed in range(1, games + 1):
        for message in messages(scenario, seed, actions, uniform, only):
            tally.add(message)
    return tally


def report(scenario: str, tally: Tally, top: int) -> None:
    n = max(tally.messages, 1)
    sizes = sorted(tally.sizes)
    print(f"{scenario}: message_mean={tally.total / n:.0f}", end="")
    print(f" p50={sizes[len(sizes) // 2]} max={sizes[-1]} messages={tally.messages}")
    print("  by region (bytes a message):")
    for name, size in tally.regions.most_common():
        print(f"    {size / n:8.1f}  {name}")
    print("  by element (bytes a message, how many a message):")
    for kind, size in tally.kinds.most_common(top):
        print(f"    {size / n:8.1f}  {tally.counts[kind] / n:6.2f}  {kind}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="page_bytes", description=__doc__.split("\n")[0])
    parser.add_argument("scenarios", nargs="*", default=["one", "coral-sea"])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--uniform", action="store_true", help="choose as the server bench")
    parser.add_argument("--seat", help="this seat's page alone (the bench's: japan)")
    args = parser.parse_args(argv)
    for scenario in args.scenarios:
        tally = measure(scenario, args.games, args.actions, args.uniform, args.seat)
        report(scenario, tally, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
