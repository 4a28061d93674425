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
    "page_latency_ratio_p50",  # issue 17: the seat page's socket beside the API's
    "page_bytes_per_action",
    "cpu_ms_per_action",  # issue 17: the server's CPU per action, and per stage
    "stage_apply_ms",
    "stage_views_ms",
    "stage_writes_ms",
    "stage_commit_ms",
    "stage_page_ms",
    "stage_http_ms",
    "gc_ms_per_action",  # of it, the cyclic collector's
    "games4_latency_ratio_p50",  # issue 17: the comparison run, its figures prefixed
    "games4_cpu_ms_per_action",
    "two_process_action_to_patch_p50_ms",
    "two_process_floor_p50_ms",
    "two_process_latency_ratio_p50",
)


@pytest.mark.slow
def test_bench_server_prints_every_figure(
    capsys: pytest.CaptureFixture[str], redis_url: str
) -> None:
    """A 4-game, few-second run (half the seats on the seat page's socket, issue 17),
    as short a comparison run, and one on two processes (Redis between them): every
    figure is printed as name=value, with numbers."""
    args = ["--games", "4", "--seconds", "4", "--warmup", "2", "--think", "0.3"]
    args += ["--compare-games", "4", "--compare-seconds", "4", "--compare-warmup", "2"]
    args += ["--two-games", "4", "--two-seconds", "4"]
    assert bench_server.main(args) == 0
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines())
    for name in FIGURES:
        assert float(lines[name]) == float(lines[name]), name  # a number, not nan
    assert int(lines["concurrent_games"]) == 4
    assert int(lines["errors"]) == 0
    assert int(lines["page_patches_timed"]) > 0
    assert int(lines["games4_errors"]) == 0
    assert int(lines["two_process_games"]) == 4
    assert int(lines["two_process_errors"]) == 0
    assert int(lines["two_process_patches_timed"]) > 0


@pytest.mark.slow
def test_issue35_bench_bots_prints_the_ratio_with_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 35's figure: a few live games alone, then beside two games the computer
    plays (tools/bench_bots.py); the ratio is printed and the computer moved meanwhile."""
    from tools import bench_bots

    args = ["--humans", "4", "--bots", "2", "--seconds", "4", "--warmup", "2"]
    args += ["--think", "0.3", "--bot-pause", "0.2"]
    assert bench_bots.main(args) == 0
    out = capsys.readouterr().out
    lines = {k: v.split("#")[0].strip() for k, v in (ln.split("=", 1) for ln in out.splitlines())}
    ratio = float(lines["latency_ratio_p50_with_bots"])
    assert ratio == ratio and ratio > 0  # a number, not nan
    assert int(lines["computer_moves_beside"]) > 0
