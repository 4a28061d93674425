"""What a computer seat believes of the enemy, from its own view and log only.

Where the enemy may be: every sighting the seat was given (3d3, 15a, 18c1: the
Searchboard's intelligence), the enemy's announced sea searches (3d5: made from the
searcher's own hex; his scouts' air searches say nothing of where he is), and the battles
the seat took part in; each spread by how far a task force may have sailed since (3c: up
to two hexes a Turn on the Searchboard, three zones on the theatre map), and thinned where
the seat's own searches found nothing since. With no news at all, the scenario's objective:
the enemy comes for Midway or stands by it (7b-7e).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from app.bots.board import area_centre, distance, is_cell

Json = dict[str, Any]
SPEED = {"hex": 2, "zone": 3}  # 3c: hexes or zones a task force may sail in a Turn
NOTHING = "nothing"
RECALLED = 400  # the log's last entries read for last Turn's announcements
SEA_SEARCH = "sea search"  # 3d5: made from the searcher's own hex (an air search is not)
THEATRE_SCENARIOS = frozenset({"coral-sea", "eastern-solomons", "santa-cruz"})
# 7a2.2: on the Searchboard the Japanese set up in area II (H1-J2) and steam for Midway;
# the Americans set up east of the Dateline (rows L-T), by Midway: where each side looks
# for the other before any sighting.
SEARCHBOARD_PRIOR = {"usa": "J3", "japan": "O5"}
# 7b3, 7a2.2: in Scenario One the Mobile Force sets up in any area II hex; from there it
# sails at most a hex a Turn (3c, the Basic Game), so the American looks first where it
# may be by now, on every hex of that spread alike.
SETUP_AREA = {("one", "usa"): ("H1", "H2", "I1", "I2", "I3", "J1", "J2")}
SETUP_SAIL = 1  # 3c: hexes a Turn the spread grows, in the Basic Game


@dataclass(frozen=True)
class Sighting:
    hex: str
    age: int  # Turns since
    ships: int  # how many ships were seen (1 when not said)
    names: tuple[str, ...] = ()  # the ships named, when the search was exact (3d3)


@dataclass
class Belief:
    """The seat's side, the enemy's, and the enemy's likely hexes, each with a weight."""

    side: str
    enemy: str
    turn: int
    last_turn: int
    midway: str | None
    own: dict[str, str]  # own task forces: force -> hex
    prior: str | None = None  # where the enemy is expected before any news
    setup: tuple[str, ...] = ()  # where the enemy set up (SETUP_AREA) ...
    since: int = 0  # ... and the Turns since
    sightings: list[Sighting] = field(default_factory=list)
    empty: dict[str, int] = field(default_factory=dict)  # hex -> turn last found empty
    targets: list[str] = field(default_factory=list)  # fresh sightings (this Turn or last)

    def guess(self) -> str | None:
        """The one hex the enemy most likely holds: the freshest, biggest sighting; else
        Midway (the enemy's objective, or the place it guards)."""
        if self.sightings:
            best = min(self.sightings, key=lambda s: (s.age, -s.ships, s.hex))
            return best.hex
        return self.prior or self.midway

    def weight(self, hex_: str, spread: bool, emptied: int = 1) -> float:
        """How likely the enemy is within reach of `hex_` (higher is likelier). With
        `spread` (the strong level), every sighting counts, spread by the Turns since and
        thinned where the seat's searches found nothing within `emptied` Turns (this Turn
        or last; 0: this Turn only); else the freshest guess only."""
        if not spread:
            g = self.guess()
            return 0.0 if g is None else -float(distance(hex_, g))
        total = 0.0
        for s in self.sightings[-12:]:
            d = distance(hex_, s.hex)
            reach = 1 + SPEED[_kind(s.hex)] * s.age
            total += s.ships / (1.0 + s.age) / (1.0 + max(0, d - reach))
        for near in (self.prior, self.midway):
            if near is not None:
                total += 0.5 / (1.0 + distance(hex_, near))
        if self.setup and not self.sightings:
            d = min(distance(hex_, h) for h in self.setup)
            total += 1.0 / (1.0 + max(0, d - SETUP_SAIL * self.since))
        if self.turn - self.empty.get(hex_, -99) <= emptied:
            total *= 0.3  # 3d3: searched this Turn or last and nothing there
        return total


def _kind(hex_: str) -> str:
    return "zone" if len(hex_) >= 3 and hex_[-1].isalpha() else "hex"


def _on_board(name: object, theatre: bool) -> str | None:
    return _on_board_name(name, theatre) if isinstance(name, str) else None


@lru_cache(maxsize=8192)
def _on_board_name(name: str, theatre: bool) -> str | None:
    """A hex or zone of the seat's board; on the theatre map an area ("F2", as an area
    search names it) stands for its middle zone."""
    if not is_cell(name):
        return None
    text = str(name)
    if theatre and _kind(text) == "hex":
        return area_centre(text) if is_cell(area_centre(text)) else None
    if not theatre and _kind(text) == "zone":
        return None
    return text


def believe(view: Json, log: list[Json] | None = None) -> Belief:
    """The seat's belief from its view; with its `log` (the strong level), also what the
    enemy's announced sea searches of last Turn told (3d5): the view announces only this
    Turn's, so a side that sea-searched as it ended its Turn is placed at the next Turn's
    Assembly, when strikes take off (3a)."""
    viewer = view.get("viewer") or {}
    side = str(viewer.get("side") or "")
    sides = [str(s["side"]) for s in view.get("seats", []) if s.get("side")]
    enemy = next((s for s in sides if s != side), "japan" if side == "usa" else "usa")
    board = view.get("searchboard") or {}
    midway = (view.get("midway") or {}).get("hex")
    belief = Belief(
        side=side,
        enemy=enemy,
        turn=int(view.get("turn") or 0),
        last_turn=int(view.get("last_turn") or 0),
        midway=midway if is_cell(midway) and _kind(str(midway)) == "hex" else None,
        own={str(f): str(h) for f, h in (board.get("forces") or {}).items() if is_cell(h)},
    )
    theatre = any(_kind(h) == "zone" for h in belief.own.values()) or (
        str((view.get("scenario") or {}).get("id")) in THEATRE_SCENARIOS
    )
    for s in board.get("spotted") or []:
        hex_ = _on_board(s.get("hex"), theatre)
        if hex_ is None:
            continue
        age = max(0, belief.turn - int(s.get("turn") or 0))
        if s.get("level") == NOTHING:
            belief.empty[hex_] = max(belief.empty.get(hex_, -99), int(s.get("turn") or 0))
            continue
        ships = s.get("ships")
        names = tuple(str(n) for f in (s.get("forces") or {}).values() for n in f)
        count = int(ships) if isinstance(ships, int) else 1
        belief.sightings.append(Sighting(hex_, age, count, names))
    for a in view.get("announcements") or []:
        hex_ = _on_board(a.get("hex"), theatre)
        if a.get("side") == enemy and a.get("how") == SEA_SEARCH and hex_ is not None:
            belief.sightings.append(Sighting(hex_, 0, 1))  # 3d5: his own hex
    battle = view.get("battle") or {}
    hex_ = _on_board(battle.get("hex"), theatre)
    if battle.get("attacker") == side and hex_ is not None:
        ships = tuple(str(n) for n in battle.get("ships") or [])
        belief.sightings.append(Sighting(hex_, 0, len(ships), ships))
    for e in (log or [])[-RECALLED:]:
        if e.get("kind") != "search" or e.get("side") != enemy or e.get("how") != SEA_SEARCH:
            continue
        hex_ = _on_board(e.get("hex"), theatre)
        age = belief.turn - int(e.get("turn") or 0)
        if hex_ is not None and 0 < age <= 1:
            belief.sightings.append(Sighting(hex_, age, 1))  # 3d5: his own hex
    belief.targets = sorted({s.hex for s in belief.sightings if s.age <= 1})
    belief.prior = None if theatre else SEARCHBOARD_PRIOR.get(side)
    scenario = str((view.get("scenario") or {}).get("id"))
    belief.setup = () if theatre else SETUP_AREA.get((scenario, side), ())
    belief.since = max(0, belief.turn - int(view.get("first_turn") or belief.turn))
    return belief
