"""Victory Points of "Pacific Theatre Via Midway" scenarios.

"Both sides receive one point for every three enemy planes destroyed (record these points
during each night turn before taking replacements) as well as the usual points for ships
sunk" - the points each scenario prints for its ships (`TheatreRules.points`), not 7a3's chart;
an AP is worth its points before or during landing and `points_after_landing` once landed; a
flipped ship scores nothing. Then each scenario's landings ([[landing]]: an AP stationary in
the place `stay_turns` Turns after its arrival, points once a place) and the Allied bonuses
([[bonus]]); Santa Cruz: "neither player wins unless he has both the highest point total and a
score of at least 50 points" (`minimum_points`).

Planes are counted as theatre.py counts them (`planes`: a damage point is a plane). Each
Turn Record Phase records the planes each air unit lost since the last one, by side, date
and plane type (`TheatreRecord.planes_lost`); the replacements (replacements.py) read the
same record.
"""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase
from math import ceil
from typing import Any

from app.data.records import Landing, TheatreRules
from app.rules.base.setup import scenario_of
from app.rules.base.units import ship_record
from app.rules.board.boards import carrier_hex
from app.rules.board.time_record import turn_box
from app.rules.engine.state import (
    ELIMINATED,
    FLIP,
    GONE,
    HIT,
    SHIPS,
    SIDES,
    Side,
    State,
    Unit,
    other,
)
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.theatre import planes, printed_planes, ptvm_type

PLANES_PER_POINT = 3  # printed in every scenario; used where a scenario's data has none
VICTORY_POINTS = "Victory Points"  # the section of each scenario that scores its game


def rules_of(state: State) -> TheatreRules:
    rules = scenario_of(state).theatre
    assert rules is not None, f"{state.scenario} is not a theatre scenario"
    return rules


# ---- planes destroyed


def _start_planes(state: State, u: Unit) -> int:
    """The planes an air unit had when it came into play: as its force set it up (7a2.2
    NOTE: "(back)" flipped, "(1 hit)" one hit); whole if it came later (reinforcements)."""
    for force in scenario_of(state).forces_of(u.side):
        if u.id in force.air_ids():
            damage = FLIP if u.id in force.back else HIT if u.id in force.one_hit else 0
            return ceil(printed_planes(u) * (ELIMINATED - damage) / ELIMINATED)
    return printed_planes(u)


def seen(state: State, u: Unit) -> int:
    """The planes the unit had at the last count."""
    return record(state).planes_seen.get(u.key, _start_planes(state, u))


def count_losses(state: State) -> None:
    """Record the planes each side lost since the last count, by date and type (the Turn
    Record Phase, before 11d repairs)."""
    date = turn_box(state).date
    for side in SIDES:
        for u in state.units[side].values():
            if u.ship:
                continue
            lost = seen(state, u) - planes(u)
            if lost > 0:
                by_type = record(state).planes_lost.setdefault(side, {}).setdefault(date, {})
                kind = ptvm_type(u)
                by_type[kind] = by_type.get(kind, 0) + lost
                owed = record(state).replacements_owed.setdefault(side, {})
                owed[kind] = owed.get(kind, 0) + lost


def rebase(state: State) -> None:
    """Each air unit's planes now, for the next count (after repairs and replacements)."""
    record(state).planes_seen = {
        u.key: planes(u) for side in SIDES for u in state.units[side].values() if not u.ship
    }


def planes_lost(state: State, side: Side) -> int:
    """The planes of `side` destroyed so far in the game."""
    return sum(n for day in record(state).planes_lost.get(side, {}).values() for n in day.values())


def plane_points(state: State, side: Side) -> int:
    """The points `side` scores for enemy planes destroyed: one per three.

    # RULES? One point for every three of the game's total (not each night's count rounded
    # down on its own): the night's record shows the same total, the remainder kept.
    """
    per = rules_of(state).planes_per_point or PLANES_PER_POINT
    return planes_lost(state, other(side)) // per


# ---- landings


def is_ap(u: Unit) -> bool:
    return u.ship and ship_record(u).type == "AP"


def _landing_at(landing: Landing, u: Unit, zone: str | None) -> bool:
    return (
        u.side == landing.side
        and zone is not None
        and zone in landing.zones
        and fnmatchcase(u.id, landing.units)
    )


def track_landings(state: State) -> None:
    """Victory Points: an AP lands when it has stayed in the place's zone `stay_turns` Turns
    after its arrival, counted at each Turn Record Phase (the Turn of arrival is 0).

    # RULES? An AP lands once, at one place; it is stationary while its task force stays in
    # the zone; the Turn Record Phase of its arrival Turn starts the count.
    """
    landings = rules_of(state).landings
    for side in SIDES:
        for u in state.units[side].values():
            if not is_ap(u) or u.key in record(state).landed:
                continue
            zone = carrier_hex(state, u) if u.box == SHIPS else None
            landing = next((g for g in landings if _landing_at(g, u, zone)), None)
            if landing is None or zone is None:
                record(state).landing_watch.pop(u.key, None)
                continue
            was, turns = record(state).landing_watch.get(u.key, (zone, -1))
            turns = turns + 1 if was == zone else 0
            record(state).landing_watch[u.key] = (zone, turns)
            if turns >= landing.stay_turns:
                record(state).landed[u.key] = landing.area
                record(state).landing_watch.pop(u.key)


def landed_at(state: State, area: str) -> bool:
    return area in record(state).landed.values()


# ---- the points


def ship_points(state: State, u: Unit) -> tuple[int, str]:
    """Points the other side scores for a ship unit: the scenario's own, when it is sunk."""
    if not u.ship or u.box != GONE:
        return 0, ""
    rules = rules_of(state)
    if u.key in record(state).landed:
        return rules.points_after_landing.get((u.side, u.id), 0), "sunk after landing"
    return rules.points.get((u.side, u.id), 0), "sunk"


def _bonuses(state: State) -> list[tuple[Side, int, str]]:
    out: list[tuple[Side, int, str]] = []
    rules = rules_of(state)
    for landing in rules.landings:
        if landed_at(state, landing.area):
            out.append((landing.side, landing.points, f"landed at {landing.area}"))
    for bonus in rules.bonuses:
        if bonus.condition == "no-landing" and bonus.area is not None:
            if not landed_at(state, bonus.area):
                out.append((bonus.side, bonus.points, f"no landing at {bonus.area}"))
        elif bonus.condition == "all-destroyed-before-landing":
            pattern = bonus.units or "*"
            targets = [
                u for u in state.units[other(bonus.side)].values() if fnmatchcase(u.id, pattern)
            ]
            landed = record(state).landed
            if targets and all(u.box == GONE and u.key not in landed for u in targets):
                out.append((bonus.side, bonus.points, f"all {pattern} destroyed before landing"))
    return out


def tally(state: State, known: bool = True) -> dict[Side, int]:
    """The points so far: ships sunk and planes destroyed (recorded at each Turn Record
    Phase). `known` False leaves out the planes a side cannot know it destroyed."""
    points: dict[Side, int] = {"japan": 0, "usa": 0}
    for side in SIDES:
        for u in state.units[side].values():
            points[other(side)] += ship_points(state, u)[0]
        if known:
            points[side] += plane_points(state, side)
    return points


def victory_points(state: State) -> dict[str, object]:
    """Victory Points at the game's end, in 7a3's shape (victory.victory_points)."""
    spec = scenario_of(state)
    rules = rules_of(state)
    totals: dict[Side, int] = {"japan": 0, "usa": 0}
    lines: dict[Side, list[dict[str, object]]] = {"japan": [], "usa": []}
    for side in SIDES:
        for u in state.units[side].values():
            points, why = ship_points(state, u)
            if points:
                scorer = other(side)
                totals[scorer] += points
                lines[scorer].append(
                    {
                        "unit": u.id,
                        "name": ship_record(u).name,
                        "side": side,
                        "result": why,
                        "points": points,
                    }
                )
    for side in SIDES:
        points = plane_points(state, side)
        lost = planes_lost(state, other(side))
        if points:
            totals[side] += points
            why = f"{lost} planes destroyed"
            lines[side].append(
                {"unit": "", "name": why, "side": other(side), "result": why, "points": points}
            )
    for scorer, points, why in _bonuses(state):
        totals[scorer] += points
        lines[scorer].append(
            {"unit": "", "name": why, "side": other(scorer), "result": why, "points": points}
        )
    margin = totals["japan"] - totals["usa"]
    leader: Side | None = None
    if margin >= spec.japan_wins_margin:
        leader = "japan"
    elif -margin >= spec.usa_wins_margin:
        leader = "usa"
    floor = rules.minimum_points
    if leader is not None and floor is not None and totals[leader] < floor:
        leader = None  # Santa Cruz: the highest total and at least 50 points, or no winner
    winner = "tie" if leader is None else leader
    result: dict[str, object] = {
        "points": dict(totals),
        "lines": {s: lines[s] for s in SIDES},
        "winner": winner,
        "rule": VICTORY_POINTS,
    }
    if floor is not None:
        result["minimum_points"] = floor
    return result


def running_tally(state: State, known: Callable[[Unit], Unit | None], basis: str) -> dict[str, Any]:
    """The expansion's Victory Points so far: the scenario's points for the ships sunk as
    known, and one per three enemy planes destroyed as recorded at the Turn Record Phases.

    # RULES? In the umpired modes a player's tally leaves the planes out: he does not know
    # how many planes either side has lost in full. Landings and bonuses come at the end.
    """
    points: dict[Side, int] = {"japan": 0, "usa": 0}
    for side in SIDES:
        for u in state.units[side].values():
            shown = known(u)
            if shown is not None:
                points[other(side)] += ship_points(state, shown)[0]
        if basis == "all":
            points[side] += plane_points(state, side)
    return {"points": dict(points), "basis": basis, "rule": VICTORY_POINTS}
