"""The prompt's legal actions as clicks: a counter to pick first, then a hex or a box.

Each action of `view.prompt.actions` becomes one `Choice`: the JSON posted back (exactly
the action the prompt lists), words for people, the key of the counter it belongs to
(`subject`) and the key of the hex, box or counter that completes it (`target`). Actions
with no counter (Done, Fire, a search of a hex, ...) are offered directly. Kinds this page
does not know yet are offered directly too, by their text form, so a new rule never
leaves a player stuck.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from json.encoder import encode_basestring_ascii as _json_str
from typing import Any

from app.rules.engine.kept import Kept
from app.web import theatre
from app.web.counters import SIDE_TITLE, opponents, unit_key
from app.web.geometry import ahead
from app.web.names import Names

CATEGORY = {
    "dive": "dive bombing",
    "high": "high level bombing",
    "medium": "medium level bombing",
    "torpedo": "torpedo bombing",
}


@dataclass(frozen=True)
class Choice:
    action: dict[str, str]
    label: str
    subject: str | None = None
    target: str | None = None

    @property
    def value(self) -> str:
        return action_value(self.action)


def action_value(action: dict[str, str]) -> str:
    """The action as the form posts it back: `json.dumps(action, separators=(",", ":"))`,
    written directly when every key and value is a string (an action of the engine's
    always is), each string escaped by the encoder json.dumps itself uses."""
    parts = []
    for k, v in action.items():
        if type(k) is not str or type(v) is not str:
            return json.dumps(action, separators=(",", ":"))
        parts.append(f"{_json_str(k)}:{_json_str(v)}")
    return "{" + ",".join(parts) + "}"


@dataclass(frozen=True)
class Subject:
    key: str
    label: str


class Namer:
    """Names for the things actions mention, from the seat's view. The view's parts it
    answers from are taken when it is made (so what it read is noted then, ViewReads);
    each table is drawn up from them when first asked (a prompt of task forces to place
    asks none of the air units' tables, and the Searchboard and the log share the Namer)."""

    def __init__(self, view: dict[str, Any], side: str) -> None:
        self.me = side
        self.other = opponents(view)
        self.seats: dict[str, str] = {  # 17a: a team game's players by their commands
            str(s.get("seat")): str(s.get("label") or "") for s in view.get("seats") or []
        }
        self.enemy = self.other.get(side, side)
        self._cards: dict[str, Any] = view.get("operations_cards") or {}
        self.names = Names(view)  # every name for people comes from there
        self.theatre = theatre.on_theatre(view)  # Pacific Theatre Via Midway's map
        self.groups: dict[str, list[str]] = dict(
            (view.get("searchboard") or {}).get("groups") or {}
        )
        self._combat: dict[str, Any] = (view.get("surface") or {}).get("combat") or {}

    @cached_property
    def force_of_ship(self) -> dict[str, dict[str, str]]:
        """side -> ship -> the task force it sails with."""
        out: dict[str, dict[str, str]] = {}
        for side, card in self._cards.items():
            for f in card.get("forces") or []:
                for ship in f.get("ships") or []:
                    out.setdefault(side, {})[ship] = f["force"]
        return out

    @cached_property
    def carrier_of(self) -> dict[str, dict[str, str]]:
        """side -> air unit -> the carrier or base it is on."""
        out: dict[str, dict[str, str]] = {}
        for side, card in self._cards.items():
            for c in card.get("carriers") or []:
                for uid in [*(c.get("ready") or []), *(c.get("arming") or [])]:
                    out.setdefault(side, {})[uid] = c["id"]
        return out

    @cached_property
    def carrier_name(self) -> dict[str, str]:
        """A carrier's or base's id -> its name."""
        return {
            str(c["id"]): str(c.get("name") or c["id"])
            for card in self._cards.values()
            for c in card.get("carriers") or []
        }

    @cached_property
    def kinds(self) -> dict[str, dict[str, str]]:
        """side -> unit -> type (CV, BB, D ...)."""
        out: dict[str, dict[str, str]] = {}
        for side, card in self._cards.items():
            every = [*(card.get("units") or {}).values(), *(card.get("eliminated") or [])]
            out[side] = {str(u["id"]): str(u.get("type") or "") for u in every}
        return out

    @cached_property
    def afloat(self) -> dict[str, dict[str, tuple[str, str]]]:
        """16: side -> ship -> (hex, facing) on the Battleboard."""
        out: dict[str, dict[str, tuple[str, str]]] = {}
        for ship in self._combat.get("ships") or []:
            if ship.get("hex") and ship.get("facing"):
                where = (str(ship["hex"]), str(ship["facing"]))
                out.setdefault(str(ship["side"]), {})[str(ship["id"])] = where
        return out

    def kind(self, side: str, uid: str) -> str:
        """The unit's type as its counter shows it ("CV"), or "" when the view has none."""
        return self.kinds.get(side, {}).get(uid, "")

    def force(self, marker: str) -> str:
        return self.names.force(marker)

    def marker(self, marker: str) -> str:
        return self.names.marker(marker)

    def unit(self, side: str, uid: str) -> str:
        return self.names.unit(side, uid)

    def group(self, group: str) -> str:
        """3d2: one of the seat's flying strikes (or a lone scout), by where it comes from."""
        return self.names.strike(self.me, self.groups.get(group) or [group])

    def offboard(self, uid: str, zone: str) -> tuple[str, int] | None:
        """Off-Board Bases 1: the off-board base the unit takes off from, and the zones it
        has flown on reaching the marked square `zone` (None: not an off-board base's)."""
        if not self.theatre:
            return None
        carrier = self.carrier_of.get(self.me, {}).get(uid, "")
        name = self.carrier_name.get(carrier, carrier)
        base = theatre.spec().offboard.get(name)
        if base is None or zone not in base.squares:
            return None
        return name, base.squares[zone]

    def strike_area(self, uid: str) -> str:
        """3a3: a unit takes off into its task force's Normal Strike box (or Midway's)."""
        carrier = self.carrier_of.get(self.me, {}).get(uid, "")
        return self.force_of_ship.get(self.me, {}).get(carrier, carrier)


def _place(a: dict[str, str], n: Namer, verb: str) -> Choice:
    return Choice(
        a,
        f"{verb} {n.force(a['force'])} {'in' if verb == 'Place' else 'to'} {a['hex']}",
        f"tf:{n.me}:{a['force']}",
        f"sb:{a['hex']}",
    )


def _shift(a: dict[str, str], n: Namer) -> Choice:
    box = "ready" if a["kind"] == "ready" else "arming"
    carrier = n.carrier_of.get(n.me, {}).get(a["unit"], "")
    words = "Arming → Ready" if box == "ready" else "Ready → Arming"
    return Choice(
        a,
        f"{n.unit(n.me, a['unit'])}: {words} ({n.unit(n.me, carrier)})",
        unit_key(n.me, a["unit"]),
        f"box:{n.me}:{carrier}:{box}",
    )


def _launch(a: dict[str, str], n: Namer) -> Choice:
    area = n.strike_area(a["unit"])
    return Choice(
        a,
        f"Launch {n.unit(n.me, a['unit'])} to the Normal Strike box of {n.force(area)}",
        unit_key(n.me, a["unit"]),
        f"box:{n.me}:{area}:strike",
    )


def _battle_unit(a: dict[str, str], n: Namer) -> Choice:
    kind, me, enemy = a["kind"], n.me, n.enemy
    if kind == "position":
        return Choice(
            a,
            f"Place {n.unit(me, a['unit'])} in Battleboard hex {a['hex']}",
            unit_key(me, a["unit"]),
            f"bb:{a['hex']}",
        )
    if kind == "target":
        return Choice(
            a,
            f"{a['unit']} attacks {n.unit(enemy, a['target'])}",
            unit_key(me, a["unit"]),
            unit_key(enemy, a["target"]),
        )
    if kind == "approach":
        return Choice(
            a,
            f"{a['unit']} approaches {n.unit(enemy, a['target'])} from {a['hex']}",
            unit_key(me, a["unit"]),
            f"bb:{a['hex']}",
        )
    return Choice(
        a,
        f"{n.unit(me, a['ship'])} fires anti-aircraft at {a['unit']}",
        unit_key(me, a["ship"]),
        unit_key(enemy, a["unit"]),
    )


GENERAL = {
    "done": "Done",
    "fire": "Fire the anti-aircraft combat",
    "cancel": "Cancel this anti-aircraft combat",
    "formation": "Place the remaining ships in formation",
    "reroll": "Use the free roll: roll again (11a)",
    "accept": "Keep the dice as rolled",
}


CHOICES_MADE = 4096  # choices kept for the actions they were made for (about 2 MB)
_MADE: Kept[tuple[object, ...], Choice] = Kept(CHOICES_MADE)


def choice(a: dict[str, str], n: Namer) -> Choice:
    """The action's Choice; of the kinds most offered, made once for the action dict (the
    engine shares one between views, push after push and game after game) and the names
    its words and keys take from the Namer (`_made_by`), and kept while CHOICES_MADE
    allow (each keeps its action alive, so its id stands for it)."""
    key = _made_by(a, n)
    if key is None:
        return _choice(a, n)
    made = _MADE.get(key)
    if made is None or made.action is not a:
        made = _MADE.put(key, _choice(a, n))
    return made


def _made_by(a: dict[str, str], n: Namer) -> tuple[object, ...] | None:
    """What the Choice of action `a` is made from, for the kinds most offered: the action
    (by its id) and everything the Namer tells of it; None for the other kinds."""
    kind = a.get("kind", "")
    if kind in ("place", "move", "enter"):
        return (id(a), n.me, n.force(a["force"]))
    if kind in ("ready", "arm"):
        carrier = n.carrier_of.get(n.me, {}).get(a["unit"], "")
        return (id(a), n.me, n.unit(n.me, a["unit"]), carrier, n.unit(n.me, carrier))
    if kind == "launch":
        area = n.strike_area(a["unit"])
        return (id(a), n.me, n.unit(n.me, a["unit"]), area, n.force(area))
    if kind in GENERAL and len(a) == 1:
        return (id(a),)
    return None


def _choice(a: dict[str, str], n: Namer) -> Choice:
    kind = a.get("kind", "")
    if kind in ("place", "move", "enter"):
        return _place(a, n, {"place": "Place", "move": "Move", "enter": "Enter"}[kind])
    if kind in ("ready", "arm"):
        return _shift(a, n)
    if kind == "launch":
        return _launch(a, n)
    if kind in ("position", "target", "approach", "aa"):
        return _battle_unit(a, n)
    return _other(a, n)


def _other(a: dict[str, str], n: Namer) -> Choice:
    kind, me = a.get("kind", ""), n.me
    if kind == "exit":
        label = f"Take {n.force(a['force'])} off the Searchboard (eliminated, 2e)"
        if n.theatre:  # its ships and planes leave play, not sunk
            label = f"{n.force(a['force'])}: leave the map, never to return (Off-Board Bases 5)"
        return Choice(a, label, f"tf:{me}:{a['force']}")
    if kind == "sortie" and (off := n.offboard(a["unit"], a["hex"])) is not None:
        base, flown = off
        label = (
            f"{n.unit(me, a['unit'])}: take off from {base} into {a['hex']} "
            f"({flown} zone{'s' if flown != 1 else ''} flown, Off-Board Bases 1)"
        )
        return Choice(a, label, unit_key(me, a["unit"]), f"sb:{a['hex']}")
    if kind == "search-area":
        return Choice(a, f"Search area {a['area']} (Searches 1-2)")
    if kind == "fly":
        label = f"Fly {n.group(a['group'])} to {a['hex']}"
        return Choice(a, label, f"g:{me}:{a['group']}", f"sb:{a['hex']}")
    if kind == "route":  # 18c1: the scout's route, a hex at a time from its end
        label = f"Scout {a['unit']}: route on to {a['hex']}"
        return Choice(a, label, f"g:{me}:{a['unit']}", f"sb:{a['hex']}")
    if kind == "unroute":
        return Choice(a, WORDS["unroute"].format(**a), f"g:{me}:{a['unit']}")
    if kind == "spend":  # 15a1.1 in 18c1: asked of the scout over the hex, no counter to pick
        return Choice(a, WORDS["spend"].format(**a))
    if kind == "search":
        return Choice(a, f"Search {a['hex']}", None, f"sb:{a['hex']}")
    if kind == "sea-search":
        return Choice(a, f"Sea search {a['hex']} (3d5: reveals your presence there)")
    if kind == "battle":
        return Choice(a, f"Fight the battle in {a['hex']}", None, f"sb:{a['hex']}")
    if kind == "face":
        return Choice(a, f"Face the ships {a['direction']}")
    if kind == "bomb":
        what = CATEGORY.get(a["category"], a["category"])
        return Choice(a, f"Bomb {n.unit(n.enemy, a['target'])}: {what}")
    if kind == "transfer":
        label = f"Shift {n.unit(me, a['ship'])} to {n.force(a['force'])} (4e1)"
        return Choice(a, label, unit_key(me, a["ship"]), f"box:{me}:{a['force']}:ships")
    if kind == "land":
        label = f"Land {n.unit(me, a['unit'])} on {n.unit(me, a['at'])}"
        return Choice(a, label, unit_key(me, a["unit"]), f"box:{me}:{a['at']}:arming")
    if kind in GENERAL:
        return Choice(a, GENERAL[kind])
    return _optional(a, n)


# Words for the optional rules' actions, over the action's fields.
WORDS = {
    "commit": "Note secretly: {force} will enter (7c4.2)",
    "flagship": "Name {ship} your flagship (17c2)",
    "overall": "Name {command} the side's overall commander (17c1)",
    "assign": "Give {force} to {command} (17a)",
    "withhold": "Note secretly: {force} will not be used (7c4.2)",
    "sortie": "Scout {unit} enters at {hex} (7c4.4)",
    "max-strike": "Launch {unit} to the Max. Strike box (12b2.3)",
    "cap": "{unit} takes off to the {level} CAP box (14)",
    "create": "Create {scouts} scout(s) from {unit} (15c1)",
    "scuttle": "Scuttle {ship} (11c3)",
    "tow-out": "{ship}, towed by {tower}, leaves the Searchboard (12a4.3)",
    "combine": "Combine {group} into {into} (13a2)",
    "circle": "Search {hex}, circling with {factors} more movement factors (15a1.1)",
    "unroute": "Clear the route of scout {unit} (18c1)",
    "orbit": "{group} searches the hex it entered, circling with {factors} more factors (15a1.1)",
    "spend": "Scout {unit} spends {factors} movement factors over its hex (15a1.1: +2 each)",
    "report": "State {ships} ships (15a1.2)",
    "dogfight": "{unit} engages {target} (14a2)",
    "strafe": "{unit} strafes {target} from {hex} (14f)",
    "hold": "Keep {unit} out of combat (14)",
    "attack": "Individual air combat against {unit} (14c)",
    "intercept": "{unit} intercepts {target} (14e1)",
    "submarine": "Submarine attack on {ship} of {force} (11e2)",
    "engage": "Engage in {hex} (16a)",
    "decline": "Decline in {hex} (16a)",
    "line": "Set up on line {column}, facing {direction} (16c1)",
    "surprise": "Surprise: {effect} (16k2)",
    "advance": "{ship} advances one hex (16e1)",
    "turn": "{ship} turns to {way} (16e2)",
    "shift": "Shift every ship one hex {direction} (16e4)",
    "torpedo": "{ship} launches torpedoes toward {hex} (16f)",
    "gun": "{ship} fires its guns at {target} (16g)",
    "salvo": "Torpedo combat against the ship in {hex} (16h)",
    "breakoff": "Break off the group of {ship} (16i)",
    "bombard": "Bombard the base with stack {stack} (16j4)",
    "stage": "{unit} stages to {at} (12c2)",
    "peel": "{unit} peels off onto the bombers (Bombers 5)",
    "first": "First to attack the base: the {planes} (Bombers 6)",
    "destroyers": "Fire, with the destroyers' two more AA factors (Destroyers, once a Turn)",
}
ENEMY_FIRST = ("attack", "submarine")  # the unit named is the enemy's
BATTLEBOARD = ("strafe", "torpedo", "salvo")  # their hex is on the Battleboard


def _optional(a: dict[str, str], n: Namer) -> Choice:
    """An optional rule's action: words from WORDS, the counter from its first field."""
    kind, me, enemy = a.get("kind", ""), n.me, n.enemy
    owner = enemy if kind in ENEMY_FIRST else me
    names = {k: n.unit(owner, v) if k in ("unit", "ship", "at") else v for k, v in a.items()}
    names.update({k: n.unit(enemy, v) for k, v in a.items() if k == "target"})
    names.update({k: n.force(v) for k, v in a.items() if k in ("force", "into")})
    names.update({k: n.seats.get(f"{me}-{v}", v) for k, v in a.items() if k == "command"})
    template = WORDS.get(kind)
    if template is None:
        label = " ".join([kind, *(str(v) for k, v in a.items() if k != "kind")]).capitalize()
    else:
        label = template.format(**names)
    target = _target(a, enemy)
    if kind == "advance" and a.get("ship") in n.afloat.get(me, {}):  # 16e1: the hex ahead
        ahead_of = ahead(*n.afloat[me][a["ship"]])
        target = f"bb:{ahead_of}" if ahead_of else None
    if kind in ("cap", "max-strike"):  # into a box of the task force's area (14, 12b2.3)
        box = f"{a['level']}_cap" if kind == "cap" else "max_strike"
        target = f"box:{me}:{n.strike_area(a['unit'])}:{box}"
    mine = owner == me and kind not in IN_THE_BAR
    return Choice(a, label, _subject(a, me) if mine else None, target)


# Issue 30: choices of a setup that no counter's click stands for - naming a flagship
# (17c2) is a decision of its own, in the bar, not one of a ship's choices behind the
# "More counters" of a set-up's dozens of counters
IN_THE_BAR = frozenset({"flagship"})


def _subject(a: dict[str, str], me: str) -> str | None:
    for field, key in (("unit", "u"), ("ship", "u"), ("group", "g"), ("force", "tf")):
        if field in a:
            return f"{key}:{me}:{a[field]}"
    return None


def _target(a: dict[str, str], enemy: str) -> str | None:
    if "target" in a:
        return unit_key(enemy, a["target"])
    if a.get("kind") in ENEMY_FIRST and "unit" in a:
        return unit_key(enemy, a["unit"])
    if "hex" in a:
        return f"{'bb' if a.get('kind') in BATTLEBOARD else 'sb'}:{a['hex']}"
    return None


def choices(view: dict[str, Any], n: Namer) -> list[Choice]:
    prompt: dict[str, Any] = view.get("prompt") or {}
    return [choice(a, n) for a in prompt.get("actions") or []] + destinations(prompt, n)


# Issue 30: a move by destination, its words by its kind (the subject's field first)
PATH_WORDS = {
    "fly-to": ("group", "Fly {who} to {hex} ({length} hexes)"),
    "route-to": ("unit", "Scout {unit}: route on to {hex} ({length} hexes)"),
}


def destinations(prompt: dict[str, Any], n: Namer) -> list[Choice]:
    """Issue 30: each destination two or more hexes away that a picked air strike (or a
    scout's route) reaches with one click: the engine takes the hexes between."""
    out: list[Choice] = []
    for kind, by_subject in (prompt.get("destinations") or {}).items():
        if kind not in PATH_WORDS:
            continue
        field, words = PATH_WORDS[kind]
        for subject, far in by_subject.items():
            who = n.group(subject) if field == "group" else subject
            for hex_, length in far.items():
                action = {"kind": kind, field: subject, "hex": hex_}
                label = words.format(who=who, unit=subject, hex=hex_, length=length)
                out.append(Choice(action, label, f"g:{n.me}:{subject}", f"sb:{hex_}"))
    return out


def subjects(n: Namer, all_choices: list[Choice]) -> list[Subject]:
    """The counters that have something to do, in the order their actions come."""
    seen: dict[str, Subject] = {}
    for c in all_choices:
        if c.subject and c.subject not in seen:
            seen[c.subject] = Subject(c.subject, _subject_label(c.subject, n))
    return list(seen.values())


def _subject_label(key: str, n: Namer) -> str:
    kind, side, name = key.split(":", 2)
    if kind == "tf":
        return n.force(name)
    if kind == "g":
        strike = n.group(name).removeprefix("the ")  # a button: "Strike from Akagi/Kaga"
        return f"{strike[:1].upper()}{strike[1:]} (flying)"
    label = n.unit(side, name)
    return label if side == n.me else f"{label} ({SIDE_TITLE.get(side, side)})"
