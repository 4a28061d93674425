"""The umpired modes' answers at the mode hooks (app/rules/modes/hooks.py): 18's game, with
the umpire's seat (`umpired`) or the server in his chair (`double-blind`). "All
information must go through the umpire" (18c): the Operations Cards are private, a side
learns of the enemy only what his reports tell it, and both sides act at once."""

from __future__ import annotations

from app.rules.base.search import exact_answer, ships_present
from app.rules.engine.actions import Action
from app.rules.engine.events import Event
from app.rules.engine.state import Side, Spotting, State, Unit
from app.rules.modes.hooks import ModeHooks
from app.rules.modes.r18_umpired.scout_routes import begin_routes
from app.rules.modes.reports import report_base, report_damage, report_spotting
from app.rules.modes.seats import OMNISCIENT, is_umpire
from app.rules.modes.umpire import stated_ships


class Umpired(ModeHooks):
    """18: the umpire's procedure at the mode hooks (each method names its rule)."""

    # 1. who acts
    def at_once(self, state: State) -> bool:
        return True  # 18c1: "simultaneously", but for moving air strikes; 18c3

    # 2. scouts
    def scout_entries(self, state: State, side: Side, entries: list[Action]) -> list[Action]:
        return []  # 18c1: the off-board scout enters with the scout routes

    def before_air_movement(self, state: State, out: list[Event]) -> bool:
        begin_routes(state, out)  # 18c1: the scouts' routes, handed in and flown first
        return True

    # 3. searches
    def number_stated(
        self, state: State, side: Side, hex_: str, actual: int, out: list[Event]
    ) -> int | None:
        return stated_ships(state, side, hex_, actual, out)  # 18c1: the umpire's "lie"

    def search_answered(self, state: State, side: Side, spot: Spotting, out: list[Event]) -> None:
        truth = {  # 18c1: the answer goes through the umpire
            "found": exact_answer(state, side, spot.hex),
            "ships": ships_present(state, side, spot.hex),
        }
        report_spotting(state, side, spot, truth, out)

    # 4. combat results
    def damage_done(
        self, state: State, target: Unit, before: int, kind: str, out: list[Event]
    ) -> None:
        report_damage(state, target, before, kind, out)  # 18c2

    def base_struck(
        self, state: State, base: Unit, hits_today: int, knocked_out: bool, out: list[Event]
    ) -> None:
        report_base(state, base, hits_today, knocked_out, out)  # 18c2: by the umpire

    # 5. what a side learns
    def sees_all_losses(self, state: State, seat: str) -> bool:
        # 18b: the umpire sees everything; the game over, the cards are shown
        return seat == OMNISCIENT or is_umpire(state, seat) or state.status == "finished"

    def asks_before_losses(self, state: State) -> bool:
        return False  # 18c: with the cards private the wait would tell the enemy of the loss
