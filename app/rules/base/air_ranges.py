"""How far an air unit may fly out and back: 3d1 and 5a2, and 12c1 unequal movement legs.

Basic Game: at most its movement factor out (3d1) and at most its movement factor back
(5a2). With 12c1 a combat air unit's range is twice its movement factor, split as it
likes, provided it never moves farther back than out, and that there is somewhere it can
land within what remains: B6 (movement 5) seven hexes out, three back (12c1).

# RULES? "Somewhere it can land" is checked against basing, distance and 11c2 (no landing
# on a carrier dead in the water) as it flies;
# capacity is checked when it lands (5a3), since others may land first.
"""

from __future__ import annotations

from app.rules import hooks
from app.rules.base.landing import basing_refusal, distance, holds_planes
from app.rules.base.units import air_movement, is_scout
from app.rules.engine.options import OptionId
from app.rules.engine.state import State, Unit


def flight_factor(state: State, u: Unit) -> int:
    """3d1: the movement factor; 12b3.2: one less from a Max. Strike box."""
    flight = state.boards[u.side].flights.get(u.id)
    return air_movement(u) - (1 if flight is not None and flight.max_strike else 0)


def unequal_legs(state: State, u: Unit) -> bool:
    """12c1 applies only to combat air units. The expansion speaks of a plane's range
    ("Bombers have a range of 20 zones", out and back: RULES-NOTES.md) and of flights to and
    from off-board bases counted against it (Off-Board Bases 1), which is 12c1's range of
    twice the movement factor: # RULES? on the theatre map 12c1 is always in force."""
    return (
        OptionId.UNEQUAL_LEGS in state.options or hooks.of(state).always_unequal_legs(state)
    ) and not is_scout(u)


def return_allowance(state: State, u: Unit) -> int:
    """5a2: hexes it may fly in the Air Return Phase after moving `moved` hexes out."""
    factor = flight_factor(state, u)
    moved = state.boards[u.side].flights[u.id].moved
    if unequal_legs(state, u) and moved > factor:
        return 2 * factor - moved
    return factor


def landings(state: State, u: Unit) -> tuple[Unit, ...]:
    """Where `u` may come down whatever its reach: 5a1 basing, 11c2 dead in the water, 18a
    a teammate's carrier unseen, Bases 2-3."""
    return tuple(
        c
        for c in state.units[u.side].values()
        if holds_planes(state, c) and basing_refusal(state, u, c) is None
    )


class Legs:
    """What 3d1 and 12c1 allow flying unit `u`, fixed while it flies: its movement factor,
    whether its range may be split as it likes and, if so, where it may land (worked out
    when first needed; a search of its ways asks once)."""

    __slots__ = ("_landings", "factor", "u", "unequal")

    def __init__(self, state: State, u: Unit) -> None:
        self.u = u
        self.factor = flight_factor(state, u)
        self.unequal = unequal_legs(state, u)
        self._landings: tuple[Unit, ...] | None = None

    def enters(self, state: State, to: str, moved: int) -> bool:
        """3d1: within the movement factor; 12c1: beyond it while a landing stays in
        reach, having moved `moved` hexes."""
        if moved < self.factor:
            return True
        if not self.unequal or moved + 1 >= 2 * self.factor:
            return False
        if self._landings is None:
            self._landings = landings(state, self.u)
        reach = 2 * self.factor - (moved + 1)
        for c in self._landings:
            far = distance(state, to, c)
            if far is not None and far <= reach:
                return True
        return False

    def goes_on(self, moved: int) -> bool:
        """Whether the unit could move at all any more (else it is dropped off, 3d2)."""
        return moved < self.factor or (self.unequal and moved + 1 < 2 * self.factor)


def _moved(state: State, u: Unit, moved: int | None) -> int:
    return state.boards[u.side].flights[u.id].moved if moved is None else moved


def can_enter(state: State, u: Unit, to: str, moved: int | None = None) -> bool:
    """3d1, 12c1 (`Legs.enters`), having moved `moved` hexes (by default as many as it has)."""
    return Legs(state, u).enters(state, to, _moved(state, u, moved))


def may_go_on(state: State, u: Unit, moved: int | None = None) -> bool:
    """3d2 (`Legs.goes_on`), having moved `moved` hexes (by default as many as it has)."""
    return Legs(state, u).goes_on(_moved(state, u, moved))
