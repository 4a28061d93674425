"""1b1: a counter as the page draws it - side, type, current factors, face and hit markers.

Built from a unit of the seat's view (`operations_cards[side].units[id]`), never from the
game state. Colour is never the only signal: every counter also says "US" or "IJN".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class Counter:
    key: str
    side: str
    id: str
    name: str
    air: bool
    type: str
    factors: tuple[tuple[str, str], ...]  # (abbreviation, value), as printed on the side up
    back: bool
    hits: int
    eliminated: bool

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
        if self.hits:
            parts.append("1 hit" if self.hits == 1 else f"{self.hits} hits")
        if self.eliminated:
            parts.append("eliminated")
        return ", ".join(parts)

    @property
    def label(self) -> str:
        """What a screen reader says, and the tooltip."""
        kind = "air unit" if self.air else "ship" if self.type != "base" else "base"
        factors = ", ".join(f"{_LONG[a]} {v}" for a, v in self.factors)
        status = f"; {self.status}" if self.status else ""
        name = self.name if self.name == self.id else f"{self.name} ({self.id})"
        side = SIDE_NAME.get(self.side, self.side)
        return f"{side} {kind} {name}, {self.type_name}: {factors}{status}"

    @property
    def short(self) -> str:
        return self.id if self.air else self.name


_LONG = {
    "D": "defense",
    "AA": "anti-aircraft",
    "B": "bombing",
    "M": "movement",
    "AC": "air combat",
    "L": "launch",
}


def _value(v: object) -> str:
    return "–" if v is None else str(v)


def counter(unit: dict[str, Any]) -> Counter:
    """A counter for one unit of a view's Operations Card (or its eliminated list)."""
    side, air = str(unit.get("side", "")), "basing" in unit
    f: dict[str, Any] = unit.get("factors") or {}
    factors: tuple[tuple[str, str], ...]
    if air:
        factors = (
            ("D", _value(f.get("defense"))),
            ("B", _value(f.get("bombing"))),
            ("M", _value(f.get("movement"))),
        )
    else:
        factors = (("D", _value(f.get("defense"))), ("AA", _value(f.get("aa"))))
    return Counter(
        key=unit_key(side, str(unit["id"])),
        side=side,
        id=str(unit["id"]),
        name=str(unit.get("name") or unit["id"]),
        air=air,
        type=str(unit.get("type", "")),
        factors=factors,
        back=unit.get("face") == "back",
        hits=int(unit.get("hits") or 0),
        eliminated=bool(unit.get("eliminated")),
    )


def counters_of(view: dict[str, Any], side: str) -> dict[str, Counter]:
    """Every counter of `side` in the view, eliminated ones included."""
    card: dict[str, Any] = (view.get("operations_cards") or {}).get(side) or {}
    out = {uid: counter(u) for uid, u in (card.get("units") or {}).items()}
    for u in card.get("eliminated") or []:
        out.setdefault(str(u["id"]), counter({**u, "eliminated": True}))
    return out
