"""Issue 35, strategy: the strong level as Japan on the theatre map (Coral Sea's Victory
Points: the landing at Port Moresby, A4D, and the ships and planes destroyed), with
nothing of the enemy seen, keeps its carriers STANDOFF zones off the objective rather
than beside it, under the base's bombers; the quick level closes to one zone."""

from __future__ import annotations

import random
from typing import Any

from app.bots import choose
from app.bots.belief import SETUP_AREA
from app.bots.board import board_cells, distance
from app.bots.policy import STANDOFF, STRIKE_REACH, THEATRE_BASES, Seat, score
from app.rules.modes.seats import acting
from tools.arena import Table, computer, random_agent

OBJECTIVE = "A4D"  # Port Moresby (theatre.toml, Bases 1)


def japan_sea_movement() -> dict[str, Any]:
    """The Japanese seat's view at its first Sea Movement of a Coral Sea game."""
    table = Table.new("coral-sea", 35)
    rng = random.Random(35)
    for _ in range(2000):
        now = acting(table.state)
        if "japan" in now:
            v = table.seat_view("japan")
            if v["step"] == "sea movement" and any(
                a["kind"] == "move" for a in v["prompt"]["actions"]
            ):
                return v
        seat = now[0] if len(now) == 1 else rng.choice(now)
        table.play(seat, random_agent(table, seat, rng))
    raise AssertionError("no Japanese Sea Movement")


def test_issue35_strong_japan_keeps_its_carriers_off_the_theatre_objective() -> None:
    view = japan_sea_movement()
    assert not Seat(view, "strong").belief.targets, "nothing of the enemy seen yet"
    # the carriers beside the objective: a step away from it is worth more than one to it
    beside = "A4B"
    assert distance(beside, OBJECTIVE) == 1
    board = {**view["searchboard"], "forces": {**view["searchboard"]["forces"]}}
    board["forces"]["StrikingForce"] = beside
    near = {**view, "searchboard": board}
    seat = Seat(near, "strong")
    closer = {"kind": "move", "force": "StrikingForce", "hex": "A4E"}  # distance 1, sea
    away = {"kind": "move", "force": "StrikingForce", "hex": "A4C"}  # distance 2
    assert distance("A4C", OBJECTIVE) == 2 < STANDOFF
    assert score(seat, away) > score(seat, closer)
    quick_seat = Seat(near, "quick")
    assert score(quick_seat, away) < score(quick_seat, closer)


def seat_view_at(scenario: str, side: str, step: str, kind: str, seed: int = 35) -> dict[str, Any]:
    """The seat's view the first time it is offered an action of `kind` at `step`, the
    game played by the random agent."""
    table = Table.new(scenario, seed)
    rng = random.Random(seed)
    for _ in range(5000):
        now = acting(table.state)
        if side in now:
            v = table.seat_view(side)
            if v["step"] == step and any(a["kind"] == kind for a in v["prompt"]["actions"]):
                return v
        seat = now[0] if len(now) == 1 else rng.choice(now)
        table.play(seat, random_agent(table, seat, rng))
    raise AssertionError(f"no {side} {kind} at {step}")


def test_issue35_3d5_only_a_sea_search_tells_where_the_enemy_is() -> None:
    """3d5: a sea search is made from the searcher's own hex, so its announcement places
    him; an air search is made by a scout wherever it flew (over the seat's own fleet, as
    likely as not) and places nothing. Before: every announcement was a sighting, and a
    strike was sent at the seat's own hex."""
    view = seat_view_at("one", "japan", "sea movement", "move")
    own = view["searchboard"]["forces"]["MobileForce"]
    told = [
        {"side": "usa", "how": "air search", "hex": own},
        {"side": "usa", "how": "sea search", "hex": "N3"},
    ]
    for level in ("quick", "strong"):
        seat = Seat({**view, "announcements": told}, level)
        assert seat.belief.targets == ["N3"]
        assert seat.target_hex() == "N3"


def test_issue35_3d5_strong_recalls_last_turns_sea_searches_at_assembly() -> None:
    """3d5, 3a: the enemy's sea searches are announced, each from his own hex, in the
    Turn's Air Movement; the view lists this Turn's only. At the next Assembly, when strikes
    take off, the strong level reads its log for them (the quick level knows nothing)."""
    view = seat_view_at("two", "usa", "assembly", "launch")
    turn = int(view["turn"])
    board = {**view["searchboard"], "spotted": []}
    view = {**view, "searchboard": board, "announcements": []}
    told = {"kind": "search", "audience": "all", "turn": turn - 1, "side": "japan"}
    log = [
        {**told, "how": "sea search", "hex": "K4", "level": "nothing"},
        {**told, "how": "air search", "hex": "N5", "level": "nothing"},
        {**told, "turn": turn - 3, "how": "sea search", "hex": "C2", "level": "nothing"},
    ]
    strong = Seat(view, "strong", log)
    assert strong.belief.targets == ["K4"]
    assert strong.target_hex() == "K4"
    assert Seat(view, "quick", log).target_hex() is None


def test_issue35_3d5_strong_sea_searches_only_where_the_enemy_may_be() -> None:
    """3d5: a sea search is announced and so tells the enemy the searcher's hex; the strong
    level makes one only when a fresh sighting lies within a Turn's sailing (3c: two hexes)
    of the hex, or from Midway, which the enemy knows; the quick level always does."""
    view = seat_view_at("two", "usa", "air movement and search", "sea-search")
    sea = next(
        a
        for a in view["prompt"]["actions"]
        if a["kind"] == "sea-search" and a["hex"] != view["midway"]["hex"]
    )
    quiet = {**view, "searchboard": {**view["searchboard"], "spotted": []}, "announcements": []}
    done = {"kind": "done"}
    strong = Seat(quiet, "strong")
    assert score(strong, sea) < score(strong, done)
    quick = Seat(quiet, "quick")
    assert score(quick, sea) > score(quick, done)
    near = next(h for h in board_cells(sea["hex"]) if distance(h, sea["hex"]) == 2)
    seen = {**quiet, "announcements": [{"side": "japan", "how": "sea search", "hex": near}]}
    strong = Seat(seen, "strong")
    assert score(strong, sea) > score(strong, done)


def test_issue35_4a3_strong_strikes_the_carriers_before_the_midway_base() -> None:
    """4a3, 7a3: with the Midway base (its sea search announced, 3d5) and a task force
    seen exactly, with its carrier, both within a strike's reach, the strong level sends
    its strike at the carrier (25 points, and the enemy's own strikes), though it lies
    farther than the base; the quick level takes the nearest."""
    view = seat_view_at("one", "japan", "sea movement", "move")
    midway = view["midway"]["hex"]
    board = {**view["searchboard"], "forces": {"MobileForce": "J3"}}
    carrier_hex = "N3"
    assert distance("J3", midway) < distance("J3", carrier_hex) <= STRIKE_REACH["hex"]
    board["spotted"] = [
        {
            "turn": view["turn"],
            "hex": carrier_hex,
            "how": "air search",
            "level": "exact",
            "ships": None,
            "forces": {"TF17": ["Yorktown", "Astoria", "Portland", "DD2"]},
        }
    ]
    told = [{"side": "usa", "how": "sea search", "hex": midway}]
    seen = {**view, "searchboard": board, "announcements": told}
    assert Seat(seen, "strong").target_hex() == carrier_hex
    assert Seat(seen, "quick").target_hex() == midway


def test_issue35_3c_strong_usa_strikes_from_the_edge_of_its_reach() -> None:
    """3c, 7c: in the Midway Campaign the Americans defend Midway and need not close the
    enemy's carriers; with a fresh sighting, the strong level keeps its task force at the
    edge of a strike's reach (five hexes, one inside the six a strike is flown), where the
    enemy's scouts are less likely to find it first; the quick level closes to three, and
    so does the strong level in Scenario One (7b: five Turns, and 10 points to win by)."""
    view = seat_view_at("two", "usa", "sea movement", "move")
    board = {**view["searchboard"], "forces": {"TF16": "L4"}}
    board["spotted"] = [
        {"turn": view["turn"], "hex": "H4", "how": "air search", "level": "exact", "ships": 11}
    ]
    seen = {**view, "searchboard": board, "announcements": []}
    closer = {"kind": "move", "force": "TF16", "hex": "K4"}
    away = {"kind": "move", "force": "TF16", "hex": "M4"}
    assert (distance("K4", "H4"), distance("L4", "H4"), distance("M4", "H4")) == (3, 4, 5)
    strong = Seat(seen, "strong")
    assert strong.target_hex() == "H4"
    assert score(strong, away) > score(strong, closer)
    quick = Seat(seen, "quick")
    assert score(quick, away) < score(quick, closer)
    one = Seat({**seen, "scenario": {**view["scenario"], "id": "one"}}, "strong")
    assert score(one, away) < score(one, closer)  # 7b: five Turns, a margin of 10 to win


def test_issue35_7c4_3_strong_usa_strikes_the_transports_holding_midway() -> None:
    """7c4.3: in Scenario Two a Japanese transport (AP) holding Midway's hex three Turns,
    once the base is eliminated, wins Japan its control: 35 points, else they are the
    Americans'. The strong American strikes the transports by Midway before the carriers;
    in a scenario without that control (Scenario One), the carriers first."""
    view = seat_view_at("two", "usa", "sea movement", "move")
    midway = view["midway"]["hex"]
    board = {**view["searchboard"], "forces": {"TF16": "O4"}}
    sighting = {"turn": view["turn"], "how": "air search", "level": "exact", "ships": None}
    carriers = ["Akagi", "Hiryu", "Kaga", "Soryu", "Chikuma", "Tone", "Haruna", "Kirishima"]
    board["spotted"] = [
        {**sighting, "hex": "K4", "forces": {"MobileForce": carriers}},
        {**sighting, "hex": midway, "forces": {"EscortForce": ["Jintsu", "AP1", "AP2", "AP3"]}},
    ]
    assert distance("O4", midway) <= distance("O4", "K4") <= STRIKE_REACH["hex"]
    seen = {**view, "searchboard": board, "announcements": []}
    assert Seat(seen, "strong").target_hex() == midway
    one = {**seen, "scenario": {**view["scenario"], "id": "one"}}
    assert Seat(one, "strong").target_hex() == "K4"


def test_issue35_theatre_strong_strikes_no_base_its_strikes_found() -> None:
    """Pacific Theatre Via Midway's Victory Points are ships sunk, planes destroyed and
    landings: a base struck scores nothing. Its own sea searches are announced (3d5) and
    place it each Turn, like a fleet's; the strong level, whose strike found only a base
    in that zone (4a1, its log's battle), sends its next strike at the fleet instead."""
    view = seat_view_at("coral-sea", "usa", "sea movement", "move")
    board = {**view["searchboard"], "forces": {"TF17": "G5A"}}
    turn = int(view["turn"])
    base = "F5A"  # a base where the map prints none, to learn it from the log alone
    assert base not in THEATRE_BASES
    assert distance("G5A", base) < distance("G5A", "D4E") <= STRIKE_REACH["zone"]
    told = [
        {"side": "japan", "how": "sea search", "hex": base},
        {"side": "japan", "how": "sea search", "hex": "D4E"},
    ]
    seen = {**view, "searchboard": board, "announcements": told}
    fought = {"kind": "battle", "turn": turn - 1, "hex": base, "attacker": "usa"}
    log = [{**fought, "ships": ["Tulagi"], "air": ["CS-LexD2"]}]
    assert Seat(seen, "strong").target_hex() == base  # nothing told of what is there
    assert Seat(seen, "strong", log).target_hex() == "D4E"


def test_issue35_theatre_strong_strikes_no_base_printed_on_the_map() -> None:
    """Bases 1, 3d5: the bases are printed on the theatre map, and each base's sea search
    is announced from its zone every Turn, though no fleet is there; the expansion scores
    no base struck. The strong level takes a zone told of only so, where the map prints a
    base (Shortlands, D3F; Tulagi, F4C), for no target: with no fleet seen it sails for
    the objective, where the invasion lands (Coral Sea, strong USA vs quick: its strikes
    flew at Shortlands from Turn 10 to the end while the transports landed at Port
    Moresby, 20 points to none, five games of twelve). The quick level strikes the nearest."""
    view = seat_view_at("coral-sea", "usa", "sea movement", "move")
    board = {**view["searchboard"], "forces": {"TF17": "F5I"}}
    assert {"D3F", "F4C"} <= THEATRE_BASES
    assert distance("F5I", "F4C") < distance("F5I", "D3F") <= STRIKE_REACH["zone"]
    told = [
        {"side": "japan", "how": "sea search", "hex": "D3F"},
        {"side": "japan", "how": "sea search", "hex": "F4C"},
    ]
    seen = {**view, "searchboard": board, "announcements": told}
    assert Seat(seen, "strong").target_hex() is None
    assert Seat(seen, "quick").target_hex() == "F4C"
    fleet = {"side": "japan", "how": "sea search", "hex": "D4E"}
    fleet_seen = {**seen, "announcements": [*told, fleet]}
    assert Seat(fleet_seen, "strong").target_hex() == "D4E"
    # The Allied fleet defends Port Moresby, by Gili-Gili's zone: for the strong Japanese a
    # sea search there is a fleet's.
    japan = seat_view_at("coral-sea", "japan", "sea movement", "move")
    forces = {f: "B4D" for f in japan["searchboard"]["forces"]}
    by_base = {
        **japan,
        "searchboard": {**japan["searchboard"], "forces": forces, "spotted": []},
        "announcements": [{"side": "usa", "how": "sea search", "hex": "B4H"}],
    }
    assert "B4H" in THEATRE_BASES
    assert Seat(by_base, "strong").target_hex() == "B4H"


def test_issue35_3d3_1_strong_searches_each_hex_its_scout_enters() -> None:
    """3d3.1: a unit may search each hex it enters, once a Turn a hex, and the answer is
    given at once (3d3.2). The strong level searches the hex its scout has just entered
    before the scout flies on, so that its whole path is searched; before, a step toward
    the scout's goal beat the search and only the path's end was searched (Scenario One,
    strong USA against random play: ten of 90 games tied 0 to 0, the Mobile Force never
    found). The quick level still flies on first."""
    view = seat_view_at("one", "usa", "air movement and search", "search")
    search = next(a for a in view["prompt"]["actions"] if a["kind"] == "search")
    flights = view["searchboard"]["flying"]
    scout = next(u for u, f in flights.items() if f["hex"] == search["hex"] and f["moved"])
    steps = [a for a in view["prompt"]["actions"] if a["kind"] == "fly" and a["group"] == scout]
    assert steps and not view["searchboard"]["searched"]
    strong = Seat(view, "strong")
    assert score(strong, search) > max(score(strong, a) for a in steps)
    assert choose(view, [], "strong") == search
    quick = Seat(view, "quick")
    assert score(quick, search) < max(score(quick, a) for a in steps)


def test_issue35_3c_strong_strikes_where_the_force_was_seen_this_turn() -> None:
    """3c: a task force sails on each Turn. With last Turn's exact sighting of the carriers
    and a sighting this Turn a hex from it, the strong level strikes the fresh one (the
    same force, moved), not where it was; before, the named carriers outweighed it and the
    strike found an empty hex. The same when the seat's own search found last Turn's hex
    empty this Turn."""
    view = seat_view_at("one", "usa", "assembly", "launch")
    turn = int(view["turn"])
    board = {**view["searchboard"], "forces": {"TF16": "N4", "TF17": "N6"}}
    carriers = ["Akagi", "Hiryu", "Kaga", "Soryu", "Chikuma", "Tone", "Haruna", "Kirishima"]
    seen = {"how": "air search", "level": "exact", "ships": None}
    last = {**seen, "turn": turn - 1, "hex": "K6", "forces": {"MobileForce": carriers}}
    fresh = {"turn": turn, "hex": "L6", "how": "air search", "level": "number", "ships": 11}
    assert distance("K6", "L6") == 1
    both = {**view, "searchboard": {**board, "spotted": [last, fresh]}, "announcements": []}
    assert Seat(both, "strong").target_hex() == "L6"
    assert Seat({**both, "searchboard": {**board, "spotted": [last]}}, "strong").target_hex() == (
        "K6"
    )
    empty = {"turn": turn, "hex": "K6", "how": "air search", "level": "nothing", "ships": None}
    elsewhere = {**last, "hex": "J2", "turn": turn - 1, "forces": {}, "ships": 3}
    gone = {**both, "searchboard": {**board, "spotted": [last, elsewhere, empty]}}
    assert Seat(gone, "strong").target_hex() == "J2"


def test_issue35_7b3_strong_usa_scouts_where_the_mobile_force_set_up() -> None:
    """7b3, 7a2.2: in Scenario One the Mobile Force sets up in any area II hex (H1-J2) and
    sails at most a hex a Turn (3c). With nothing seen yet, the strong American weighs
    every hex it may have reached above every hex it may not, and so scouts there first;
    before, one hex (J3) and Midway were its guess, and its scouts never searched area II
    (tied 0 to 0 against random play, the Mobile Force at J1 all game)."""
    view = seat_view_at("one", "usa", "assembly", "launch")
    assert not view["searchboard"]["spotted"]
    since = int(view["turn"]) - int(view["first_turn"])
    area = SETUP_AREA[("one", "usa")]
    seat = Seat(view, "strong")
    cells = board_cells("M5")
    reached = [c for c in cells if min(distance(c, h) for h in area) <= since]
    beyond = [c for c in cells if c not in reached]
    assert "J1" in reached and "K5" in beyond
    assert min(seat.likely(c) for c in reached) > max(seat.likely(c) for c in beyond)


def mobile_force_seen_at_k2() -> tuple[dict[str, Any], int, dict[str, Any], dict[str, Any]]:
    """The American seat's view at an Assembly of Scenario One, its task forces at L6 and
    N3; the Turn; its Searchboard; and last Turn's exact sighting of the Mobile Force at K2
    (to put among the board's `spotted`)."""
    view = seat_view_at("one", "usa", "assembly", "launch")
    turn = int(view["turn"])
    board = {**view["searchboard"], "forces": {"TF16": "L6", "TF17": "N3"}}
    carriers = ["Akagi", "Hiryu", "Kaga", "Soryu", "Chikuma", "Tone", "Haruna", "Kirishima"]
    seen = {"turn": turn - 1, "hex": "K2", "how": "air search", "level": "exact", "ships": None}
    return view, turn, board, {**seen, "forces": {"MobileForce": carriers}}


def test_issue35_3c_strong_strike_follows_a_force_gone_from_where_it_was_seen() -> None:
    """3c, 3d3.1: the Mobile Force seen last Turn at K2 and not there when this Turn's
    search of K2 finds nothing has sailed to a hex around it. The strong level's strike goes
    on to one of those not yet searched this Turn (searching each as it enters it) rather
    than ending its flight over the empty hex; before, it stayed at K2 and found nothing
    (Scenario One, strong USA vs random: the force a hex away at J1, the game tied 0-0)."""
    view, turn, board, last = mobile_force_seen_at_k2()
    nothing = {"turn": turn, "how": "air search", "level": "nothing", "ships": None}
    searched = [{**nothing, "hex": h} for h in ("K2", "K3", "L2")]
    before = {**view, "searchboard": {**board, "spotted": [last]}, "announcements": []}
    assert Seat(before, "strong").target_hex() == "K2"
    gone = {**before, "searchboard": {**board, "spotted": [last, *searched]}}
    target = Seat(gone, "strong").target_hex()
    assert target is not None and 0 < distance(target, "K2") <= 2
    assert target not in ("K3", "L2")


def test_the_bots_bases_are_the_theatre_maps() -> None:
    """Bases 1: the zones the strong American knows to be bases are those the theatre map
    shows both players (scenarios/theatre.toml). The policy reads no file (tests/bots/
    test_imports.py) and the view carries no map, so it keeps a copy: held to the data."""
    import tomllib
    from pathlib import Path

    from app.bots.policy import THEATRE_BASES

    data = Path(__file__).resolve().parents[2] / "scenarios" / "theatre.toml"
    with data.open("rb") as f:
        zones = {str(b["zone"]) for b in tomllib.load(f)["bases"].values()}
    assert zones == THEATRE_BASES


def test_issue35_18c1_strong_routes_no_scout_over_a_hex_another_route_enters() -> None:
    """18c1: in the umpired modes each scout's route is handed in whole, and the umpire
    searches each hex a scout enters, once a Turn a hex (3d3.1). The strong level routes
    no scout into a hex a route of its side already enters (a second pass finds nothing
    new) and sends each scout toward a goal of its own; before, every scout climbed to the
    likeliest hexes, the same for all, and went back and forth there (Scenario One,
    double-blind, strong USA against random play: 0.865 of 193 games won, most of the rest
    tied 0 to 0). The quick level still routes by the likeliest hexes alone."""
    table = Table.new("one", 8, "double-blind")
    rng = random.Random(8)
    strong_usa = computer("strong")  # launches its scouts, as random play seldom does
    view = None
    while table.state.status != "finished":
        now = acting(table.state)
        if "usa" in now:
            v = table.seat_view("usa")
            routes = [a for a in v["prompt"]["actions"] if a["kind"] == "route"]
            if len({a["unit"] for a in routes}) >= 2:
                view = v
                break
        seat = now[0] if len(now) == 1 else rng.choice(now)
        agent = strong_usa if seat == "usa" else random_agent
        table.play(seat, agent(table, seat, rng))
    assert view is not None, "no American scout routes"
    routes = [a for a in view["prompt"]["actions"] if a["kind"] == "route"]
    first, second = sorted({a["unit"] for a in routes})[:2]
    mine = [a for a in routes if a["unit"] == second]
    taken = mine[0]["hex"]  # the first scout's route already enters a hex the second could
    board = {**view["searchboard"], "routes": {first: [taken]}}
    planned = {**view, "searchboard": board}
    strong = Seat(planned, "strong")
    assert score(strong, mine[0]) < 0
    assert len(mine) > 1 and score(strong, mine[0]) < max(score(strong, a) for a in mine[1:])
    assert score(Seat(planned, "quick"), mine[0]) > 0


def test_issue35_3c_a_hex_found_empty_last_turn_may_hold_the_force_now() -> None:
    """3c: a task force sails on each Turn. A hex around where the force was seen last
    Turn that the seat's search found empty last Turn (the force was then where it was
    seen) may hold it now: the strong strike following the force weighs it as if never
    searched; only this Turn's searches thin the hexes it may have sailed to. Before, it
    kept last Turn's thinning and searched everywhere but there (Scenario One,
    double-blind, strong USA vs random: the Mobile Force seen at J2, searched for around
    J2, found at J3 the Turn after, where last Turn's scout had found nothing)."""
    view, turn, board, last = mobile_force_seen_at_k2()
    nothing = {"how": "air search", "level": "nothing", "ships": None}
    now = {**nothing, "turn": turn, "hex": "K2"}
    spotted = [last, now]
    base = {**view, "searchboard": {**board, "spotted": spotted}, "announcements": []}
    weights = Seat(base, "strong")
    around = [c for c in board_cells("K2") if distance(c, "K2") == 1]
    # one hex around, X, and another, Y, less likely than X but more than X thinned
    pairs = [
        (x, y)
        for x in around
        for y in around
        if y != x and 0.3 * weights.likely(x) < weights.likely(y) < weights.likely(x)
    ]
    assert pairs, "two hexes around K2 of close weights"
    x, y = pairs[0]
    others = [{**nothing, "turn": turn, "hex": c} for c in board_cells("K2") if c not in (x, y)]
    emptied_last_turn = {**nothing, "turn": turn - 1, "hex": x}
    spotted = [last, emptied_last_turn, *others]
    seat = Seat({**base, "searchboard": {**board, "spotted": spotted}}, "strong")
    assert seat.target_hex() == x
