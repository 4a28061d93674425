"""Moves by destination (issue 30): one action that is a path of single-hex steps.

An air strike flies, and a scout's route is handed in (18c1), a hex at a time: `fly
L3-strike K3`, then `fly L3-strike J4` ... A path action names the destination only
(`fly-to L3-strike H6`): the engine finds the shortest way there (`reach`) and takes it
as the very single steps it offers - each must be one of the seat's legal actions when
it is taken, each does what it does alone, with the same events - so the game, its log,
take-back (one action) and the umpire see one action where the player clicked once.

`reach` is worked out from the seat's own units only (what it may know): never from the
dice nor the enemy. A step's chance may still end the path early - 15b1, a scout shot
down by the enemy CAP over a hex it entered - and then the path stops there, as the
player would have stopped clicking.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from app.rules.engine.actions import Action, add_kinds
from app.rules.engine.state import Side, State
from app.rules.engine.steps import StepId

Node = TypeVar("Node", bound=Hashable)


@dataclass(frozen=True)
class Path:
    """A path kind: the single-hex kind it is made of (its fields: subject, hex) and the
    step of play it is taken in, the
    destinations a subject may reach with their ways there (the hexes entered, in order),
    and the rule and words refusing a destination it cannot reach."""

    step: str
    in_step: StepId  # the step of the sequence of play it is taken in
    reach: Callable[[State, Side, str], dict[str, tuple[str, ...]]]
    why: Callable[[State, Side, Action], tuple[str, str]]


PATHS: dict[str, Path] = {}


def register_path(kind: str, fields: tuple[str, str], path: Path) -> None:
    add_kinds({kind: fields})
    PATHS[kind] = path


def path_kind_of(step_kind: str) -> str | None:
    """The path kind made of `step_kind` actions, if any."""
    return next((k for k, p in PATHS.items() if p.step == step_kind), None)


@dataclass
class Search(Generic[Node]):
    """A breadth-first search from `start`: `step(node, hex)` is the node after entering
    `hex` (None: that step is not legal), `on(node)` whether a node may move on, and
    `neighbours(hex)` the cells next to one."""

    start: str
    first: Node
    step: Callable[[Node, str], Node | None]
    on: Callable[[Node], bool]
    neighbours: Callable[[str], tuple[str, ...]]

    def ways(self) -> dict[str, tuple[str, ...]]:
        """Each cell reachable, with the shortest way there (the first found: neighbours
        in the grid's order); the start is not among them."""
        ways: dict[str, tuple[str, ...]] = {}
        queue: deque[tuple[str, Node, tuple[str, ...]]] = deque([(self.start, self.first, ())])
        while queue:
            here, node, way = queue.popleft()
            if not self.on(node):
                continue
            for h in self.neighbours(here):
                if h == self.start or h in ways:
                    continue
                nxt = self.step(node, h)
                if nxt is None:
                    continue
                ways[h] = (*way, h)
                queue.append((h, nxt, ways[h]))
        return ways


def destinations(
    state: State, side: Side, offered: list[Action]
) -> dict[str, dict[str, dict[str, int]]]:
    """For a seat's offered actions: path kind -> subject -> each destination two or more
    hexes away and its length (the adjacent ones are the single steps themselves)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for kind, path in PATHS.items():
        subjects = sorted({a.values[0] for a in offered if a.kind == path.step})
        for subject in subjects:
            far = {h: len(w) for h, w in path.reach(state, side, subject).items() if len(w) > 1}
            if far:
                out.setdefault(kind, {})[subject] = far
    return out
