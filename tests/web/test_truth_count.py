"""Issue 30: the umpire console's "Truth:" line counts what it shows. It lists the counters
found in the hex; 15a1.2 counts ships (a DD or AP counter is three to six ships), so the
line gives both numbers and the counter count matches the counters listed."""

from __future__ import annotations

from app.web.console import truth_words


def test_issue_30_truth_counts_the_counters_it_lists() -> None:
    truth = {
        "found": {
            "TF1": ["Akagi", "Kaga", "Hiryu", "Soryu", "DD1", "DD2"],
            "TF2": ["Haruna", "Kirishima", "Tone", "Chikuma", "DD3"],
        },
        "ships": 21,
    }
    words = truth_words("spotting", truth)
    listed = sum(len(s) for s in truth["found"].values())
    assert listed == 11
    assert "(11 counters: 21 ships)" in words
    assert "(21 ships)" not in words


def test_issue_30_truth_one_counter() -> None:
    words = truth_words("spotting", {"found": {"TF5": ["DD4"]}, "ships": 4})
    assert words == "TF5: DD4 (1 counter: 4 ships)"


def test_issue_30_truth_nothing_there() -> None:
    assert truth_words("spotting", {"found": {}, "ships": 0}) == "nothing there"
