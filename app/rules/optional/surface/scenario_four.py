"""7e: Scenario Four - the Night Surface Action, one surface combat on the Battleboard.

No Searchboards: the Americans are Side B and set up first, the Japanese Side A (7e2,
7e3); the combat is fought during a night Turn (7e1) with option 16, which the scenario
requires. The ships face the same way (7e4.2, 16b2.1); "for variety" they may face
opposite ways - the variant is on when the game's options include "7e4.2". No breakoff
before the end of Surface Turn 4 (7e4.3, in breakoff.py). The American side holds the
free roll marker when option 11a is used (7e4.4; new_game gives it from the scenario).
The game ends when the combat ends (7e1), and victory points are counted (7e4.1).

7e4.1 as printed says both "the Japanese side wins with more victory points" and "the
Japanese side wins with two or more victory points more than the Americans have".
# RULES? We read the Japanese margin as 2 (scenario-four.toml `japan_wins_margin`): the
# first sentence is the standard opening of 7b4.1 and 7d4.1 left half-edited (it has lost
# their "than the American side has"), while the third is the scenario's own, placed with
# the American margin of 5 right before "Any other result is a tie". So Japan wins by 2 or
# more, the Americans by 5 or more, and anything between is a tie. The Japanese damage at
# the start counts (Mikuma flipped: 4 to the Americans) and Mikuma, eliminated, counts its
# full 12 (7a3.2 halves only DD, AP and air units set up flipped): the chart already says so.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.rules.base.setup import SPECIAL_SETUPS, scenario_of
from app.rules.board.boards import ships_in
from app.rules.engine.options import OptionId
from app.rules.engine.state import SIDES, Side, State
from app.rules.optional.surface.contact import begin_combat
from app.rules.optional.surface.fleet import night_turn
from app.rules.optional.surface.model import SurfaceCombat, record

VARIANT = OptionId.FACING_VARIANT  # the "for variety" facing, as a game option key


def _side(state: State, letter: str) -> Side:
    sides = scenario_of(state).special["surface_side"]
    assert isinstance(sides, Mapping)
    return next(s for s in SIDES if sides[s] == letter)


def set_up(state: State) -> None:
    """7e: the two forces straight onto the Battleboard, Side B (the Americans) first."""
    special = scenario_of(state).special
    state.options = tuple(sorted({*state.options, OptionId.SURFACE_COMBATS.value}))
    state.status = "playing"
    state.side_a = _side(state, "A")
    key = "facing_variant" if VARIANT in state.options else "facing"
    c = SurfaceCombat("", night_turn(state), str(special[key]), _side(state, "B"))
    for side in SIDES:
        c.ships[side] = [u.id for m in state.boards[side].forces for u in ships_in(state, side, m)]
    record(state).decided = list(SIDES)  # 7e: the one combat, with nothing to decide first
    begin_combat(state, c, [])


SPECIAL_SETUPS["four"] = set_up
