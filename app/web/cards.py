"""2c: both Operations Cards, open to both players - every task force area with its Ships
and Normal Strike boxes, every named ship area (and Midway's) with its Ready and Arming
boxes, capacity and launches this Turn, the units in the air, and the eliminated ones.

In a game of "Pacific Theatre Via Midway" each base unit of a side has a base area of its
own, like Midway's: its base unit, Ready, Arming and Normal Strike boxes, with the base's
printed plane capacity and AA strength (Bases 2, scenarios/theatre-bases.toml) and, when
the view says, its damage today and whether it is knocked out (Bases 3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from app.rules.engine.kept import Kept
from app.rules.expansions.ptvm.bases import RECOVERY_TIME
from app.rules.expansions.ptvm.bases import base as theatre_base
from app.web.counters import SIDE_TITLE, Counter, counters_of, sides_of
from app.web.names import printed_marker
from app.web.theatre import base_state, on_theatre


@dataclass(slots=True)
class Box:
    key: str  # "box:<side>:<area>:<box>" - a click target
    title: str
    counters: list[Counter]


@dataclass(slots=True)
class Area:
    name: str
    info: str
    boxes: list[Box]
    key: str = ""  # the task force's marker, the ship's or base's id: names its part


@dataclass(slots=True)
class Part:
    """One area of a card as the page holds it: an element of its own (`id`, stable
    while the area is on the card), sent alone when it alone changed (render.LiveRegions).
    `kind` is "force", "named" (a ship's or base's area), "flying" or "gone"."""

    id: str
    kind: str
    area: Area | None = None
    counters: list[Counter] = field(default_factory=list)


@dataclass
class Card:
    side: str
    title: str
    mine: bool
    forces: list[Area]
    ships: list[Area]
    flying: list[Counter]
    eliminated: list[Counter]

    @cached_property
    def parts(self) -> list[Part]:
        """The card's areas in the page's order, each with its element's id."""
        out = [Part("", "force", a) for a in self.forces]
        out += [Part("", "named", a) for a in self.ships]
        out.append(Part("", "flying", counters=self.flying))
        if self.eliminated:
            out.append(Part("", "gone", counters=self.eliminated))
        seen: set[str] = set()
        for p in out:
            key = p.area.key if p.area is not None else ""
            base = f"cp-{self.side}-{p.kind}" + (f"-{UNSAFE.sub('_', key)}" if key else "")
            p.id, n = base, 1
            while p.id in seen:  # two keys alike once made safe: the later one numbered
                n += 1
                p.id = f"{base}-{n}"
            seen.add(p.id)
        return out


UNSAFE = re.compile(r"[^A-Za-z0-9_-]")  # what an element's id here is not made of


def number(x: float) -> str:
    """4, or 3½ (12b1: some units count half a launch)."""
    whole, part = divmod(float(x), 1)
    return f"{int(whole)}" + ("½" if part else "") if whole or not part else "½"


def _pick(units: dict[str, Counter], ids: list[str] | None) -> list[Counter]:
    return [units[i] for i in ids or [] if i in units]


# 2c NOTE: the Basic Game does not use the Max. Strike, High CAP and Low CAP boxes; they
# are shown when an optional rule is on, or when something is in them.
OPTIONAL_BOXES = (("max_strike", "Max. Strike"), ("high_cap", "High CAP"), ("low_cap", "Low CAP"))


def _force(side: str, f: dict[str, Any], units: dict[str, Counter], optional: bool) -> Area:
    marker = f["force"]
    boxes = [
        Box(f"box:{side}:{marker}:ships", "Ships", _pick(units, f.get("ships"))),
        Box(f"box:{side}:{marker}:strike", "Normal Strike", _pick(units, f.get("strike"))),
    ]
    for key, title in OPTIONAL_BOXES:
        if key in f and (optional or f[key]):
            boxes.append(Box(f"box:{side}:{marker}:{key}", title, _pick(units, f[key])))
    printed = printed_marker(str(f["label"]))
    return Area(
        name=f["label"],
        info="" if printed == f["label"] else f"marker {printed}",
        boxes=boxes,
        key=str(marker),
    )


def _base_info(
    view: dict[str, Any], name: str, aboard: int, planes: int | None = None
) -> str | None:
    """A theatre base's printed values (Bases 2) and its state today (Bases 3), or None
    when the game's scenario lists no such base (theatre-bases.toml)."""
    scenario = str((view.get("scenario") or {}).get("id") or "")
    try:
        spec = theatre_base(scenario, name)
    except KeyError:
        return None
    capacity = "unlimited" if spec.capacity is None else f"{spec.capacity} planes"
    units = "air unit" if aboard == 1 else "air units"
    info = f"{aboard} {units} aboard" + ("" if planes is None else f" ({planes} planes)")
    info += f"; capacity {capacity}"
    info += f", AA {spec.aa}" if spec.aa else ", no AA"
    if spec.prohibited:
        info += f", may not accept {' or '.join(sorted(spec.prohibited))}"
    if spec.bomber_readying is not None:
        turns = "Turn" if spec.bomber_readying == 1 else "Turns"
        info += f", bombers ready {spec.bomber_readying} {turns} after landing (Bombers 8)"
    elif "B" not in spec.prohibited:
        info += ", bombers never ready here (Bombers 8)"
    if spec.zone is None:
        info += ", off the board"
    damage, knocked_out = base_state(view, name)
    if knocked_out:
        info += f"; knocked out till {RECOVERY_TIME} (Bases 3)"
    elif damage:
        info += f"; {damage} hits today (Bases 3)"
    return info


def _base_area(
    view: dict[str, Any], side: str, c: dict[str, Any], units: dict[str, Counter], aboard: int
) -> Area:
    """A theatre base unit's area: its name, the base unit, Ready, Arming, Normal Strike."""
    cid = c["id"]
    name = str(c.get("name") or cid)
    card = (view.get("operations_cards") or {}).get(side) or {}
    strike = ((card.get("base_strikes") or {}).get(cid)) or []
    info = (
        _base_info(view, name, aboard, c.get("planes")) or f"capacity {aboard}/{c.get('capacity')}"
    )
    if c.get("launch") is not None:
        info += f", launched {number(c.get('launched') or 0)} of {c['launch']} this Turn"
    return Area(
        name=f"{name} base area",
        info=info,
        boxes=[
            Box(f"box:{side}:{cid}:base", "Base unit", _pick(units, [cid])),
            Box(f"box:{side}:{cid}:ready", "Ready", _pick(units, c.get("ready"))),
            Box(f"box:{side}:{cid}:arming", "Arming", _pick(units, c.get("arming"))),
            Box(f"box:{side}:{cid}:strike", "Normal Strike", _pick(units, strike)),
        ],
        key=str(cid),
    )


def _carrier(
    side: str,
    c: dict[str, Any],
    units: dict[str, Counter],
    card: dict[str, Any],
    view: dict[str, Any] | None = None,
) -> Area:
    cid = c["id"]
    aboard = len(c.get("ready") or []) + len(c.get("arming") or [])
    unit = units.get(cid)
    if cid != "Midway" and unit is not None and unit.type == "base":
        return _base_area(view or {}, side, c, units, aboard)
    launch = c.get("launch")
    info = f"capacity {aboard}/{c.get('capacity')}"
    if c.get("planes") is not None:  # Carrier Capacity: the expansion counts planes
        info = f"{c['planes']} of {c.get('planes_capacity')} planes aboard"
    if launch is not None:
        info += f", launched {number(c.get('launched') or 0)} of {launch} this Turn"
    boxes = [
        Box(f"box:{side}:{cid}:ready", "Ready", _pick(units, c.get("ready"))),
        Box(f"box:{side}:{cid}:arming", "Arming", _pick(units, c.get("arming"))),
    ]
    name = str(c.get("name") or cid)
    if cid == "Midway":
        name = "Midway base area"
        boxes.insert(0, Box(f"box:{side}:Midway:base", "Base unit", _pick(units, ["Midway"])))
        strike = _pick(units, card.get("midway_strike"))
        boxes.append(Box(f"box:{side}:Midway:strike", "Normal Strike", strike))
    return Area(name=name, info=info, boxes=boxes, key=str(cid))


# 2c: the cards made lately, by what each was made from, the least recently used dropped
# first beyond CARDS_KEPT (every live game's two, which its pages hold anyway while they show them).
CARDS_KEPT = 4096
_MADE: Kept[tuple[Any, ...], tuple[Any, Card]] = Kept(CARDS_KEPT)


def card(view: dict[str, Any], side: str, seat: str) -> Card:
    """A side's card as the seat sees it; the very card made before when the view holds
    the same Operations Cards (the engine shares a card's dict while nothing on it
    changed: one object, one card as it is) for the same side, seat and scenario. The
    key holds the card's id; the entry keeps it alive, so no id is another object's
    while it is kept. On the theatre map a card is made every time: a base's area
    reads its damage today from either card (Bases 3), and the engine makes those
    cards anew for every view."""
    if on_theatre(view):  # a base's area reads its damage today from either card
        return _make_card(view, side, seat)
    held = (view.get("operations_cards") or {}).get(side)
    scenario = str((view.get("scenario") or {}).get("id") or "")
    key = (side, side == seat, bool(view.get("options")), scenario, id(held))
    kept = _MADE.get(key)
    if kept is not None:
        return kept[1]
    return _MADE.put(key, (held, _make_card(view, side, seat)))[1]


def _make_card(view: dict[str, Any], side: str, seat: str) -> Card:
    data: dict[str, Any] = (view.get("operations_cards") or {}).get(side) or {}
    units = counters_of(view, side)
    return Card(
        side=side,
        title=f"{SIDE_TITLE.get(side, side)} Operations Card",
        mine=side == seat,
        forces=[
            _force(side, f, units, bool(view.get("options"))) for f in data.get("forces") or []
        ],
        ships=[_carrier(side, c, units, data, view) for c in data.get("carriers") or []],
        flying=_pick(units, data.get("flying")),
        eliminated=[u for u in units.values() if u.eliminated],
    )


def cards(view: dict[str, Any], seat: str) -> list[Card]:
    """Both cards, the seat's own first."""
    sides = [s for s in sides_of(view) if s in (view.get("operations_cards") or {})]
    sides.sort(key=lambda s: s != seat)
    return [card(view, s, seat) for s in sides]
