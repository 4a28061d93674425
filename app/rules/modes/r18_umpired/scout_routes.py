"""18c1: scouts in the umpired modes - routes handed in at once, then flown by the umpire.

"The players on both sides should then perform all other activities in the Action Phase
simultaneously, except for moving air strikes, then notify the umpire of everything that
has been done, including the projected routes of the scout air units. The umpire then
takes this information and gets back to the players when their scout air units enter a
hex with a task force marker(s). The players can then choose how many movement factors
to expend in a hex (if option 15a is used), the umpire performs the competing die rolls
and reports the appropriate information to the side."

Two steps, both sides at once (one pending decision per seat, as in assembly):

- "scout routes": each side hands in each flying scout's route, hex by hex (`route O K3`
  adds K3 to the end of scout O's route; `unroute O` clears it), within its movement
  factor; a scout without a route stays where it is. 7c4.4's off-board scout enters here.
- the umpire flies the routes, the side's scouts one after another in the order of their
  ids. A hex a scout enters is searched (3d3.1), unless the side searched it already this
  Turn. RULES? 18c1 has the umpire "get back to the players" only where a scout meets a
  task force, so an empty hex is reported "nothing", as a search of it would be. With 15a,
  where a scout enters a hex holding an enemy task force with movement factors left, the
  step "scouting" asks its player how many to spend there (`spend O 2`: +4, 15a1.1) before
  the umpire's rolls; then it flies on. RULES? A route longer than the factors left after
  circling ends where they run out (15a1.1's example: circle with two, then fly on).
  Without 15a there is nothing to choose: the routes are flown as soon as both are in.

Each hex's answer (and 18c1's "lie" with 15a) is a report like any other
(app/rules/modes/reports.py): a draft for the umpire in `umpired`, released at once in
`double-blind`; released, it goes to every player of the searching side (18c1). RULES? The
question over a task force is the rules' procedure, not a report: it is asked at once, in
`umpired` too (18c1: the umpire "gets back to the players" there), and tells the player
only that his scout is over a task force; the answer that follows waits for the umpire.
After the scouts, the side's air strikes move and sea searches are announced (3d, B then A).
"""

from __future__ import annotations

from app.rules.base.air_movement import fly, sortie, sorties, strikes_move
from app.rules.base.air_ranges import can_enter, flight_factor
from app.rules.base.search import exact_answer, search
from app.rules.base.units import is_scout
from app.rules.board.boards import searchboard_of
from app.rules.board.time_record import night
from app.rules.engine.actions import DONE, Action, add_kinds
from app.rules.engine.events import Event
from app.rules.engine.options import OptionId
from app.rules.engine.paths import Path, Search, register_path
from app.rules.engine.state import GONE, Side, State
from app.rules.engine.steps import Step, StepId, Way, WhoActs, advance, b_then_a, register

add_kinds(
    {
        "route": ("unit", "hex"),  # 18c1: the next hex of a scout's route
        "unroute": ("unit",),  # 18c1: clear a scout's route, to hand in another
        "spend": ("unit", "factors"),  # 15a1.1 in 18c1: movement factors spent over the hex
    }
)

ROUTES = StepId.SCOUT_ROUTES
SCOUTING = StepId.SCOUTING


def begin_routes(state: State, out: list[Event]) -> None:
    """18c1: after the air units take to the air, both sides hand in their scouts' routes."""
    advance(state, out, Way.SCOUT_ROUTES)


def _at_once(state: State, out: list[Event]) -> None:
    state.waiting = b_then_a(state)


def scouts(state: State, side: Side) -> list[str]:
    """The side's scouts that may still move this Turn (each is a group of its own, 3d)."""
    board = state.boards[side]
    units = state.units[side]
    return [g for g in sorted(board.groups) if g in units and is_scout(units[g])]


def _left(state: State, side: Side, uid: str) -> int:
    """Movement factors the scout has left beyond its route so far (3d1)."""
    board = state.boards[side]
    u = state.units[side][uid]
    return flight_factor(state, u) - board.flights[uid].moved - len(board.routes.get(uid, []))


def _route_actions(state: State, side: Side) -> list[Action]:
    board = state.boards[side]
    grid = searchboard_of(state)
    acts: list[Action] = []
    for uid in scouts(state, side):
        route = board.routes.get(uid, [])
        last = route[-1] if route else board.flights[uid].hex
        if _left(state, side, uid) > 0:
            acts += [Action("route", (uid, h)) for h in grid.neighbours(last)]
        if route:
            acts.append(Action("unroute", (uid,)))
    return [*acts, *sorties(state, side), DONE]


def _route_reach(state: State, side: Side, uid: str) -> dict[str, tuple[str, ...]]:
    """Issue 30: the hexes the scout's route may be handed in to now, `route` by `route`
    (3d1: hex by hex, within the movement factor left), each with the shortest way."""
    if uid not in scouts(state, side) or _left(state, side, uid) <= 0:
        return {}
    board = state.boards[side]
    route = board.routes.get(uid, [])
    last = route[-1] if route else board.flights[uid].hex
    grid = searchboard_of(state)
    return Search(
        last, _left(state, side, uid), lambda left, _h: left - 1, bool, grid.neighbours
    ).ways()


def _route_reach_why(state: State, side: Side, action: Action) -> tuple[str, str]:
    uid = action.get("unit")
    left = _left(state, side, uid) if uid in scouts(state, side) else 0
    return "3d1", (
        f"a route goes hex by hex into an adjacent hex, within the scout's movement factor: "
        f"{uid} has {left} left, not enough to reach {action.get('hex')}"
    )


# Issue 30: a scout's route handed in to its end with one action, a `route` per hex.
register_path("route-to", ("unit", "hex"), Path("route", ROUTES, _route_reach, _route_reach_why))


def _route_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    board = state.boards[side]
    uid = action.get("unit")
    if action.kind == "sortie":
        sortie(state, side, uid, action.get("hex"))
    elif action.kind == "route":
        board.routes.setdefault(uid, []).append(action.get("hex"))
    elif action.kind == "unroute":
        board.routes.pop(uid, None)


def _route_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "route":
        return "3d1", (
            "a route goes hex by hex into an adjacent hex, within the scout's movement factor"
        )
    if action.kind == "unroute":
        return "18c1", f"{action.get('unit')} has no route handed in"
    return None


def _routes_in(state: State, out: list[Event]) -> None:
    """Both routes are in: scouts without one stay where they are; the umpire flies."""
    for side in b_then_a(state):
        board = state.boards[side]
        for uid in scouts(state, side):
            if board.may_search.get(uid):  # 7c4.4: it searches the hex it entered at
                board.routes.setdefault(uid, [])
            elif not board.routes.get(uid):
                _grounded(state, side, uid)
    if OptionId.VARIABLE_SPOTTING in state.options:
        advance(state, out)
        return
    for side in b_then_a(state):
        fly_on(state, side, out)
    strikes_move(state, out)


register(
    Step(
        ROUTES,
        "18c1",
        "Scout routes: hand in each scout's whole route, hex by hex, then Done (18c1)",
        _route_actions,
        _route_handle,
        _at_once,
        _routes_in,
        _route_why,
        acts=WhoActs.AT_ONCE,  # 18c1: "simultaneously", each side to the umpire
        idle_when=night,  # 3a1: no scout flies at night
    )
)

# ---------------------------------------------------------------- the umpire flies them


def fly_on(state: State, side: Side, out: list[Event]) -> None:
    """18c1: fly the side's scouts along their routes, one after another, until one is over
    a task force where its player may spend movement factors (15a1.1), or all have flown."""
    board = state.boards[side]
    while board.over is None and board.routes:
        uid = min(board.routes)
        flight = board.flights.get(uid)
        if flight is not None and board.may_search.get(uid) == flight.hex:
            _arrive(state, side, uid, flight.hex, out)  # 7c4.4: the hex it entered at
        elif _flies_on(state, side, uid):
            to = board.routes[uid].pop(0)
            fly(state, side, uid, to, out)
            _arrive(state, side, uid, to, out)
        else:
            del board.routes[uid]
            _grounded(state, side, uid)


def _flies_on(state: State, side: Side, uid: str) -> bool:
    """Whether the scout flies the next hex of its route: not once shot down (15b), nor
    beyond its movement factor (RULES? a route ends where the factors run out)."""
    board = state.boards[side]
    route = board.routes[uid]
    u = state.units[side][uid]
    return bool(route) and u.box != GONE and uid in board.groups and can_enter(state, u, route[0])


def _grounded(state: State, side: Side, uid: str) -> None:
    """The scout has flown its route: it moves no more this Turn (it returns in 5)."""
    board = state.boards[side]
    board.groups.pop(uid, None)
    board.may_search.pop(uid, None)


def _spare(state: State, side: Side, uid: str) -> int:
    u = state.units[side][uid]
    return max(0, flight_factor(state, u) - state.boards[side].flights[uid].moved)


def _arrive(state: State, side: Side, uid: str, hex_: str, out: list[Event]) -> None:
    """3d3.1: the scout searches the hex it entered; 15a1.1: over a task force, with
    factors left, its player chooses first (15b2: not if enemy CAP shot it down)."""
    board = state.boards[side]
    board.may_search.pop(uid, None)
    if hex_ in board.searched:
        return
    alive = state.units[side][uid].box != GONE
    if (
        OptionId.VARIABLE_SPOTTING in state.options
        and alive
        and exact_answer(state, side, hex_)
        and _spare(state, side, uid) > 0
    ):
        board.over = uid
        return
    board.searched.append(hex_)
    search(state, side, hex_, "air search", out)


def _scouting_actions(state: State, side: Side) -> list[Action]:
    uid = state.boards[side].over
    if uid is None:
        return [DONE]
    return [Action("spend", (uid, str(n))) for n in range(_spare(state, side, uid) + 1)]


def _owed(state: State, side: Side) -> list[Action]:
    """A scout over a task force: its player chooses before his side is done."""
    acts = _scouting_actions(state, side)
    return [] if acts == [DONE] else acts


def _spend(state: State, side: Side, action: Action, out: list[Event]) -> None:
    """15a1.1: each factor spent over the hex adds +2 to the search; then the scout flies
    on with what it has left."""
    board = state.boards[side]
    uid = action.get("unit")
    factors = int(action.get("factors"))
    board.over = None
    flight = board.flights[uid]
    flight.moved += factors
    board.searched.append(flight.hex)
    search(state, side, flight.hex, "air search", out, factors)
    fly_on(state, side, out)


def _spend_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "spend":
        return "15a1.1", "only the scout over the hex, and no more factors than it has left"
    if action.kind == "done":
        return "18c1", "first choose how many movement factors your scout spends over the hex"
    return None


def _scouting_in(state: State, out: list[Event]) -> None:
    for side in b_then_a(state):
        fly_on(state, side, out)
    _at_once(state, out)


def _scouted(state: State, out: list[Event]) -> None:
    strikes_move(state, out)


register(
    Step(
        SCOUTING,
        "18c1",
        "Scouting: the umpire flies your scouts; over a task force, choose how many movement "
        "factors to spend searching it (15a1.1: +2 each)",
        _scouting_actions,
        _spend,
        _scouting_in,
        _scouted,
        _spend_why,
        owes=_owed,
        acts=WhoActs.AT_ONCE,  # 18c1: "simultaneously", each side to the umpire
    )
)
