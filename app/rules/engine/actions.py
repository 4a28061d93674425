"""Actions: small frozen values, one click each, with a text form that parses back.

An action is a kind and the values of that kind's fields, in a fixed order:
`Action("launch", ("B5",))` is `{"kind": "launch", "unit": "B5"}` in JSON and
"launch B5" in text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.engine.errors import ActionParseError

# Every kind of action and its fields, in order.
FIELDS: dict[str, tuple[str, ...]] = {
    "done": (),
    "place": ("force", "hex"),  # 7a2.2 setup
    "commit": ("force",),  # 7c4.2: note secretly that an optional force will enter
    "withhold": ("force",),  # 7c4.2: ... or that it will not be used
    "assign": ("force", "command"),  # 17a: a force chosen at setup goes to one player
    "overall": ("command",),  # 17c1: the side names its overall commander
    "flagship": ("ship",),  # 17c2: a player names his flagship
    "sortie": ("unit", "hex"),  # 7c4.4: scout O enters at an "M" hex
    "ready": ("unit",),  # 3b, 7a2.3: Arming -> Ready
    "arm": ("unit",),  # 3b, 7a2.3: Ready -> Arming
    "launch": ("unit",),  # 3a
    "max-strike": ("unit",),  # 12b2.3: a maximum launch unit to the Max. Strike box
    "cap": ("unit", "level"),  # 14: a fighter takes off to the High or Low CAP box
    "create": ("unit", "scouts"),  # 15c1: mark a parent with 1 or 2 hits for 1 or 2 scouts
    "move": ("force", "hex"),  # 3c
    "enter": ("force", "hex"),  # 3c entries by scenario
    "exit": ("force",),  # 2e: leave the Searchboard
    "tow-out": ("ship", "tower"),  # 12a4.3: a towed ship and its tower exit, uneliminated
    "scuttle": ("ship",),  # 11c3
    "fly": ("group", "hex"),  # 3d1, 3d2
    "combine": ("group", "into"),  # 13a2: two air strikes become one
    "search": ("hex",),  # 3d3
    "circle": ("hex", "factors"),  # 15a1.1: search, expending more movement factors for +2 each
    "report": ("ships",),  # 15a1.2: the number of ships the owner states
    "sea-search": ("hex",),  # 3d5
    "battle": ("hex",),  # 4: Side A orders the battles
    "face": ("direction",),  # 4a2 common facing
    "position": ("unit", "hex"),  # 4a2 ship setup
    "formation": (),  # 4a2: the remaining ships in a standard ring
    "target": ("unit", "target"),  # 4a3.1 stacked on the target
    "approach": ("unit", "target", "hex"),  # 4a3.2 torpedo bomber adjacent, facing it
    "dogfight": ("unit", "target"),  # 14a2, 14a3: a fighter faces an enemy fighter
    "strafe": ("unit", "target", "hex"),  # 14f: an escort set up next to a ship, facing it
    "hold": ("unit",),  # 14a, 14c, 14e3: a fighter kept out of combat
    "attack": ("unit",),  # 14c: an individual air combat, against this unit
    "intercept": ("unit", "target"),  # 14e1: a breakthrough CAP fighter faces an enemy unit
    "aa": ("ship", "unit"),  # 4c: add a ship's AA factor against an air unit
    "fire": (),  # 4c: resolve the anti-aircraft combat
    "cancel": (),  # 4c: drop the anti-aircraft combat being formed
    "bomb": ("target", "category"),  # 4d2
    "reroll": (),  # 11a: use the free roll marker on this combat
    "accept": (),  # 11a: keep the dice as rolled
    "transfer": ("ship", "force"),  # 4e1 reorganisation
    "submarine": ("force", "ship"),  # 11e2
    "land": ("unit", "at"),  # 5a
    "stage": ("unit", "at"),  # 12c2: fly to another ship or base in the Ready Step
    "patrol": ("unit",),  # 12d1: a PATROL scout stays flying
    "shadow": ("unit", "force"),  # 12d2: a patrolling scout follows an enemy task force
    "radio": ("to", "text"),  # 17c3: a message to a teammate, written at the Turn's start
}

MAX_VALUE_LENGTH = 40
# Fields a player writes rather than picks: the last field of their kind, any words up to
# MAX_TEXT_LENGTH. `legal_actions` offers such an action as a template with the field
# blank (""); the player's action is legal when its template is offered (`template`).
TEXT_FIELDS = frozenset({"text"})
MAX_TEXT_LENGTH = 500


def add_kinds(kinds: dict[str, tuple[str, ...]]) -> None:
    """Register the action kinds of an optional rule's module; a name is never reused."""
    for kind, fields in kinds.items():
        if FIELDS.get(kind, fields) != fields:
            raise ValueError(f"action kind {kind!r} is already {FIELDS[kind]}")
        FIELDS[kind] = fields


@dataclass(frozen=True, slots=True, order=True)
class Action:
    kind: str
    values: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        fields = FIELDS.get(self.kind)
        if fields is None:
            raise ActionParseError(f"unknown action kind {self.kind!r}")
        if len(fields) != len(self.values):
            raise ActionParseError(f"action {self.kind!r} takes fields {list(fields)}")

    def get(self, name: str) -> str:
        return self.values[FIELDS[self.kind].index(name)]

    @property
    def template(self) -> Action:
        """The action with its written fields blank: what `legal_actions` offers."""
        fields = FIELDS[self.kind]
        if not TEXT_FIELDS.intersection(fields):
            return self
        blank = tuple(
            "" if f in TEXT_FIELDS else v for f, v in zip(fields, self.values, strict=True)
        )
        return Action(self.kind, blank)

    @property
    def is_written(self) -> bool:
        """Whether every written field holds text (a template's are blank)."""
        fields = FIELDS[self.kind]
        return all(v.strip() for f, v in zip(fields, self.values, strict=True) if f in TEXT_FIELDS)

    def written(self, **texts: str) -> Action:
        """The template with its written fields filled in."""
        fields = FIELDS[self.kind]
        return Action(
            self.kind, tuple(texts.get(f, v) for f, v in zip(fields, self.values, strict=True))
        )

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind}
        out.update(zip(FIELDS[self.kind], self.values, strict=True))
        return out

    def text(self) -> str:
        return " ".join((self.kind, *self.values))

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def from_text(cls, text: str) -> Action:
        parts = text.split()
        if not parts:
            raise ActionParseError("empty action text")
        fields = FIELDS.get(parts[0], ())
        if fields and fields[-1] in TEXT_FIELDS:  # the written field takes the rest
            head = len(fields)
            return cls(parts[0], (*parts[1:head], " ".join(parts[head:])))
        return cls(parts[0], tuple(parts[1:]))

    @classmethod
    def from_json(cls, obj: Any) -> Action:
        if not isinstance(obj, dict):
            raise ActionParseError("an action is a JSON object with a 'kind'")
        kind = obj.get("kind")
        if not isinstance(kind, str) or kind not in FIELDS:
            raise ActionParseError(f"unknown action kind {kind!r}; known: {sorted(FIELDS)}")
        fields = FIELDS[kind]
        extra = set(obj) - {"kind", *fields}
        missing = [f for f in fields if f not in obj]
        if extra or missing:
            raise ActionParseError(
                f"action {kind!r} takes exactly the fields {list(fields)}"
                + (f"; unknown: {sorted(map(str, extra))}" if extra else "")
                + (f"; missing: {missing}" if missing else "")
            )
        values = []
        for f in fields:
            v = obj[f]
            if f in TEXT_FIELDS:
                values.append(_written(kind, f, v))
                continue
            if not isinstance(v, str) or not v or len(v) > MAX_VALUE_LENGTH or " " in v:
                raise ActionParseError(f"field {f!r} of {kind!r} must be a short word, got {v!r}")
            values.append(v)
        return cls(kind, tuple(values))


def _written(kind: str, name: str, value: object) -> str:
    """A written field: printable words (lines kept), trimmed, 1 to MAX_TEXT_LENGTH long."""
    if not isinstance(value, str):
        raise ActionParseError(f"field {name!r} of {kind!r} is text, got {type(value).__name__}")
    text = "\n".join(" ".join(line.split()) for line in value.strip().splitlines())
    if not text.strip():
        raise ActionParseError(f"field {name!r} of {kind!r} is empty: write something")
    if len(text) > MAX_TEXT_LENGTH:
        raise ActionParseError(
            f"field {name!r} of {kind!r} is {len(text)} characters long; at most {MAX_TEXT_LENGTH}"
        )
    if not text.replace("\n", "").isprintable():
        raise ActionParseError(f"field {name!r} of {kind!r} holds characters that do not print")
    return text


DONE = Action("done")
