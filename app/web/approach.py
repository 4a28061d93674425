"""4d3: what each torpedo approach hex (4a3.2) will do to the bombing combat, shown on the
Battleboard before the attacker commits: dead ahead or astern of the target is threading
(4d3.2), a bow is half of an anvil (4d3.1), which the other bow completes. Built from the
seat's view (the battle's facing, positions and approach hexes, and its legal actions);
the numbers are the engine's own."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.base.air_attack import AHEAD, ANVIL, ASTERN, PORT_BOW, STARBOARD_BOW, THREADING
from app.rules.board.boards import battleboard
from app.rules.board.grid import DIRECTIONS
from app.web.counters import unit_key
from app.web.geometry import Layout

BOWS = {STARBOARD_BOW: "starboard bow", PORT_BOW: "port bow"}


@dataclass(frozen=True)
class Approach:
    key: str  # the air unit's counter key: shown while it is selected
    hex: str
    x: float
    y: float
    short: str  # on the hex: "+3", "-2", "bow", "0"
    words: str  # what it means, with the rule


def relative(b: dict[str, Any], target: str, from_hex: str) -> int | None:
    """The hexside of the target's hex that `from_hex` lies across, counted clockwise from
    the way the ships face (0 ahead, 1 starboard bow, 3 astern, 5 port bow)."""
    at, facing = (b.get("positions") or {}).get(target), b.get("facing")
    if at is None or facing not in DIRECTIONS:
        return None
    d = battleboard().direction(at, from_hex) if battleboard().contains(at) else None
    return None if d is None else (d - DIRECTIONS.index(facing)) % 6


def _other_bows(b: dict[str, Any], unit: str, target: str) -> dict[int, str]:
    """The bows other torpedo units already come in on against `target`."""
    out: dict[int, str] = {}
    for other, h in (b.get("air_hexes") or {}).items():
        if other != unit and (b.get("targets") or {}).get(other) == target:
            rel = relative(b, target, h)
            if rel in BOWS:
                out[rel] = other
    return out


def note(b: dict[str, Any], unit: str, target: str, from_hex: str) -> tuple[str, str]:
    rel = relative(b, target, from_hex)
    if rel in (AHEAD, ASTERN):
        where = "dead ahead" if rel == AHEAD else "dead astern"
        return f"{THREADING:+d}", f"{where}: threading, {THREADING:+d} (4d3.2)"
    if rel in BOWS:
        other_bow = STARBOARD_BOW if rel == PORT_BOW else PORT_BOW
        partner = _other_bows(b, unit, target).get(other_bow)
        if partner:
            return f"{ANVIL:+d}", f"{BOWS[rel]}, {partner} on the other: anvil, {ANVIL:+d} (4d3.1)"
        return "bow", f"{BOWS[rel]}: anvil {ANVIL:+d} if another comes in on the other bow (4d3.1)"
    return "0", "a quarter: no modifier (4d3)"


def approaches(view: dict[str, Any], grid: Layout) -> list[Approach]:
    """One note per approach hex the seat may choose now, for the unit it would move; a hex
    next to two targets says what it does against each."""
    b = view.get("battle") or {}
    attacker = str(b.get("attacker"))
    found: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    for a in (view.get("prompt") or {}).get("actions") or []:
        if a.get("kind") == "approach" and grid.contains(str(a.get("hex"))):
            short, words = note(b, a["unit"], a["target"], a["hex"])
            found.setdefault((unit_key(attacker, a["unit"]), a["hex"]), []).append(
                (a["target"], short, words)
            )
    out = []
    for (key, h), notes in found.items():
        x, y = grid.centre(h)
        if len(notes) == 1:
            short, words = notes[0][1], notes[0][2]
        else:
            short = "/".join(n[1] for n in notes)
            words = "; ".join(f"against {t}, {w}" for t, _, w in notes)
        out.append(Approach(key, h, x, y, short, words))
    return out
