"""The ways a game is played (DESIGN.md, Hidden information), each with its audience policy.

A mode says what the table shows: whether both Operations Cards lie open (2c) and who
learns each event. Events are emitted with the audience the information has in the
rulebook's own game (public, one side, one seat); the mode's policy maps each event to
the audience it gets in this mode, in one place (`audience`), and the modes' table
(table.py) runs it on everything `apply` returns.

18 gives two more: `umpired`, with a human umpire's seat that sees everything (18b), and
`double-blind`, where the server is the umpire and nobody sits in his chair. In both the
Operations Cards are private, the players learn of the enemy only what the umpire's
reports tell them, and the umpire's procedure of 18c applies (app/rules/modes/umpire.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from app.rules.engine.errors import NotOffered
from app.rules.engine.events import Event
from app.rules.modes.umpire import umpired_audience

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
    umpired: bool = False  # 18c: the umpire's procedure - reports, secret dice, at once
    umpire_seat: bool = False  # 18: a seat for a human umpire (else the server is he)
    # Optional rules the mode does not offer: rule -> why (a refusal names it)
    refuses: tuple[tuple[str, str], ...] = ()

    def audience(self, event: Event) -> str:
        return self.policy(event)


TWO_PLAYER = Mode(
    id="two-player",
    rule="2c",
    name="Two players (or two teams) at one table, both Operations Cards open",
    open_cards=True,
    policy=as_emitted,
)

# RULES? 18c2: "the umpire handles all dice rolls", and a holder of the free roll marker
# (11a) who saw a combat's dice would know its result, which 18c2 keeps from him.
_NO_FREE_ROLL = (
    ("11a", "the umpire handles all dice rolls (18c2): no player sees a combat's dice"),
)

UMPIRED = Mode(
    id="umpired",
    rule="18",
    name="An umpire and two players (or two teams), each seeing only his own side",
    open_cards=False,
    policy=umpired_audience,
    umpired=True,
    umpire_seat=True,
    refuses=_NO_FREE_ROLL,
)

# 18: the same game, the server in the umpire's chair
DOUBLE_BLIND = replace(
    UMPIRED,
    id="double-blind",
    name="Two players (or two teams), each seeing only his own side; the server is the umpire",
    umpire_seat=False,
)

MODES: dict[str, Mode] = {m.id: m for m in (TWO_PLAYER, UMPIRED, DOUBLE_BLIND)}


def mode_of(name: str) -> Mode:
    """The mode by its id; an unknown or not offered one is a ValueError naming those offered."""
    mode = MODES.get(name)
    if mode is None:
        offered = ", ".join(sorted(MODES))
        raise NotOffered(None, f"the mode {name[:32]!r} is not offered; offered: {offered}")
    return mode


def check_options(mode: Mode, options: frozenset[str] | set[str] | tuple[str, ...]) -> None:
    """The optional rules the mode does not offer are refused, naming why."""
    for rule, why in mode.refuses:
        if rule in options:
            raise NotOffered(rule, f"option {rule} is not offered in the {mode.id} mode: {why}")
