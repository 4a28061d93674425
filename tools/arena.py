"""The computer against baselines, in process (issue 35): win rates and decision times.

    python -m tools.arena [--games 200] [--minutes 22] [--jobs 2]
                          [--scenario one two coral-sea] [--side usa japan]
                          [--pairing bot_vs_random bot_vs_greedy strong_vs_quick]
                          [--mode two-player|umpired|double-blind] [--seed 0]

For each scenario and side it plays up to `--games` games a pairing - the strong
computer against the random agent (tools/fuzz.py's, which leans toward the enemy's true
positions: it may cheat), against the greedy baseline (below), and the strong computer
against the quick one - on `--jobs` processes, and prints one line:

    scenario=one side=usa mode=two-player
    bot_vs_random_win_rate=0.975 (n=120, 95% CI 0.943-0.989) bot_vs_greedy_win_rate=...
    strong_vs_quick_win_rate=... bot_decision_ms_p50=... bot_decision_ms_p95=...

Games of Scenario Two and Coral Sea take seconds each: at most `--minutes` are spent
starting games, each next game going to the pairing that has had the least CPU time (so a
quick scenario plays more), and each rate says how many games it stands on, with its 95%
(Wilson) interval. Victory is the engine's (7a3, the scenario's margins:
app/rules/base/victory.py); a draw counts half. The computer is handed only its seat's view
and log (app/bots), as on the server. A game is seeded from `--seed`, its pairing and its
number: a game is repeatable, and a run of `--games` that fits its minutes is too.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from app.bots import choose as bot_choose
from app.bots.board import distance, is_cell
from app.rules import Action, State, apply, events_for, legal_actions, new_game, view
from app.rules.modes.audiences import mode_of
from app.rules.modes.seats import acting, seat_of, seats
from app.rules.modes.umpire import UMPIRE
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
    timings: dict[str, list[float]] = field(default_factory=dict)
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

    def timings_of(self, level: str) -> list[float]:
        return self.timings.get(level, [])


Agent = Callable[[Table, str, random.Random], Action]


def computer(level: str) -> Agent:
    def agent(table: Table, seat: str, rng: random.Random) -> Action:
        t = time.perf_counter()
        chosen = bot_choose(table.seat_view(seat), table.logs[seat], level)
        table.timings.setdefault(level, []).append(time.perf_counter() - t)
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
        if umpire_releases(table):
            continue
        now = acting(table.state)
        seat = now[0] if len(now) == 1 else rng.choice(now)
        who = seat_of(table.state, seat)
        side = who.side if who is not None else "umpire"
        table.play(seat, agents.get(side, random_agent)(table, seat, rng))
    victory = table.state.victory or {}
    return str(victory.get("winner", "tie")), table


def umpire_releases(table: Table) -> bool:
    """18c: in `umpired`, the arena's umpire is a fair one: a report waiting for him is
    released as the rules made it before the players' next move (True: one was). The
    engine never waits for him (he acts when he likes), so an arena that gave him no
    move would hold every search's answer from both sides."""
    if not mode_of(table.state.mode).umpire_seat:
        return False  # no umpire's seat: reports are released as they are made
    offered = [a for a in legal_actions(table.state, UMPIRE) if a.kind == "release-report"]
    if not offered:
        return False
    table.play(UMPIRE, offered[0])
    return True


def wilson(score: float, n: int) -> tuple[float, float]:
    """95% interval of a rate from n games (draws as halves)."""
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


PAIRINGS = ("bot_vs_random", "bot_vs_greedy", "strong_vs_quick")


def agents_of(pairing: str) -> tuple[Agent, Agent]:
    """The computer's agent and its opponent's, in a pairing."""
    theirs = {"bot_vs_random": random_agent, "bot_vs_greedy": greedy_agent}.get(pairing)
    return computer("strong"), theirs or computer("quick")


@dataclass(frozen=True)
class Game:
    """One game of a pairing: its scenario, the computer's side, its number."""

    scenario: str
    side: str
    pairing: str
    number: int

    def seed(self, base: int) -> int:
        return base + 100_000 * PAIRINGS.index(self.pairing) + self.number


@dataclass
class Result:
    score: float  # 1 won, 0.5 drawn, 0 lost (for the strong computer)
    timings: list[float]  # the strong computer's decisions, seconds
    seconds: float  # the game's CPU time


def one_game(game: Game, seed: int, mode: str) -> Result:
    """A game of the pairing; only the strong computer's decisions are timed."""
    t = time.process_time()
    mine, theirs = agents_of(game.pairing)
    enemy = "japan" if game.side == "usa" else "usa"
    winner, table = play(game.scenario, game.seed(seed), {game.side: mine, enemy: theirs}, mode)
    score = 1.0 if winner == game.side else 0.5 if winner == "tie" else 0.0
    return Result(score, table.timings_of("strong"), time.process_time() - t)


@dataclass
class Tally:
    """A pairing's games so far."""

    games: int = 0
    score: float = 0.0
    seconds: float = 0.0
    running: int = 0
    timings: list[float] = field(default_factory=list)

    def cost(self) -> float:
        """CPU seconds spent, counting each running game as an average one."""
        mean = self.seconds / self.games if self.games else 0.0
        return self.seconds + self.running * mean


def run(
    scenarios: list[str],
    sides: list[str],
    games: int,
    seed: int,
    mode: str,
    jobs: int,
    minutes: float,
    pairings: tuple[str, ...] = PAIRINGS,
) -> dict[tuple[str, str, str], Tally]:
    """Up to `games` games a pairing, scenario and side on `jobs` processes, each next game
    given to the pairing that has had the least CPU time so far (a quick scenario plays
    more games), none started after `minutes`; only the `pairings` asked for are played
    (the others print nan, n=0)."""
    keys = [(sc, side, p) for sc in scenarios for side in sides for p in pairings]
    tallies = {(sc, side, p): Tally() for sc in scenarios for side in sides for p in PAIRINGS}
    deadline = time.monotonic() + 60 * minutes

    def next_game() -> Game | None:
        if time.monotonic() >= deadline:
            return None
        open_ = [k for k in keys if tallies[k].games + tallies[k].running < games]
        if not open_:
            return None
        k = min(open_, key=lambda k: (tallies[k].cost(), tallies[k].games + tallies[k].running))
        tallies[k].running += 1
        return Game(*k, number=tallies[k].games + tallies[k].running - 1)

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        running: dict[Future[Result], Game] = {}
        while True:
            while len(running) < jobs and (game := next_game()) is not None:
                running[pool.submit(one_game, game, seed, mode)] = game
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                game = running.pop(future)
                result = future.result()
                tally = tallies[(game.scenario, game.side, game.pairing)]
                tally.running -= 1
                tally.games += 1
                tally.score += result.score
                tally.seconds += result.seconds
                tally.timings += result.timings
    return tallies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def line(scenario: str, side: str, mode: str, tallies: dict[tuple[str, str, str], Tally]) -> str:
    """One scenario and side: each pairing's rate with its games and 95% interval, and the
    strong computer's decision time p50/p95 over all three pairings."""
    parts = [f"scenario={scenario}", f"side={side}", f"mode={mode}"]
    timings: list[float] = []
    for pairing in PAIRINGS:
        t = tallies[(scenario, side, pairing)]
        if not t.games:  # not asked for (`--pairing`), or no game of it finished in time
            parts.append(f"{pairing}_win_rate=nan (n=0)")
            continue
        low, high = wilson(t.score, t.games)
        won = t.score / t.games
        parts.append(f"{pairing}_win_rate={won:.3f} (n={t.games}, 95% CI {low:.3f}-{high:.3f})")
        timings += t.timings
    parts.append(f"bot_decision_ms_p50={1000 * percentile(timings, 0.5):.1f}")
    parts.append(f"bot_decision_ms_p95={1000 * percentile(timings, 0.95):.1f}")
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="at most, a pairing and side")
    parser.add_argument("--minutes", type=float, default=22.0, help="no game starts after")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--scenario", nargs="+", default=list(SCENARIOS))
    parser.add_argument("--side", nargs="+", default=["usa", "japan"])
    parser.add_argument("--pairing", nargs="+", choices=PAIRINGS, default=list(PAIRINGS))
    parser.add_argument("--mode", default="two-player")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.monotonic()
    tallies = run(
        args.scenario,
        args.side,
        args.games,
        args.seed,
        args.mode,
        args.jobs,
        args.minutes,
        tuple(args.pairing),
    )
    for scenario in args.scenario:
        for side in args.side:
            print(line(scenario, side, args.mode, tallies), flush=True)
    print(f"# {time.monotonic() - started:.0f} s on {args.jobs} processes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
