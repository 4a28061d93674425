"""The one place that names things for people: a task force by its name ("Mobile Force",
"Task Force 16"), a ship by its name, a scout with its ship ("Scout M, Enterprise"), an
air strike by where it comes from ("the strike from Akagi/Kaga").

The names are data: a task force's label and the carrier (or AV, or base) each air unit
starts on are in the scenario's Setup Information (scenarios/scenario-*.toml, 7a2.3), a
ship's name in scenarios/units.toml. A scout made during play (15c) is named with the
carrier it is on now, as the seat's view shows it; nothing else is read from the view.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, cached_property
from typing import Any

from app.data import catalog

SCOUT = "S"  # the scout type (1b1)


@cache
def homes(scenario: str) -> dict[tuple[str, str], str]:
    """(side, air unit) -> the id of the carrier, AV or base it starts on (7a2.3)."""
    spec = catalog().scenarios.get(scenario)
    if spec is None:
        return {}
    return {
        (f.side, uid.split(" ")[0]): carrier
        for f in spec.forces
        for carrier, ids in f.air
        for uid in ids
    }


@cache
def force_labels(scenario: str) -> dict[str, str]:
    """Task force marker -> its name in the scenario's Setup Information."""
    spec = catalog().scenarios.get(scenario)
    return {} if spec is None else {f.marker: f.label for f in spec.forces}


# the rules engine's refusal of an action names it in the actions' syntax first
TRIED = re.compile(r"^'[^']*' is not legal now: ")


@cache
def _markers(scenario: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    labels = force_labels(scenario)
    if not labels:
        return None
    words = "|".join(re.escape(m) for m in sorted(labels, key=len, reverse=True))
    return re.compile(rf"\b({words})\b"), labels


def in_words(scenario: str, text: str) -> str:
    """A refusal as a player reads it: without the action's syntax in front of its reason
    ("'move InvasionForce C3B' is not legal now: ..."), each task force by its name."""
    text = TRIED.sub("", text)
    found = _markers(scenario)
    if found is not None:
        pattern, labels = found
        text = pattern.sub(lambda m: labels[m.group(1)], text)
    return text[:1].upper() + text[1:]


def ship_name(side: str, uid: str) -> str | None:
    key: Any = (side, uid)  # a side as the view writes it
    rec = catalog().ships.get(key)
    return None if rec is None else rec.name


def is_scout(side: str, uid: str) -> bool:
    key: Any = (side, uid)
    rec = catalog().air.get(key)
    return rec is not None and rec.type == SCOUT


def printed_marker(name: str) -> str:
    """A task force as its marker on the Searchboard prints it: "TF 16", "Mobile Force"
    (the counter says "US TF" above it, so "Task Force" is short there)."""
    return "TF " + name.removeprefix("Task Force ") if name.startswith("Task Force ") else name


class Names:
    """Names for one seat's page: the scenario's, and where its view puts air units."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.scenario = str((view.get("scenario") or {}).get("id") or "")
        self.forces = dict(force_labels(self.scenario))
        self._cards: dict[str, Any] = view.get("operations_cards") or {}
        for card in self._cards.values():
            for f in card.get("forces") or []:
                self.forces.setdefault(f["force"], f["label"])

    @cached_property
    def aboard(self) -> dict[tuple[str, str], str]:
        """(side, air unit) -> the carrier it is on now (drawn up when first asked)."""
        out: dict[tuple[str, str], str] = {}
        for side, card in self._cards.items():
            for c in card.get("carriers") or []:
                for uid in [*(c.get("ready") or []), *(c.get("arming") or [])]:
                    out[(side, uid)] = c["id"]
        return out

    def force(self, marker: str) -> str:
        return self.forces.get(marker, marker)

    def marker(self, marker: str) -> str:
        return printed_marker(self.force(marker))

    def home(self, side: str, uid: str) -> str | None:
        """The ship (or base) an air unit belongs to, by name."""
        carrier = homes(self.scenario).get((side, uid)) or self.aboard.get((side, uid))
        return None if carrier is None else ship_name(side, carrier) or carrier

    def unit(self, side: str, uid: str) -> str:
        """A ship by its name, a scout with its ship, an air combat unit by its counter."""
        name = ship_name(side, uid)
        if name is not None:
            return name
        if is_scout(side, uid):
            home = self.home(side, uid)
            return f"Scout {uid}, {home}" if home else f"Scout {uid}"
        return uid

    def strike(self, side: str, members: Iterable[str]) -> str:
        """An air strike (3d2) by where its units come from; a lone scout by its name."""
        ids = list(members)
        if len(ids) == 1 and is_scout(side, ids[0]):
            return self.unit(side, ids[0])
        origins: list[str] = []
        for uid in ids:
            home = self.home(side, uid)
            if home and home not in origins:
                origins.append(home)
        return f"the strike from {'/'.join(origins)}" if origins else "the strike"
