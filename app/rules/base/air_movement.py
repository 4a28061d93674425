"""3d: The Air Movement and Search Step, and 3d5 sea searches.

Flying air units leave their Normal Strike boxes and are moved on their owner's
Searchboard, in secret. Scouts move one by one; all combat air units that took off from
the same hex move together, each dropped off where its movement factor runs out (3d2).
A unit may search a hex as it enters it (3d3.1); the answer is given at once, exactly
(3d3.2). Sea searches are called after all flying units have moved (3d5).

In the umpired modes the scouts fly first, on routes both sides hand in at once
(18c1, modes/r18_umpired/scout_routes.py); then the air strikes move here. With teams there
(18a) each player's units from a hex form his own strike, which circles by name.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules import hooks
from app.rules.base.air_ranges import Legs, can_enter, flight_factor, may_go_on
from app.rules.base.air_return import stranded
from app.rules.base.battle import find_battles
from app.rules.base.search import search
from app.rules.base.setup import scenario_of, scout_entry
from app.rules.base.units import eliminate, is_scout
from app.rules.board.boards import (
    area_hexes,
    base_at,
    base_zone,
    bases_of,
    forces_at,
    searchboard_of,
    ships_in,
    unit_hex,
)
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import DONE, Action, add_kinds
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.paths import Path, Search, register_path
from app.rules.engine.state import (
    FLYING,
    HIGH_CAP,
    LOW_CAP,
    MAX_STRIKE,
    OFF_BOARD,
    STRIKE,
    Flight,
    Side,
    State,
    Unit,
    other,
)
from app.rules.engine.steps import Step, StepId, Way, advance, b_then_a, register
from app.rules.modes import hooks as mode_hooks
from app.rules.modes.command_copies import same_strike_command, separate, strike_suffix

# 15a1.1 with 18a: an air strike, by name, circles over the hex it entered
add_kinds({"orbit": ("group", "factors")})


def _take_to_the_air(state: State, side: Side) -> None:
    """3d: air units in Normal Strike boxes are placed on the Searchboard where they are."""
    board = state.boards[side]
    for u in state.units[side].values():
        if u.ship or u.box not in (STRIKE, MAX_STRIKE):
            continue
        hex_ = unit_hex(state, u)
        assert hex_ is not None
        group = u.id if is_scout(u) else _strike_of(state, u, hex_)
        board.flights[u.id] = Flight(
            hex=hex_, group=group, path=[hex_], max_strike=u.box == MAX_STRIKE
        )
        board.groups.setdefault(group, []).append(u.id)
        state.put(replace(u, box=FLYING, area=""))


def _strike_of(state: State, u: Unit, hex_: str) -> str:
    """3d2: one air strike per hex; 13a1: one per task force (or base) and strike box."""
    if OptionId.WAVES not in state.options:
        return f"{hex_}-strike{strike_suffix(state, u)}"
    return f"{u.area}-{'max' if u.box == MAX_STRIKE else 'strike'}{strike_suffix(state, u)}"


def _combinations(state: State, side: Side) -> list[Action]:
    """13a2: strikes in one hex combine where one of them started there."""
    board = state.boards[side]
    strikes = [
        g for g in sorted(board.groups) if not is_scout(state.units[side][board.groups[g][0]])
    ]
    return [
        Action("combine", (g, into))
        for g in strikes
        for into in strikes
        if g != into
        and same_strike_command(state, side, board.groups[g], board.groups[into])
        and group_hex(state, side, g) == group_hex(state, side, into)
        and (_unmoved(state, side, g) or _unmoved(state, side, into))
    ]


def _unmoved(state: State, side: Side, group: str) -> bool:
    flights = state.boards[side].flights
    return all(flights[u].moved == 0 for u in state.boards[side].groups[group])


def _combine(state: State, side: Side, group: str, into: str) -> None:
    board = state.boards[side]
    for uid in board.groups.pop(group):
        board.flights[uid].group = into
        board.groups[into].append(uid)
    board.may_search.pop(group, None)


def group_hex(state: State, side: Side, group: str) -> str:
    board = state.boards[side]
    return board.flights[board.groups[group][0]].hex


def _movable(state: State, side: Side, group: str, to: str | None = None) -> list[str]:
    """Members that may still move (into `to`, if given): 3d1, 12c1."""
    units = state.units[side]
    if to is None:
        return [uid for uid in state.boards[side].groups[group] if may_go_on(state, units[uid])]
    return [uid for uid in state.boards[side].groups[group] if can_enter(state, units[uid], to)]


def _sea_search_hexes(state: State, side: Side) -> list[str]:
    """3d5: hexes holding the side's task force markers and/or base unit."""
    hexes = {
        h
        for m, h in state.boards[side].forces.items()
        if h is not None and ships_in(state, side, m)
    }
    hexes |= {h for base in bases_of(state, side) if (h := base_zone(state, base)) is not None}
    return sorted(hexes)


def _actions(state: State, side: Side) -> list[Action]:
    board = state.boards[side]
    acts: list[Action] = []
    if not board.sea_searched:
        for group in sorted(board.groups):
            if _movable(state, side, group):
                here = group_hex(state, side, group)
                members = [state.units[side][u] for u in board.groups[group]]
                acts += [
                    Action("fly", (group, h))
                    for h in searchboard_of(state).neighbours(here)
                    if _movable(state, side, group, h)
                    and hooks.of(state).flight_refusal(state, members, h) is None
                ]
        acts += [
            Action("search", (h,))
            for h in sorted(set(board.may_search.values()))
            if h not in board.searched
        ]
        if OptionId.VARIABLE_SPOTTING in state.options:
            acts += _orbits(state, side) if separate(state) else _circles(state, side)
        acts += mode_hooks.of(state).scout_entries(state, side, sorties(state, side))  # 18c1
        acts += hooks.of(state).sorties(state, side, turn_box(state).night)  # Off-Board Bases 1
        if OptionId.WAVES in state.options:
            acts += _combinations(state, side)
    acts += [
        Action("sea-search", (h,))
        for h in _sea_search_hexes(state, side)
        if h not in board.sea_searched
    ]
    return [*hooks.of(state).air_actions(state, side, acts), DONE]  # Searches 1-2


def sorties(state: State, side: Side) -> list[Action]:
    """7c4.4, 7d4.2: the off-board scout may enter at an "M" hex on its Turns only."""
    entry = scout_entry(scenario_of(state))
    if entry is None or entry["side"] != side:
        return []
    turns = entry["turns"]
    uid = str(entry["unit"])
    if not isinstance(turns, list | tuple) or state.turn not in turns:
        return []
    if state.units[side][uid].box != OFF_BOARD:
        return []
    return [Action("sortie", (uid, h)) for h in area_hexes(state, str(entry["area"]))]


def sortie(state: State, side: Side, uid: str, hex_: str, flown: int = 0) -> None:
    """7c4.4: an off-board unit enters at `hex_`, with `flown` zones already flown (Off-Board
    Bases 1: an edge square's number)."""
    board = state.boards[side]
    board.flights[uid] = Flight(hex=hex_, moved=flown, group=uid, path=[hex_])
    board.groups[uid] = [uid]
    board.may_search[uid] = hex_
    state.put(replace(state.units[side][uid], box=FLYING, area=""))


def _members(state: State, side: Side, group: str) -> list[str]:
    """A group's air units; 12d2.3: a shadowing scout searches alone, in no group."""
    board = state.boards[side]
    if group in board.groups:
        return board.groups[group]
    flight = board.flights.get(group)
    return [group] if flight is not None and flight.shadowing is not None else []


def _circlers(state: State, side: Side, hex_: str) -> list[str]:
    """Groups (and shadowing scouts) that just entered `hex_` and may search it."""
    board = state.boards[side]
    return [g for g, h in board.may_search.items() if h == hex_ and _members(state, side, g)]


def _spare(state: State, side: Side, group: str) -> int:
    """Movement factors a group still has: its members move together (3d2)."""
    board = state.boards[side]
    return max(
        flight_factor(state, state.units[side][u]) - board.flights[u].moved
        for u in _members(state, side, group)
    )


def _circles(state: State, side: Side) -> list[Action]:
    """15a1.1: search a hex just entered, spending 1 or more extra movement factors there."""
    board = state.boards[side]
    acts = []
    for h in sorted(set(board.may_search.values()) - set(board.searched)):
        spare = max((_spare(state, side, g) for g in _circlers(state, side, h)), default=0)
        acts += [Action("circle", (h, str(n))) for n in range(1, spare + 1)]
    return acts


def _orbits(state: State, side: Side) -> list[Action]:
    """15a1.1 with 18a's separate copies: each air strike circles over the hex it just
    entered by name, as its player cannot know whether his teammate's is there too."""
    board = state.boards[side]
    return [
        Action("orbit", (g, str(n)))
        for g, h in sorted(board.may_search.items())
        if h not in board.searched and _members(state, side, g)
        for n in range(1, _spare(state, side, g) + 1)
    ]


def _circle(state: State, side: Side, hex_: str, factors: int) -> None:
    """The group with the most movement left spends `factors` over the hex."""
    group = max(_circlers(state, side, hex_), key=lambda g: _spare(state, side, g))
    _circle_group(state, side, group, factors)


def _circle_group(state: State, side: Side, group: str, factors: int) -> None:
    board = state.boards[side]
    for uid in list(_members(state, side, group)):
        board.flights[uid].moved += factors
    if group not in board.groups:
        return  # 12d2.3: a shadowing scout, which does not fly on
    board.groups[group] = [
        u
        for u in board.groups[group]
        if board.flights[u].moved < flight_factor(state, state.units[side][u])
    ]
    for uid in board.flights:
        board.flights[uid].moved = min(
            board.flights[uid].moved, flight_factor(state, state.units[side][uid])
        )
    if not board.groups[group]:
        del board.groups[group]


def fly(state: State, side: Side, group: str, to: str, out: list[Event]) -> None:
    """3d1, 3d2: the group moves one hex; units whose movement is used up are dropped off."""
    board = state.boards[side]
    moving = _movable(state, side, group, to)
    for uid in moving:
        f = board.flights[uid]
        f.hex, f.moved = to, f.moved + 1
        f.path.append(to)
    board.groups[group] = [uid for uid in moving if may_go_on(state, state.units[side][uid])]
    if not board.groups[group]:
        del board.groups[group]
    board.may_search[group] = to
    for uid in moving:
        if is_scout(state.units[side][uid]):
            _scout_meets_cap(state, side, uid, to, out)


Members = tuple[tuple[str, int], ...]  # a flying group's units, each with the hexes it moved


def reach(state: State, side: Side, group: str) -> dict[str, tuple[str, ...]]:
    """Issue 30: the hexes `group` may fly to now by single `fly` steps, each with the
    shortest way there: every step into an adjacent hex some member may enter (3d1, 12c1),
    no fighter into a mountain zone (Terrain), members dropped off where their movement
    runs out (3d2) - as `fly` does it, from the side's own units only."""
    board = state.boards[side]
    if board.sea_searched or group not in board.groups or not _movable(state, side, group):
        return {}
    units = state.units[side]
    refusal = hooks.of(state).flight_refusal
    fixed = {uid: Legs(state, units[uid]) for uid in board.groups[group]}

    def step(members: Members, to: str) -> Members | None:
        if refusal(state, [units[u] for u, _ in members], to) is not None:
            return None
        moving = [(u, m) for u, m in members if fixed[u].enters(state, to, m)]
        if not moving:
            return None
        return tuple((u, m + 1) for u, m in moving if fixed[u].goes_on(m + 1))

    first = tuple((u, board.flights[u].moved) for u in board.groups[group])
    grid = searchboard_of(state)
    return Search(group_hex(state, side, group), first, step, bool, grid.neighbours).ways()


def _reach_why(state: State, side: Side, action: Action) -> tuple[str, str]:
    group, to = action.get("group"), action.get("hex")
    board = state.boards[side]
    if board.sea_searched:
        return "3d5", "sea searches come after all flying air units have moved"
    if group not in board.groups or not _movable(state, side, group):
        return "3d1", f"{group} has no air units with movement left"
    if not searchboard_of(state).contains(to):
        return "3d1", f"{to} is not on the Searchboard"
    members = [state.units[side][u] for u in board.groups[group]]
    steep = hooks.of(state).flight_refusal(state, members, to)
    if steep is not None:
        return steep
    return "3d1", (
        f"{group} cannot reach {to}: it flies a hex at a time, each hex within its "
        "movement factor (3d1), and a unit whose movement runs out is dropped off (3d2)"
    )


# Issue 30: an air strike flies to its destination with one action, a `fly` per hex.
register_path(
    "fly-to", ("group", "hex"), Path("fly", StepId.AIR_MOVEMENT_AND_SEARCH, reach, _reach_why)
)


def _scout_meets_cap(state: State, side: Side, uid: str, hex_: str, out: list[Event]) -> None:
    """15b1: a scout entering a hex with enemy CAP: unmodified rolls; three times or more by
    the CAP side eliminates it. 15b2: it still searches that hex first (no circling)."""
    enemy = other(side)
    if OptionId.SCOUT_LOSSES not in state.options or OptionId.FIGHTERS not in state.options:
        return
    areas = set(forces_at(state, enemy, hex_))
    base = base_at(state, enemy, hex_)
    if base is not None:
        areas.add(base.id)
    if not any(
        u.box in (HIGH_CAP, LOW_CAP) and u.area in areas for u in state.units[enemy].values()
    ):
        return
    scout, cap = roll_d10(state), roll_d10(state)
    lost = cap >= 3 * scout
    data = {
        "side": side,
        "unit": uid,
        "hex": hex_,
        "scout_roll": scout,
        "cap_roll": cap,
        "lost": lost,
    }
    out.append(Event("scout-meets-cap", ALL, state.turn, state.step, data))
    if lost:
        group = state.boards[side].flights[uid].group
        state.boards[side].groups.pop(group, None)
        eliminate(state, state.units[side][uid], out, "enemy CAP (15b)")


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    board = state.boards[side]
    if action.kind == "fly":
        fly(state, side, action.get("group"), action.get("hex"), out)
    elif action.kind == "combine":
        _combine(state, side, action.get("group"), action.get("into"))
    elif action.kind == "sortie":
        uid, hex_ = action.get("unit"), action.get("hex")
        sortie(state, side, uid, hex_, hooks.of(state).take_off(state, side, uid, hex_, out))
    elif action.kind == "search":
        board.searched.append(action.get("hex"))
        search(state, side, action.get("hex"), "air search", out)
    elif action.kind == "circle":
        factors = int(action.get("factors"))
        _circle(state, side, action.get("hex"), factors)
        board.searched.append(action.get("hex"))
        search(state, side, action.get("hex"), "air search", out, factors)
    elif action.kind == "orbit":
        group, factors = action.get("group"), int(action.get("factors"))
        hex_ = board.may_search[group]
        _circle_group(state, side, group, factors)
        board.searched.append(hex_)
        search(state, side, hex_, "air search", out, factors)
    elif action.kind == "search-area":
        hooks.of(state).search_area(state, side, action.get("area"), out)
    elif action.kind == "sea-search":
        board.sea_searched.append(action.get("hex"))
        search(state, side, action.get("hex"), "sea search", out)


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    board = state.boards[side]
    family = hooks.of(state).air_why(state, side, action)  # Searches 1-2, Off-Board Bases 1
    if family is not None:
        return family
    if action.kind == "fly":
        group = action.get("group")
        if board.sea_searched:
            return "3d5", "sea searches come after all flying air units have moved"
        if group not in board.groups or not _movable(state, side, group):
            return "3d1", f"{group} has no air units with movement left"
        here, to = group_hex(state, side, group), action.get("hex")
        grid = searchboard_of(state)
        members = [state.units[side][u] for u in board.groups[group]]
        steep = hooks.of(state).flight_refusal(state, members, to) if grid.contains(to) else None
        if steep is not None:
            return steep
        if grid.contains(to) and grid.distance(here, to) == 1:
            return "3d1", f"{group} has no air unit that may enter {to} (its movement factor)"
        return "3d1", (
            f"{group} is in {here}: air units move one hex at a time, into an adjacent hex"
        )
    if action.kind == "search":
        return "3d3.1", "a hex is searched as an air unit enters it, once a Turn"
    if action.kind == "orbit":
        return "15a1.1", "an air strike circles over the hex it just entered, on factors left"
    if action.kind == "sea-search":
        return "3d5", "sea searches are of hexes holding your own task forces or base, once each"
    return None


def _enter(state: State, out: list[Event]) -> None:
    """3d: the air units take to the air; then what the mode puts first (18c1: the scouts'
    routes, handed in and flown by the umpire), then the strikes move."""
    for side in b_then_a(state):
        _take_to_the_air(state, side)
        _patrols_fly_on(state, side)
    if mode_hooks.of(state).before_air_movement(state, out):
        return
    state.waiting = b_then_a(state)


def strikes_move(state: State, out: list[Event]) -> None:
    """18c1: "after the movement of all scout air units are completed, players must move
    all of their air strikes and announce any sea searches" - Side B, then Side A: the
    scouts' procedure over, back in this step."""
    # RULES? 18c1 keeps air strikes out of what is done at once: B, then A, as in 3d
    advance(state, out)
    state.waiting = b_then_a(state)


def _patrols_fly_on(state: State, side: Side) -> None:
    """12d1: patrolling scouts move normally (not at night); 12d2.3: a shadower does not
    move, but searches its hex, and may circle there with its remaining movement factors."""
    board = state.boards[side]
    night = turn_box(state).night
    for uid, flight in board.flights.items():
        if not flight.patrol:
            continue
        if flight.shadowing is not None:
            board.may_search[uid] = flight.hex
        elif not night:
            flight.group = uid
            board.groups[uid] = [uid]


def _finish(state: State, out: list[Event]) -> None:
    state.battles = find_battles(state)
    advance(state, out, Way.COMBAT)


register(
    Step(
        StepId.AIR_MOVEMENT_AND_SEARCH,
        "3d",
        "Air movement and search: fly your air units, search hexes, then sea searches",
        _actions,
        _handle,
        _enter,
        _finish,
        _why,
        lost_if_done=stranded,  # 5: flying no further, these could land nowhere
    )
)
