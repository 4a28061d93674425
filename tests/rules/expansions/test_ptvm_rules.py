"""Pacific Theatre Via Midway: Searches 1-2, Victory Points, Replacements and the Land-Based
Planes' reinforcements, on hand-built positions of the expansion's scenarios."""

from __future__ import annotations

from dataclasses import replace

from app.rules import Action, Event, State, apply, legal_actions, new_game
from app.rules.base.score import known_score
from app.rules.base.victory import victory_points
from app.rules.engine.state import ARMING, GONE, Side, Spotting
from app.rules.engine.steps import StepId, goto
from app.rules.expansions.ptvm.area_search import searchable
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.theatre import planes, printed_planes
from app.rules.modes.seats import OMNISCIENT


def theatre_game(scenario: str = "coral-sea", turn: int = 1) -> State:
    """A theatre game under way at `turn`, its task forces not yet on the board."""
    state = new_game(scenario, frozenset({"14"}), 3)
    state.status, state.side_a, state.turn = "playing", "usa", turn
    return state


def place(state: State, side: Side, **forces: str) -> None:
    for marker, zone in forces.items():
        state.boards[side].forces[marker] = zone


def air_search_step(state: State) -> State:
    goto(state, StepId.AIR_MOVEMENT_AND_SEARCH, [])
    return state.clone()


def area_searches(state: State, side: Side) -> list[str]:
    return [a.values[0] for a in legal_actions(state, side) if a.kind == "search-area"]


def turn_record(state: State) -> list[Event]:
    """The Turn Record Phase of the state's Turn (6); the game goes on to the next Turn."""
    out: list[Event] = []
    goto(state, StepId.TURN_RECORD, out)
    return out


def lose(state: State, side: Side, uid: str, damage: int) -> int:
    """Give an air unit damage points (eliminated at six); the planes it lost."""
    u = state.units[side][uid]
    before = planes(u)
    u = state.put(replace(u, damage=min(6, u.damage + damage)))
    if u.damage >= 6:
        u = state.put(replace(u, box=GONE))
    return before - planes(u)


def test_ptvm_searches_1_three_a_turn() -> None:
    state = theatre_game()
    place(state, "usa", TF17="F6E")
    place(state, "japan", StrikingForce="E5E", InvasionForce="C2B")
    state = air_search_step(state)
    assert "F4" in area_searches(state, "japan")
    assert not any(a.kind == "search" for a in legal_actions(state, "japan"))  # no 3d3.1
    state, events = apply(state, "japan", Action("search-area", ("F6",)))
    found = [e for e in events if e.kind == "search" and e.data["found"]]
    assert [e.data["hex"] for e in found] == ["F6E"]  # 3d3.2: the zone's task force, exactly
    assert len([e for e in events if e.kind == "search"]) == 9  # every zone of the area
    assert "F6" not in area_searches(state, "japan")
    state, _ = apply(state, "japan", Action("search-area", ("E6",)))
    assert area_searches(state, "japan")
    state, _ = apply(state, "japan", Action("search-area", ("D6",)))
    assert area_searches(state, "japan") == []  # three a Turn
    assert any(a.kind == "sea-search" for a in legal_actions(state, "japan"))  # and 3d5


def test_ptvm_searches_2_within_12_zones_of_ships() -> None:
    state = theatre_game()
    state.put(replace(state.units["usa"]["PortMoresby"], box=GONE))  # its five zones aside
    place(state, "usa", TF17="I1C")  # zone x 26, y 0
    areas = searchable(state, "usa")
    assert "E1" in areas  # zones x 12-14: twelve zones away
    assert "D1" not in areas  # x 9-11: fifteen
    assert "I5" in areas  # y 12-14: twelve
    assert "I6" not in areas  # y 15-17: fifteen


def test_ptvm_searches_2_not_from_australia() -> None:
    state = theatre_game()
    assert state.units["usa"]["Australia"].box == "base"  # in play, off the board
    state.put(replace(state.units["usa"]["PortMoresby"], box=GONE))
    state = air_search_step(state)
    assert searchable(state, "usa") == []  # Australia and New Caledonia: no searches from them
    state = theatre_game()
    areas = searchable(state, "usa")  # Port Moresby, A4D: five zones (x 0, y 10)
    assert "A4" in areas and "B3" in areas and "A6" in areas  # A6: y 15-17, five zones
    assert "C4" not in areas and "A7" not in areas  # C4: x 6-8, six zones
    assert searchable(theatre_game(), "japan")  # Rabaul and the other bases, not Truk
    state = theatre_game()
    for uid in ("Rabaul", "Lae", "Shortlands", "Kavieng", "Tulagi"):
        state.put(replace(state.units["japan"][uid], box=GONE))
    assert state.units["japan"]["Truk"].box == "base"
    assert searchable(state, "japan") == []


def test_ptvm_replacements_one_per_four() -> None:
    state = theatre_game(turn=8)  # 1900 May 4: the first night Turn
    lost = lose(state, "japan", "CS-RabaulB1", 6) + lose(state, "japan", "CS-RabaulB2", 3)
    assert lost == 9
    assert lose(state, "japan", "CS-RabaulT1", 3) == 3
    events = turn_record(state)
    assert not [e for e in events if e.kind == "replacement"]  # not the second night Turn
    assert state.turn == 9  # 2400 May 4
    events = turn_record(state)
    got = [e.data for e in events if e.kind == "replacement"]
    assert [(d["side"], d["unit"], d["type"]) for d in got] == [
        ("japan", "CS-RabaulB2", "B"),
        ("japan", "CS-RabaulB2", "B"),
    ]  # nine B: two back, one kept; three T: none
    b2 = state.units["japan"]["CS-RabaulB2"]
    assert (b2.box, planes(b2)) == (ARMING, 5)  # it must ready before flying
    assert record(state).replacements_owed["japan"] == {"F": 0, "B": 1, "D": 0, "T": 3}
    state.turn = 18  # 2400 May 5: the odd planes were saved till this night
    assert lose(state, "japan", "CS-RabaulT2", 2) == 1
    got = [e.data for e in turn_record(state) if e.kind == "replacement"]
    assert [(d["unit"], d["type"]) for d in got] == [("CS-RabaulT1", "T")]  # the most damaged
    assert state.units["japan"]["CS-RabaulB1"].box == GONE
    assert record(state).replacements_owed["japan"]["B"] == 1


def test_ptvm_replacements_one_in_three_to_carriers() -> None:
    state = theatre_game(turn=9)
    lost = sum(lose(state, "japan", uid, 3) for uid in ("CS-ShkF1", "CS-ZkkF1"))
    lost += sum(lose(state, "japan", f"CS-RabaulF{n}", 3) for n in (1, 2, 3, 4))
    assert lost == 12
    got = [e.data for e in turn_record(state) if e.kind == "replacement"]
    assert len(got) == 3  # twelve F planes: three back
    to = sorted(str(d["to"]) for d in got)
    assert to[:2] == ["Rabaul", "Rabaul"] and to[2] in ("Shokaku", "Zuikaku")  # one of three


def test_ptvm_replacements_bring_back_an_eliminated_unit() -> None:
    state = theatre_game(turn=9)
    assert lose(state, "usa", "CS-MoresbyB1", 6) == 6
    assert lose(state, "usa", "CS-MoresbyB2", 6) == 6
    got = [e.data for e in turn_record(state) if e.kind == "replacement"]
    assert [d["unit"] for d in got] == ["CS-MoresbyB1"] * 3  # the first back, then filled
    b1 = state.units["usa"]["CS-MoresbyB1"]
    assert (b1.box, b1.area, planes(b1)) == (ARMING, "PortMoresby", 3)


def test_ptvm_victory_one_point_per_three_planes() -> None:
    state = theatre_game(turn=2)
    lost = lose(state, "usa", "CS-YorkD1", 6) + lose(state, "usa", "CS-MoresbyB1", 2)
    assert lost == 7
    turn_record(state)
    assert record(state).planes_lost["usa"] == {"May 4, 1942": {"D": 5, "B": 2}}
    result = victory_points(state)
    points = result["points"]
    assert isinstance(points, dict)
    assert points["japan"] == 2  # seven planes: two points (the remainder counts later)
    lose(state, "usa", "CS-MoresbyB1", 2)
    turn_record(state)
    points = victory_points(state)["points"]
    assert isinstance(points, dict)
    assert points["japan"] == 3
    tally = known_score(state, OMNISCIENT)
    assert tally is not None and tally["points"] == {"japan": 3, "usa": 0}
    assert state.units["usa"]["CS-YorkD1"].box == GONE  # no 7a3 chart points for air units


def test_ptvm_coral_sea_port_moresby_landing() -> None:
    state = theatre_game(turn=10)
    place(state, "japan", InvasionForce="A4D")  # Port Moresby's zone
    turn_record(state)  # the Turn of arrival
    turn_record(state)  # one Turn stationary
    assert record(state).landed == {}
    place(state, "japan", InvasionForce="A4G")
    turn_record(state)
    place(state, "japan", InvasionForce="A4D")  # moved away and back: arrives again
    turn_record(state)
    turn_record(state)
    assert record(state).landed == {}
    turn_record(state)  # two Turns stationary after arrival
    assert {k.id for k in record(state).landed} == {"AP1", "AP2", "AP3", "AP4", "AP5"}
    state.put(replace(state.units["japan"]["AP1"], box=GONE))
    result = victory_points(state)
    lines = result["lines"]
    assert isinstance(lines, dict)
    assert [(x["name"], x["points"]) for x in lines["japan"]] == [("landed at Port Moresby", 20)]
    assert [(x["unit"], x["points"]) for x in lines["usa"]] == [("AP1", 1)]  # 1 after landing
    assert result["points"] == {"japan": 20, "usa": 1}
    assert result["winner"] == "japan"


def test_ptvm_coral_sea_allied_bonuses() -> None:
    state = theatre_game(turn=30)
    result = victory_points(state)
    assert result["points"] == {"japan": 0, "usa": 5}  # no landing at Port Moresby
    for n in range(1, 6):
        state.put(replace(state.units["japan"][f"AP{n}"], box=GONE))
    result = victory_points(state)
    assert result["points"] == {"japan": 0, "usa": 5 + 10 + 5 * 4}  # all APs before landing


def test_ptvm_santa_cruz_50_point_floor() -> None:
    state = theatre_game("santa-cruz")
    for uid in ("Enterprise", "Hornet", "SouthDakota", "Washington"):
        state.put(replace(state.units["usa"][uid], box=GONE))  # 10 + 10 + 9 + 9
    state.put(replace(state.units["japan"]["Zuiho"], box=GONE))  # 6
    result = victory_points(state)
    assert result["points"] == {"japan": 38, "usa": 6}
    assert (result["winner"], result["minimum_points"]) == ("tie", 50)
    for uid in ("Portland", "Northampton", "Pensacola", "SanFrancisco"):
        state.put(replace(state.units["usa"][uid], box=GONE))  # 3 each
    result = victory_points(state)
    assert result["points"] == {"japan": 50, "usa": 6}
    assert result["winner"] == "japan"


def test_ptvm_reinforcements_when_sighted() -> None:
    state = theatre_game()
    assert "CS-AusRF1" not in state.units["usa"]  # not in play until sighted
    place(state, "usa", TF17="C6E")
    place(state, "japan", StrikingForce="C4E", InvasionForce="C5E")
    state = air_search_step(state)
    state, _ = apply(state, "japan", Action("done"))
    state, events = apply(state, "usa", Action("search-area", ("C4",)))  # row 4: not yet
    assert not [e for e in events if e.kind == "reinforcements"]
    state, events = apply(state, "usa", Action("search-area", ("C5",)))
    [came] = [e.data for e in events if e.kind == "reinforcements"]
    assert came == {
        "side": "usa",
        "base": "Australia",
        "sighted": "rows-5-7",
        "units": ["CS-AusRF1", "CS-AusRD1", "CS-AusRB1"],
    }
    for uid in ("CS-AusRF1", "CS-AusRD1", "CS-AusRB1"):
        u = state.units["usa"][uid]
        assert (u.box, u.area) == (ARMING, "Australia")
    assert record(state).reinforced == ["usa:Australia"]
    assert "CS-TrukRF1" not in state.units["japan"]  # Japan has sighted nothing
    state, events = apply(state, "usa", Action("search-area", ("C6",)))
    assert not [e for e in events if e.kind == "reinforcements"]  # once


def test_ptvm_reinforcements_truk_at_the_turn_record() -> None:
    state = theatre_game()
    place(state, "usa", TF17="F2E")
    state.boards["japan"].intel.append(Spotting(1, "F2E", {"TF17": ["Yorktown"]}, "battle"))
    events = turn_record(state)
    [came] = [e.data for e in events if e.kind == "reinforcements"]
    assert came["base"] == "Truk"
    assert state.units["japan"]["CS-TrukRB1"].box == ARMING


def test_ptvm_searches_1_with_15a_each_zone_answered() -> None:
    state = new_game("coral-sea", frozenset({"14", "15a"}), 3)
    state.status, state.side_a = "playing", "usa"
    place(state, "usa", TF17="F6E", TF44="F6F")
    place(state, "japan", StrikingForce="E5E")
    state = air_search_step(state)
    # F6E: 5 + 3 (day) = 8 against 6, a number of ships (15a1.2); F6F: 10 + 3 against 1, exact
    state.forced_dice = [5, 6, 10, 1]
    state, events = apply(state, "japan", Action("search-area", ("F6",)))
    assert state.step == "search report" and state.waiting == ["usa"]
    assert [z for _, z in record(state).area_queue] == ["F6F", "F6G", "F6H", "F6I"]
    state, events = apply(state, "usa", Action("report", ("10",)))
    answers = {e.data["hex"]: e.data["level"] for e in events if e.kind == "search"}
    assert answers == {
        "F6E": "number",
        "F6F": "exact",
        "F6G": "nothing",
        "F6H": "nothing",
        "F6I": "nothing",
    }
    assert state.step == "air movement and search" and record(state).area_queue == []


def test_ptvm_searches_1_midway_keeps_its_hex_searches() -> None:
    state = new_game("one", frozenset(), 3)
    state.status, state.side_a = "playing", "usa"
    place(state, "usa", TF16="N3")
    place(state, "japan", MobileForce="H2")
    state = air_search_step(state)
    kinds = {a.kind for side in ("japan", "usa") for a in legal_actions(state, side)}
    assert "search-area" not in kinds and "sea-search" in kinds
    assert victory_points(state)["rule"] == "7b"  # 7a3 and Scenario One's conditions


CARRIERS_F = ["CS-ShkF1", "CS-ShkF2", "CS-ZkkF1", "CS-ZkkF2"]


def test_ptvm_replacements_one_in_three_onto_carriers_when_the_limit_binds() -> None:
    """Replacements: "Only one plane of every three replacements may be put on carriers".
    30 Japanese fighter planes lost (10 on the four carrier fighter units, 20 at Rabaul):
    seven replacements, of which two (7 // 3) onto carriers, though every carrier fighter
    unit still misses planes afterwards - the other five go to Rabaul's units; two planes
    are kept till the next night (30 - 7 * 4)."""
    state = theatre_game(turn=9)  # 2400 May 4: the second night Turn
    lost = sum(lose(state, "japan", uid, 5) for uid in CARRIERS_F)
    lost += sum(lose(state, "japan", f"CS-RabaulF{n}", 5) for n in range(1, 6))
    assert lost == 30
    got = [e.data for e in turn_record(state) if e.kind == "replacement"]
    assert len(got) == 7
    carriers = {u.id for u in state.units["japan"].values() if u.ship and u.box != "base"}
    onto = [d for d in got if d["to"] in carriers]
    assert len(onto) == 2  # one of every three, the night's seven rounded down
    assert {d["to"] for d in got if d not in onto} == {"Rabaul"}
    units = state.units["japan"]
    assert all(planes(units[u]) < printed_planes(units[u]) for u in CARRIERS_F)  # it binds
    assert record(state).replacements_owed["japan"]["F"] == 2


def test_ptvm_replacements_none_onto_carriers_below_three() -> None:
    """Replacements: with only carriers' units missing planes, two replacements may not go
    onto carriers (one of every three: none of two); with no base unit to take them, they
    are kept till the next night, as the odd planes are."""
    state = theatre_game(turn=9)
    assert sum(lose(state, "japan", uid, 5) for uid in CARRIERS_F) == 10
    before = {uid: planes(state.units["japan"][uid]) for uid in CARRIERS_F}
    got = [e.data for e in turn_record(state) if e.kind == "replacement"]
    assert got == []
    assert {uid: planes(state.units["japan"][uid]) for uid in CARRIERS_F} == before
    assert record(state).replacements_owed["japan"]["F"] == 10
