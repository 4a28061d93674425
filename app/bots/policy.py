"""The computer's choice of one action: each offered action scored by what the seat knows,
the best taken (DESIGN.md, Bots).

`choose(view, log, level)` reads the seat's view document (its prompt's actions are the
legal actions, as the server hands them to a person at that seat) and its log, and nothing
else. Its randomness is seeded from a hash of what the seat has seen (app.bots.seen), so
equal information gives an equal choice. A level is a fixed amount of evaluation, never
a clock: `quick` scores each action by the freshest sighting; `strong` weighs every
sighting the seat was given (app.bots.belief), recalls from its log what the enemy's
announced sea searches told last Turn, gives away its own hex by none of its own unless the
enemy may be there, and looks one move of its own further (app.bots.plans).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.bots.belief import SPEED, Belief, believe
from app.bots.board import area_centre, board_cells, distance, is_cell
from app.bots.seen import information, seeded

Json = dict[str, Any]
LEVELS = ("quick", "strong")
NOISE = 0.25  # seeded jitter between actions of near-equal worth
STAY = 0.5  # a step that brings nothing loses to Done, whatever the jitter (no going round)
SCOUTING = 3.0  # a scout's step toward its goal (3d1) ...
SEARCHING = 2.6  # ... before its search there (3d3), which a step sideways does not beat
SEARCH_EACH = 6.0  # strong: each hex searched as it is entered (3d3.1), before going on
MOVED_ON = 10.0  # strong: what last Turn's sighting loses once the force is seen elsewhere
STRIKING = 2.0  # a strike's step toward its target (3d2)
SCOUT_REACH = 8  # hexes or zones a scout's goal may lie from it
WORTH = {"CV": 6.0, "CVL": 5.0, "base": 4.0, "BB": 3.5, "CA": 2.5, "AP": 3.0, "CL": 1.5}
STRIKERS = ("D", "T", "H", "M", "B")  # 1991 air unit types that attack ships and bases
FIGHTER = "F"
SCOUT = "S"
# The expansion's objectives (its victory points: landings, coral-sea.toml &c.), by the
# zone printed for the place on the theatre map (theatre.toml, Bases 1).
THEATRE_OBJECTIVE = {"coral-sea": "A4D", "eastern-solomons": "F4F", "santa-cruz": "F4F"}
# The bases printed on the theatre map (Bases 1, theatre.toml): a base's own sea searches
# are announced each Turn from its zone (3d5), and the expansion scores no base struck.
THEATRE_BASES = frozenset(
    {
        *("A3A", "A4C", "A4D", "B3B", "B4H", "C1D", "C2B"),
        *("D2E", "D3C", "D3F", "F4C", "F4F", "I4G", "I6G"),
    }
)
STANDOFF = 4  # zones from the objective the strong level's carriers keep, no target seen
STRIKE_REACH = {"hex": 6, "zone": 9}  # hexes or zones a strike is worth launching at
MIDWAY_CONTROL_SCENARIOS = frozenset({"two"})  # 7c4.3: control of Midway ...
MIDWAY_CONTROL = 35.0  # ... and its points
NOT_A_TARGET = -1000.0


class Seat:
    """What the scoring functions read: the view, its belief, and the seat's own units."""

    def __init__(
        self, view: Json, level: str, log: list[Json] | None = None, belief: Belief | None = None
    ) -> None:
        self.view = view
        self.level = level
        self.log = log or []
        self._goals: dict[str, str] | None = None
        self._likely: dict[str, float] = {}
        self._bases: set[str] | None = None
        self.belief: Belief = belief or believe(view, self.log if level == "strong" else None)
        cards = view.get("operations_cards") or {}
        self.card: Json = cards.get(self.belief.side) or {}
        self.enemy_card: Json = cards.get(self.belief.enemy) or {}
        self.units: Json = self.card.get("units") or {}
        self.enemy_units: Json = self.enemy_card.get("units") or {}
        self.board: Json = view.get("searchboard") or {}
        self.spread = level == "strong"
        self.strong = level == "strong"
        self.theatre = bool(self.objective_zone())
        self.objective = self._objective()
        self.hex_of_carrier = self._carrier_hexes()

    def objective_zone(self) -> str | None:
        """The theatre objective's zone (None on the Searchboard)."""
        scenario = (self.view.get("scenario") or {}).get("id", "")
        return THEATRE_OBJECTIVE.get(str(scenario))

    def _objective(self) -> str | None:
        scenario = (self.view.get("scenario") or {}).get("id", "")
        return THEATRE_OBJECTIVE.get(str(scenario), self.belief.midway)

    def _carrier_hexes(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for f in self.card.get("forces") or []:
            hex_ = self.belief.own.get(str(f.get("force")))
            if hex_ is not None:
                for ship in f.get("ships") or []:
                    out[str(ship)] = hex_
        if self.belief.midway is not None and self.belief.side == "usa":
            out.setdefault("Midway", self.belief.midway)
        return out

    def goals(self) -> dict[str, str]:
        """Each flying scout's goal (scout_goals), worked out once a decision."""
        if self._goals is None:
            self._goals = scout_goals(self)
        return self._goals

    def sailed(self, force: str) -> set[str]:
        """The hexes the force was in this Turn, by the seat's log of its own moves (3c),
        and where it is: a move never goes back to one (no going round)."""
        turn = self.belief.turn
        out = {
            str(e.get("hex"))
            for e in self.log[-400:]
            if e.get("kind") in ("move", "enter")
            and e.get("force") == force
            and e.get("turn") == turn
        }
        here = self.belief.own.get(force)
        return out | ({here} if here else set())

    def type_of(self, unit: str) -> str:
        u = self.units.get(unit) or self.enemy_units.get(unit) or {}
        return str(u.get("type") or "")

    def target_hex(self) -> str | None:
        """Where a strike should go: a fresh sighting, else (for Japan) the objective."""
        targets = self.belief.targets
        if targets:
            own = list(self.belief.own.values()) or ([self.objective] if self.objective else [])
            if self.strong:
                best = max(targets, key=lambda h: (self._target_worth(h, own), h))
                if self._target_worth(best, own) > NOT_A_TARGET:
                    return self._followed(best)
            else:
                return min(
                    targets, key=lambda h: (min((distance(h, o) for o in own), default=0), h)
                )
        if self.belief.side == "japan" and self.objective and self.belief.midway:
            return self.objective  # 7b: the Midway base itself is a target
        return None

    def _target_worth(self, hex_: str, own: list[str]) -> float:
        """The strong level's choice of target (4a3, 7a3): what was seen there (its ships'
        worth: the carriers first), an unseen task force as if a carrier, the Midway base
        as a base; less for the distance, and out of a strike's reach last."""
        seen = [s for s in self.belief.sightings if s.hex == hex_ and s.age <= 1]
        names = {n for s in seen for n in s.names}
        stale = 0.0
        if self.strong and seen:
            names, stale = self._since(hex_, min(s.age for s in seen), names)
        midway = self.view.get("midway") or {}
        base_there = (
            self.belief.side == "japan"
            and hex_ == self.belief.midway
            and not midway.get("eliminated")
        )
        if self.theatre and (
            all(self.type_of(n) == "base" for n in names) if names else hex_ in self.bases()
        ):
            return NOT_A_TARGET  # the expansion scores ships sunk and planes, no base struck
        if names:
            worth = sum(WORTH.get(self.type_of(n), 1.0) for n in names)
        else:
            worth = WORTH["base" if base_there else "CV"]
        if self._landing_at_stake(hex_, names):
            worth += MIDWAY_CONTROL
        d = min((distance(hex_, o) for o in own), default=0)
        reach = STRIKE_REACH["zone" if hex_[-1].isalpha() else "hex"]
        return worth - stale - 0.5 * d - (100.0 if d > reach else 0.0)

    def _since(self, hex_: str, age: int, names: set[str]) -> tuple[set[str], float]:
        """3c: a task force sails on each Turn. A sighting of last Turn where the seat's
        searches found nothing this Turn, or with a sighting of this Turn within a Turn's
        sailing, is where the force was: it loses MOVED_ON to the fresh one, which is
        worth the ships named last Turn (the same force, moved)."""
        reach = SPEED["zone" if hex_[-1].isalpha() else "hex"]
        fresh = [s for s in self.belief.sightings if s.age == 0 and s.hex != hex_]
        if age == 0:
            near = [s for s in self.belief.sightings if s.age == 1 and s.hex != hex_]
            moved = {n for s in near if distance(s.hex, hex_) <= reach for n in s.names}
            return (names or moved), 0.0
        gone = self.belief.empty.get(hex_, -99) >= self.belief.turn
        if gone or any(distance(s.hex, hex_) <= reach for s in fresh):
            return names, MOVED_ON
        return names, 0.0

    def _followed(self, hex_: str) -> str:
        """3c, 3d3.1: the force seen last Turn at `hex_` and not found there this Turn has
        sailed to a hex around it: the strike goes on to the likeliest of them not
        searched this Turn (a search of last Turn, when the force was at `hex_`, does not
        thin them), searching each it enters, while it may fly on."""
        turn = self.belief.turn
        if self.belief.empty.get(hex_, -99) < turn:
            return hex_
        if any(s.hex == hex_ and s.age == 0 for s in self.belief.sightings):
            return hex_
        reach = SPEED["zone" if hex_[-1].isalpha() else "hex"]
        around = [
            c
            for c in board_cells(hex_)
            if 0 < distance(c, hex_) <= reach and self.belief.empty.get(c, -99) < turn
        ]
        if not around:
            return hex_
        # a hex around found empty last Turn, when the force was still at `hex_`, may
        # hold it now: only this Turn's searches thin the hexes it may have sailed to
        return max(
            around,
            key=lambda c: (self.belief.weight(c, True, emptied=0) - 0.1 * distance(c, hex_), c),
        )

    def bases(self) -> set[str]:
        """The enemy's bases the seat's own strikes found, by its log (4a1: the ships of a
        battle it attacked, all bases), and for the strong American every base printed on
        the theatre map: a base's own searches place it, not a fleet. Not for the Japanese:
        the Allied fleet defends the objective, a base's zone, and its sea searches there
        are a fleet's (Coral Sea, strong Japan vs quick: a game lost with it)."""
        if self._bases is None:
            printed = set(THEATRE_BASES) if self.strong and self.theatre else set()
            if self.belief.side != "usa":
                printed = set()  # the Allied fleet stands by Port Moresby, the objective
            self._bases = printed | {
                str(e.get("hex"))
                for e in self.log
                if e.get("kind") == "battle"
                and e.get("attacker") == self.belief.side
                and e.get("ships")
                and all(self.type_of(str(n)) == "base" for n in e.get("ships") or [])
            }
        return self._bases

    def _landing_at_stake(self, hex_: str, names: set[str]) -> bool:
        """7c4.3: in Scenario Two a Japanese transport holding Midway three Turns once the
        base is gone wins its control (35 points, else the Americans'): the strong American
        strikes the transports by Midway (a force seen on it, unnamed) before they land."""
        scenario = str((self.view.get("scenario") or {}).get("id"))
        midway = self.belief.midway
        if scenario not in MIDWAY_CONTROL_SCENARIOS or self.belief.side != "usa" or not midway:
            return False
        if distance(hex_, midway) > 1:
            return False
        if names:
            return any(self.type_of(n) == "AP" for n in names)
        return hex_ == midway

    def likely(self, hex_: str) -> float:
        known = self._likely.get(hex_)
        if known is None:
            known = self._likely[hex_] = self.belief.weight(hex_, self.spread)
        return known

    def late(self) -> bool:
        return self.belief.turn >= self.belief.last_turn - 1

    def ahead(self) -> int:
        points = (self.view.get("score") or {}).get("points") or {}
        return int(points.get(self.belief.side, 0)) - int(points.get(self.belief.enemy, 0))


Scorer = Callable[[Seat, Json], float]


def _done(s: Seat, a: Json) -> float:
    return 0.0


def _place(s: Seat, a: Json) -> float:
    """7a2.2: set up within reach of the objective, the attacker closer than the defender;
    a force already placed moves only to a better hex."""
    placed = s.belief.own.get(str(a.get("force")))
    worth = _placement(s, a.get("hex"))
    if placed is not None:
        return worth - _placement(s, placed) - 0.5
    return worth


def _placement(s: Seat, hex_: object) -> float:
    """Between 1 and 3: a force not yet placed is placed before anything else is done."""
    if not is_cell(hex_) or s.objective is None or not is_cell(s.objective):
        return 1.0
    try:
        d = distance(str(hex_), s.objective)
    except ValueError:
        return 1.0
    want = 5 if s.belief.side == "japan" else 3
    return 1.0 + 2.0 / (1.0 + 0.3 * abs(d - want))


def _move(s: Seat, a: Json) -> float:
    """3c: close to striking distance of the enemy (or of the objective), no closer; near
    the end, a side ahead on points keeps its ships away (7a3)."""
    force, hex_ = str(a.get("force")), a.get("hex")
    here = s.belief.own.get(force)
    if hex_ in s.sailed(force):
        return -1.0
    goal = s.target_hex() or s.objective
    want = 3 if s.belief.targets else (1 if s.belief.side == "japan" else 2)
    if s.strong and s.theatre and s.belief.side == "japan" and not s.belief.targets:
        want = STANDOFF  # off the easy reach of the objective's bombers
    if s.strong and s.belief.side == "usa" and s.belief.targets and _campaign(s):
        want = STRIKE_REACH["hex"] - 1  # the defender strikes from the edge of its reach
    if s.late() and s.ahead() > 0:
        want = 6
    if s.belief.side == "japan" and _carries_troops(s, force):
        goal, want = s.objective, 0  # 7c4.3, the landings: transports go for the objective
    if not is_cell(hex_) or here is None or goal is None or not is_cell(goal):
        return -0.2
    try:
        before = abs(distance(here, goal) - want)
        after = abs(distance(hex_, goal) - want)
    except ValueError:
        return -0.2
    gain = float(before - after)
    if s.spread and s.belief.targets:  # strong: mind every sighting, not the nearest only
        gain += 0.3 * (s.likely(str(hex_)) - s.likely(here))
    return gain - STAY


def _campaign(s: Seat) -> bool:
    """7c: the Midway Campaign, 23 Turns, where the American defends Midway and may wait;
    in Scenario One (7b: 5 Turns, and a margin of 10 to win) he must close and strike."""
    return str((s.view.get("scenario") or {}).get("id")) in MIDWAY_CONTROL_SCENARIOS


def _carries_troops(s: Seat, force: str) -> bool:
    """Whether the task force holds a transport (AP)."""
    for f in _forces(s):
        if f.get("force") == force:
            return any(s.type_of(str(ship)) == "AP" for ship in f.get("ships") or [])
    return False


def _enter(s: Seat, a: Json) -> float:
    """3c: a force due enters, nearest the objective; one that entered moves only to a
    better hex."""
    entered = s.belief.own.get(str(a.get("force")))
    worth = 2.0 + 0.5 * _move_like(s, a.get("hex"))
    if entered is not None:
        return worth - (2.0 + 0.5 * _move_like(s, entered)) - STAY
    return max(0.5, worth)


def _move_like(s: Seat, hex_: object) -> float:
    goal = s.objective
    if not is_cell(hex_) or goal is None or not is_cell(goal):
        return 0.0
    try:
        return -0.2 * distance(str(hex_), goal)
    except ValueError:
        return 0.0


def _ready(s: Seat, a: Json) -> float:
    return 2.0  # 3b: Arming -> Ready, so it may take off


def _arm(s: Seat, a: Json) -> float:
    return -3.0


def _launch(s: Seat, a: Json) -> float:
    """3a: scouts take off by day; strikers when a target is within reach of their deck;
    fighters go with the strike (escorts, 4a3) when one goes, else stay for CAP (14)."""
    kind = s.type_of(str(a.get("unit")))
    night = bool((s.view.get("time") or {}).get("night"))
    if kind == SCOUT:
        return -1.0 if night else 4.0
    target = s.target_hex()
    if target is None or night:
        return -1.0
    deck = _deck_of(s, str(a.get("unit")))
    reach = STRIKE_REACH["zone" if target[-1].isalpha() else "hex"]
    try:
        d = distance(deck, target) if deck is not None else reach
    except ValueError:
        d = reach
    if d > reach:
        return -1.0
    bonus = 1.0 if s.late() else 0.0
    if kind == FIGHTER:
        return 1.5 + bonus if _strike_going(s) else -0.5
    return 3.5 + bonus - 0.2 * d


def _deck_of(s: Seat, unit: str) -> str | None:
    for c in s.card.get("carriers") or []:
        if unit in (c.get("ready") or []) or unit in (c.get("arming") or []):
            return s.hex_of_carrier.get(str(c.get("id")))
    return next(iter(s.belief.own.values()), s.belief.midway)


def _strike_going(s: Seat) -> bool:
    boxes = [f.get("strike") or [] for f in s.card.get("forces") or []]
    boxes.append(s.card.get("midway_strike") or [])
    return any(s.type_of(u) in STRIKERS for box in boxes for u in box)


def _cap(s: Seat, a: Json) -> float:
    """14: keep fighters over the fleet, two at most a task force."""
    up = sum(len(f.get("high_cap") or []) + len(f.get("low_cap") or []) for f in _forces(s))
    return 2.5 if up < 2 * max(1, len(_forces(s))) else -0.5


def _forces(s: Seat) -> list[Json]:
    return list(s.card.get("forces") or [])


def _fly(s: Seat, a: Json) -> float:
    """3d1, 3d2: scouts toward where the enemy likely is; strikes toward their target."""
    group, hex_ = str(a.get("group")), a.get("hex")
    members = (s.board.get("groups") or {}).get(group) or [group]
    flights = s.board.get("flying") or {}
    here = (flights.get(members[0]) or {}).get("hex") if members else None
    if not is_cell(hex_) or not is_cell(here):
        return -0.5
    scouting = all(s.type_of(str(m)) == SCOUT for m in members)
    if scouting:
        goal = scout_goal(s, str(members[0]), str(here))
        gain = distance(str(here), goal) - distance(str(hex_), goal)
        return SCOUTING + gain - STAY if gain > 0 else -1.0
    target = s.target_hex()
    if target is None:
        return -0.5
    try:
        gain = distance(str(here), target) - distance(str(hex_), target)
        return STRIKING + gain - STAY if gain > 0 else -1.0
    except ValueError:
        return -0.5


def scout_goal(s: Seat, scout: str, here: str) -> str:
    """Where a scout should search (app.bots.policy.scout_goals)."""
    return s.goals().get(scout) or s.belief.guess() or here


def scout_goals(s: Seat) -> dict[str, str]:
    """Each flying scout's goal: the quick level flies every scout for its one guess; the
    strong level weighs every cell of the board within a flight of the scout's deck, less
    where it searched lately, and gives the scouts (in the order of their ids) goals
    apart. Worked out from where each took off, so a goal holds all the step."""
    flights = s.board.get("flying") or {}
    scouts = sorted(uid for uid in flights if s.type_of(uid) == SCOUT)
    guess = s.belief.guess()
    out: dict[str, str] = {}
    for uid in scouts:
        path = flights[uid].get("path") or [flights[uid].get("hex")]
        origin = str(path[0])
        if not is_cell(origin):
            continue
        if not s.spread:
            out[uid] = guess or origin
            continue
        near = [c for c in board_cells(origin) if distance(c, origin) <= SCOUT_REACH]
        taken = list(out.values())
        out[uid] = max(near, key=lambda c: (_scouting_worth(s, c, origin, taken), c))
    return out


def _scouting_worth(s: Seat, cell: str, origin: str, taken: list[str]) -> float:
    w = s.likely(cell)
    if s.belief.turn - s.belief.empty.get(cell, -99) <= 1:
        w *= 0.2  # 3d3: searched this Turn or last, and nothing there
    if any(distance(cell, t) <= 1 for t in taken):
        w *= 0.4  # another scout goes there
    return w - 0.005 * distance(cell, origin)


def _toward_unknown(s: Seat, here: str, hex_: str) -> float:
    """A scout's step: toward the likeliest hex not searched lately."""
    try:
        gain = s.likely(hex_) - s.likely(here)
        fresh = 0.5 if s.belief.turn - s.belief.empty.get(hex_, -99) > 1 else -0.5
    except ValueError:
        return -0.5
    return gain + fresh


def _route(s: Seat, a: Json) -> float:
    """18c1: a scout's route, hex by hex, toward the likeliest unsearched hexes. The
    strong level routes each scout to its own goal (`scout_goals`, as its scouts fly in
    the two-player game) and never into a hex a route of its side already enters: the
    umpire searches each hex a scout enters, once a Turn (3d3.1), so a second pass over
    it finds nothing new."""
    unit, hex_ = str(a.get("unit")), a.get("hex")
    routes = s.board.get("routes") or {}
    route = routes.get(unit) or []
    here = route[-1] if route else (s.board.get("flying") or {}).get(unit, {}).get("hex")
    if not is_cell(here):
        here = _deck_of(s, unit)
    if not is_cell(hex_) or not is_cell(here):
        return 0.5
    if len(route) >= 6:
        return -0.5
    if not s.strong:
        return 1.0 + _toward_unknown(s, str(here), str(hex_))
    if any(hex_ in r for r in routes.values()):
        return -1.0
    goal = scout_goal(s, unit, str(here))
    gain = distance(str(here), goal) - distance(str(hex_), goal)
    if gain > 0:
        return SCOUTING + gain - STAY
    return 1.0 + _toward_unknown(s, str(here), str(hex_))


def _search(s: Seat, a: Json) -> float:
    """3d3: the quick level's scout searches where it is once it has flown as far toward
    its goal as it usefully may (a step toward it is worth more than a search); the strong
    level searches each hex it enters, as 3d3.1 allows (once a Turn a hex), before it flies
    on: a scout's whole path is searched, not its end."""
    hex_ = a.get("hex")
    worth = SEARCH_EACH if s.strong else SEARCHING
    return worth + (0.1 * s.likely(str(hex_)) if is_cell(hex_) else 0.0)


def _sea_search(s: Seat, a: Json) -> float:
    """3d5: last of the step (it ends the flying), so after every scout has flown. It is
    announced, and tells the enemy where the searcher is: the strong level sea-searches
    only a hex the enemy may be in (a fresh sighting within a Turn's sailing), or from
    Midway, which the enemy knows."""
    hex_ = a.get("hex")
    if not is_cell(hex_):
        return 0.3
    if s.strong and hex_ != s.belief.midway and not _enemy_may_be_in(s, str(hex_)):
        return -0.5
    return 0.3 + 0.01 * s.likely(str(hex_))


def _enemy_may_be_in(s: Seat, hex_: str) -> bool:
    reach = SPEED["zone" if hex_[-1].isalpha() else "hex"]
    return any(distance(hex_, t) <= reach for t in s.belief.targets)


def _search_area(s: Seat, a: Json) -> float:
    """Searches 1: an area search where the enemy likely is, or near the objective."""
    centre = area_centre(str(a.get("area")))
    if not is_cell(centre):
        return 3.0
    return 5.0 + 0.5 * s.likely(centre) + 0.3 * _move_like(s, centre)


def _land(s: Seat, a: Json) -> float:
    """5a: every air unit lands; a carrier of its own before a base."""
    at = str(a.get("at"))
    return 8.0 + (0.2 if at in s.hex_of_carrier else 0.0)


def _target(s: Seat, a: Json) -> float:
    """4a3: the most valuable ship in the battle (carriers first); each unit placed once."""
    battle = _battle(s)
    placed = {**(battle.get("targets") or {}), **(battle.get("air_hexes") or {})}
    if a.get("kind") != "bomb" and a.get("unit") in placed:
        return -1.0
    return 3.0 + WORTH.get(s.type_of(str(a.get("target"))), 1.0)


def _attack(s: Seat, a: Json) -> float:
    return 2.0


def _aa(s: Seat, a: Json) -> float:
    return 3.0  # 4c: every ship's AA factor against the attackers


def _battle(s: Seat) -> Json:
    return s.view.get("battle") or {}


def _position(s: Seat, a: Json) -> float:
    """4a2: each ship set up once."""
    return -1.0 if a.get("unit") in (_battle(s).get("positions") or {}) else 0.5


def _face(s: Seat, a: Json) -> float:
    return -1.0 if _battle(s).get("facing") else 1.0


def _formation(s: Seat, a: Json) -> float:
    return 3.0  # 4a2: a standard ring around the carriers


def _release(s: Seat, a: Json) -> float:
    return 5.0  # 18c: the computer as umpire releases every report as it is


def _command(s: Seat) -> str:
    return str((s.view.get("viewer") or {}).get("command") or "")


def _once(s: Seat, what: str, key: str | None) -> float:
    """17a-17c2: a force assigned, the overall commander and a flagship named once each."""
    named = (s.board.get("commands") or {}).get(what)
    done = bool(named) if key is None else isinstance(named, dict) and key in named
    return -1.0 if done else 1.0


def fixed(worth: float) -> Scorer:
    return lambda s, a: worth


SCORES: dict[str, Scorer] = {
    "done": _done,
    "place": _place,
    "commit": fixed(-1.0),  # 7c4.2: an optional force costs points
    "withhold": fixed(1.0),
    "assign": lambda s, a: _once(s, "forces", str(a.get("force"))),
    "overall": lambda s, a: _once(s, "overall", None),
    "flagship": lambda s, a: _once(s, "flagships", _command(s)),
    "sortie": fixed(2.0),
    "ready": _ready,
    "arm": _arm,
    "launch": _launch,
    "max-strike": lambda s, a: _launch(s, a) - 0.5,
    "cap": _cap,
    "create": fixed(-1.0),
    "move": _move,
    "enter": _enter,
    "exit": fixed(-5.0),
    "tow-out": fixed(-2.0),
    "scuttle": fixed(-5.0),
    "fly": _fly,
    "combine": fixed(1.0),  # 13a2: escorts and strikers together
    "search": _search,
    "circle": fixed(-1.0),
    "report": fixed(1.0),
    "sea-search": _sea_search,
    "search-area": _search_area,
    "battle": fixed(1.0),
    "face": _face,
    "position": _position,
    "formation": _formation,
    "target": _target,
    "approach": _target,
    "dogfight": _attack,
    "strafe": fixed(1.0),
    "hold": fixed(-1.0),
    "attack": _attack,
    "intercept": _attack,
    "aa": _aa,
    "fire": fixed(1.0),
    "cancel": fixed(-5.0),
    "bomb": lambda s, a: _target(s, a),
    "reroll": fixed(-0.5),
    "accept": fixed(0.0),
    "transfer": fixed(-1.0),
    "submarine": fixed(1.0),
    "land": _land,
    "stage": fixed(-1.0),
    "patrol": fixed(-1.0),
    "shadow": fixed(0.5),
    "radio": fixed(-1.0),
    "route": _route,
    "unroute": fixed(-3.0),
    "release-report": _release,
}
UNKNOWN = -2.0  # a kind this module does not know: taken only when nothing else is offered


def score(seat: Seat, action: Json) -> float:
    scorer = SCORES.get(str(action.get("kind")))
    return UNKNOWN if scorer is None else scorer(seat, action)


def scored(view: Json, log: list[Json], level: str, rng: random.Random) -> list[tuple[float, int]]:
    """(worth, index) of each offered action; the noise is drawn for every action in
    order, whatever its worth, so the draw depends on the offer alone."""
    seat = Seat(view, level, log)
    actions = offered(view)
    return [(score(seat, a) + NOISE * rng.random(), i) for i, a in enumerate(actions)]


def offered(view: Json) -> list[Json]:
    return [a for a in (view.get("prompt") or {}).get("actions") or [] if _playable(a)]


def _playable(action: Json) -> bool:
    """A written action (17c3's note, 18c's messages) is offered as a template with its
    text blank: the computer writes none."""
    return all(v != "" for v in action.values())


def choose(view: Json, log: list[Json], level: str = "quick") -> Json:
    """The action the computer takes at this seat now, from its view and log alone."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    view = information(view)
    actions = offered(view)
    if not actions:
        raise ValueError("the seat has nothing to do now")
    rng = seeded(view, log)
    if level == "strong":
        from app.bots.plans import best

        return dict(actions[best(view, log, rng)])
    _worth, index = max(scored(view, log, level, rng))
    return dict(actions[index])
