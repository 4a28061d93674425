"""The expansion's rules for flying from and to bases: Terrain (fighters never through mountain
zones), Off-Board Bases 1-3 (planes take off from Australia, New Caledonia and Truk through the
marked edge squares, and Japanese planes that land at Truk never fly again), Bases 3 and
Santa Cruz's Buka (no take-off from a knocked-out base; bombers that may not take off), and
Bombers 8 (a land bomber readies only after its base's readying time).

Each function is a no-op outside the expansion's scenarios, so Midway plays as before.
"""

from __future__ import annotations

from dataclasses import replace

from app.data import catalog
from app.rules.base.units import air_movement, is_fighter, ship_record
from app.rules.board.boards import base_zone
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import (
    ARMING,
    BASE,
    EXITED,
    HIGH_CAP,
    LOW_CAP,
    MAX_STRIKE,
    READY,
    SHIPS,
    STRIKE,
    Side,
    State,
    Unit,
    UnitKey,
)
from app.rules.expansions.ptvm import bases
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.theatre import base_spec, is_land_bomber, is_theatre, seen

MOUNTAIN = "mountain"
NEVER = 10**6  # Bombers 8: a base with no readying time never readies a bomber


def mountain_refusal(state: State, units: list[Unit], to: str) -> tuple[str, str] | None:
    """Terrain: "Fighters cannot fly through mountain squares" - a strike with a fighter in it
    does not enter a mountain zone."""
    if not is_theatre(state):
        return None
    spec = catalog().theatre
    if spec is None or spec.terrain_of(to) != MOUNTAIN:
        return None
    fighters = [u.id for u in units if is_fighter(u)]
    if not fighters:
        return None
    return (
        "Terrain",
        f"{to} is a mountain zone; fighters ({', '.join(fighters)}) cannot fly through it",
    )


def take_off_refusal(state: State, u: Unit) -> tuple[str, str] | None:
    """Bases 3, Santa Cruz's Buka (its Bases list), Truk: why `u` may not take off from its
    base now - the rule and the words - or None."""
    carrier = state.units[u.side][u.area]
    if not is_theatre(state) or carrier.box != BASE:
        return None
    kind = catalog().airunit(u.side, u.id).type
    words = bases.take_off_refused(base_spec(state, carrier), seen(state, carrier), kind)
    if words is None:
        return None
    return ("Bases 3" if words.startswith("Bases 3") else "Bases 2"), words


def no_launch_number(state: State, carrier: Unit) -> bool:
    """3a4 in the expansion: a base has no launch number printed, so it launches all it
    holds (RULES? Bases 2 lists capacity, AA and readying time only)."""
    return is_theatre(state) and carrier.box == BASE


def _off_board(state: State, carrier: Unit) -> bool:
    return carrier.box == BASE and base_zone(state, carrier) is None


def sorties(state: State, side: Side, night: bool) -> list[Action]:
    """Off-Board Bases 1: an air unit in the Ready box of an off-board base takes off into one
    of the base's marked edge squares, having flown the square's number of zones."""
    spec = catalog().theatre
    if not is_theatre(state) or night or spec is None:
        return []
    acts = []
    for u in state.units[side].values():
        if u.ship or u.box != READY or take_off_refusal(state, u) is not None:
            continue
        carrier = state.units[side][u.area]
        if not _off_board(state, carrier):
            continue
        off = spec.offboard[ship_record(carrier).name]
        acts += [
            Action("sortie", (u.id, sq))
            for sq, n in off.squares.items()
            if n < 2 * air_movement(u)  # within its range (12c1), a zone left to fly on
        ]
    return acts


def take_off(state: State, side: Side, uid: str, square: str, out: list[Event]) -> int:
    """Off-Board Bases 1: the zones a "sortie" into `square` has already flown - the square's
    number for a unit taking off from an off-board base (announced as its launch), 0 for
    7c4.4's scout O, which is not in a Ready box."""
    u = state.units[side][uid]
    carrier = state.units[side].get(u.area)
    spec = catalog().theatre
    if not is_theatre(state) or u.box != READY or carrier is None or spec is None:
        return 0
    if not _off_board(state, carrier):
        return 0
    data = {"side": side, "unit": uid, "from": carrier.id}
    out.append(Event("launch", ALL, state.turn, state.step, data))
    return spec.offboard[ship_record(carrier).name].squares[square]


def landed(state: State, u: Unit, out: list[Event]) -> None:
    """After `u` lands at a base: Off-Board Bases 3, a Japanese unit landed at Truk is out of
    play for the rest of the game; Bombers 8, a land bomber waits its base's readying time."""
    if not is_theatre(state) or u.box != ARMING:
        return
    carrier = state.units[u.side][u.area]
    if carrier.box != BASE:
        return
    if not base_spec(state, carrier).fly_again:  # Truk
        state.put(replace(u, box=EXITED))
        out.append(Event("exited", ALL, state.turn, state.step, {"side": u.side, "unit": u.id}))
        return
    if is_land_bomber(u):
        wait = base_spec(state, carrier).bomber_readying
        record(state).readying[u.key] = NEVER if wait is None else state.turn + wait


def readying_refusal(state: State, u: Unit) -> tuple[str, str] | None:
    """Bombers 8: a land bomber in an Arming box readies on the Turn its base allows."""
    when = record(state).readying.get(u.key)
    if when is None or state.turn >= when:
        return None
    if when == NEVER:
        return "Bombers 8", f"{u.id}'s base has no bomber readying time: it never readies there"
    return "Bombers 8", f"{u.id} may ready on Turn {when}, not before"


def readied(state: State, key: UnitKey) -> None:
    record(state).readying.pop(key, None)


def ships_held(state: State, side: Side, marker: str) -> tuple[str, str] | None:
    """Coral Sea's Starting Positions: "APs cannot move until the Night, May 4 turn" - a task
    force with an AP in it stays where it is before that Turn."""
    rules = catalog().scenarios[state.scenario].theatre
    first = None if rules is None else rules.ap_moves_from_turn
    if first is None or state.turn >= first:
        return None
    aps = [
        u.id
        for u in state.units[side].values()
        if u.ship and u.box == SHIPS and u.area == marker and ship_record(u).type == "AP"
    ]
    if not aps:
        return None
    return "Starting Positions", (
        f"{marker} holds {', '.join(aps)}: APs cannot move until Turn {first} "
        f"({turn_box(state, first).date} {turn_box(state, first).time})"
    )


def leave_board(state: State, side: Side, marker: str, out: list[Event]) -> bool:
    """Off-Board Bases 5: "Ships may leave the board but may not return" - on the theatre
    map the task force's ships, and air units in its Strike and CAP boxes, are out of play.
    # RULES? They are not eliminated (1991's 2e): the expansion allows leaving, so no
    # points are scored for them; their damage stands as it is."""
    if not is_theatre(state):
        return False
    state.boards[side].forces[marker] = None
    for u in state.units[side].values():
        aboard = (
            not u.ship and u.box in (READY, ARMING) and state.units[side][u.area].area == marker
        )
        if (
            (u.ship and u.box == SHIPS and u.area == marker)
            or aboard
            or (
                not u.ship and u.box in (STRIKE, MAX_STRIKE, HIGH_CAP, LOW_CAP) and u.area == marker
            )
        ):
            state.put(replace(u, box=EXITED))
            out.append(Event("exited", ALL, state.turn, state.step, {"side": side, "unit": u.id}))
    return True


def new_turn(state: State) -> None:
    """Bases 3: on a new date the day's damage starts anew; at 0700 the bases knocked out on an
    earlier date are operable again."""
    if not is_theatre(state):
        return
    box = turn_box(state)
    for damage in record(state).base_damage.values():
        bases.new_day(damage, box.date, box.time)
