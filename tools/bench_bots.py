"""Issue 35's server figure (`make bench`): do computer seats slow the people's games?

    python -m tools.bench_bots [--humans 200] [--bots 20] [--seconds 30] [--warmup 15]
                               [--think 3.0] [--bot-pause 3.0] [--level strong]

Two runs of tools.bench_server's live games (`--humans` of them, both seats played by
its agents over websockets), each on a fresh server and SQLite file: one alone, one with
`--bots` games beside them whose every seat the computer plays (POST /api/games with
`computer`), each computer move after a pause of `--bot-pause` seconds, a person's pace
(MIDWAY_COMPUTER_PAUSE_SECONDS). Prints

- `latency_ratio_p50_without_bots`, `latency_ratio_p50_bots_beside`: each run's
  action-to-patch p50 over its floor p50 (tools.bench_server);
- `latency_ratio_p50_with_bots`: the second over the first (goal <= 1.10);
- `computer_moves_beside`: the moves the computer made in its games meanwhile (the
  server's count of actions in the measured window less the agents').
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

import httpx

from tools.bench_server import free_port, percentile, run, start_server, stop_server


def bot_games(base: str, count: int, level: str) -> list[str]:
    """`count` Scenario One games whose both seats the computer plays."""
    ids = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for seed in range(count):
            body = {
                "scenario": "one",
                "seed": 35_000 + seed,
                "computer": {"seats": ["usa", "japan"], "level": level},
            }
            r = http.post("/api/games", json=body)
            r.raise_for_status()
            ids.append(str(r.json()["id"]))
    return ids


def one(args: argparse.Namespace, tmp: Path, bots: int) -> tuple[float, int]:
    """A run with `bots` computer games beside the people's: its latency ratio p50."""
    port = free_port()
    env = {
        "MIDWAY_STATE_CACHE_SIZE": str(max(512, 2 * (args.humans + bots))),
        "MIDWAY_COMPUTER_PAUSE_SECONDS": str(args.bot_pause),
    }
    url = f"sqlite:///{tmp}/bench-bots-{bots}.db"
    proc = start_server(url, port, tmp / f"server-bots-{bots}.log", **env)
    base = f"http://127.0.0.1:{port}"
    try:
        ids = bot_games(base, bots, args.level)
        figures = asyncio.run(
            run(base, proc.pid, args.humans, args.seconds, args.warmup, args.think)
        )
        # the server's actions in the window less the agents' (tools.bench_server.run)
        computer_moves = figures.server_actions - figures.actions
        assert len(ids) == bots
    finally:
        stop_server(proc)
    for error in figures.errors[:5]:
        print(f"# error: {error}", file=sys.stderr)
    return percentile(figures.latencies, 50) / percentile(figures.floor, 50), computer_moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_bots", description=__doc__.split("\n")[0])
    parser.add_argument("--humans", type=int, default=200)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=15.0)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--bot-pause", type=float, default=3.0)
    parser.add_argument("--level", default="strong", choices=("quick", "strong"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="midway-bench-bots-") as tmp:
        without, _ = one(args, Path(tmp), 0)
        beside, computer_moves = one(args, Path(tmp), args.bots)
    print(f"latency_ratio_p50_without_bots={without:.2f}")
    print(f"latency_ratio_p50_bots_beside={beside:.2f}")
    print(f"latency_ratio_p50_with_bots={beside / without:.2f}  # goal <= 1.10")
    print(f"computer_moves_beside={computer_moves}  # in {args.bots} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
