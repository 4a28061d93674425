"""`make bench`: the figures the issues ask for, printed as name=value lines.

engine_actions_per_s    apply plus legal_actions during random Scenario One play, one core (the
                        catalog read first, as a server does when it starts)
engine_actions_per_s_umpired  the same in the umpired mode (18: secret dice, private cards)
replay_scenario_one_ms  a finished Scenario One game rebuilt from its log (median of 5)
replay_campaign_ms      a finished 23-Turn Scenario Two game, every option on, rebuilt (median of 5)
replay_coral_sea_ms     a finished 34-Turn Coral Sea game (Pacific Theatre Via Midway), every
                        option it is played with, rebuilt (median of 5)
theatre_view_ms_p50, replay_page_cold_ms and the figures beside them (issue 34): the pages'
                        in-process costs (tools.bench_pages says what each measures)
Server figures (issue 3) follow from tools.bench_server when it is present, then issue 35's
latency_ratio_p50_with_bots (tools.bench_bots).
`python -m tools.bench --engine` prints the two engine figures only, `--pages` the pages' only.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from typing import Any

from app.data import catalog
from app.data.options import optional_rules
from app.rules import apply, new_game, replay
from app.rules.base.setup import OPTIONS
from app.rules.modes.seats import acting
from tools import bench_pages
from tools.fuzz import choose


def random_game(
    seed: int,
    scenario: str = "one",
    options: frozenset[str] = frozenset(),
    mode: str = "two-player",
) -> tuple[int, list[tuple[str, dict[str, Any]]]]:
    rng = random.Random(seed)
    state = new_game(scenario, options, seed, mode)
    log: list[tuple[str, dict[str, Any]]] = []
    while state.status != "finished":
        seat = rng.choice(acting(state))
        action = choose(state, seat, rng)  # calls legal_actions
        state, _ = apply(state, seat, action)
        log.append((seat, action.to_json()))
    return len(log), log


def engine_actions_per_s(
    games: int = 60, mode: str = "two-player"
) -> tuple[float, list[tuple[str, dict[str, Any]]]]:
    catalog()  # read once when a server starts, not per action
    total = 0
    start = time.perf_counter()
    longest: list[tuple[str, dict[str, Any]]] = []
    for seed in range(games):
        n, log = random_game(seed, mode=mode)
        total += n
        if len(log) > len(longest):
            longest = log
    return total / (time.perf_counter() - start), longest


def replay_ms(
    log: list[tuple[str, dict[str, Any]]],
    seed: int,
    scenario: str = "one",
    options: frozenset[str] = frozenset(),
) -> float:
    times = []
    for _ in range(5):
        start = time.perf_counter()
        replay(scenario, options, seed, log)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def engine() -> None:
    """The engine's figures alone: `python -m tools.bench --engine`."""
    rate, _ = engine_actions_per_s()
    print(f"engine_actions_per_s={rate:.0f}")
    rate, _ = engine_actions_per_s(mode="umpired")
    print(f"engine_actions_per_s_umpired={rate:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", action="store_true", help="the engine's figures only")
    parser.add_argument("--pages", action="store_true", help="the pages' figures only")
    args = parser.parse_args()
    if args.pages:
        bench_pages.main()
        return
    engine()
    if args.engine:
        return
    n, log = random_game(12345)
    print(f"replay_scenario_one_ms={replay_ms(log, 12345):.1f}  # {n} actions")
    everything = frozenset(OPTIONS)
    n, log = random_game(777, "two", everything)
    ms = replay_ms(log, 777, "two", everything)
    print(f"replay_campaign_ms={ms:.1f}  # Scenario Two, 23 Turns, every option, {n} actions")
    theatre = frozenset(optional_rules().offered("coral-sea"))
    n, log = random_game(4242, "coral-sea", theatre)
    ms = replay_ms(log, 4242, "coral-sea", theatre)
    print(f"replay_coral_sea_ms={ms:.1f}  # Coral Sea, 34 Turns, every option offered, {n} actions")
    bench_pages.main()
    if importlib.util.find_spec("tools.bench_server") is not None:
        from tools import bench_server

        bench_server.main()
    if importlib.util.find_spec("tools.bench_bots") is not None:
        from tools import bench_bots

        bench_bots.main([])  # issue 35: latency_ratio_p50_with_bots


if __name__ == "__main__":
    main()
