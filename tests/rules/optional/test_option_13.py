"""Option 13: wave attacks - separate strikes, combinations, waves against one setup."""

from __future__ import annotations

from app.rules import legal_actions
from app.rules.engine.state import State

from ..helpers import kinds, play, position


def two_strikes(options: set[str], dice: list[int]) -> State:
    """B5 (TF 17) and B6 (TF 16) take off from L3; the Mobile Force is in K3."""
    s = position(
        8,
        {"usa": {"TF16": ("L3", []), "TF17": ("L3", [])}, "japan": {"MobileForce": ("K3", [])}},
        dice=[4, 6, *dice],
        options=frozenset({"13", *options}),
    )
    s, _ = play(s, "usa", "launch B5", "launch B6", "done")
    for seat in ("japan", "usa", "japan", "usa", "japan"):
        s, _ = play(s, seat, "done")
    return s


def test_13a1_strikes_from_different_task_forces_move_separately() -> None:
    s = two_strikes(set(), [])
    assert set(s.boards["usa"].groups) == {"TF16-strike", "TF17-strike"}
    s, _ = play(s, "usa", "fly TF17-strike K3")
    assert s.boards["usa"].flights["B6"].hex == "L3"


def test_13a2_strikes_combine_where_one_of_them_started() -> None:
    s = two_strikes(set(), [])
    assert "combine TF16-strike TF17-strike" in [a.text() for a in legal_actions(s, "usa")]
    s, _ = play(s, "usa", "combine TF16-strike TF17-strike", "fly TF17-strike K3")
    assert s.boards["usa"].flights["B6"].hex == "K3" and "TF16-strike" not in s.boards["usa"].groups
    # Once both have left their hex of origin, they no longer combine.
    s = two_strikes(set(), [])
    s, _ = play(s, "usa", "fly TF16-strike K3", "fly TF17-strike K3")
    assert not [a for a in legal_actions(s, "usa") if a.kind == "combine"]


def test_13b_each_strike_is_a_wave_highest_roll_first_against_one_setup() -> None:
    """13b1: a die per wave; 13b2.1: ships set up once; AA again for each wave."""
    dice = [3, 8, 1, 10, 1, 10]  # waves: TF16 3, TF17 8; bombing misses twice
    s = two_strikes(set(), dice)
    s, _ = play(s, "usa", "fly TF16-strike K3", "fly TF17-strike K3", "done")
    s, ev = play(s, "japan", "done")
    assert kinds(ev, "wave-roll")[0].data["rolls"] == {"TF16-strike": 3, "TF17-strike": 8}
    assert s.battle is not None and s.battle.air == ["B5"] and s.battle.waves == [["B6"]]
    s, _ = play(s, "japan", "face N", "position Akagi J11")
    s, _ = play(s, "japan", "formation")
    positions = dict(s.battle.positions)
    s, _ = play(s, "usa", "target B5 Akagi")
    s, _ = play(s, "japan", "aa Akagi B5", "cancel", "done")  # no AA this wave
    assert s.battle.air == ["B6"] and s.battle.positions == positions  # same setup (13b2.1)
    s, _ = play(s, "usa", "target B6 Akagi")
    assert "aa Akagi B6" in [a.text() for a in legal_actions(s, "japan")]
    s, ev = play(s, "japan", "done")
    assert [e.data["units"] for e in kinds(ev, "bombing")] == [["B6"]]
    assert not s.forced_dice


def test_13b1_tied_rolls_arrive_together_as_one_wave() -> None:
    s = two_strikes(set(), [5, 5, 1, 10])
    s, _ = play(s, "usa", "fly TF16-strike K3", "fly TF17-strike K3", "done")
    s, _ = play(s, "japan", "done")
    assert s.battle is not None and sorted(s.battle.air) == ["B5", "B6"] and s.battle.waves == []


def test_13b2_3_with_14_cap_that_fought_dive_bombers_stays_high_for_the_next_wave() -> None:
    s = position(
        8,
        {"usa": {"TF16": ("L3", []), "TF17": ("L3", [])}, "japan": {"MobileForce": ("K3", [])}},
        dice=[4, 6, 3, 8, 1, 10, 1, 10, 1, 10],
        options=frozenset({"13", "14"}),
    )
    s, _ = play(s, "usa", "launch B5", "launch B6", "done")
    s, _ = play(s, "japan", "cap 1KF high", "cap 2KF high", "done")
    for seat in ("usa", "japan", "usa", "japan"):
        s, _ = play(s, seat, "done")
    s, _ = play(s, "usa", "fly TF16-strike K3", "fly TF17-strike K3", "done")
    s, _ = play(s, "japan", "done", "face N", "formation")
    s, _ = play(s, "usa", "target B5 Akagi")
    assert s.step == "breakthroughs"  # 14e: no escorts, every CAP fighter breaks through
    s, _ = play(s, "japan", "intercept 1KF B5", "hold 2KF", "done")
    assert s.battle is not None and s.battle.air == ["B6"]
    assert s.battle.caps == {"1KF": "high", "2KF": "low"}  # 13b2.3


def test_13b2_no_further_wave_once_every_defender_is_gone() -> None:
    """Regression (battle-seeking fuzz, Scenario Three seed 8): a second wave with nothing
    left to attack left the attacker with no legal action."""
    rest = [
        "Akagi",
        "Hiryu",
        "Kaga",
        "Soryu",
        "Chikuma",
        "Tone",
        "Haruna",
        "Kirishima",
        "Nagara",
        "DD2",
    ]
    s = position(
        8,
        {
            "usa": {"TF16": ("L3", []), "TF17": ("L3", [])},
            "japan": {"MobileForce": ("K3", ["DD1"]), "Group-A": ("H1", rest)},
        },
        dice=[4, 6, 3, 8, 10, 1],
        options=frozenset({"13"}),
    )
    s, _ = play(s, "usa", "launch B5", "launch B6", "done")
    for seat in ("japan", "usa", "japan", "usa", "japan"):
        s, _ = play(s, seat, "done")
    s, _ = play(s, "usa", "fly TF16-strike K3", "fly TF17-strike K3", "done")
    s, _ = play(s, "japan", "done", "face N", "position DD1 J11")
    s, _ = play(s, "usa", "target B5 DD1")
    s, ev = play(s, "japan", "done")  # no AA; the bombing is the only combat left
    assert kinds(ev, "bombing")[0].data["outcome"] == "eliminated"
    assert s.battle is None or s.battle.air != ["B6"]
    assert s.step in ("reorganization", "air return") and s.units["usa"]["B6"].box == "flying"
