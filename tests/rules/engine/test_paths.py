"""Issue 30, moves by destination: `fly-to` (3d1, 3d2) and, in the umpired modes, `route-to`
(18c1) are legal exactly when every single-hex step of the way is, and do what those
steps do, with the same events, as one action."""

from __future__ import annotations

from collections import deque
from typing import cast

import pytest

from app.rules import IllegalAction, State, apply, can_take_back, legal_actions, view
from app.rules.base.air_movement import reach
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import Event
from app.rules.engine.state import Side
from app.rules.modes.seats import acting

from ..base.test_basic_rules import _air, refused
from ..helpers import kinds, play
from ..modes.test_rule_18_umpired import PATH, UMPIRED, scout_routed
from ..optional.test_option_15b import scout_toward_cap


def single_fly_reach(s: State, seat: str, group: str) -> dict[str, int]:
    """Every hex `group` may enter by legal `fly` actions, one after the other, each with
    the fewest flies there: worked out by applying them (the reference)."""
    best: dict[str, int] = {}
    start = s.boards[seat].flights[s.boards[seat].groups[group][0]].hex
    seen: set[tuple[str, tuple[tuple[str, int], ...]]] = set()
    queue: deque[tuple[State, int]] = deque([(s, 0)])
    while queue:
        here, depth = queue.popleft()
        for a in legal_actions(here, seat):
            if a.kind != "fly" or a.get("group") != group:
                continue
            nxt, _ = apply(here, seat, a)
            board = nxt.boards[seat]
            flying = board.groups.get(group, [])
            members = tuple(sorted((u, board.flights[u].moved) for u in flying))
            key = (a.get("hex"), members)
            if a.get("hex") != start:
                best.setdefault(a.get("hex"), depth + 1)
            if key not in seen and members:
                seen.add(key)
                queue.append((nxt, depth + 1))
    return best


@pytest.mark.parametrize("options", [frozenset(), frozenset({"12c1"})])
def test_issue_30_fly_to_reaches_exactly_the_hexes_single_flies_reach(
    options: frozenset[str],
) -> None:
    """3d1 (and 12c1's longer leg out): the destinations offered are those the single
    steps reach, each by its fewest steps."""
    s = _air()
    s.options = tuple(sorted({*s.options, *options}))
    ways = reach(s, "usa", "L3-strike")
    assert {h: len(w) for h, w in ways.items()} == single_fly_reach(s, "usa", "L3-strike")
    longest = max(len(w) for w in ways.values())
    assert longest > 5 if "12c1" in options else longest == 5  # B5's movement factor: 5


def test_issue_30_fly_to_is_the_single_flies_as_one_action() -> None:
    """The same boards, units and events as the flies along the way; one action to take
    back; the far destinations in the seat's prompt, none in the enemy's."""
    s = _air()
    way = reach(s, "usa", "L3-strike")["H2"]
    assert len(way) == 4
    by_path, path_events = apply(s, "usa", Action("fly-to", ("L3-strike", "H2")))
    by_steps, step_events = play(s, "usa", *(f"fly L3-strike {h}" for h in way))
    assert by_path.boards == by_steps.boards and by_path.units == by_steps.units
    assert path_events == step_events
    assert by_path.boards["usa"].flights["B5"].path == ["L3", *way]
    assert can_take_back(by_path, "usa").actions == can_take_back(s, "usa").actions + 1
    assert view(s, "usa")["prompt"]["destinations"]["fly-to"]["L3-strike"]["H2"] == 4
    assert view(s, "japan")["prompt"]["destinations"] == {}


@pytest.mark.parametrize(
    ("seat", "text", "rule"),
    [
        ("usa", "fly-to L3-strike A1", "3d1"),  # beyond its movement factor
        ("usa", "fly-to L3-strike Z99", "3d1"),  # no such hex
        ("usa", "fly-to nobody H2", "3d1"),  # no such strike
        ("japan", "fly-to L3-strike H2", "3"),  # not its move
    ],
)
def test_issue_30_fly_to_refused_names_the_rule_and_leaves_the_game(
    seat: str, text: str, rule: str
) -> None:
    s = _air()
    assert refused(s, seat, text).rule == rule


def test_issue_30_fly_to_the_sea_search_ends_the_flying() -> None:
    """3d5: once a sea search is called no air unit flies, by steps or by destination."""
    s, _ = play(_air(), "usa", "sea-search L3")
    assert refused(s, "usa", "fly-to L3-strike H2").rule == "3d5"


def test_issue_30_fly_to_stops_where_the_enemy_cap_shoots_the_scout_down() -> None:
    """15b1: O flies for K3 and on; Japan's CAP over K3 rolls 3 against O's 1 - three times:
    O is lost there, searching K3 first (15b2), and flies no further. Its way was found
    from its own side's units only: nothing of the CAP refused the destination."""
    s = scout_toward_cap([1, 3], {"15b", "15a"})
    way = reach(s, "usa", "O")
    far = next(h for h, w in way.items() if w[0] == "K3" and len(w) == 3)
    s, ev = apply(s, "usa", Action("fly-to", ("O", far)))
    meet = kinds(ev, "scout-meets-cap")[0].data
    assert (meet["hex"], meet["lost"]) == ("K3", True)
    assert s.units["usa"]["O"].eliminated and "O" not in s.boards["usa"].flights
    assert "search K3" in [a.text() for a in legal_actions(s, "usa")]


def test_issue_30_fly_to_with_the_cap_missing_flies_on() -> None:
    """15b1 failing: O's 2 against the CAP's 5 - O flies on to its destination."""
    s = scout_toward_cap([2, 5], {"15b"})
    far = next(h for h, w in reach(s, "usa", "O").items() if w[0] == "K3" and len(w) == 3)
    s, _ = apply(s, "usa", Action("fly-to", ("O", far)))
    assert s.boards["usa"].flights["O"].hex == far


def _events(ev: list[Event]) -> list[tuple[str, str, dict[str, object]]]:
    return [(e.kind, e.audience, e.data) for e in ev]


@pytest.mark.parametrize("mode", UMPIRED)
def test_issue_30_route_to_hands_in_the_route_hex_by_hex(mode: str) -> None:
    """18c1: `route-to O H4` hands in the same route as its four `route`s (10a's way to
    the Mobile Force in five is not the shortest); the umpire flies it alike, stopping
    over H4 for 15a's factors to spend."""
    s = scout_routed([1, 4], mode)
    ways = reach_routes(s)
    assert len(ways["H4"]) == len(PATH) - 1
    by_path, _ = apply(s, "usa", Action("route-to", ("O", "H4")))
    assert by_path.boards["usa"].routes["O"] == list(ways["H4"])
    by_steps, _ = play(s, "usa", *(f"route O {h}" for h in ways["H4"]))
    assert by_path.boards == by_steps.boards
    flown_path, ev_path = play(by_path, "usa", "done")
    flown_steps, ev_steps = play(by_steps, "usa", "done")
    flown_path, ev_path2 = play(flown_path, "japan", "done")
    flown_steps, ev_steps2 = play(flown_steps, "japan", "done")
    assert _events(ev_path + ev_path2) == _events(ev_steps + ev_steps2)
    spends = [a.text() for a in legal_actions(flown_path, "usa")]
    assert spends == ["spend O 0", "spend O 1", "spend O 2"]  # 15a1.1: two factors left
    assert spends == [a.text() for a in legal_actions(flown_steps, "usa")]
    assert flown_path.boards["usa"].over == "O"


def reach_routes(s: State) -> dict[str, tuple[str, ...]]:
    from app.rules.engine.paths import PATHS

    return PATHS["route-to"].reach(s, "usa", "O")


def test_issue_30_route_to_beyond_the_factors_names_3d1() -> None:
    """Scout O has six movement factors: a route seven hexes long is refused."""
    s = scout_routed([], "double-blind")
    far = [h for h, w in reach_routes(s).items() if len(w) == 6]
    assert far and "A1" not in reach_routes(s)
    with pytest.raises(IllegalAction) as err:
        apply(s, "usa", Action("route-to", ("O", "A1")))
    assert err.value.rule == "3d1"


def test_issue_30_17b_a_path_is_flown_only_by_the_player_commanding_the_strike() -> None:
    """17b: a path is its steps, each the player's own: his teammate's strike is refused
    naming 17b, his own flies by destination."""
    from ..modes.test_rule_17_teams import set_up, team_game

    s, _ = set_up(team_game())
    launched = False
    for _ in range(400):
        if s.step == "air movement and search" and launched:
            flies = {
                seat: {a.get("group") for a in legal_actions(s, seat) if a.kind == "fly"}
                for seat in acting(s)
            }
            if any(flies.values()):
                break
        seat = acting(s)[0]
        launch = next((a for a in legal_actions(s, seat) if a.kind == "launch"), None)
        if s.step == "assembly" and launch is not None and not launched:
            s, _ = apply(s, seat, launch)
            launched = True
            continue
        offered = legal_actions(s, seat)
        s, _ = apply(s, seat, DONE if DONE in offered else offered[0])  # 7c4: enter, if due
    owner = next(seat for seat, groups in flies.items() if groups)
    group = sorted(flies[owner])[0]
    mate = next(x for x in flies if x != owner and x.split("-")[0] == owner.split("-")[0])
    side = cast(Side, owner.split("-")[0])
    far = next(h for h, w in reach(s, side, group).items() if len(w) == 2)
    assert refused(s, mate, f"fly-to {group} {far}").rule == "17b"
    s, _ = apply(s, owner, Action("fly-to", (group, far)))
    assert far in {f.hex for f in s.boards[side].flights.values()}
