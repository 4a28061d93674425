"""The points where a mode changes how the game is played: named hooks with the two-player
game's answers (2c: both Operations Cards open) as their defaults.

A mode's audience policy (audiences.py) says who hears each event; these hooks say what
else the rules do because of the mode - who hears a search's answer, what a side learns
after a combat, which sides act at once. The base game, the optional rules, the
expansion and the engine's play ask `of(state)` and never read a mode's flags (`umpired`,
`open_cards`: tests/rules/test_parts.py). The umpired modes' answers (18) are
`modes/r18_umpired/hooks.py`'s `Umpired`, registered for both of them by its package.

The hooks, by what the rules ask:

1. who acts ............ `at_once`
2. scouts (3d, 18c1) ... `scout_entries`, `before_air_movement`
3. searches (3d3) ...... `number_stated`, `search_answered`
4. combat results ...... `damage_done`, `base_struck`
5. what a side learns .. `sees_all_losses`, `asks_before_losses`
"""

from __future__ import annotations

from app.rules.engine.actions import Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import Side, Spotting, State, Unit
from app.rules.engine.steps import play_at_once_by
from app.rules.modes.audiences import TWO_PLAYER, mode_of
from app.rules.modes.reports import sighting


class ModeHooks:
    """The two-player game's answers (2c): each hook leaves the rules as two players at one
    table play them, both Operations Cards open."""

    # 1. who acts
    def at_once(self, state: State) -> bool:
        """18c1, 18c3: whether both sides act at once where the rules have Side B, then
        Side A (3), so that whom a step waits for tells the enemy nothing. Two players:
        no - Side B, then Side A."""
        return False

    # 2. scouts
    def scout_entries(self, state: State, side: Side, entries: list[Action]) -> list[Action]:
        """7c4.4, 7d4.2: of the off-board scout's entries, those offered in the Air Movement
        and Search Step (3d). Two players: all of them."""
        return entries

    def before_air_movement(self, state: State, out: list[Event]) -> bool:
        """18c1: once the air units are aloft (3d), whether a step of the mode's comes
        before the air movement (True: the mode has begun it). Two players: none - Side B,
        then Side A, move and search."""
        return False

    # 3. searches
    def number_stated(
        self, state: State, side: Side, hex_: str, actual: int, out: list[Event]
    ) -> int | None:
        """15a1.2: the number of ships stated at once for a "number" answer of a search of
        `hex_` (`actual`: the ships there). None: the searched side states it itself, in
        a step of its own - as two players do."""
        return None

    def search_answered(self, state: State, side: Side, spot: Spotting, out: list[Event]) -> None:
        """3d3.2, 18c1: who hears a search's answer. Two players: the searching side marks
        it on its Searchboard at once, and the answer is public (3d3)."""
        state.boards[side].intel.append(spot)
        out.append(Event("search", ALL, state.turn, state.step, sighting(side, spot)))

    # 4. combat results
    def damage_done(
        self, state: State, target: Unit, before: int, kind: str, out: list[Event]
    ) -> None:
        """18c2: what the side that fought `target` hears of the damage a combat of `kind`
        did it (`before`: its damage points before the combat), besides the combat's own
        event. Two players: nothing more - the event and the cards are open (2c)."""

    def base_struck(
        self, state: State, base: Unit, hits_today: int, knocked_out: bool, out: list[Event]
    ) -> None:
        """18c2 in the expansion (Bases 3): what the attacker learns of the base's state -
        its hits today and its knockout - besides the strike's own event. Two players:
        nothing more - the event is public."""

    # 5. what a side learns
    def sees_all_losses(self, state: State, seat: str) -> bool:
        """7a3 with 2c: whether `seat` knows the losses of both sides in the score so far.
        Two players: every seat - the Operations Cards are open."""
        return True

    def asks_before_losses(self, state: State) -> bool:
        """Issue 13, 5: whether a side whose only action, "done", loses it units it can see
        going (air units that cannot land) is asked to say "done" itself, not passed. Two
        players: yes - with the cards open (2c) the wait tells the enemy nothing new."""
        return True


TWO_PLAYERS = ModeHooks()
_MODES: dict[str, ModeHooks] = {TWO_PLAYER.id: TWO_PLAYERS}


def register(mode: str, hooks: ModeHooks) -> None:
    """A game played in the mode `mode` (a mode id, audiences.py) uses `hooks`."""
    _MODES[mode_of(mode).id] = hooks


def of(state: State) -> ModeHooks:
    """The hooks of the game's mode; a mode whose package has not registered them is an
    error, never played as two players."""
    hooks = _MODES.get(mode_of(state.mode).id)
    if hooks is None:
        raise LookupError(f"no hooks registered for the mode {state.mode!r} (app/rules/modes)")
    return hooks


# Who acts (18c1, 18c3): the engine enters a step that says so (Step.acts,
# WhoActs.AT_ONCE_WHEN_UMPIRED) with both sides at once when the game's mode's hooks say so.
play_at_once_by(lambda state: of(state).at_once(state))

__all__ = ["TWO_PLAYERS", "ModeHooks", "of", "register"]
