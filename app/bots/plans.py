"""The strong level: more evaluation over the same information.

Every offered action is scored as at the quick level but against the whole belief
(every sighting, spread by the Turns since, app.bots.belief); then the best few are looked
at one move of the seat's own further, when they are worth making at all (a step worth
nothing by itself is not made for where it leads: no going to and fro): a task force's
step is worth the best position it leads to next (3c: it may go on sailing), a scout's
the likeliest hex it may search from there. The amount of work is fixed: CANDIDATES
actions, each with its neighbours.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from app.bots.board import cell, distance, is_cell
from app.bots.policy import NOISE, Seat, offered, score

Json = dict[str, Any]
CANDIDATES = 8
FURTHER = 0.5  # the weight of the next move's worth
LOOKED_AT = frozenset({"move", "fly", "route", "enter"})


def neighbours(name: str) -> list[str]:
    """The cells one step from `name` on its board (any cell may be off the board: the
    offer, not this, says where a unit may go)."""
    kind, x, y = cell(name)
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx, dy) == (0, 0):
                continue
            near = _name(kind, x + dx, y + dy)
            if near is not None and distance(name, near) == 1:
                out.append(near)
    return out


def _name(kind: str, x: int, y: int) -> str | None:
    if x < 0 or y < 1 - (kind == "zone"):
        return None
    if kind == "hex":
        return f"{chr(ord('A') + x)}{y}" if x < 26 else None
    col, row, k = x // 3, y // 3 + 1, (y % 3) * 3 + x % 3
    return f"{chr(ord('A') + col)}{row}{'ABCDEFGHI'[k]}" if col < 26 else None


def best(view: Json, log: list[Json], rng: random.Random) -> int:
    """The index of the strong level's choice among the view's offered actions."""
    seat = Seat(view, "strong", log)
    actions = offered(view)
    worth = [score(seat, a) + NOISE * rng.random() for a in actions]
    ranked = sorted(range(len(actions)), key=lambda i: -worth[i])[:CANDIDATES]
    for i in ranked:
        a = actions[i]
        if worth[i] > NOISE and a.get("kind") in LOOKED_AT and is_cell(a.get("hex")):
            worth[i] += FURTHER * _next_step(seat, a)
    return max(range(len(actions)), key=lambda i: (worth[i], -i))


def _next_step(seat: Seat, action: Json) -> float:
    """The best worth of the same kind of step from where this one leads."""
    hex_ = str(action["hex"])
    following = []
    for near in neighbours(hex_):
        moved = _from(seat, action, hex_)
        following.append(score(moved, {**action, "hex": near}))
    return max([0.0, *following])


def _from(seat: Seat, action: Json, hex_: str) -> Seat:
    """The seat as if `action` were made: the force or flight now at `hex_`."""
    view = seat.view
    board = dict(view.get("searchboard") or {})
    kind = action.get("kind")
    if kind in ("move", "enter"):
        board["forces"] = {**(board.get("forces") or {}), str(action.get("force")): hex_}
    elif kind == "fly":
        group = str(action.get("group"))
        flying = dict(board.get("flying") or {})
        for m in (board.get("groups") or {}).get(group) or [group]:
            flying[m] = {**(flying.get(m) or {}), "hex": hex_}
        board["flying"] = flying
    elif kind == "route":
        unit = str(action.get("unit"))
        routes = dict(board.get("routes") or {})
        routes[unit] = [*(routes.get(unit) or []), hex_]
        board["routes"] = routes
    own = {f: h for f, h in (board.get("forces") or {}).items() if is_cell(h)}
    belief = replace(seat.belief, own=own)  # what the seat was told is as it was
    moved = Seat({**view, "searchboard": board}, "strong", seat.log, belief)
    moved._goals = seat.goals()  # from where the scouts took off: the same
    moved._bases = seat._bases  # the log is the same
    return moved
