"""7a3 so far: the running tally of victory points in view(), by what each seat may know
(app/rules/base/score.py). In the two-player game both Operations Cards are open (2c), so a
carrier sunk in a battle a side did not fight is known to it; in the umpired modes a side
knows its own losses and of the enemy's what the umpire told it (18c2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import view
from app.rules.base.victory import victory_points
from app.rules.engine.state import ELIMINATED, FLIP, GONE, State
from tools.fuzz import play_game

from .test_basic_rules import game

CV_ELIMINATED, CV_FLIPPED = 25, 10  # scenarios/victory_points.toml, 7a3 (printed)


def sunk(s: State, side: str, uid: str) -> State:
    u = s.units[side][uid]  # type: ignore[index]
    u = s.put(replace(u, damage=ELIMINATED, box=GONE))
    return s


def score(s: State, seat: str) -> dict[str, int] | None:
    doc = view(s, seat)
    return None if "score" not in doc else dict(doc["score"]["points"])


def test_7a3_two_player_tally_counts_a_carrier_sunk_where_the_side_did_not_look() -> None:
    """2c: Yorktown eliminated and Akagi flipped show on the open Operations Cards: both
    players and a spectator count Japan 25 and the United States 10, the end's unit totals."""
    s = sunk(game(), "usa", "Yorktown")
    s.put(replace(s.units["japan"]["Akagi"], damage=FLIP))
    expected = {"japan": CV_ELIMINATED, "usa": CV_FLIPPED}
    for seat in ("japan", "usa", "spectator", "omniscient"):
        assert score(s, seat) == expected, seat
    totals = victory_points(s)["points"]
    assert isinstance(totals, dict)
    assert {k: totals[k] for k in expected} == expected  # no bonus points in Scenario One


@pytest.mark.parametrize("mode", ["umpired", "double-blind"])
def test_18c2_umpired_tally_is_what_each_side_was_told(mode: str) -> None:
    """Yorktown eliminated where Japan saw nothing and was told nothing: the United States
    counts Japan's 25, Japan counts none; a spectator has no tally until the end; the
    umpire counts the truth. Told of it (18c2), Japan counts it."""
    s = sunk(game(), "usa", "Yorktown")
    s.mode = mode
    assert score(s, "usa") == {"japan": CV_ELIMINATED, "usa": 0}
    assert score(s, "japan") == {"japan": 0, "usa": 0}
    assert score(s, "spectator") is None
    if mode == "umpired":
        assert score(s, "umpire") == {"japan": CV_ELIMINATED, "usa": 0}
    s.boards["japan"].told["Yorktown"] = ELIMINATED
    assert score(s, "japan") == {"japan": CV_ELIMINATED, "usa": 0}


def test_18c2_a_side_counts_a_report_as_told_even_when_it_overstates() -> None:
    """18c2: Japan told Yorktown is flipped when it has one hit: Japan counts the 10 points
    of a flipped carrier; the United States, which knows its own carrier, counts none."""
    s = game(damage={("usa", "Yorktown"): 1})
    s.mode = "umpired"
    s.boards["japan"].told["Yorktown"] = FLIP
    assert score(s, "japan") == {"japan": CV_FLIPPED, "usa": 0}
    assert score(s, "usa") == {"japan": 0, "usa": 0}


def test_7a3_the_end_reveals_every_sides_tally() -> None:
    s = sunk(game(), "usa", "Yorktown")
    s.mode, s.status = "umpired", "finished"
    for seat in ("japan", "usa", "spectator"):
        assert score(s, seat) == {"japan": CV_ELIMINATED, "usa": 0}, seat


@pytest.mark.parametrize(("scenario", "seed"), [("one", 1), ("three", 2)])
def test_7a3_at_the_end_the_tally_is_the_result_less_its_bonus_points(
    scenario: str, seed: int
) -> None:
    """A whole game (tools/fuzz.py's agent): the tally every seat sees at the end is the
    result's points less the bonus lines (7c4.2, 7c4.3, 7d4.3), which count at the end."""
    result = play_game(scenario, seed)
    s = result.final
    assert s is not None and s.victory is not None
    lines = s.victory["lines"]
    assert isinstance(lines, dict)
    units = {side: sum(r["points"] for r in rows if r["unit"]) for side, rows in lines.items()}
    for seat in ("japan", "usa", "spectator"):
        assert score(s, seat) == units, seat
