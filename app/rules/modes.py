"""The ways a game is played (DESIGN.md, Hidden information), each with its audience policy.

A mode says what the table shows: whether both Operations Cards lie open (2c) and who
learns each event. Events are emitted with the audience the information has in the
rulebook's own game (public, one side, one seat); the mode's policy maps each event to
the audience it gets in this mode, in one place (`audience`), and `flow.apply` runs it on
everything `apply` returns. The umpired modes of 18 come as more entries here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.rules.errors import NotOffered
from app.rules.events import Event

Policy = Callable[[Event], str]


def as_emitted(event: Event) -> str:
    """2c, 3d3: the rulebook's table - the emitter's audience stands."""
    return event.audience


@dataclass(frozen=True, slots=True)
class Mode:
    id: str
    rule: str
    name: str
    open_cards: bool  # 2c: both Operations Cards are open to both sides
    policy: Policy

    def audience(self, event: Event) -> str:
        return self.policy(event)


TWO_PLAYER = Mode(
    id="two-player",
    rule="2c",
    name="Two players (or two teams) at one table, both Operations Cards open",
    open_cards=True,
    policy=as_emitted,
)

MODES: dict[str, Mode] = {m.id: m for m in (TWO_PLAYER,)}


def mode_of(name: str) -> Mode:
    """The mode by its id; an unknown or not offered one is a ValueError naming those offered."""
    mode = MODES.get(name)
    if mode is None:
        offered = ", ".join(sorted(MODES))
        raise NotOffered(None, f"the mode {name[:32]!r} is not offered; offered: {offered}")
    return mode
