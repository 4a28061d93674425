"""The computer against baselines, in process (issue 35): win rates and decision times.

    python -m tools.arena [--games 200] [--scenario one two coral-sea]
                          [--mode two-player|umpired|double-blind] [--seed 0]

For each scenario and side it plays `--games` games a pairing - the strong computer
against the random agent (tools/fuzz.py's, which leans toward the enemy's true
positions: it may cheat), against the greedy baseline (below), and the strong computer
against the quick one - and prints one line:

    scenario=one side=usa games=200 bot_vs_random_win_rate=0.975 (95% CI 0.943-0.989)
    bot_vs_greedy_win_rate=... strong_vs_quick_win_rate=... bot_decision_ms_p95=...

Victory is the engine's (7a3, the scenario's margins: app/rules/base/victory.py); a draw counts
half. The computer is handed only its seat's view and log (app/bots), as on the server.
Every game is seeded from `--seed`, the pairing and its number: a run is repeatable.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.bots import choose as bot_choose
from app.bots.board import distance, is_cell
from app.rules import Action, State, apply, events_for, new_game, view
from app.rules.flow import acting
from app.rules.modes.seats import seat_of, seats
from tools.fuzz import choose as random_choose

Json = dict[str, Any]
MAX_ACTIONS = 20_000
SCENARIOS = ("one", "two", "coral-sea")


@dataclass
class Table:
    """One game in process: its state, each seat's log as the server would keep it (the
    events it may read), and the time each computer decision took."""

    state: State
    logs: dict[str, list[Json]] = field(default_factory=dict)
    timings: list[float] = field(default_factory=list)
    actions: int = 0

    @classmethod
    def new(cls, scenario: str, seed: int, mode: str = "two-player", teams: bool = False) -> Table:
        state = new_game(scenario, frozenset(), seed, mode, teams)
        return cls(state, {s.id: [] for s in seats(state)})

    def play(self, seat: str, action: Action) -> None:
        self.state, events = apply(self.state, seat, action)
        self.actions += 1
        for s, log in self.logs.items():
            log.extend(events_for(events, s))

    def seat_view(self, seat: str) -> Json:
        return view(self.state, seat)


Agent = Callable[[Table, str, random.Random], Action]


def computer(level: str) -> Agent:
    def agent(table: Table, seat: str, rng: random.Random) -> Action:
        t = time.perf_counter()
        chosen = bot_choose(table.seat_view(seat), table.logs[seat], level)
        table.timings.append(time.perf_counter() - t)
        return Action.from_json(chosen)

    return agent


def random_agent(table: Table, seat: str, rng: random.Random) -> Action:
    return random_choose(table.state, seat, rng)


def greedy_agent(table: Table, seat: str, rng: random.Random) -> Action:
    """The greedy baseline, from the seat's view alone: strike whatever is seen (launch
    everything, fly at it), search nearest first (each scout one hex out, then searches),
    Japan sails straight for Midway, everything lands."""
    v = table.seat_view(seat)
    actions = [a for a in v["prompt"]["actions"] if all(x != "" for x in a.values())]
    board = v.get("searchboard") or {}
    seen = [
        s["hex"]
        for s in board.get("spotted", [])
        if s.get("level") != "nothing" and int(s.get("turn", 0)) >= int(v.get("turn", 0)) - 1
    ]
    side = (v.get("viewer") or {}).get("side")
    midway = (v.get("midway") or {}).get("hex")
    goal = seen[-1] if seen else (midway if side == "japan" else None)
    board = {**board, "battle": v.get("battle")}
    return Action.from_json(
        max(actions, key=lambda a: (_greedy(a, board, goal, bool(seen)), rng.random()))
    )


def _greedy(a: Json, board: Json, goal: object, seen: bool) -> float:
    kind = a["kind"]
    if kind == "fly":
        flight = (board.get("flying") or {}).get(
            (board.get("groups") or {}).get(a["group"], [""])[0]
        )
        here = (flight or {}).get("hex")
        if seen and is_cell(goal):
            return 1.0 + _gain(here, a["hex"], goal)
        return 0.5 if flight is not None and not flight.get("moved") else -1.0
    if kind == "move":
        here = (board.get("forces") or {}).get(a["force"])
        return _gain(here, a["hex"], goal) - 0.5 if is_cell(goal) else -1.0
    if kind in ("place", "enter"):  # once each
        return -0.5 if a["force"] in (board.get("forces") or {}) else 1.0
    if kind in ("target", "approach"):  # once each
        battle = board.get("battle") or {}
        placed = {**(battle.get("targets") or {}), **(battle.get("air_hexes") or {})}
        return -0.5 if a["unit"] in placed else 3.0
    return {
        "land": 9.0,
        "search": 7.0,
        "search-area": 6.0,
        "sea-search": 0.2,
        "launch": 4.0 if seen else -1.0,
        "ready": 3.0,
        "aa": 3.0,
        "fire": 1.0,
        "formation": 3.0,
        "bomb": 3.0,
        "attack": 1.0,
        "release-report": 1.0,
        "done": 0.0,
    }.get(kind, -0.5)  # anything else only when nothing better is offered


def _gain(here: object, there: object, goal: object) -> float:
    """Hexes closer to `goal` by going from `here` to `there`."""
    if not (_same_board(here, goal) and _same_board(there, goal)):
        return 0.0
    return float(distance(str(here), str(goal)) - distance(str(there), str(goal)))


def _same_board(a: object, b: object) -> bool:
    return is_cell(a) and is_cell(b) and (str(a)[-1].isalpha()) == (str(b)[-1].isalpha())


def play(
    scenario: str, seed: int, agents: dict[str, Agent], mode: str = "two-player"
) -> tuple[str, Table]:
    """One game, each side played by its agent: the engine's winner ("usa", "japan", "tie")."""
    table = Table.new(scenario, seed, mode)
    rng = random.Random(seed)
    while table.state.status != "finished":
        if table.actions >= MAX_ACTIONS:
            return "tie", table
        now = acting(table.state)
        seat = now[0] if len(now) == 1 else rng.choice(now)
        who = seat_of(table.state, seat)
        side = who.side if who is not None else "umpire"
        table.play(seat, agents.get(side, random_agent)(table, seat, rng))
    victory = table.state.victory or {}
    return str(victory.get("winner", "tie")), table


def wilson(score: float, n: int) -> tuple[float, float]:
    """95% interval of a rate from n games (draws as halves)."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(
    scenario: str, side: str, mine: Agent, theirs: Agent, games: int, seed: int, mode: str
) -> tuple[float, list[float]]:
    enemy = "japan" if side == "usa" else "usa"
    score, timings = 0.0, []
    for g in range(games):
        winner, table = play(scenario, seed + g, {side: mine, enemy: theirs}, mode)
        score += 1.0 if winner == side else 0.5 if winner == "tie" else 0.0
        timings += table.timings
    return score, timings


def line(scenario: str, side: str, games: int, seed: int, mode: str) -> str:
    parts = [f"scenario={scenario}", f"side={side}", f"mode={mode}", f"games={games}"]
    timings: list[float] = []
    pairings = (
        ("bot_vs_random", computer("strong"), random_agent),
        ("bot_vs_greedy", computer("strong"), greedy_agent),
        ("strong_vs_quick", computer("strong"), computer("quick")),
    )
    for i, (name, mine, theirs) in enumerate(pairings):
        score, spent = rate(scenario, side, mine, theirs, games, seed + 100_000 * i, mode)
        low, high = wilson(score, games)
        parts.append(f"{name}_win_rate={score / games:.3f} (95% CI {low:.3f}-{high:.3f})")
        timings += spent
    timings.sort()
    p95 = timings[min(len(timings) - 1, int(0.95 * len(timings)))] * 1000 if timings else 0.0
    parts.append(f"bot_decision_ms_p95={p95:.1f}")
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--scenario", nargs="+", default=list(SCENARIOS))
    parser.add_argument("--side", nargs="+", default=["usa", "japan"])
    parser.add_argument("--mode", default="two-player")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for scenario in args.scenario:
        for side in args.side:
            print(line(scenario, side, args.games, args.seed, args.mode), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
