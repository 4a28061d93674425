"""6 and 7a3: the Turn Record Phase, and victory points at the end of the game."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from app.data import catalog
from app.rules import hooks
from app.rules.base.setup import scenario_of
from app.rules.base.units import BASE_ID, air_record, elim_back, is_scout, ship_record
from app.rules.board.boards import forces_at, midway_hex, ships_in
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import GONE, SIDES, Side, State, Unit, other, side_named
from app.rules.engine.steps import StepId, advance, automatic
from app.rules.optional.repairs import repairs

HALVED_TYPES = ("DD", "AP")  # 7a3.2, with air combat units
MIDWAY_CONTROL_TURNS = 3  # 7c4.3


@lru_cache(maxsize=8192)
def unit_points(u: Unit) -> tuple[int, str]:
    """7a3: points the other side scores for this unit, and why ("" when none). A unit is
    frozen: its points are worked out once for each of its states, which clones share."""
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
    """7a3 and the scenario's victory conditions (7b4.1); the expansion's own Victory Points
    on the theatre map (app/rules/expansions/ptvm/theatre_points.py)."""
    family = hooks.of(state).victory_points(state)
    if family is not None:
        return family
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
    for scorer, points, why in _bonuses(state):
        totals[scorer] += points
        lines[scorer].append(
            {"unit": "", "name": why, "side": other(scorer), "result": why, "points": points}
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


def _bonuses(state: State) -> list[tuple[Side, int, str]]:
    """7c4.2 optional task forces used, and 7c4.3 / 7d4.3 control of Midway."""
    spec = scenario_of(state)
    out: list[tuple[Side, int, str]] = []
    optional = spec.special.get("optional_force_bonus", {})
    assert isinstance(optional, Mapping)
    for marker, bonus in optional.items():
        side = side_named(bonus["side"])
        if marker in state.boards[side].committed:
            out.append((other(side), int(bonus["points"]), f"{marker} used (7c4.2)"))
    if spec.control_of_midway_points:
        holder: Side = "japan" if state.boards["japan"].controls_midway else "usa"
        out.append((holder, spec.control_of_midway_points, f"controls Midway ({spec.rule}4.3)"))
    return out


def track_midway_control(state: State) -> None:
    """7c4.3: after the base is eliminated, a Japanese AP unit holding M5 three consecutive Turns.

    # RULES? Counted at each Turn Record Phase; once held three Turns, control is kept.
    """
    if not scenario_of(state).control_of_midway_points:
        return
    board = state.boards["japan"]
    base = state.units["usa"].get(BASE_ID)
    held = (base is None or base.box == GONE) and any(
        ship_record(u).type == "AP"
        for m in forces_at(state, "japan", midway_hex())
        for u in ships_in(state, "japan", m)
    )
    board.control_turns = board.control_turns + 1 if held else 0
    if board.control_turns >= MIDWAY_CONTROL_TURNS:
        board.controls_midway = True


def _enter(state: State, out: list[Event]) -> None:
    """6: advance the Turn marker; after the final Turn, count victory points."""
    hooks.of(state).turn_record(state, out, before_repairs=True)  # the expansion's planes lost
    repairs(state, out)
    hooks.of(state).turn_record(state, out, before_repairs=False)  # Replacements, Land-Based Planes
    track_midway_control(state)
    if state.turn >= scenario_of(state).last_turn:
        state.victory = victory_points(state)
        out.append(Event("game-over", ALL, state.turn, StepId.TURN_RECORD, dict(state.victory)))
        advance(state, out)  # 7: the game is over
        return
    state.turn += 1
    out.append(Event("turn", ALL, state.turn, StepId.TURN_RECORD, {"turn": state.turn}))
    advance(state, out)


automatic(StepId.TURN_RECORD, "6", _enter)
