"""Pacific Theatre Via Midway: flying from and to the theatre's bases and carriers, played in a
Coral Sea game - Terrain, Off-Board Bases 1, 3 and 5, Bases 2-3 (take-off, landing, 0700),
Bombers 2 and 8, Carrier Capacity in planes, and the APs of Coral Sea's Starting Positions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from app.rules import (
    Action,
    Event,
    IllegalAction,
    State,
    apply,
    describe_scenarios,
    legal_actions,
    new_game,
)
from app.rules.base.landing import room
from app.rules.board.time_record import turn_box
from app.rules.engine.state import ARMING, EXITED, FLYING, READY, SHIPS, Flight, UnitKey
from app.rules.expansions.ptvm import theatre_air
from app.rules.expansions.ptvm.bases import BaseDamage, base, damage_base
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.strikes import knockout_spec
from tests.rules.helpers import edited, play

PLACES = {
    "usa": {"TF17": "H7H", "TF44": "H7G"},
    "japan": {
        "StrikingForce": "D1B",
        "CoveringGroup": "C1B",
        "InvasionForce": "C2B",
        "SupportGroup": "E1A",
    },
}


def coral_sea(
    change: Callable[[State], None] | None = None, options: frozenset[str] = frozenset()
) -> State:
    """A Coral Sea game just after both sides' setup, `change` made to it before."""
    state = new_game("coral-sea", options, 3)
    if change is not None:
        change(state)
        state = edited(state)
    for side, places in PLACES.items():
        state, _ = play(state, side, *(f"place {m} {h}" for m, h in places.items()), "done")
    return state


def pass_until(state: State, step: str, turn: int | None = None, side: str = "") -> State:
    """Every side to move says Done until `step` (of `turn`) waits for `side` (or anyone)."""
    for _ in range(2000):
        here = state.step == step and (turn is None or state.turn == turn) and state.waiting
        if here and (not side or state.waiting[0] == side):
            return state
        state, _ = apply(state, state.waiting[0], Action("done", ()))
    raise AssertionError(f"never reached {step}")


def flying(side: str, uid: str, hex_: str, change: Callable[[State], None] | None = None) -> State:
    """Turn 2 of a Coral Sea game at `side`'s Air Return Phase, with `uid` flying in `hex_`
    (one zone flown), put there in the Air Movement Step; `change` made to it there too."""
    state = pass_until(coral_sea(), "air movement and search", 2, side)
    s = state.clone()
    at(s, side, uid, FLYING, "")
    s.boards[side].flights[uid] = Flight(hex=hex_, moved=1, group=uid)  # type: ignore[index]
    if change is not None:
        change(s)
    return pass_until(edited(s), "air return", 2, side)


def why_not(state: State, seat: str, action: Action) -> tuple[str, str]:
    """The rule and the words by which `action` is refused (the game unchanged)."""
    with pytest.raises(IllegalAction) as refused:
        apply(state, seat, action)
    return refused.value.rule, refused.value.message


def at(state: State, side: str, uid: str, box: str, area: str) -> None:
    u = state.units[side][uid]  # type: ignore[index]
    u = state.put(replace(u, box=box, area=area))


def test_ptvm_off_board_bases_1_take_off_through_the_marked_edge_squares() -> None:
    state = coral_sea(lambda s: at(s, "usa", "CS-MoresbyB1", READY, "Australia"))
    state = pass_until(state, "assembly", 2)
    assert Action("launch", ("CS-MoresbyB1",)) not in legal_actions(state, "usa")
    state = pass_until(state, "air movement and search", 2, "usa")
    offered = {a.values[1] for a in legal_actions(state, "usa") if a.kind == "sortie"}
    assert offered == {"A6G", "A7A", "A7D", "A7G"}  # theatre.toml: Australia's squares
    state, _ = play(state, "usa", "sortie CS-MoresbyB1 A7D")
    flight = state.boards["usa"].flights["CS-MoresbyB1"]
    assert (flight.hex, flight.moved) == ("A7D", 5)  # the square's number already flown
    assert state.units["usa"]["CS-MoresbyB1"].box == FLYING


def test_ptvm_off_board_bases_1_landing_counts_the_square_number() -> None:
    s = flying("usa", "CS-MoresbyB1", "B7G")
    # B7G is one zone from A7G (4): five zones to Australia, within a return of 10 (5a2)
    assert Action("land", ("CS-MoresbyB1", "Australia")) in legal_actions(s, "usa")
    s = flying("usa", "CS-MoresbyB1", "I1A")
    assert Action("land", ("CS-MoresbyB1", "Australia")) not in legal_actions(s, "usa")
    rule, _ = why_not(s, "usa", Action("land", ("CS-MoresbyB1", "Australia")))
    assert rule == "5a2"


def test_ptvm_off_board_bases_3_japanese_planes_landed_at_truk_never_fly_again() -> None:
    # Truk is 13 zones beyond its squares (theatre.toml), farther than any plane flies back
    # (5a2, 12c1), so the landing is played by hand: what follows it is the rule
    s = flying("japan", "CS-RabaulT1", "C1B")
    assert Action("land", ("CS-RabaulT1", "Truk")) not in legal_actions(s, "japan")
    at(s, "japan", "CS-RabaulT1", ARMING, "Truk")
    events: list[Event] = []
    theatre_air.landed(s, s.units["japan"]["CS-RabaulT1"], events)
    assert s.units["japan"]["CS-RabaulT1"].box == EXITED
    assert [e.kind for e in events] == ["exited"]


def test_ptvm_off_board_bases_5_ships_may_leave_the_board_and_are_not_eliminated() -> None:
    state = pass_until(coral_sea(), "sea movement", 2, "japan")
    state, events = play(state, "japan", "exit StrikingForce")
    for sid in ("Shokaku", "Zuikaku", "Myoko", "Haguro"):
        assert state.units["japan"][sid].box == EXITED  # out of play, not eliminated
    assert not any(e.kind == "eliminated" for e in events)
    assert state.boards["japan"].forces["StrikingForce"] is None


def test_ptvm_terrain_fighters_never_fly_through_mountain_zones() -> None:
    state = pass_until(coral_sea(options=frozenset({"14"})), "assembly", 2, "usa")
    state, _ = play(state, "usa", "launch CS-MoresbyF1", "launch CS-MoresbyD1")
    state = pass_until(state, "air movement and search", 2, "usa")
    groups = state.boards["usa"].groups
    (group,) = [g for g, members in groups.items() if "CS-MoresbyF1" in members]
    targets = {
        a.values[1] for a in legal_actions(state, "usa") if a.kind == "fly" and a.values[0] == group
    }
    assert "A4E" not in targets and "A4A" not in targets  # mountain zones beside Port Moresby
    assert "A4G" in targets  # a sea zone
    rule, words = why_not(state, "usa", Action("fly", (group, "A4E")))
    assert rule == "Terrain" and "mountain" in words


def test_ptvm_bases_3_no_take_off_or_landing_while_knocked_out_till_0700() -> None:
    """Updated: the knockout of Turn 1 (0500 May 4) used to end as Turn 2 (0700 May 4)
    began; Bases 3 has it last "till 0700 of the next day" - Turn 11, 0700 May 5."""
    state = coral_sea(lambda s: record(s).base_damage.update({"PortMoresby": BaseDamage(6, True)}))
    state = pass_until(state, "assembly", 1, "usa")
    assert Action("launch", ("CS-MoresbyD1",)) not in legal_actions(state, "usa")
    rule, words = why_not(state, "usa", Action("launch", ("CS-MoresbyD1",)))
    assert rule == "Bases 3" and "knocked out till 0700" in words


def test_ptvm_bases_3_knockout_in_the_0500_turn_lasts_till_0700_of_the_next_day() -> None:
    """Bases 3: Port Moresby knocked out in the 0500 May 4 Turn is still out at 0700 May 4
    and through May 5's 0500 Turn, and operable again at 0700 May 5."""
    state = coral_sea(
        lambda s: damage_base(
            s, knockout_spec(base("coral-sea", "Port Moresby")),
            record(s).base_damage.setdefault("PortMoresby", BaseDamage()), 50, "May 4, 1942",
        )
    )  # fmt: skip
    assert state.turn == 1 and record(state).base_damage["PortMoresby"].knocked_out
    state = pass_until(state, "assembly", 2)
    assert turn_box(state).time == "0700" and record(state).base_damage["PortMoresby"].knocked_out
    assert record(state).base_damage["PortMoresby"].damage == 50  # the same day's
    state = pass_until(state, "assembly", 10)
    assert (turn_box(state).date, turn_box(state).time) == ("May 5, 1942", "0500")
    assert record(state).base_damage["PortMoresby"].knocked_out
    assert record(state).base_damage["PortMoresby"].damage == 0  # a new day's count
    state = pass_until(state, "assembly", 11)
    moresby = record(state).base_damage["PortMoresby"]
    assert turn_box(state).time == "0700" and not moresby.knocked_out


def test_ptvm_bases_3_no_landing_on_a_knocked_out_base() -> None:
    s = flying("usa", "CS-MoresbyD1", "A5D")
    assert Action("land", ("CS-MoresbyD1", "PortMoresby")) in legal_actions(s, "usa")
    s = flying(
        "usa",
        "CS-MoresbyD1",
        "A5D",
        lambda s: record(s).base_damage.update({"PortMoresby": BaseDamage(6, True)}),
    )
    assert Action("land", ("CS-MoresbyD1", "PortMoresby")) not in legal_actions(s, "usa")
    rule, _ = why_not(s, "usa", Action("land", ("CS-MoresbyD1", "PortMoresby")))
    assert rule == "Bases 3"


def test_ptvm_bombers_2_never_on_carriers_nor_at_bases_that_refuse_them() -> None:
    s = flying("japan", "CS-RabaulB1", "C2B")
    landings = {a.values[1] for a in legal_actions(s, "japan") if a.values[:1] == ("CS-RabaulB1",)}
    assert "Rabaul" in landings and "Lae" in landings
    assert "Kavieng" not in landings and "Shortlands" not in landings  # "may not accept bombers"
    assert "Shokaku" not in landings
    rule, _ = why_not(s, "japan", Action("land", ("CS-RabaulB1", "Kavieng")))
    assert rule == "Bases 2"


def test_ptvm_bombers_8_a_bomber_readies_after_its_bases_readying_time() -> None:
    s = flying("japan", "CS-RabaulB1", "A3A")
    s, _ = play(s, "japan", "land CS-RabaulB1 Lae")
    assert s.units["japan"]["CS-RabaulB1"].box == ARMING
    assert record(s).readying[UnitKey("japan", "CS-RabaulB1")] == 2 + 5  # Lae: 5 Turns (Coral Sea)
    s = pass_until(s, "ready", 3, "japan")
    assert Action("ready", ("CS-RabaulB1",)) not in legal_actions(s, "japan")
    rule, words = why_not(s, "japan", Action("ready", ("CS-RabaulB1",)))
    assert rule == "Bombers 8" and "Turn 7" in words
    s = pass_until(s, "ready", 7, "japan")
    assert Action("ready", ("CS-RabaulB1",)) in legal_actions(s, "japan")


def test_ptvm_carrier_capacity_counted_in_planes() -> None:
    state = coral_sea()
    lexington = state.units["usa"]["Lexington"]
    # Lexington: maximum capacity 26; without option 14 its F units stay out: D 12 + T 4
    assert room(state, lexington) == 26 - 16
    moresby = state.units["usa"]["PortMoresby"]
    assert room(state, moresby) == 50 - (24 + 3 + 5)  # Port Moresby 50; B, D, T aboard


def test_ptvm_coral_sea_aps_cannot_move_until_night_may_4() -> None:
    state = pass_until(coral_sea(), "sea movement", 2, "japan")
    moves = [a for a in legal_actions(state, "japan") if a.values[:1] == ("InvasionForce",)]
    assert moves == []
    rule, words = why_not(state, "japan", Action("move", ("InvasionForce", "C2C")))
    assert rule == "Starting Positions" and "Turn 8" in words
    assert all(u.box == SHIPS for u in state.units["japan"].values() if u.id.startswith("AP"))
    state = pass_until(state, "sea movement", 8, "japan")
    assert any(a.values[:1] == ("InvasionForce",) for a in legal_actions(state, "japan"))


def test_ptvm_no_scout_units_so_no_scout_options() -> None:
    """The expansion's scenarios have no scout units (RULES-NOTES.md, Searches): 12d, 15b
    and 15c are refused by name, and not offered for them."""
    for rule in ("12d", "15b", "15c"):
        options = frozenset({rule, "14"})
        with pytest.raises(ValueError, match=rf"optional rule {rule} .* no scout units"):
            new_game("coral-sea", options, 1)
        new_game("one", options, 1)  # Midway's scenarios keep them
    offered = {s["id"]: s["options"] for s in describe_scenarios()}
    assert "15c" not in offered["santa-cruz"] and "15c" in offered["three"]
