"""5: The Air Return Phase - basing (5a1), reach (5a2), capacity (5a3), and the elimination
of air units unable to land. Positions and helpers are in test_basic_rules.py."""

from __future__ import annotations

from dataclasses import replace

from app.rules import State, view
from app.rules.engine.state import ARMING, FLIP, GONE, READY

from ..helpers import kinds, play
from .test_basic_rules import JAPAN_REST, action_phase, eliminated, fly, game, refused, texts


def landings(s: State, seat: str, unit: str) -> set[str]:
    return {t.split()[2] for t in texts(s, seat) if t.startswith(f"land {unit} ")}


def aboard(s: State, area: str) -> list[str]:
    """2c4: the air units in an area's Ready and Arming boxes."""
    return [u.id for u in s.units["usa"].values() if u.area == area and u.box in (READY, ARMING)]


def test_5a1_basing_colours() -> None:
    s = game(arming=[])
    s, _ = action_phase(
        s,
        usa=["B5", "1SB241"],
        usa_fly=[*fly("L3-strike", "M4"), *fly("M5-strike", "M4")],
        japan=["M", "A"],
        japan_fly=["fly M I3", "fly A I3"],
    )
    assert (s.step, s.waiting) == ("air return", ["usa", "japan"])
    # Green: only on a base. White: on a CV, a CVL or a base.
    assert landings(s, "usa", "1SB241") == {"Midway"}
    assert refused(s, "usa", "land 1SB241 Yorktown").rule == "5a1"
    assert landings(s, "usa", "B5") == {"Yorktown", "Midway"}
    assert refused(s, "usa", "land B5 Astoria").rule == "5a1"  # a cruiser carries none
    s, _ = play(s, "usa", "land B5 Midway", "land 1SB241 Midway")
    # 10c: a landed unit goes into the Arming box where it lands.
    assert {(u, s.units["usa"][u].box, s.units["usa"][u].area) for u in ("B5", "1SB241")} == {
        ("B5", ARMING, "Midway"),
        ("1SB241", ARMING, "Midway"),
    }
    # Yellow: only on an AV. White never on an AV.
    assert landings(s, "japan", "M") == {"Chikuma"}  # Tone is full with N (5a3)
    assert refused(s, "japan", "land M Akagi").rule == "5a1"
    assert landings(s, "japan", "A") == {"Akagi", "Hiryu", "Kaga", "Soryu"}
    assert refused(s, "japan", "land A Chikuma").rule == "5a1"  # Chikuma is empty
    s, _ = play(s, "japan", "land M Chikuma", "land A Kaga")
    assert s.turn == 9


def test_5a2_landing_hex_within_the_movement_factor() -> None:
    s = game(japan={"MobileForce": ("H1", ["Haruna", "Nagara"]), "Group-A": ("I1", JAPAN_REST)})
    # B5 (movement 5) and T3 (movement 3) fly west together; T3 is dropped off in I3.
    s, _ = action_phase(s, usa=["B5", "T3"], usa_fly=fly("L3-strike", "K3", "J3", "I3", "H3", "G4"))
    flights = s.boards["usa"].flights
    assert (flights["T3"].hex, flights["B5"].hex) == ("I3", "G4")
    # T3 in I3: Yorktown in L3 is 3 away, Midway in M5 is 4. B5 in G4: 5 and 6.
    assert landings(s, "usa", "T3") == {"Yorktown"}
    assert landings(s, "usa", "B5") == {"Yorktown"}
    assert refused(s, "usa", "land T3 Midway").rule == "5a2"
    assert refused(s, "usa", "land B5 Midway").rule == "5a2"
    assert refused(s, "usa", "done").rule == "5a"  # every unit that can land must land
    s, ev = play(s, "usa", "land T3 Yorktown", "land B5 Yorktown")
    assert not eliminated(ev) and s.turn == 9


def test_5a3_capacity_is_never_exceeded() -> None:
    s = game()
    s, _ = action_phase(s, japan=["M"], japan_fly=["fly M I3"])
    # Tone (capacity 1) already holds its scout N.
    assert landings(s, "japan", "M") == {"Chikuma"}
    assert refused(s, "japan", "land M Tone").rule == "5a3"


def test_5_air_unit_unable_to_land_is_eliminated_and_the_owner_chooses_which() -> None:
    s = game()
    for uid in ("B6", "S6", "T6", "M", "B8", "S8", "T8", "N"):
        s.put(replace(s.units["usa"][uid], area="Midway"))  # Midway holds 16, its capacity
    s, _ = action_phase(
        s,
        usa=["B3", "1SB241", "2SB241"],
        usa_fly=[*fly("L3-strike", "M4"), *fly("M5-strike", "M4")],
    )
    assert len(aboard(s, "Midway")) == 14
    # B3 could land on Yorktown; the US lands it at Midway instead, then 1SB241. Midway is
    # full: 2SB241 (green, so only a base) cannot land, and is eliminated.
    s, ev = play(s, "usa", "land B3 Midway", "land 1SB241 Midway")
    assert not kinds(ev, "eliminated")  # issue 13: flagged first, lost on the owner's "done"
    assert view(s, "usa")["prompt"]["lost_if_done"] == [{"unit": "2SB241", "rule": "5a3"}]
    s, ev = play(s, "usa", "done")
    assert [(e.data["unit"], e.data["cause"]) for e in kinds(ev, "eliminated")] == [
        ("2SB241", "could not land (5a)")
    ]
    assert s.units["usa"]["2SB241"].box == GONE
    assert len(aboard(s, "Midway")) == 16
    assert s.turn == 9


def test_5a3_capacity_is_the_same_on_the_back_side() -> None:
    s = game(damage={("usa", "Yorktown"): FLIP})  # launch 2 on the back; capacity still 8
    for uid in ("B6", "S6", "T6", "M"):
        s.put(replace(s.units["usa"][uid], area="Yorktown"))
    s, _ = action_phase(s, usa=["B5", "O"], usa_fly=[*fly("L3-strike", "K4"), "fly O K4"])
    assert len(aboard(s, "Yorktown")) == 6
    s, ev = play(s, "usa", "land B5 Yorktown", "land O Yorktown")
    assert len(aboard(s, "Yorktown")) == 8 and not eliminated(ev)


def test_5_stranded_are_the_flying_units_no_landing_takes() -> None:
    """5 (issue 13's warning): `stranded` looks at each flying unit only until a deck takes
    it; it must name exactly the flying units none of `landings` would take, over random
    games of Scenario One (reach, capacity, colours) and Coral Sea (bases, planes), and
    the Scenario One positions again with every flight in A1, out of most reaches."""
    import random

    from app.rules import apply, new_game
    from app.rules.base.air_return import _flying, landings, stranded
    from app.rules.modes.seats import acting
    from tools.fuzz import choose

    rng = random.Random(5)
    checked = named = 0
    for scenario, seeds in (("one", range(12)), ("coral-sea", range(1))):
        for seed in seeds:
            s = new_game(scenario, frozenset(), seed)
            while s.status != "finished":
                far = s.clone()
                for board in far.boards.values():
                    for flight in board.flights.values():
                        flight.hex = "A1" if scenario == "one" else flight.hex
                for p in (s, far) if s.step in ("air movement", "air return") else ():
                    for side in ("japan", "usa"):
                        can_land = {a.values[0] for a in landings(p, side) if a.kind == "land"}
                        flying = {u.id for u in _flying(p, side)}
                        lost = {u for u, _ in stranded(p, side)}
                        assert lost == flying - can_land, (p.turn, p.step, side)
                        checked += bool(flying)
                        named += len(lost)
                seat = rng.choice(acting(s))
                s, _ = apply(s, seat, choose(s, seat, rng))
    assert checked > 200 and named > 0
