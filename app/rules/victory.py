"""6 and 7a3: the Turn Record Phase, and victory points at the end of the game."""

from __future__ import annotations

from app.data import catalog
from app.rules.events import ALL, Event
from app.rules.setup import scenario_of
from app.rules.state import SIDES, Side, State, Unit, other
from app.rules.steps import Step, begin, register
from app.rules.units import air_record, elim_back, is_scout, ship_record

HALVED_TYPES = ("DD", "AP")  # 7a3.2, with air combat units


def unit_points(u: Unit) -> tuple[int, str]:
    """7a3: points the other side scores for this unit, and why ("" when none)."""
    chart = catalog().victory_points
    if u.ship:
        kind = ship_record(u).type
    else:
        kind = "scout" if is_scout(u) else "air"
    if u.eliminated:
        points = chart.eliminated.get(kind, 0)
        if (kind == "air" or kind in HALVED_TYPES) and (u.started_back or elim_back(u)):
            points //= 2  # 7a3.2
        return points, "eliminated"
    if u.flipped and u.ship:
        return chart.flipped.get(kind, 0), "flipped"
    return 0, ""


def victory_points(state: State) -> dict[str, object]:
    """7a3 and the scenario's victory conditions (7b4.1)."""
    spec = scenario_of(state)
    totals: dict[Side, int] = {"japan": 0, "usa": 0}
    lines: dict[Side, list[dict[str, object]]] = {"japan": [], "usa": []}
    for side in SIDES:
        for u in state.units[side].values():
            points, why = unit_points(u)
            if points:
                scorer = other(side)
                totals[scorer] += points
                name = ship_record(u).name if u.ship else air_record(u).id
                lines[scorer].append(
                    {"unit": u.id, "name": name, "side": side, "result": why, "points": points}
                )
    margin = totals["japan"] - totals["usa"]
    if margin >= spec.japan_wins_margin:
        winner = "japan"
    elif -margin >= spec.usa_wins_margin:
        winner = "usa"
    else:
        winner = "tie"
    return {
        "points": dict(totals),
        "lines": {s: lines[s] for s in SIDES},
        "winner": winner,
        "rule": spec.rule,
    }


def _enter(state: State, out: list[Event]) -> None:
    """6: advance the Turn marker; after the final Turn, count victory points."""
    if state.turn >= scenario_of(state).last_turn:
        state.victory = victory_points(state)
        state.status = "finished"
        state.step = "finished"
        state.waiting = []
        out.append(Event("game-over", ALL, state.turn, "turn record", dict(state.victory)))
        return
    state.turn += 1
    out.append(Event("turn", ALL, state.turn, "turn record", {"turn": state.turn}))
    begin(state, "sides", out)


register(
    Step(
        "turn record",
        "6",
        "",
        lambda state, side: [],
        lambda state, side, action, out: None,
        _enter,
        lambda state, out: None,
    )
)
