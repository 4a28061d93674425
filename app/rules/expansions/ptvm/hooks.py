"""The hooks "Pacific Theatre Via Midway" overrides (app/rules/hooks.py): its scenarios are
played on the theatre map (`board = "theatre"`), and there the base game's rules give way to
the expansion's at each of these points."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.board.boards import is_base
from app.rules.engine.actions import Action
from app.rules.engine.events import Event
from app.rules.engine.state import Battle, Side, State, Unit, UnitKey
from app.rules.expansions.ptvm import (
    area_search,
    capacity,
    replacements,
    strikes,
    theatre_air,
    theatre_points,
)
from app.rules.expansions.ptvm.record import TheatreRecord, record
from app.rules.expansions.ptvm.theatre import is_land_bomber, planes
from app.rules.hooks import Hooks, Refusal
from app.rules.optional.fighters import may_break_through

SORTIE_WHY = (
    "Off-Board Bases 1",
    "an air unit in the Ready box of an off-board base takes off into one of that "
    "base's marked edge squares, by day, with movement left after the square's number",
)


class Theatre(Hooks):
    """The expansion's rules at the base game's hooks (each method names its rule)."""

    # 1. new Turn (and the game's setup)
    def set_up(self, state: State) -> None:
        state.ptvm = TheatreRecord()  # the expansion's slot of the State

    def new_turn(self, state: State) -> None:
        theatre_air.new_turn(state)  # Bases 3: a new day's damage; knockouts end at 0700

    def turn_record(self, state: State, out: list[Event], before_repairs: bool) -> None:
        replacements.turn_record(state, out, before_repairs)  # planes lost, Replacements

    # 2. take-off refusal
    def take_off_refusal(self, state: State, u: Unit) -> Refusal | None:
        return theatre_air.take_off_refusal(state, u)  # Bases 3, Buka, Truk

    def readying_refusal(self, state: State, u: Unit) -> Refusal | None:
        return theatre_air.readying_refusal(state, u)  # Bombers 8

    def readied(self, state: State, key: UnitKey) -> None:
        theatre_air.readied(state, key)

    # 3. launch limit
    def launches_all(self, state: State, carrier: Unit) -> bool:
        return theatre_air.no_launch_number(state, carrier)  # a base has no launch number

    # 4. air-movement actions
    def air_actions(self, state: State, side: Side, acts: list[Action]) -> list[Action]:
        return area_search.theatre_actions(state, side, acts)  # Searches 1-2

    def sorties(self, state: State, side: Side, night: bool) -> list[Action]:
        return theatre_air.sorties(state, side, night)  # Off-Board Bases 1

    def flight_refusal(self, state: State, units: list[Unit], to: str) -> Refusal | None:
        return theatre_air.mountain_refusal(state, units, to)  # Terrain

    def take_off(self, state: State, side: Side, uid: str, square: str, out: list[Event]) -> int:
        return theatre_air.take_off(state, side, uid, square, out)  # Off-Board Bases 1

    def air_why(self, state: State, side: Side, action: Action) -> Refusal | None:
        if action.kind == "search-area":
            return area_search.why(state, side, action)
        if action.kind == "sortie":
            return SORTIE_WHY
        return None

    def search_area(self, state: State, side: Side, area: str, out: list[Event]) -> None:
        area_search.search_area(state, side, area, out)  # Searches 1

    def after_number_report(self, state: State, out: list[Event]) -> None:
        area_search.resume(state, out)  # Searches 1: the rest of an area search's zones

    def landed(self, state: State, u: Unit, out: list[Event]) -> None:
        theatre_air.landed(state, u, out)  # Off-Board Bases 3 (Truk), Bombers 8

    # 5. unit size and landing room
    def holds_planes(self, state: State, c: Unit) -> bool:
        return capacity.holds_planes(state, c)

    def room(self, state: State, c: Unit) -> float:
        return capacity.room(state, c)  # Bases 2, Carrier Capacity: in planes

    def takes(self, state: State, u: Unit) -> float:
        return float(planes(u))

    def basing_refusal(self, state: State, u: Unit, c: Unit) -> str | None:
        return capacity.basing_refusal(state, u, c)

    def card_entry(self, state: State, c: Unit) -> dict[str, object]:
        return capacity.plane_count(state, c)  # Carrier Capacity, Bases 2: counted in planes

    def base_today(self, state: State, base: Unit) -> dict[str, object]:
        damage = record(state).base_damage.get(base.id)  # Bases 3: the day's damage, knockout
        if damage is None:
            return {}
        return {"damage_today": damage.damage, "knocked_out": damage.knocked_out}

    # 6. air range
    def always_unequal_legs(self, state: State) -> bool:
        return True  # RULES? a plane's range out and back: 12c1 always (air_ranges.py)

    # 7. battle targets
    def split_waves(
        self, state: State, b: Battle, waves: list[list[str]] | None
    ) -> list[list[str]] | None:
        return strikes.wave_split(state, waves or [b.air + b.escorts], b.attacker)  # Bombers 3

    def strike_order(self, state: State, b: Battle) -> bool:
        return strikes.order_choice(state, b)  # Bombers 6

    def bombing_category(self, state: State, b: Battle, uid: str) -> str | None:
        return strikes.BOMBERS_CATEGORY if strikes.ship_bomber(state, b, uid) else None

    def bomber_target(self, state: State, b: Battle, u: Unit) -> str | None:
        return strikes.bomber_target(state, b) if is_land_bomber(u) else None  # Bombers 3

    def outside_4c(self, state: State, b: Battle, uid: str) -> bool:
        return strikes.outside_4c(state, b, uid)

    def outside_why(self, state: State, b: Battle, uid: str, what: str) -> Refusal | None:
        return strikes.outside_why(state, b, uid, what)

    def may_peel(self, state: State, b: Battle) -> bool:
        return strikes.may_peel(state, b)  # Bombers 5

    def breakers(self, state: State, b: Battle, free: list[str]) -> list[str]:
        free = [c for c in free if c not in b.peeled]  # Bombers 5: they fight the bombers
        return [c for c in free if may_break_through(state, b, c)]

    def base_aa_apart(self, state: State, side: Side, ship: str) -> bool:
        return is_base(state, side, ship)  # Bases 4: a base's AA at its own attackers

    def on_base(self, state: State, b: Battle, uid: str) -> bool:
        return strikes.on_base(state, b, uid)  # Bombers 4-6: a base strike instead of 4d

    def ship_bombers(self, state: State, b: Battle, units: list[str]) -> list[str]:
        return [a for a in units if strikes.ship_bomber(state, b, a)]  # Bombers 3

    def bombing_factor(self, state: State, side: Side, bombers: list[str]) -> int:
        return strikes.bombing_factor(state, side, bombers)

    def before_bombing(self, state: State, b: Battle, cover: list[str], out: list[Event]) -> None:
        strikes.bomber_losses(state, b, cover, out)  # Bombers 3

    def base_strikes(self, state: State, b: Battle, cover: list[str], out: list[Event]) -> None:
        for base in strikes.bases_to_strike(state, b):  # Bombers 4-7
            strikes.base_strike(state, b, base, cover, out)

    def destroyers_fired(self, state: State) -> None:
        record(state).dd_bonus_used = state.turn  # Destroyers: once each Turn

    def destroyers_refused(self, state: State, b: Battle) -> str | None:
        return strikes.destroyers_refused(state, b)  # Destroyers

    # 8. staging and repair
    def may_stage(self, state: State, u: Unit) -> bool:
        return not is_land_bomber(u)  # RULES? Bombers 8: a land bomber does not stage either

    def repairs_aboard(self, state: State) -> bool:
        return False

    def ships_held(self, state: State, side: Side, marker: str) -> Refusal | None:
        return theatre_air.ships_held(state, side, marker)  # Coral Sea: APs

    def leave_board(self, state: State, side: Side, marker: str, out: list[Event]) -> bool:
        return theatre_air.leave_board(state, side, marker, out)  # Off-Board Bases 5

    # 9. score and victory
    def counts_planes(self, state: State) -> bool:
        return True

    def tally(
        self, state: State, known: Callable[[Unit], Unit | None], basis: str
    ) -> dict[str, Any] | None:
        return theatre_points.running_tally(state, known, basis)

    def victory_points(self, state: State) -> dict[str, object] | None:
        return theatre_points.victory_points(state)

    def base_reports(self, state: State) -> bool:
        return True
