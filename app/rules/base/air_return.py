"""5: The Air Return Phase - every flying air unit lands, or is eliminated.

5a1 basing colours: green on a base, yellow on an AV, white on a CV, CVL or base; 5a2 the
landing hex within the unit's movement factor; 5a3 capacity never exceeded. A landed unit
goes into the Arming box where it lands (RULES-NOTES.md). A unit that cannot land is
eliminated; where capacity forces a choice, the owner chooses by landing the others.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.rules import hooks
from app.rules.base.air_ranges import return_allowance
from app.rules.base.landing import REFUSALS, basing_refusal, distance, holds_planes, room, takes
from app.rules.base.setup import scenario_of, scout_entry
from app.rules.base.units import (
    air_movement,
    eliminate,
)
from app.rules.board.boards import area_hexes, searchboard_of, unit_hex
from app.rules.board.time_record import night
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import (
    ARMING,
    FLYING,
    HIGH_CAP,
    LOW_CAP,
    OFF_BOARD,
    Flight,
    Side,
    State,
    Unit,
)
from app.rules.engine.steps import Step, StepId, WhoActs, advance, b_then_a, register
from app.rules.optional.patrols import patrols
from app.rules.optional.ship_movement import dead_in_the_water


def may_land(state: State, u: Unit, carrier: Unit) -> str | None:
    """None if `u` may land on `carrier` now, else the rule that forbids it."""
    deck = _deck(state, carrier)
    if isinstance(deck, str):
        return deck
    return _lands(state, u, deck, *_reach(state, u))


@dataclass(frozen=True, slots=True)
class _Deck:
    """What of a carrier, AV or base matters to every unit landing on it (5a)."""

    carrier: Unit
    room: float  # 5a3: capacity less the air units aboard (landing.room)


def _deck(state: State, carrier: Unit) -> _Deck | str:
    """The carrier as a landing place, or the rule by which nothing lands on it."""
    if not holds_planes(state, carrier):
        return "5a1"
    if dead_in_the_water(state, carrier):
        return "11c2"
    return _Deck(carrier, room(state, carrier))


def _reach(state: State, u: Unit) -> tuple[str, int]:
    """A flying unit's hex and the hexes it may still fly to land (5a2)."""
    return state.boards[u.side].flights[u.id].hex, return_allowance(state, u)


def _lands(state: State, u: Unit, deck: _Deck, here: str, allowance: int) -> str | None:
    refused = basing_refusal(state, u, deck.carrier)
    if refused is not None:
        return refused
    far = distance(state, here, deck.carrier)
    if far is None or far > allowance:
        return "5a2"
    if takes(state, u) > deck.room:
        return "5a3"
    return None


def _flying(state: State, side: Side) -> list[Unit]:
    """Flying units still to land: patrolling scouts stay up (12d1)."""
    flights = state.boards[side].flights
    return [u for u in state.units[side].values() if u.box == FLYING and not flights[u.id].patrol]


def _decks(state: State, side: Side) -> list[_Deck]:
    """The side's carriers, AVs and bases that air units may land on now."""
    return [
        d
        for c in state.units[side].values()
        if holds_planes(state, c)
        if isinstance(d := _deck(state, c), _Deck)
    ]


def landings(state: State, side: Side) -> list[Action]:
    flying = _flying(state, side)
    decks = _decks(state, side) if flying else []
    acts = []
    for u in flying:
        reach = _reach(state, u)
        acts += [
            Action("land", (u.id, d.carrier.id))
            for d in decks
            if _lands(state, u, d, *reach) is None
        ]
    return acts + _off_board_landings(state, side)


def stranded(state: State, side: Side) -> list[tuple[str, str]]:
    """5: the side's flying air units that could land nowhere if the side were done now,
    each with the rule that keeps it from its nearest way down (5a2 out of reach, 5a3 a
    full deck, 5a1 no ship or base of its basing colour, 11c2 its ship dead in the water).
    RULES? 5a3 is judged landing by landing: a unit flagged for capacity may get down
    after all if another lands elsewhere (the owner chooses, 5).
    A unit is looked at until the first deck that takes it (the landings `landings`
    offers, without making them: this is asked on every view of Air Movement)."""
    flying = _flying(state, side)
    if not flying:
        return []
    decks = _decks(state, side)
    off_board = {a.get("unit") for a in _off_board_landings(state, side)}
    carriers = [c for c in state.units[side].values() if holds_planes(state, c)]
    out = []
    for u in flying:
        reach = _reach(state, u)
        if u.id in off_board or any(_lands(state, u, d, *reach) is None for d in decks):
            continue
        rules = {may_land(state, u, c) for c in carriers} - {None}
        order = ("5a3", "Bases 3", "11c2", "5a2", "18a", "Bases 2", "Carrier Capacity")
        rule = next((r for r in order if r in rules), "5a1")
        out.append((u.id, rule))
    return out


def _off_board_landings(state: State, side: Side) -> list[Action]:
    """7c4.4: scout O returns to an "M" hex to land off-board."""
    entry = scout_entry(scenario_of(state))
    if entry is None or entry["side"] != side:
        return []
    u = state.units[side][str(entry["unit"])]
    if u.box != FLYING:
        return []
    here = state.boards[side].flights[u.id].hex
    grid = searchboard_of(state)
    return [
        Action("land", (u.id, h))
        for h in area_hexes(state, str(entry["area"]))
        if grid.distance(here, h) <= air_movement(u)
    ]


def _actions(state: State, side: Side) -> list[Action]:
    lands = landings(state, side)
    acts = lands + patrols(state, side)
    return acts if lands else [*acts, DONE]


def _unlanded(state: State, side: Side, action: Action, out: list[Event]) -> None:
    """5: any air unit unable to land is eliminated."""
    for u in _flying(state, side):
        eliminate(state, u, out, "could not land (5a)")


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    u = state.units[side][action.get("unit")]
    if action.kind == "patrol":
        state.boards[side].flights[u.id].patrol = True  # 12d1
        out.append(Event("patrol", ALL, state.turn, state.step, {"side": side, "unit": u.id}))
        return
    at = action.get("at")
    if searchboard_of(state).contains(at):
        entry = scout_entry(scenario_of(state)) or {}
        u = state.put(replace(u, box=OFF_BOARD, area=str(entry.get("area", ""))))
    else:
        u = state.put(replace(u, box=ARMING, area=at))
    state.boards[side].flights.pop(u.id)
    hooks.of(state).landed(state, u, out)  # Off-Board Bases 3 (Truk), Bombers 8
    out.append(
        Event("land", ALL, state.turn, state.step, {"side": side, "unit": u.id, "at": u.area})
    )


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "land":
        u = state.units[side].get(action.get("unit"))
        c = state.units[side].get(action.get("at"))
        if u is None or c is None or u.box != FLYING:
            return "5a", "only your flying air units land, on your own carriers, AVs or base"
        rule = may_land(state, u, c) or "5a"
        text = REFUSALS.get(rule, "it cannot land there")
        return rule, f"{u.id} cannot land on {c.id}: {text}"
    if action.kind == "done":
        return "5a", "every air unit that can land must land first"
    return None


def _enter(state: State, out: list[Event]) -> None:
    """14: fighters in the CAP boxes come down with the rest, from over their task force.
    12d1: last Turn's patrols land now, or patrol again."""
    for side in b_then_a(state):
        for flight in state.boards[side].flights.values():
            flight.patrol = False
        for u in state.units[side].values():
            if u.box in (HIGH_CAP, LOW_CAP):
                hex_ = unit_hex(state, u)
                assert hex_ is not None
                state.boards[side].flights[u.id] = Flight(hex=hex_, group=u.id, path=[hex_])
                state.put(replace(u, box=FLYING, area=""))
    state.waiting = b_then_a(state)  # 18c3: both sides at once when umpired (the Step says)


register(
    Step(
        StepId.AIR_RETURN,
        "5",
        "Air return: land each flying air unit on a carrier, AV or base it can reach",
        _actions,
        _handle,
        _enter,
        advance,
        _why,
        on_done=_unlanded,
        owes=landings,
        lost_if_done=stranded,
        acts=WhoActs.AT_ONCE_WHEN_UMPIRED,  # 18c3
        idle_when=night,  # 3a1: no air units fly at night
    )
)
