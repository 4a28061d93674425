"""1b1: a counter as the page draws it - side, type, current factors, face and hit markers.

Built from a unit of the seat's view (`operations_cards[side].units[id]`), never from the
game state. Colour is never the only signal: every counter also says "US" or "IJN".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from app.data import catalog
from app.data.records import AirFace, ShipFace, Side
from app.rules.engine.kept import Kept

SIDE_LABEL = {"usa": "US", "japan": "IJN"}
SIDE_NAME = {"usa": "American", "japan": "Japanese"}
SIDE_TITLE = {"usa": "United States", "japan": "Japan"}

AIR_TYPES = {
    "D": "dive bomber",
    "F": "fighter",
    "H": "heavy bomber",
    "M": "medium bomber",
    "S": "scout",
    "T": "torpedo bomber",
}
SHIP_TYPES = {
    "CV": "aircraft carrier",
    "CVL": "light aircraft carrier",
    "AV": "seaplane tender",
    "BB": "battleship",
    "CA": "heavy cruiser",
    "CL": "light cruiser",
    "DD": "destroyers",
    "AP": "transports",
    "base": "base",
}


def sides_of(view: dict[str, Any]) -> list[str]:
    """The game's sides, in the engine's order: those of the seats its view lists."""
    out: list[str] = []
    for seat in view.get("seats") or []:
        if seat.get("side") is None:
            continue  # 18: the umpire's seat plays no side
        side = str(seat.get("side"))
        if side not in out:
            out.append(side)
    return out


def opponents(view: dict[str, Any]) -> dict[str, str]:
    """Each side's enemy, for a game of two sides (from the view, never a list kept here)."""
    sides = sides_of(view)
    return {a: b for a in sides for b in sides if a != b} if len(sides) == 2 else {}


def unit_key(side: str, uid: str) -> str:
    return f"u:{side}:{uid}"


@dataclass(frozen=True, slots=True)
class Factor:
    """One number of a counter as printed (1b1), with the letter it carries (3c, 1d)."""

    key: str  # "defense", "surface", "movement", "torpedo", "aa", "air_combat", "bombing"
    abbr: str  # what the counter prints under it
    value: str  # "3c", "5", "–"


@dataclass(frozen=True, slots=True)
class Counter:
    key: str
    side: str
    id: str
    name: str
    air: bool
    type: str
    factors: tuple[tuple[str, str], ...]  # (abbreviation, value) now, after hit markers (4b5)
    back: bool
    hits: int
    eliminated: bool
    printed: tuple[Factor, ...] = ()  # as printed on the side up (1b1), before hit markers
    basing: str = ""  # air units: the basing colour (5a1)
    back_label: str = ""  # the back of a unit with no reduced side: "ELIM", "PATROL", ...

    @property
    def side_label(self) -> str:
        return SIDE_LABEL.get(self.side, self.side)

    @property
    def type_name(self) -> str:
        names = AIR_TYPES if self.air else SHIP_TYPES
        return names.get(self.type, self.type)

    @property
    def status(self) -> str:
        parts = []
        if self.back:
            parts.append("back side up")
        if self.marker:
            parts.append(self.marker)
        if self.eliminated:
            return "sunk" if not self.air and self.type != "base" else "destroyed"
        return ", ".join(parts)

    @property
    def marker(self) -> str:
        """The hit marker on the counter (4b5): "1 hit", "2 hits"; none once eliminated."""
        if not self.hits or self.eliminated:
            return ""
        return "1 hit" if self.hits == 1 else f"{self.hits} hits"

    @property
    def label(self) -> str:
        """What a screen reader says, and the tooltip: the printed factors (1b1), then
        the hit markers and the factors they leave (4b5)."""
        kind = "air unit" if self.air else "ship" if self.type != "base" else "base"
        shown = self.printed or tuple(Factor(a, a, v) for a, v in self.factors)
        factors = ", ".join(f"{_LONG.get(f.key, f.key)} {f.value}" for f in shown)
        if self.basing:
            factors += f", basing {self.basing}"
        status = f"; {self.status}" if self.status else ""
        if self.hits and not self.eliminated:
            now = ", ".join(f"{_LONG[a]} {v}" for a, v in self.factors)
            status += f" (now {now})"
        name = self.name if self.name == self.id else f"{self.name} ({self.id})"
        side = SIDE_NAME.get(self.side, self.side)
        return f"{side} {kind} {name}, {self.type_name}: {factors}{status}"

    @property
    def short(self) -> str:
        return self.id if self.air else self.name


_LONG = {
    "defense": "defense",
    "surface": "surface",
    "movement": "movement",
    "torpedo": "torpedo",
    "aa": "anti-aircraft",
    "air_combat": "air combat",
    "bombing": "bombing",
    "D": "defense",
    "AA": "anti-aircraft",
    "B": "bombing",
    "M": "movement",
    "AC": "air combat",
    "L": "launch",
}


def _value(v: object) -> str:
    return "–" if v is None else str(v)


def _lettered(v: int | None, letter: str | None) -> str:
    return "–" if v is None else f"{v}{letter or ''}"


def ship_factors(f: ShipFace) -> tuple[Factor, ...]:
    """1b1: a ship or base unit's defense (armour letter), surface (gun letter), movement,
    torpedo and anti-aircraft factors, in the order the counter prints them."""
    return (
        Factor("defense", "def", _lettered(f.defense, f.armour)),
        Factor("surface", "sur", _lettered(f.surface, f.gun)),
        Factor("movement", "mv", _value(f.movement)),
        Factor("torpedo", "tor", _value(f.torpedo)),
        Factor("aa", "AA", _value(f.aa)),
    )


def air_factors(f: AirFace) -> tuple[Factor, ...]:
    """1b1: an air unit's defense, air combat, movement and bombing factors."""
    return (
        Factor("defense", "def", _value(f.defense)),
        Factor("air_combat", "ac", _value(f.air_combat)),
        Factor("movement", "mv", _value(f.movement)),
        Factor("bombing", "bmb", _value(f.bombing)),
    )


def printed(side: str, uid: str, air: bool, back: bool) -> tuple[tuple[Factor, ...], str]:
    """The factors printed on the side up of a counter, from scenarios/units.toml (both
    faces are public: 1b1), and the label of a back that has no factors ("ELIM")."""
    key = (cast(Side, side), uid)
    if air:
        plane = catalog().air.get(key)
        if plane is None:
            return (), ""
        face = plane.back if back else plane.front
        return (air_factors(face), "") if face else ((), plane.back_label)
    ship = catalog().ships.get(key)
    if ship is None:
        return (), ""
    hull = ship.back if back else ship.front
    return (ship_factors(hull), "") if hull else ((), "ELIM")


# the counters made lately, by the unit's dict they were made from (the engine shares a
# unit's dict between views and states while the unit shows alike), the least recently
# used dropped first beyond UNITS_KEPT; each entry keeps its dict alive, so no id is another's
UNITS_KEPT = 8192
_BY_UNIT: Kept[int, tuple[dict[str, Any], Counter]] = Kept(UNITS_KEPT)


def counter(unit: dict[str, Any]) -> Counter:
    """A counter for one unit of a view's Operations Card (or its eliminated list): the
    one made before from the very same dict (read only, as the view's values are)."""
    kept = _BY_UNIT.get(id(unit))
    if kept is not None and kept[0] is unit:
        return kept[1]
    return _BY_UNIT.put(id(unit), (unit, _unit_counter(unit)))[1]


def _unit_counter(unit: dict[str, Any]) -> Counter:
    f: dict[str, Any] = unit.get("factors") or {}
    return _counter(
        str(unit.get("side", "")),
        str(unit["id"]),
        str(unit.get("name") or unit["id"]),
        "basing" in unit,
        str(unit.get("type", "")),
        tuple(_value(f.get(k)) for k in ("defense", "bombing", "movement", "aa")),
        unit.get("face") == "back",
        int(unit.get("hits") or 0),
        bool(unit.get("eliminated")),
        str(unit.get("basing") or ""),
    )


@lru_cache(maxsize=8192)
def _counter(
    side: str,
    uid: str,
    name: str,
    air: bool,
    type_: str,
    values: tuple[str, str, str, str],  # defense, bombing, movement, AA now
    back: bool,
    hits: int,
    eliminated: bool,
    basing: str,
) -> Counter:
    """Counters are values: the page draws every unit of both cards on each render, and
    a unit's counter changes only with its face, hits or factors."""
    defense, bombing, movement, aa = values
    factors = (
        (("D", defense), ("B", bombing), ("M", movement)) if air else (("D", defense), ("AA", aa))
    )
    shown, back_label = printed(side, uid, air, back)
    return Counter(
        key=unit_key(side, uid),
        side=side,
        id=uid,
        name=name,
        air=air,
        type=type_,
        factors=factors,
        back=back,
        hits=hits,
        eliminated=eliminated,
        printed=shown,
        basing=basing,
        back_label=back_label,
    )


def counters_of(view: dict[str, Any], side: str) -> dict[str, Counter]:
    """Every counter of `side` in the view, eliminated ones included."""
    card: dict[str, Any] = (view.get("operations_cards") or {}).get(side) or {}
    out = {uid: counter(u) for uid, u in (card.get("units") or {}).items()}
    for u in card.get("eliminated") or []:
        out.setdefault(
            str(u["id"]), counter(u if u.get("eliminated") else {**u, "eliminated": True})
        )
    return out
