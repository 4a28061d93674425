"""The Battleboard (1a, 4a) during a battle: ships where the defender set them up, all
facing one way (4a2), air units on or next to their targets (4a3), the anti-aircraft
combat being formed (4c) and what has been resolved. Everything here is in both views.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from app.data import catalog
from app.rules.engine.steps import StepId
from app.rules.expansions.ptvm.strikes import STRUCK
from app.web.approach import Approach, approaches
from app.web.choices import CATEGORY
from app.web.counters import SIDE_TITLE, Counter, counters_of, opponents, sides_of, unit_key
from app.web.geometry import Layout
from app.web.names import ship_name


@cache
def layout() -> Layout:
    spec = catalog().battleboard
    return Layout(spec.columns, spec.rows, size=16.0)


@dataclass
class Piece:
    counter: Counter
    hex: str
    x: float
    y: float
    angle: int | None  # facing, degrees clockwise from north
    notes: list[str]
    scale: float = 1.0  # smaller where a ship and air units share the hex
    under: list[Counter] = field(default_factory=list)  # a stack: the counters below the top


# Issue 13: nothing drawn outside its hex (a flat-topped hex of circumradius 16, half
# height 13.9). A counter alone: 19 x 19 on the centre. A ship and air units in one hex:
# the ship at 0.8 to the west, the air units one stack at 0.55 to the east.
SHARED_SHIP = (-4.0, 0.8)
CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")  # "PortMoresby" -> "Port Moresby"
SHARED_AIR = (7.5, 0.55)


@dataclass
class Battle:
    hex: str
    attacker: str
    defender: str
    facing: str | None
    width: float
    height: float
    hex_points: str
    cells: list[tuple[str, float, float]]
    ships: list[Piece]
    air: list[Piece]
    unplaced_ships: list[Counter]
    unplaced_air: list[Counter]
    aa_forming: list[str]
    aa_target: str | None
    resolved: list[str]
    title: str = ""
    notes: list[str] = field(default_factory=list)  # fighters (14), torpedoes (16f), ...
    markers: list[tuple[float, float, str]] = field(default_factory=list)
    torpedoes: list[Torpedo] = field(default_factory=list)
    reach: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # per ship key
    info: list[tuple[str, str]] = field(default_factory=list)  # (ship key, words)
    surface: bool = False
    approaches: list[Approach] = field(default_factory=list)  # 4d3, per approach hex

    @property
    def reach_json(self) -> str:
        return json.dumps(self.reach, separators=(",", ":"))


@dataclass
class Torpedo:
    """A torpedo marker (16f) beside the ship that placed it, pointing along its line."""

    side: str
    x: float
    y: float
    angle: int
    label: str


def _angle_between(a: str, b: str) -> int | None:
    """The facing of a torpedo bomber in `a` pointing at its target in `b` (4a3.2)."""
    grid = layout()
    if not (grid.contains(a) and grid.contains(b)) or a == b:
        return None
    (ax, ay), (bx, by) = grid.centre(a), grid.centre(b)
    return round(math.degrees(math.atan2(bx - ax, ay - by))) % 360


def _ships(b: dict[str, Any], units: dict[str, Counter], defender: str) -> list[Piece]:
    grid = layout()
    facing = grid.direction_angle(str(b.get("facing"))) if b.get("facing") else None
    used = set(b.get("aa_used") or [])
    forming = set((b.get("aa_forming") or {}).get("ships") or [])
    out = []
    for uid, h in (b.get("positions") or {}).items():
        if uid not in units or not grid.contains(h) or units[uid].eliminated:
            continue  # a ship sunk in the battle is in its side's Sunk / destroyed box
        notes = [f"in {h}"]
        shift, scale = SHARED_SHIP if h in set((b.get("air_hexes") or {}).values()) else (0, 1)
        if uid in used:
            notes.append("anti-aircraft factor used this Combat Phase")
        if uid in forming:
            notes.append("firing in the anti-aircraft combat being formed")
        x, y = grid.centre(h)
        out.append(Piece(units[uid], h, round(x + shift, 1), y, facing, notes, scale))
    return out


def _air(b: dict[str, Any], units: dict[str, Counter], defender: str) -> list[Piece]:
    """The attacking air units by hex (4a3): one counter, or one stack of them, each hex;
    in a ship's hex beside the ship, smaller."""
    grid = layout()
    targets: dict[str, str] = b.get("targets") or {}
    positions: dict[str, str] = b.get("positions") or {}
    by_hex: dict[str, list[str]] = {}
    for uid, h in (b.get("air_hexes") or {}).items():
        if uid in units and grid.contains(h):
            by_hex.setdefault(h, []).append(uid)
    out = []
    for h, ids in by_hex.items():
        x, y = grid.centre(h)
        shift, scale = SHARED_AIR if h in set(positions.values()) else (0.0, 1.0)
        top = ids[0]
        target = targets.get(top, "")
        angle = _angle_between(h, positions.get(target, h)) if len(ids) == 1 else None
        notes = [f"in {h}, attacking {', '.join(sorted({targets.get(u, '') for u in ids}))}"]
        under = [units[u] for u in ids[1:]]
        out.append(Piece(units[top], h, round(x + shift, 1), y, angle, notes, scale, under))
    return out


def _attacked(b: dict[str, Any], ships: dict[str, Counter], side: str) -> str:
    """Issue 30: what the air units attack - a base by its name (Bases 3-4, 4e2), the
    side's ships - as the battle's units say."""
    ids = [*(b.get("ships") or []), *(b.get("targets") or {}).values()]
    bases = sorted({ships[u].name for u in ids if u in ships and ships[u].type == "base"})
    afloat = any(u in ships and ships[u].type != "base" for u in b.get("ships") or [])
    return " and ".join([*bases, *([f"{side} ships"] if afloat or not bases else [])])


def battle(view: dict[str, Any]) -> Battle | None:
    b = view.get("battle")
    if not b:
        return None
    grid = layout()
    attacker = str(b.get("attacker"))
    defender = opponents(view).get(attacker, attacker)
    ships, air = counters_of(view, defender), counters_of(view, attacker)
    positions, targets = b.get("positions") or {}, b.get("targets") or {}
    forming = b.get("aa_forming") or {}
    title = (
        f"Battle in Searchboard hex {b.get('hex')}: {SIDE_TITLE.get(attacker, attacker)} air "
        f"units attack {_attacked(b, ships, SIDE_TITLE.get(defender, defender))}"
    )
    return Battle(
        title=title,
        notes=_fighters(b),
        hex=str(b.get("hex")),
        attacker=attacker,
        defender=defender,
        facing=b.get("facing"),
        width=grid.width,
        height=grid.height,
        hex_points=grid.points(),
        cells=[(h, *grid.centre(h)) for h in grid.hexes()],
        ships=_ships(b, ships, defender),
        air=_air(b, air, defender),
        unplaced_ships=_waiting(ships, b.get("ships"), positions),
        unplaced_air=_waiting(air, b.get("air"), targets),
        aa_forming=[unit_key(defender, s) for s in forming.get("ships") or []],
        aa_target=unit_key(attacker, forming["target"]) if forming.get("target") else None,
        resolved=[_resolved(r, defender) for r in b.get("resolved") or []],
        approaches=approaches(view, grid),
    )


def _fighters(b: dict[str, Any]) -> list[str]:
    """14: escorts, CAP and their pairings, in words."""
    notes = []
    if b.get("escorts"):
        notes.append("Escorts: " + ", ".join(b["escorts"]))
    caps: dict[str, str] = b.get("cap") or {}
    if caps:
        notes.append("CAP: " + ", ".join(f"{u} ({level})" for u, level in caps.items()))
    pairs = {**(b.get("cap_facing") or {}), **(b.get("breakthroughs") or {})}
    if pairs:
        notes.append("Air combats: " + ", ".join(f"{a} against {t}" for a, t in pairs.items()))
    if b.get("held"):
        notes.append("Held out of combat: " + ", ".join(b["held"]))
    return notes


def surface(view: dict[str, Any]) -> Battle | None:
    """16: a surface combat on the Battleboard - both sides' ships, each with its facing;
    for each ship on the board its gun range and half range, its front and rear sectors and
    its torpedo lines (16f2, 16g), which the page lights when the ship is selected."""
    c = (view.get("surface") or {}).get("combat")
    if not c:
        return None
    grid = layout()
    units = {s: counters_of(view, s) for s in sides_of(view)}
    pieces, waiting = [], []
    reach: dict[str, dict[str, list[str]]] = {}
    info: list[tuple[str, str]] = []
    for ship in c.get("ships") or []:
        counter = units.get(ship.get("side"), {}).get(ship.get("id"))
        h = ship.get("hex")
        if counter is None or counter.eliminated:
            continue  # sunk: in its side's Sunk / destroyed box, not on the Battleboard
        if not h or not grid.contains(h):
            if not ship.get("eliminated") and not ship.get("broke_off"):
                waiting.append(counter)
            continue
        angle = grid.direction_angle(ship["facing"]) if ship.get("facing") else None
        x, y = grid.centre(h)
        notes = _ship_notes(ship)
        pieces.append(Piece(counter, h, x, y, angle, notes))
        reach[counter.key] = _reach(ship)
        info.append((counter.key, f"{counter.side_label} {counter.name}: " + "; ".join(notes)))
    torpedoes = [_torpedo(t) for t in c.get("torpedoes") or [] if grid.contains(str(t.get("hex")))]
    when = "night" if c.get("night") else "day"
    title = (
        f"Surface combat{_where(c)} ({when}), Surface Turn "
        f"{c.get('surface_turn')} of {c.get('surface_turns')} (16)"
    )
    return Battle(
        title=title,
        notes=_surface_notes(c),
        torpedoes=torpedoes,
        reach=reach,
        info=info,
        surface=True,
        hex=str(c.get("hex")),
        attacker="japan",
        defender="usa",
        facing=None,
        width=grid.width,
        height=grid.height,
        hex_points=grid.points(),
        cells=[(h, *grid.centre(h)) for h in grid.hexes()],
        ships=pieces,
        air=[],
        unplaced_ships=waiting,
        unplaced_air=[],
        aa_forming=[],
        aa_target=None,
        resolved=[],
    )


def _where(c: dict[str, Any]) -> str:
    return f" in Searchboard hex {c['hex']}" if c.get("hex") else ""


def _ship_notes(ship: dict[str, Any]) -> list[str]:
    notes = [f"in {ship['hex']}"]
    if ship.get("facing"):
        notes.append(f"facing {ship['facing']}")
    left = int(ship.get("movement") or 0) - int(ship.get("movement_spent") or 0)
    notes.append(f"movement {max(left, 0)} of {ship.get('movement') or 0} left")
    gun = ship.get("gun")
    if gun:
        notes.append(
            f"guns {gun['letter']}: range {gun['range']}, half range {gun['half_range']}"
            + (" (fired this Surface Turn)" if ship.get("gunned") else "")
        )
    torpedo = ship.get("torpedo")
    if torpedo:
        can = "may fire" if torpedo.get("may_fire") else "may not fire now"
        notes.append(f"torpedoes: range {torpedo['range']}, {can}")
    if ship.get("dead_in_the_water"):
        notes.append("dead in the water (11c1)")
    return notes


def _reach(ship: dict[str, Any]) -> dict[str, list[str]]:
    """The hexes a selected ship lights: within gun range and half range, its sectors and
    its torpedo lines (all computed by the rules; the ranges counted here on the grid)."""
    grid, here = layout(), str(ship["hex"])
    gun = ship.get("gun") or {}
    reach = int(gun.get("range") or 0)
    half = int(gun.get("half_range") or 0)
    near = [h for h in grid.hexes() if h != here and grid.distance(here, h) <= reach]
    sectors = ship.get("sectors") or {}
    return {
        "gun": near,
        "half": [h for h in near if grid.distance(here, h) <= half],
        "front": list(sectors.get("front") or []),
        "rear": list(sectors.get("rear") or []),
        "torpedo": sorted({h for line in ship.get("torpedo_lines") or [] for h in line}),
    }


def _torpedo(t: dict[str, Any]) -> Torpedo:
    grid = layout()
    x, y = grid.centre(str(t["hex"]))
    side = str(t.get("side"))
    label = (
        f"{SIDE_TITLE.get(side, side)} torpedo marker of {t.get('ship')} in {t['hex']}, "
        f"pointing {t.get('facing')} (range {t.get('range')}, 16f)"
    )
    return Torpedo(side, x, y, grid.direction_angle(str(t.get("facing"))), label)


def _surface_notes(c: dict[str, Any]) -> list[str]:
    notes = []
    sides = c.get("sides") or {}
    if sides:
        notes.append(
            f"Surface Side A: {SIDE_TITLE.get(sides['A'], sides['A'])}; Surface Side B: "
            f"{SIDE_TITLE.get(sides['B'], sides['B'])} (16d1)"
        )
    surprise = c.get("surprise") or {}
    if surprise.get("state") and surprise.get("side"):
        notes.append(f"Surprise (16k): {surprise['state']}, {SIDE_TITLE.get(surprise['side'])}")
    for side, ids in (c.get("broke_off") or {}).items():
        if ids:
            notes.append(f"Broken off ({SIDE_TITLE.get(side, side)}): " + ", ".join(ids))
    return notes


def _waiting(
    units: dict[str, Counter], ids: list[str] | None, placed: dict[str, str]
) -> list[Counter]:
    """Units of the battle not yet on the Battleboard, in setup order."""
    return [units[i] for i in ids or [] if i in units and i not in placed]


def _resolved(key: str, defender: str) -> str:
    """A bombing done in this battle ("Akagi/dive"), or an attack on a base (Bombers 4,
    "PortMoresby/base-strike"), in words: the target by its printed name."""
    target, _, category = key.partition("/")
    name = ship_name(defender, target) or CAMEL.sub(" ", target)
    if category == STRUCK:
        return f"the attack on {name} (Bombers 4)"
    return f"{CATEGORY.get(category, category)} of {name}"


# Issue 30: the steps of a battle (4, 13-16), and the lines of its setting up, left out of
# its result
BATTLE_STEPS = frozenset(
    {
        StepId.COMBAT,
        StepId.BATTLE_SETUP,
        StepId.STRIKE_ORDER,
        StepId.CAP_SETUP,
        StepId.ESCORT_SETUP,
        StepId.AIR_ATTACK_SETUP,
        StepId.AIR_COMBAT,
        StepId.BREAKTHROUGHS,
        StepId.ANTI_AIRCRAFT_COMBAT,
        StepId.BOMBING_COMBAT,
        StepId.FREE_ROLL,
        StepId.SURPRISE,
        StepId.SURFACE_SIDES,
    }
)
SET_UP = frozenset({"ships-set-up", "air-set-up", "strike-order", "step-skipped"})


@dataclass(frozen=True)
class Result:
    """A battle's result as the seat may know it: the lines of its own log, in order."""

    hex: str
    lines: list[str]


def results(lines: list[Any]) -> list[Result]:
    """Issue 30: each battle of the Turn that has ended (latest first), from the seat's own
    log lines (`app.web.events.Line`): what attacked what, the dice, the hits, what was
    lost - exactly what its log tells it (in the umpired modes, what the umpire's
    released reports told the side), never the state."""
    out: list[Result] = []
    fought: list[str] = []
    for ln in lines:
        if ln.kind == "battle-end":
            out.append(Result(_hex_of(ln.text), fought))
            fought = []
        elif (ln.step in BATTLE_STEPS or ln.step.startswith("surface")) and ln.kind not in SET_UP:
            fought.append(ln.text)
    return out[::-1]


def _hex_of(text: str) -> str:
    """The hex a "battle-end" line names ("The battle in J2 ends (4e)")."""
    words = text.split()
    return next((w for w in words if w[:1].isupper() and w[1:2].isdigit()), "")
