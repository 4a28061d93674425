"""7a3 so far: the victory points each side has scored for units eliminated and flipped,
by what a seat may know (the running tally beside the victory condition).

What is known follows the mode, as view() does:
- the two-player game (2c): both Operations Cards are open, and a unit eliminated or
  flipped shows there (and on the shared Battleboard, 4a), so both players, and a
  spectator, know every unit's points, whichever battles they saw;
- the umpired modes (18b, 18c2): a player knows his own side's losses, and of the enemy's
  only what the umpire's reports told him or what he saw on the Battleboard, as he
  believes it; a spectator knows nothing of either card until the end, so no tally;
- the umpire, and anyone once the game has ended, knows everything.

Bonus points (7c4.2 optional forces, 7c4.3 and 7d4.3 control of Midway) are awarded at
the end of the game (victory.victory_points); the tally counts units only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from app.rules import hooks
from app.rules.base.victory import unit_points
from app.rules.engine.kept import Kept
from app.rules.engine.state import ELIMINATED, GONE, SIDES, Side, State, Unit, other
from app.rules.modes import hooks as mode_hooks
from app.rules.modes.seats import seat_of
from app.rules.modes.umpire import believed, in_sight


# RULES? 7a3 counts points "after the last Turn"; the running tally counts the same chart
# for the units eliminated or flipped so far, and leaves the bonus points (7c4.2, 7c4.3,
# 7d4.3) to the end: the optional forces are noted secretly (7c4.2) and control of Midway
# is decided only at the end.
def known_score(
    state: State, seat: str, shared: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The points each side has scored so far as `seat` may know them; None when it may
    know nothing of either side's losses (a spectator of an umpired game). `shared` keeps
    the tally of everything for the next seat that may know it all (views of one state)."""
    who = seat_of(state, seat)
    if mode_hooks.of(state).sees_all_losses(state, seat):  # 2c; 18b: the umpire
        if shared is None:
            return dict(_tally_all(state))
        if "all" not in shared:
            shared["all"] = _tally_all(state)
        return dict(shared["all"])
    if who is None:
        return None
    side = who.side
    seen = in_sight(state, side)
    told = state.boards[side].told

    def as_known(u: Unit) -> Unit | None:
        if u.side == side:
            return u  # a side knows its own losses
        if u.id not in told and u.id not in seen:
            return None
        return _believed_unit(u, believed(state, side, u, u.id in seen))

    return _tally(state, as_known, "told")


def _believed_unit(u: Unit, damage: int) -> Unit:
    """The unit as a side believes it (18c2): the damage it was told of; eliminated at
    ELIMINATED or more. RULES? 7a3.2's halving for a unit that began back side up uses
    the unit's own setup, which the scenario's data gives both sides."""
    box = GONE if damage >= ELIMINATED else ("" if u.box == GONE else u.box)
    return replace(u, damage=min(damage, ELIMINATED), box=box)


# The tallies of everything lately made, by the Unit objects they counted (frozen: one
# object, one unit as it is; clones share the units an action left alone), the least
# recently used dropped first beyond TALLIES_KEPT. The key holds ids; the entry keeps
# their objects alive, so no id is another object's while it is kept.
TALLIES_KEPT = 2048  # a live game needs one: a thousand games with room to spare
_TALLIES: Kept[tuple[Any, ...], tuple[tuple[Unit, ...], dict[str, Any]]] = Kept(TALLIES_KEPT)


def _tally_all(state: State) -> dict[str, Any]:
    """The tally of everything (read it, never change it): made once for the same units.
    On the theatre map the planes destroyed count too, from more of the state: made every
    time."""
    if hooks.of(state).counts_planes(state):
        return _tally(state, lambda u: u, "all")
    units = (*state.units["japan"].values(), *state.units["usa"].values())
    key = (state.scenario, len(state.units["japan"]), *map(id, units))
    kept = _TALLIES.get(key)
    if kept is None:
        kept = _TALLIES.put(key, (units, _tally(state, lambda u: u, "all")))
    return kept[1]


def _tally(state: State, known: Callable[[Unit], Unit | None], basis: str) -> dict[str, Any]:
    family = hooks.of(state).tally(state, known, basis)
    if family is not None:
        return family
    points: dict[Side, int] = {"japan": 0, "usa": 0}
    for side in SIDES:
        for u in state.units[side].values():
            shown = known(u)
            if shown is not None:
                points[other(side)] += unit_points(shown)[0]
    return {"points": dict(points), "basis": basis, "rule": "7a3"}
