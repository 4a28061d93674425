"""Issue 35: `python -m tools.arena` prints a rate only for a pairing it played: one not
asked for (`--pairing`) is nan with n=0, never a rate of 0.000 that reads as lost games."""

from __future__ import annotations

from tools.arena import PAIRINGS, Tally, line


def test_35_a_pairing_not_played_prints_no_rate() -> None:
    tallies = {("two", "usa", p): Tally() for p in PAIRINGS}
    tallies[("two", "usa", "strong_vs_quick")] = Tally(games=4, score=3.0, timings=[0.002])
    out = line("two", "usa", "two-player", tallies)
    assert "bot_vs_random_win_rate=nan (n=0)" in out
    assert "bot_vs_greedy_win_rate=nan (n=0)" in out
    assert "strong_vs_quick_win_rate=0.750 (n=4, 95% CI" in out
