"""Issue 35: `python -m tools.arena` prints a rate only for a pairing it played: one not
asked for (`--pairing`) is nan with n=0, never a rate of 0.000 that reads as lost games."""

from __future__ import annotations

from app.rules.modes.reports import OPEN
from tools.arena import PAIRINGS, Table, Tally, computer, line, play, umpire_releases


def test_35_a_pairing_not_played_prints_no_rate() -> None:
    tallies = {("two", "usa", p): Tally() for p in PAIRINGS}
    tallies[("two", "usa", "strong_vs_quick")] = Tally(games=4, score=3.0, timings=[0.002])
    out = line("two", "usa", "two-player", tallies)
    assert "bot_vs_random_win_rate=nan (n=0)" in out
    assert "bot_vs_greedy_win_rate=nan (n=0)" in out
    assert "strong_vs_quick_win_rate=0.750 (n=4, 95% CI" in out


def test_18c_the_arenas_umpire_releases_every_report() -> None:
    """18c: in `umpired` the engine never waits for the umpire (he acts when he likes). The
    arena's umpire releases each report waiting for him before the players' next move;
    before, nobody played his seat, every search's answer stayed with him, and the
    American side lost every Scenario One game at either level (n=200)."""
    agents = {"usa": computer("strong"), "japan": computer("quick")}
    winner, table = play("one", 3, agents, "umpired")
    assert winner in ("usa", "japan", "tie")
    assert table.state.drafts, "reports were made for the umpire"
    assert all(d.status not in OPEN for d in table.state.drafts)
    spotted = table.seat_view("usa")["searchboard"].get("spotted") or []
    assert spotted, "the American side was told of its searches"
    two_player = Table.new("one", 3)
    assert not umpire_releases(two_player)  # no umpire's seat: nothing to release
