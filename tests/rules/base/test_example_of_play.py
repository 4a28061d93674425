"""Examples of Play 10a-10d: the printed turn, with its dice forced, number by number."""

from __future__ import annotations

from app.rules.base.victory import victory_points
from app.rules.engine.state import State

from ..helpers import kinds, play, position

JAPANESE_CARRIERS = [
    "Akagi",
    "Hiryu",
    "Kaga",
    "Soryu",
    "Chikuma",
    "Tone",
    "Kirishima",
    "DD1",
    "DD2",
]

DICE = [
    4, 6,  # 10a: sides - 4 for the Americans, 6 for the Japanese
    6, 5,  # 10b1: Haruna vs B5, 8 vs 7
    2, 7,  # 10b1: Nagara vs B6, 3 vs 9
    4, 6,  # 10b1: dive bombing on Haruna, 24 vs 11
    7, 3,  # 10b2: Astoria, Portland, DD #2 vs HYT, 13 vs 5
    6, 6,  # 10b2: Yorktown vs AD, 9 vs 8
    3, 6,  # 10b2: torpedo bombing on Yorktown, 25 vs 9
    3, 7,  # 10b2: AD dive bombing on Yorktown, 13 vs 9
    3, 7,  # 10b2: HYD dive bombing on Astoria, 10 vs 10
]  # fmt: skip


def example_position() -> State:
    """10a: Turn 8, TF 17 in M4, TF 16 in K6, the Mobile Force (Haruna, Nagara) in H4."""
    return position(
        8,
        {
            "usa": {"TF17": ("M4", []), "TF16": ("K6", [])},
            "japan": {
                "MobileForce": ("H4", ["Haruna", "Nagara"]),
                "Group-A": ("I2", JAPANESE_CARRIERS),
            },
        },
        arming=[("usa", "B3")],
        dice=DICE,
    )


def test_10a_to_10d_example_of_play() -> None:
    s = example_position()
    # 10a: the Japanese are Side A, so the Americans go first in each step.
    assert (s.side_a, s.step, s.waiting) == ("japan", "assembly", ["usa", "japan"])
    s, _ = play(s, "usa", "launch B5", "launch T3", "launch O", "launch B6", "launch S6", "done")
    assert s.units["usa"]["B5"].area == "TF17"  # 3a3: TF 17's Normal Strike box
    s, _ = play(
        s, "japan", "launch 1AT", "launch 2AT", "launch AD", "launch HYT", "launch HYD", "done"
    )
    s, _ = play(s, "usa", "ready B3", "done")  # 3b
    s, _ = play(s, "japan", "done")
    s, _ = play(s, "usa", "move TF17 L3", "done")  # 3c
    s, _ = play(s, "japan", "done")

    # 3d: scout O searches the last four of its six hexes and spots the Mobile Force in H4.
    s, ev = play(
        s, "usa", "fly O K3", "fly O J2", "fly O I3", "search I3", "fly O H3", "search H3",
        "fly O H4", "search H4", "fly O H5", "search H5",
    )  # fmt: skip
    found = {e.data["hex"]: e.data["found"] for e in kinds(ev, "search")}
    assert found == {
        "I3": [],
        "H3": [],
        "H4": [{"force": "MobileForce", "ships": ["Haruna", "Nagara"]}],
        "H5": [],
    }
    # 3d2: B5 and T3 move together; T3's movement factor of 3 leaves it in I5.
    s, _ = play(s, "usa", "fly L3-strike K4", "fly L3-strike J4", "fly L3-strike I5")
    assert "L3-strike" in s.boards["usa"].groups and s.boards["usa"].groups["L3-strike"] == ["B5"]
    s, _ = play(
        s,
        "usa",
        "fly L3-strike H4",
        "fly K6-strike J5",
        "fly K6-strike I5",
        "fly K6-strike H4",
        "done",
    )
    flights = s.boards["usa"].flights
    assert (flights["T3"].hex, flights["B5"].hex, flights["B6"].hex) == ("I5", "H4", "H4")
    s, _ = play(s, "japan", "fly I2-strike J2", "fly I2-strike K3", "fly I2-strike L3", "done")

    # 10b: Side A (Japan) resolves H4 first, then L3.
    assert s.step == "combat" and s.waiting == ["japan"]
    s, _ = play(s, "japan", "battle H4", "face N", "position Haruna K9", "position Nagara K11")
    s, _ = play(s, "usa", "target B5 Haruna", "target B6 Haruna", "target S6 Haruna")
    s, ev = play(s, "japan", "aa Haruna B5", "fire", "aa Nagara B6", "fire")  # every AA factor used
    aa = kinds(ev, "anti-aircraft")
    assert [
        (e.data["attacker_number"], e.data["defender_number"], e.data["outcome"]) for e in aa
    ] == [
        (8, 7, "hit"),  # 10b1: one hit on B5
        (3, 9, "miss"),  # 10b1: no damage
    ]
    assert s.units["usa"]["B5"].hits == 1
    bomb = kinds(ev, "bombing")  # the lone bombing combat resolves itself
    assert [
        (e.data["attacker_modifier"], e.data["attacker_number"], e.data["defender_number"])
        for e in bomb
    ] == [(20, 24, 11)]
    assert bomb[0].data["outcome"] == "flip" and s.units["japan"]["Haruna"].flipped

    s, _ = play(s, "usa", "done")  # 4e1: no reorganisation
    s, _ = play(s, "japan", "done")
    assert s.step == "battle setup" and s.battle is not None and s.battle.hex == "L3"
    s, _ = play(
        s, "usa", "face N", "position Yorktown J11", "position Astoria L11",
        "position Portland H11", "position DD2 J13",
    )  # fmt: skip
    s, _ = play(
        s, "japan", "approach 1AT Yorktown K11", "approach 2AT Yorktown I11", "target AD Yorktown",
        "approach HYT Yorktown K11", "target HYD Astoria",
    )  # fmt: skip
    s, ev = play(
        s,
        "usa",
        "aa Astoria HYT",
        "aa Portland HYT",
        "aa DD2 HYT",
        "fire",
        "aa Yorktown AD",
        "fire",
    )
    aa = kinds(ev, "anti-aircraft")
    assert [
        (e.data["attacker_modifier"], e.data["attacker_number"], e.data["defender_number"])
        for e in aa
    ] == [
        (6, 13, 5),
        (3, 9, 8),
    ]
    assert [e.data["outcome"] for e in aa] == ["flip", "hit"]
    s, ev1 = play(s, "japan", "bomb Yorktown torpedo")
    s, ev2 = play(s, "japan", "bomb Yorktown dive")
    bombs = kinds(ev1 + ev2, "bombing")
    assert [
        (e.data["attacker_modifier"], e.data["attacker_number"], e.data["defender_number"])
        for e in bombs
    ] == [
        (22, 25, 9),  # 10b2: 7 + 7 + 5 (HYT flipped) + 3 anvil
        (10, 13, 9),  # 10b2: 6 (AD with a hit) + 4 (B3 in Yorktown's Ready box)
        (7, 10, 10),  # 10b2: HYD on Astoria, resolved by itself as the last combat
    ]
    assert [e.data["outcome"] for e in bombs] == ["flip", "hit", "miss"]
    assert bombs[0].data["modifiers"] == ["anvil (4d3.1)"]
    york = s.units["usa"]["Yorktown"]
    assert york.flipped and york.hits == 1

    # 10c: O, B5 and T3 land in Yorktown's Arming box in L3.
    s, _ = play(s, "usa", "done")  # 4e1 reorganisation, US then Japan
    s, _ = play(s, "japan", "done")
    assert s.step == "air return" and s.waiting == ["usa", "japan"]
    s, _ = play(
        s, "usa", "land O Yorktown", "land B5 Yorktown", "land T3 Yorktown", "land B6 Enterprise"
    )
    s, _ = play(s, "usa", "land S6 Enterprise")
    assert all(
        s.units["usa"][u].box == "arming" and s.units["usa"][u].area == "Yorktown"
        for u in ("O", "B5", "T3")
    )
    for unit, carrier in [
        ("1AT", "Akagi"),
        ("2AT", "Akagi"),
        ("AD", "Akagi"),
        ("HYT", "Hiryu"),
        ("HYD", "Hiryu"),
    ]:
        s, _ = play(s, "japan", f"land {unit} {carrier}")
    assert not s.forced_dice, "every printed die was used"
    # 10d: Japan 10 for the flipped Yorktown, the US 5 for the flipped Haruna.
    assert s.turn == 9
    assert victory_points(s)["points"] == {"japan": 10, "usa": 5}
