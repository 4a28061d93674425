"""Searches 1-2 of "Pacific Theatre Via Midway": three air searches a side a Turn, each of one
area (its 3 x 3 zones), within twelve zones of the side's ships or five zones of its bases,
never from New Caledonia, Australia or Truk (RULES-NOTES.md, Searches).

An area search is an action of the Air Movement and Search Step (3d): "search-area F4".
Every zone of the area is answered as 3d3.2 answers a hex (15a when chosen), through
app/rules/base/search.py. The 3d5 sea search is unchanged. The theatre has no scout units, and its
three searches take the place of 3d3.1's searching by air units as they enter hexes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from app.rules.base.search import search
from app.rules.base.setup import scenario_of
from app.rules.board.boards import base_zone, bases_of, board_of, searchboard_of, ships_in
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import Action, add_kinds
from app.rules.engine.events import Event
from app.rules.engine.state import Side, State
from app.rules.engine.steps import StepId
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.reinforcements import check_sightings
from app.rules.expansions.ptvm.theatre import is_theatre

add_kinds({"search-area": ("area",)})

HOW = "area search"  # the announcement's kind (state.announcements)
# Searches 1-2: the printed values, used where a scenario's [special] does not give them
SEARCHES = 3
SHIP_RANGE = 12
BASE_RANGE = 5
NO_SEARCH_FROM = ("NewCaledonia", "Australia", "Truk")
# 3d3.1's searches as air units enter hexes, which the theatre's area searches replace
HEX_SEARCHES = ("search", "circle", "orbit")


def _special(state: State, key: str, default: int) -> int:
    value = scenario_of(state).special.get(key, default)
    return value if isinstance(value, int) else default


def _no_search_from(state: State) -> frozenset[str]:
    value = scenario_of(state).special.get("no_search_from", NO_SEARCH_FROM)
    return frozenset(str(v) for v in value) if isinstance(value, Sequence) else frozenset()


def area_of(zone: str) -> str:
    """The area a zone is in ("F4F" is in area F4: MAP, RULES-NOTES.md)."""
    return zone[:-1]


def area_zones(state: State, area: str) -> tuple[str, ...]:
    """The zones of an area, in board order."""
    return tuple(z for z in searchboard_of(state).hexes() if area_of(z) == area)


def used(state: State, side: Side) -> int:
    """Searches 1: the area searches the side has made this Turn."""
    return sum(1 for s, how, _ in state.announcements if s == side and how == HOW)


def origins(state: State, side: Side) -> list[tuple[str, int]]:
    """Searches 2: the zones a side may search from, each with its reach: its task forces'
    zones (twelve zones) and its bases on the board (five), but New Caledonia, Australia and
    Truk; an off-board base has no zone and never counts."""
    board = state.boards[side]
    ship_range = _special(state, "search_range_ships", SHIP_RANGE)
    base_range = _special(state, "search_range_bases", BASE_RANGE)
    out = [
        (h, ship_range)
        for m, h in board.forces.items()
        if h is not None and ships_in(state, side, m)
    ]
    barred = _no_search_from(state)
    for base in bases_of(state, side):
        zone = base_zone(state, base)
        if zone is not None and base.id not in barred:
            out.append((zone, base_range))
    return out


def searchable(state: State, side: Side) -> list[str]:
    """Searches 2: the areas within reach, in board order.

    # RULES? An area is within reach when any one of its zones is within twelve zones of one
    # of the side's task forces or five of one of its bases.
    """
    near: set[str] = set()
    for zone, r in set(origins(state, side)):
        near.update(_areas_within(state.scenario, zone, r))
    return [a for a in _board_areas(state.scenario) if a in near]


@cache
def _areas_within(scenario: str, zone: str, radius: int) -> frozenset[str]:
    """The areas with a zone at most `radius` zones from `zone`."""
    return frozenset(area_of(z) for z in board_of(scenario).within(zone, radius))


@cache
def _board_areas(scenario: str) -> tuple[str, ...]:
    """The board's areas in board order."""
    return tuple(dict.fromkeys(area_of(z) for z in board_of(scenario).hexes()))


def actions(state: State, side: Side) -> list[Action]:
    """Searches 1-2: the area searches the side may still make this Turn.

    # RULES? No area searches in a night Turn: they are air searches, and no air unit flies
    # at night (3a1); the 3d5 sea search is made as usual.
    """
    board = state.boards[side]
    if board.sea_searched or turn_box(state).night:
        return []
    if used(state, side) >= _special(state, "searches", SEARCHES):
        return []
    done = {a for s, how, a in state.announcements if s == side and how == HOW}
    return [Action("search-area", (a,)) for a in searchable(state, side) if a not in done]


def theatre_actions(state: State, side: Side, acts: list[Action]) -> list[Action]:
    """The Air Movement and Search Step's actions on the theatre map: 3d3.1's hex searches
    give way to the area searches (Searches 1); elsewhere `acts` as they are."""
    if not is_theatre(state):
        return acts
    kept = [a for a in acts if a.kind not in HEX_SEARCHES]
    return [*actions(state, side), *kept]


def search_area(state: State, side: Side, area: str, out: list[Event]) -> None:
    """Searches 1: announce the area; each of its zones is answered as 3d3.2 (or 15a) says."""
    state.announcements.append((side, HOW, area))
    _search_zones(state, side, list(area_zones(state, area)), out)


def _search_zones(state: State, side: Side, zones: list[str], out: list[Event]) -> None:
    while zones:
        zone = zones.pop(0)
        search(state, side, zone, "air search", out)
        if state.step == StepId.SEARCH_REPORT:  # 15a1.2: the owner states a number first
            record(state).area_queue = [(side, z) for z in zones]
            return
    record(state).area_queue = []
    check_sightings(state, out)


def resume(state: State, out: list[Event]) -> None:
    """After a 15a1.2 report: the rest of the area's zones are searched."""
    if record(state).area_queue and state.step != StepId.SEARCH_REPORT:
        side = record(state).area_queue[0][0]
        _search_zones(state, side, [z for _, z in record(state).area_queue], out)


def why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    """The rule that forbids a "search-area" action."""
    if action.kind != "search-area":
        return None
    if turn_box(state).night:
        return "Searches 1", "no area searches in a night Turn: no air unit flies at night (3a1)"
    if used(state, side) >= _special(state, "searches", SEARCHES):
        return "Searches 1", "each side gets 3 searches a Turn"
    return "Searches 2", (
        "an area is searched within twelve zones of your ships or five of your bases "
        "(never from New Caledonia, Australia or Truk), once a Turn"
    )
