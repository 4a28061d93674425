"""Option 16 in the Searchboard scenarios: contact (16a), facing (16b), bombardment (16j).

Positions are Scenario One's forces put straight into the Combat Phase of a day Turn with
no air battles, so the Combat Phase goes on at once to its surface combats.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules import legal_actions, view
from app.rules.engine.events import Event
from app.rules.engine.state import SHIPS, Side, Spotting, State, Unit
from app.rules.engine.steps import StepId, goto
from app.rules.optional.surface.model import Contact, Surface

from ..helpers import kinds, play

DAY = 8


def combat_phase(
    forces: dict[Side, dict[str, str]],
    informed: dict[Side, list[str]] | None = None,
    came_from: dict[Side, dict[str, str]] | None = None,
    options: frozenset[str] = frozenset(),
    level: str = "exact",
    enter: bool = True,
) -> tuple[State, list[Event]]:
    """Scenario One, markers where `forces` says, search results of `informed` this Turn."""
    from app.rules import new_game

    s = new_game("one", frozenset({"16", *options}), 0)
    s.status, s.turn, s.side_a = "playing", DAY, "japan"
    for side, markers in forces.items():
        s.boards[side].forces.update(markers)
        s.boards[side].turn_start = dict(markers) | (came_from or {}).get(side, {})
    for side, hexes in (informed or {}).items():
        s.boards[side].intel += [Spotting(DAY, h, {}, "air search", level, 12) for h in hexes]
    out: list[Event] = []
    if enter:
        goto(s, StepId.COMBAT, out)
    return s, out


def kondo(s: State, *ships: str, hex_: str = "M5") -> None:
    """A Japanese force with `ships` (Atago and Chokai are in no scenario: 16j4's example)."""
    s.boards["japan"].forces["Kondo"] = hex_
    for uid in ships:
        ship = s.units["japan"].get(uid) or Unit("japan", uid, True, SHIPS, "Kondo")
        s.put(replace(ship, area="Kondo"))


FAR = {"usa": {"TF16": "T1", "TF17": "T3"}, "japan": {"MobileForce": "A1"}}


def decide(
    s: State, usa: tuple[str, ...] = (), japan: tuple[str, ...] = ()
) -> tuple[State, list[Event]]:
    """16a, 16j: the contact step asks both sides, Side B (here the US) first, each then done."""
    assert s.step == "surface contact" and s.waiting == ["usa", "japan"]
    s, ev1 = play(s, "usa", *usa, "done")
    s, ev2 = play(s, "japan", *japan, "done")
    return s, ev1 + ev2


# ---------------------------------------------------------------- 16a contact


def test_16a_both_sides_with_exact_information_must_fight() -> None:
    s, ev = combat_phase(
        {"usa": {"TF16": "H4", "TF17": "N4"}, "japan": {"MobileForce": "H4"}},
        informed={"usa": ["H4"], "japan": ["H4"]},
    )
    s, ev = decide(s)  # both know: no choice, the combat is fought
    assert s.step == "surface setup" and s.waiting == ["usa"]  # Side B of the Turn first
    (start,) = kinds(ev, "surface-combat")
    assert start.audience == "all" and start.data["hex"] == "H4"
    assert (
        "Enterprise" in start.data["ships"]["usa"] and "Astoria" not in start.data["ships"]["usa"]
    )
    assert "Akagi" in start.data["ships"]["japan"]
    # 16a: both sides are given exact information on the ships present.
    assert s.boards["usa"].intel[-1].forces == {"MobileForce": start.data["ships"]["japan"]}
    assert ("japan", "Akagi") in s.engaged  # 11d: in combat this Turn
    assert view(s, "usa")["surface"] == view(s, "japan")["surface"] is not None


def test_16a_one_side_with_the_information_decides_in_secret() -> None:
    forces = {"usa": {"TF16": "H4", "TF17": "N4"}, "japan": {"MobileForce": "H4"}}
    s, _ = combat_phase(forces, informed={"japan": ["H4"]})
    # The US is asked as well, and sees the same whether or not Japan has a choice to make.
    blind, _ = combat_phase(forces)
    assert view(s, "usa") == view(blind, "usa") and s.waiting == blind.waiting == ["usa", "japan"]
    s, _ = play(s, "usa", "done")
    blind, _ = play(blind, "usa", "done")
    assert view(s, "usa") == view(blind, "usa")
    assert [a.text() for a in legal_actions(s, "japan")] == ["decline H4", "done", "engage H4"]
    assert view(s, "usa")["surface"] is None
    declined, ev = play(s, "japan", "decline H4", "done")
    assert declined.step != "surface setup" and not kinds(ev, "surface-combat")
    assert [e.audience for e in kinds(ev, "surface-contact")] == ["japan"]
    engaged, ev = play(s, "japan", "engage H4", "done")
    assert engaged.step == "surface setup" and kinds(ev, "surface-combat")


def test_16a_no_contact_without_2x_or_3x_information() -> None:
    forces = {"usa": {"TF16": "H4", "TF17": "N4"}, "japan": {"MobileForce": "H4"}}
    s, _ = combat_phase(forces)
    s, ev = decide(s)
    assert s.step not in ("surface contact", "surface setup") and not kinds(ev, "surface-combat")
    # 15a1.2: a number of ships the owner may state falsely is not enough ...
    informed: dict[Side, list[str]] = {"usa": ["H4"]}
    s, _ = combat_phase(forces, informed, options=frozenset({"15a"}), level="number")
    assert "engage H4" not in [a.text() for a in legal_actions(s, "usa")]
    # ... the actual number ("2X") is.
    s, _ = combat_phase(forces, informed, options=frozenset({"15a"}), level="actual")
    assert "engage H4" in [a.text() for a in legal_actions(s, "usa")]


# ---------------------------------------------------------------- 16b facing


def _facing(came_from: dict[Side, dict[str, str]]) -> str:
    s, _ = combat_phase(
        {"usa": {"TF16": "H4", "TF17": "H4"}, "japan": {"MobileForce": "H4"}},
        informed={"usa": ["H4"], "japan": ["H4"]},
        came_from=came_from,
    )
    _, ev = decide(s)
    return str(kinds(ev, "surface-combat")[0].data["facing"])


def test_16b2_same_or_adjacent_hexsides_same_facing_else_opposite() -> None:
    # TF16 moved north into H4 (from H5); the Mobile Force from H5 too, or from G4 (moving
    # south-east: two hexsides round), or from H3 (moving south: opposite).
    assert _facing({"usa": {"TF16": "H5"}, "japan": {"MobileForce": "H5"}}) == "same"
    assert _facing({"usa": {"TF16": "H5"}, "japan": {"MobileForce": "G5"}}) == "same"
    assert _facing({"usa": {"TF16": "H5"}, "japan": {"MobileForce": "G4"}}) == "opposite"
    assert _facing({"usa": {"TF16": "H5"}, "japan": {"MobileForce": "H3"}}) == "opposite"


def test_16b2_3_mixed_directions_set_up_facing_the_same_way() -> None:
    # TF16 north (opposite to the Japanese, moving south-west from I4), TF17 south (adjacent).
    came = {"usa": {"TF16": "H5", "TF17": "H3"}, "japan": {"MobileForce": "I4"}}
    assert _facing(came) == "same"
    assert _facing({"usa": {"TF16": "H5"}, "japan": {"MobileForce": "I4"}}) == "opposite"


# ---------------------------------------------------------------- 16j bombardment


def test_16j4_atago_and_chokai_plus_6_b_guns_against_a_armour_minus_2_total_plus_4() -> None:
    s, _ = combat_phase(FAR, enter=False)
    kondo(s, "Atago", "Chokai")
    s.forced_dice = [10, 1]
    goto(s, StepId.COMBAT, [])
    s, _ = play(s, "usa", "done")
    assert [a.text() for a in legal_actions(s, "japan")] == ["decline M5", "done", "engage M5"]
    s, ev = play(s, "japan", "engage M5", "done")
    setup = kinds(ev, "bombardment-set-up")[0].data
    assert setup["stacks"] == {"b": ["Atago", "Chokai"]}
    assert setup["positions"] == {"Midway": "J11", "b": "O9"}  # five hexes off (16j2)
    (attack,) = kinds(ev, "bombardment")
    assert attack.data["attacker_modifier"] == 3 + 3 - 2 == 4
    assert attack.data["modifiers"] == ["b guns against a armour (16g3)"]
    assert attack.data["defender_modifier"] == 8  # Midway 8a
    assert attack.data["outcome"] == "hit" and s.units["usa"]["Midway"].hits == 1


def test_16j3_the_base_fires_first_at_a_ship_within_its_c_range() -> None:
    s, _ = combat_phase(FAR, enter=False)
    kondo(s, "Atago", "Chokai", "Nagara")
    goto(s, StepId.COMBAT, [])
    s, _ = decide(s, japan=("engage M5",))
    assert s.waiting == ["usa"]
    # The b stack is five hexes off, beyond the base's c range of 4; Nagara's d stack is 3.
    assert [a.text() for a in legal_actions(s, "usa")] == ["done", "gun Midway Nagara"]
    s.forced_dice = [8, 1, 1, 10, 1, 10]
    s, ev = play(s, "usa", "gun Midway Nagara")
    base, *stacks = kinds(ev, "bombardment")
    assert base.data["attacker_modifier"] == 2  # 2c, c guns against c armour, no sectors
    assert base.data["outcome"] == "eliminated"  # 10 against 3
    assert s.units["japan"]["Nagara"].eliminated
    assert [d.data["stack"] for d in stacks] == ["b"]  # Nagara's stack no longer fires


def test_16j_american_ships_in_the_hex_without_contact_protect_the_base() -> None:
    forces = {"usa": {"TF16": "T1", "TF17": "M5"}, "japan": {"MobileForce": "A1"}}
    s, _ = combat_phase(forces, enter=False)
    kondo(s, "Atago", "Chokai")
    goto(s, StepId.COMBAT, [])
    # The Japanese may choose to bombard - the offer cannot depend on where American ships
    # are - but the American ships in the hex prevent it, which shows only then.
    s, ev = decide(s, japan=("engage M5",))
    assert not kinds(ev, "bombardment-set-up") and kinds(ev, "bombardment-prevented")


def test_16j_after_the_americans_broke_off_the_ships_that_stayed_bombard() -> None:
    forces = {"usa": {"TF16": "T1", "TF17": "M5"}, "japan": {"MobileForce": "A1"}}
    s, _ = combat_phase(forces, enter=False)
    kondo(s, "Atago", "Chokai")
    s.surface = Surface(
        phase=DAY,
        contacts=[Contact("M5", ["japan"], "fought", us_left=False, broke_off=["Chokai"])],
    )
    s.forced_dice = [1, 10]
    goto(s, StepId.SURFACE_CONTACT, [])
    s, ev = decide(s, japan=("engage M5",))
    assert kinds(ev, "bombardment-set-up")[0].data["stacks"] == {"b": ["Atago"]}
    assert kinds(ev, "bombardment")[0].data["attacker_modifier"] == 3 - 2


def test_16j_the_japanese_may_decline_to_bombard() -> None:
    s, _ = combat_phase(FAR, enter=False)
    kondo(s, "Atago")
    goto(s, StepId.COMBAT, [])
    s, ev = decide(s, japan=("decline M5",))
    assert not kinds(ev, "bombardment-set-up") and s.step != "surface contact"
    assert [e.audience for e in kinds(ev, "bombardment-choice")] == ["japan"]


# ---------------------------------------------------------------- 4e after a surface combat


def test_4e_the_combat_phase_goes_on_after_a_surface_combat() -> None:
    s, _ = combat_phase(
        {"usa": {"TF16": "T1", "TF17": "H4"}, "japan": {"MobileForce": "H4"}},
        informed={"usa": ["H4"]},
    )
    s, _ = decide(s, usa=("engage H4",))
    s, _ = play(s, "usa", "line H N", "formation")  # day: lines H and M (16c1)
    s, _ = play(s, "japan", "formation")
    assert isinstance(s.surface, Surface) and s.surface.combat is not None
    s.surface.combat.turn = 10
    for uid in ("Yorktown", "Portland", "DD2"):  # Astoria alone against the Mobile Force
        s.put(replace(s.units["usa"][uid], box="eliminated"))
        s.put(replace(s.units["usa"][uid], damage=6))
    s.forced_dice = [1] * 40
    while s.step not in ("reorganization",) and s.status == "playing":
        seat = s.waiting[0]
        s, _ = play(s, seat, "done")
    assert s.step == "reorganization" and s.surface.combat is None
    assert [c.status for c in s.surface.contacts] == ["fought"]
    while s.step == "reorganization":
        s, _ = play(s, s.waiting[0], "done")
    assert s.step not in ("surface contact", "surface setup", "combat")
