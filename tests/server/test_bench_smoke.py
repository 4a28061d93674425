"""`make bench`'s server part (tools/bench_server.py, issue 3) keeps working: a short run
with a few games prints every figure the issue names."""

from __future__ import annotations

import pytest

from tools import bench_server

FIGURES = (
    "concurrent_games",
    "action_to_patch_p50_ms",
    "action_to_patch_p99_ms",
    "floor_p50_ms",
    "floor_p99_ms",
    "latency_ratio_p50",
    "latency_ratio_p99",
    "patch_bytes_ratio",
    "server_rss_mb",
)


def test_bench_server_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    """A 4-game, few-second run: every figure is printed as name=value, with numbers."""
    args = ["--games", "4", "--seconds", "4", "--warmup", "2", "--think", "0.3"]
    assert bench_server.main(args) == 0
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    for name in FIGURES:
        assert float(lines[name]) == float(lines[name]), name  # a number, not nan
    assert int(lines["concurrent_games"]) == 4
    assert int(lines["errors"]) == 0
