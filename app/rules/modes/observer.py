"""view(): exactly what a seat may know, built field by field (DESIGN.md, Hidden information).

A seat sees what its side may know (app/rules/modes/seats.py: a seat plays one side). In the
two-player mode (1c, 2c, 3c, 3d3) that is its side's own Searchboard - its task forces,
flying air units, searches and what it has learned; with teams (17a) both players of a
side share it, as they share one copy on the table - and both Operations Cards (boxes and
their units, never the hexes), open because the mode says so (app/rules/modes/audiences.py). The
Midway base and its damage are on both boards (4a1, 4e2). Battles are fought on the
shared Battleboard. Spectators see the public part while the game runs, and everything
once it has ended.

In the umpired modes of 18 the Operations Cards are private (18b, 18c): a player sees his
own side's, and of the enemy only the units the umpire's reports told him of or that are
in his sight on the Battleboard, as he believes them (`_believed_card`; 18c2), and no
box of theirs; the enemy's searches are not announced to him, and Midway's damage is
what Japan was told. The umpire's seat sees everything, as a finished game's replay does,
and his console besides (`umpire`: the reports waiting for him, app/rules/modes/reports.py);
once the game is over everyone sees each report beside the truth (`told_versus_truth`).
18a with teams: "each side or player must have a copy of the game" - a player's copy
shows his own command's counters only (app/rules/modes/command_copies.py); of his teammate he
learns by radio (17c) and from the umpire's reports to the side (18c1, 18c2).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from app.rules import hooks
from app.rules.base.score import known_score
from app.rules.base.setup import scenario_of
from app.rules.base.units import air_face, air_record, ship_face, ship_record
from app.rules.board.boards import bases_of, midway_hex, ships_in
from app.rules.board.grid import DIRECTIONS
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import Action
from app.rules.engine.kept import Kept
from app.rules.engine.paths import destinations
from app.rules.engine.state import (
    ARMING,
    BASE,
    ELIMINATED,
    FLYING,
    GONE,
    HIGH_CAP,
    LOW_CAP,
    MAX_STRIKE,
    READY,
    SIDES,
    STRIKE,
    Board,
    Side,
    State,
    Unit,
    other,
)
from app.rules.engine.steps import FINISHED, current
from app.rules.flow import acting, legal_actions, waiting_for
from app.rules.modes import takeback
from app.rules.modes.audiences import mode_of
from app.rules.modes.command_copies import own_board, own_card, own_prompt, separate
from app.rules.modes.r17_teams.radio import notes_of
from app.rules.modes.r18_umpired.heard import heard
from app.rules.modes.reports import console, told_versus_truth
from app.rules.modes.seats import OMNISCIENT, Umpire, is_umpire, seat_of, seats
from app.rules.modes.umpire import believed, in_sight
from app.rules.optional.surface.view import surface_view


def view(state: State, seat: str) -> dict[str, Any]:
    """What `seat` may know now: a JSON document built from the state, field by field."""
    return views(state, (seat,))[seat]


def views(state: State, seats: Iterable[str]) -> dict[str, dict[str, Any]]:
    """`view` for several seats of one state: the parts every seat sees alike are built
    once and shared between the documents (read them, never change them)."""
    public = _public(state)
    boards: dict[str, Any] | None = None
    scores: dict[str, Any] = {}  # the tally of everything, for each seat that may know it
    out = {}
    open_cards = mode_of(state.mode).open_cards
    for seat in seats:
        who = seat_of(state, seat)
        sees_all = seat == OMNISCIENT or is_umpire(state, seat) or state.status == "finished"
        side = None if who is None else who.side
        doc = {k: public[k] for k in _HEAD}
        doc["viewer"] = _viewer(state, seat) if who is None else who.to_json()
        if open_cards or sees_all:
            doc["operations_cards"] = public["operations_cards"]
            doc["announcements"] = public["announcements"]
        else:
            doc["midway"] = _believed_midway(state, side)
            doc["operations_cards"] = _private_cards(state, public, side)
            doc["announcements"] = [a for a in public["announcements"] if a["side"] == side]
        exact = SIDES if open_cards or sees_all else tuple(x for x in SIDES if x == side)
        doc["surface"] = surface_view(state, seat, exact)
        doc["prompt"] = _prompt(state, seat, side)
        doc["free_roll"] = public["free_roll"]  # 11a: who holds the marker
        doc["pending_combat"] = public["pending_combat"]
        if who is not None:
            doc["searchboard"] = _searchboard(state, who.side)
            if separate(state) and who.command is not None:  # 18a: his command's copy
                doc["searchboard"] = own_board(state, who, doc["searchboard"])
                cards = doc["operations_cards"]
                doc["operations_cards"] = {**cards, who.side: own_card(state, who, cards[who.side])}
                doc["prompt"] = own_prompt(state, who, doc["prompt"])
            if state.teams:
                doc["radio"] = notes_of(state, seat)  # 17c3: the seat's own notes
            if mode_of(state.mode).umpired:
                doc["heard"] = heard(state, who)  # 18c: the umpire's messages and reports
        if sees_all:
            if boards is None:
                boards = {side: _searchboard(state, side) for side in SIDES}
            doc["searchboards"] = boards
        if is_umpire(state, seat):
            doc["umpire"] = console(state)  # 18c: his reports, messages and settings
        if sees_all and mode_of(state.mode).umpired:
            doc["told_versus_truth"] = told_versus_truth(state)
        score = known_score(state, seat, scores)
        if score is not None:
            doc["score"] = score  # 7a3 so far, by what the seat may know
        if state.victory is not None:
            doc["victory"] = state.victory
        out[seat] = doc
    return out


# Who looks when no seat of the game does: a spectator (False) or everything (True).
_NOBODY = {
    False: {"seat": None, "side": None, "command": None, "label": ""},
    True: {"seat": OMNISCIENT, "side": None, "command": None, "label": ""},
}

# The public parts of a view that come before its first per-seat part, in order.
_HEAD = (
    "scenario",
    "mode",
    "teams",
    "seats",
    "options",
    "status",
    "turn",
    "first_turn",
    "last_turn",
    "time",
    "step",
    "sides",
    "midway",
    "battle",
)


def _viewer(state: State, seat: str) -> dict[str, Any]:
    """Who looks, when it is no player: the umpire (18), everything, or a spectator."""
    if is_umpire(state, seat):
        return Umpire().to_json()
    return _NOBODY[seat == OMNISCIENT]


def _private_cards(state: State, public: dict[str, Any], side: Side | None) -> dict[str, Any]:
    """18b, 18c: a player's own Operations Card, and of the enemy only what he believes;
    nothing for a spectator until the end."""
    if side is None:
        return {}
    return {side: public["operations_cards"][side], other(side): _believed_card(state, side)}


def _believed_card(state: State, side: Side) -> dict[str, Any]:
    """18c2: the enemy units `side` knows of - told of by the umpire's reports, or in its
    sight on the Battleboard - each as it believes them; no boxes, nothing in flight."""
    enemy = other(side)
    seen = in_sight(state, side)
    known = [
        u for uid, u in state.units[enemy].items() if uid in seen or uid in state.boards[side].told
    ]
    shown = [_believed(state, side, u, u.id in seen) for u in known]
    return {
        "forces": [],
        "carriers": [],
        "midway_strike": [],
        "flying": [],
        "eliminated": [v for v in shown if v.get("eliminated")],
        "units": {v["id"]: v for v in shown if not v.get("eliminated")},
        "reported": True,  # 18c2: what the umpire told, not the truth
    }


def _believed(state: State, side: Side, u: Unit, seen: bool) -> dict[str, Any]:
    damage = believed(state, side, u, seen)
    return _counter(u.side, u.id, u.ship, min(damage, ELIMINATED), damage >= ELIMINATED)


def _believed_midway(state: State, side: Side | None) -> dict[str, Any] | None:
    """4a1, 4e2: the base is on both Searchboards; in an umpired game its damage is what
    the other side was told (18c2), and a spectator sees only where it is."""
    base = state.units["usa"].get("Midway")
    if base is None or side == "usa":
        return _midway(state)
    if side is None:
        return {"hex": midway_hex()}
    shown = _believed(state, side, base, base.id in in_sight(state, side))
    return {"hex": midway_hex(), **shown, "eliminated": bool(shown.get("eliminated"))}


def _public(state: State) -> dict[str, Any]:
    """Everything in a view that is the same for every seat (2c: the Operations Cards,
    4a1: the base, the Battleboard, the Time Record Track, announcements)."""
    spec = scenario_of(state)
    box = turn_box(state)
    return {
        "scenario": {"id": spec.id, "name": spec.name, "rule": spec.rule},
        "mode": state.mode,
        "teams": state.teams,
        "seats": [s.to_json() for s in seats(state)],
        "options": list(state.options),
        "status": state.status,
        "turn": state.turn,
        "first_turn": spec.first_turn,
        "last_turn": spec.last_turn,
        "time": {"date": box.date, "time": box.time, "night": box.night},
        "step": state.step,
        "sides": None if state.side_a is None else {"A": state.side_a, "B": state.side_b},
        "operations_cards": {side: _card(state, side) for side in SIDES},
        "midway": _midway(state),
        "battle": _battle(state),
        "announcements": [{"side": s, "how": how, "hex": h} for s, how, h in state.announcements],
        "free_roll": state.free_roll,
        "pending_combat": _pending(state),
    }


def _pending(state: State) -> dict[str, Any] | None:
    """11a: the combat whose dice the free roll marker's holder is looking at (public dice)."""
    p = state.pending
    if p is None:
        return None
    return {
        "kind": p.kind,
        "target": p.target,
        "target_side": p.target_side,
        **p.data,
        "attacker_roll": p.attacker_roll,
        "attacker_modifier": p.attacker_modifier,
        "defender_roll": p.defender_roll,
        "defender_modifier": p.defender_modifier,
    }


def _prompt(state: State, seat: str, side: Side | None) -> dict[str, Any]:
    mine = seat in acting(state)
    waiting = waiting_for(state, side)
    if state.status == "finished":
        text = "The game is over"
    elif mine:
        text = current(state).prompt
    else:
        text = "Waiting for " + " and ".join(waiting)
    step = None if state.step == FINISHED else current(state)
    lost: list[dict[str, str]] = []
    if step is not None and step.lost_if_done is not None and mine and side is not None:
        lost = [{"unit": u, "rule": r} for u, r in step.lost_if_done(state, side)]
    offered = legal_actions(state, seat) if mine else []
    return {
        "text": text,
        "rule": step.rule if step is not None else "",
        # issue 13: the seat's own units lost if it says Done now
        "lost_if_done": lost,
        "waiting_for": waiting,
        "actions": [_action_json(a.kind, a.values) for a in offered],
        # issue 30: path kind -> subject -> each destination 2+ hexes away, its length
        "destinations": destinations(state, side, offered) if side is not None else {},
        "take_back": takeback.of(state, seat).actions > 0,  # issue 14: the seat may now
    }


@lru_cache(maxsize=50_000)
def _action_json(kind: str, values: tuple[str, ...]) -> dict[str, object]:
    """An action as JSON, built once and shared between views: read it, never change it.
    Looked up by the action's kind and values, whose hash is C's (the action's own is a
    dataclass's Python method: a set-up prompt of 200 choices took twice as long)."""
    return Action(kind, values).to_json()


def unit_view(u: Unit) -> dict[str, Any]:
    """A counter as it shows now: its side up, hit markers, current factors (4b5).

    The answer is shared between calls and views (each unit's few faces are built once):
    read it, never change it."""
    return _counter(u.side, u.id, u.ship, u.damage, u.box == GONE)


@lru_cache(maxsize=20_000)
def _counter(side: Side, uid: str, ship: bool, damage: int, gone: bool) -> dict[str, Any]:
    """unit_view by what it depends on: the counter, its damage, whether it is gone."""
    return _unit_view(Unit(side, uid, ship, GONE if gone else "", "", damage))


def _unit_view(u: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": u.id,
        "side": u.side,
        "hits": u.hits,
        "face": "back" if u.flipped else "front",
    }
    if u.ship:
        rec = ship_record(u)
        f = ship_face(u)
        out.update(
            name=rec.name,
            type=rec.type,
            factors=_lowered(
                {"defense": f.defense, "surface": f.surface, "torpedo": f.torpedo, "aa": f.aa},
                u.hits,
            )
            | {
                "armour": f.armour,
                "gun": f.gun,
                "movement": f.movement,
                "launch": f.launch,
                "capacity": rec.capacity,
            },
        )
    else:
        arec = air_record(u)
        a = air_face(u)
        out.update(
            name=arec.id,
            type=arec.type,
            basing=arec.basing,
            factors=_lowered(
                {"defense": a.defense, "air_combat": a.air_combat, "bombing": a.bombing}, u.hits
            )
            | {"movement": a.movement},
        )
    if u.box == GONE:
        out["eliminated"] = True
    return out


def _lowered(factors: dict[str, int | None], hits: int) -> dict[str, int | None]:
    return {k: (None if v is None else max(0, v - hits)) for k, v in factors.items()}


# 2c: the cards last built, by what each was built from (`_card`), the least recently
# used dropped first beyond CARDS_KEPT: two of every live game's at the least. (Dropped in
# the order they were built, a thousand live games' unchanged cards went out after a few
# seconds of other games' actions, and were built again as new objects for the diff and
# the pages to walk.)
CARDS_KEPT = 4096
_CARDS: Kept[tuple[Any, ...], tuple[tuple[Any, ...], dict[str, Any]]] = Kept(CARDS_KEPT)


def _card(state: State, side: Side) -> dict[str, Any]:
    """2c: a side's Operations Card, open to both players; the very card built before
    when it is built from the same things: the same Unit objects in the same order
    (frozen: one object, one unit as it is), the same launches (3a4) and the same bases'
    damage (Bases 3). An action leaves most cards as they were, and a card shared as
    one object costs the diff and the page nothing. The key holds ids; the entry keeps
    their objects alive, so no id is another object's while it is kept. A theatre card
    counts planes from more of the state (Carrier Capacity): built every time."""
    if hooks.of(state).counts_planes(state):
        return _make_card(state, side)
    units = tuple(state.units[side].values())
    key = (state.scenario, side, tuple(map(id, units)), tuple(state.launched.items()))
    kept = _CARDS.get(key)
    if kept is not None:
        return kept[1]
    return _CARDS.put(key, (units, _make_card(state, side)))[1]


def _make_card(state: State, side: Side) -> dict[str, Any]:
    units = state.units[side]
    boxes: dict[tuple[str, str], list[str]] = {}  # the ids in each (box, area), in order
    for u in units.values():
        boxes.setdefault((u.box, u.area), []).append(u.id)
    forces = []
    for f in scenario_of(state).forces_of(side):
        if f.area == "base":
            continue
        forces.append(_force(state, side, boxes, f.marker, f.label))
    for marker in scenario_of(state).spare_markers.get(side, ()):
        if ships_in(state, side, marker):
            forces.append(_force(state, side, boxes, marker, marker))
    carriers = []
    for c in units.values():
        rec = ship_record(c) if c.ship else None
        if rec is None or not rec.capacity or c.box == GONE:
            continue
        entry = {
            "id": c.id,
            "name": rec.name,
            "capacity": rec.capacity,
            "launch": ship_face(c).launch,
            "launched": state.launched.get(c.key, 0),
            "ready": boxes.get((READY, c.id), []),
            "arming": boxes.get((ARMING, c.id), []),
        }
        entry |= hooks.of(state).card_entry(state, c)  # Carrier Capacity, Bases 2
        carriers.append(entry)
    shown = {u.id: unit_view(u) for u in units.values() if u.box != GONE}
    family = hooks.of(state)
    for base in bases_of(state, side):  # Bases 3: the day's damage, and a knockout
        today = family.base_today(state, base)
        if today:
            shown[base.id] = {**shown[base.id], **today}  # unit_view's dict is shared
    return {
        "forces": forces,
        "carriers": carriers,
        "midway_strike": boxes.get((STRIKE, "Midway"), []),
        "base_strikes": {b.id: boxes.get((STRIKE, b.id), []) for b in bases_of(state, side)},
        "flying": [u.id for u in units.values() if u.box == FLYING],
        "eliminated": [unit_view(u) for u in units.values() if u.box == GONE],
        "units": shown,
    }


def _force(
    state: State, side: Side, boxes: dict[tuple[str, str], list[str]], marker: str, label: str
) -> dict[str, Any]:
    return {
        "force": marker,
        "label": label,
        "ships": [u.id for u in ships_in(state, side, marker)],
        "strike": boxes.get((STRIKE, marker), []),
        "max_strike": boxes.get((MAX_STRIKE, marker), []),
        "high_cap": boxes.get((HIGH_CAP, marker), []),
        "low_cap": boxes.get((LOW_CAP, marker), []),
    }


def _midway(state: State) -> dict[str, Any] | None:
    base = state.units["usa"].get("Midway")
    if base is None:
        return None
    return {"hex": midway_hex(), **unit_view(base), "eliminated": base.box != BASE}


def _battle(state: State) -> dict[str, Any] | None:
    b = state.battle
    if b is None:
        return None
    return {
        "hex": b.hex,
        "attacker": b.attacker,
        "ships": list(b.ships),
        "air": list(b.air),
        "facing": None if b.facing is None else DIRECTIONS[b.facing],
        "positions": dict(b.positions),
        "targets": dict(b.targets),
        "air_hexes": dict(b.air_hexes),
        "aa_forming": {"ships": list(b.aa_ships), "target": b.aa_target},
        "aa_used": [k.id for k in state.aa_used if k.side == other(b.attacker)],
        "resolved": list(b.bombed),
        "escorts": list(b.escorts),
        "cap": dict(b.caps),
        "cap_facing": dict(b.facing_cap),
        "escorts_joined": dict(b.joined),
        "held": [k.id for k in b.held],
        "breakthroughs": dict(b.breakthrough),
    }


def _searchboard(state: State, side: Side) -> dict[str, Any]:
    """A side's own Searchboard (1c): its markers, flying units, searches and intelligence;
    in a team game, which of its players commands what (17a), known to both of them."""
    board: Board = state.boards[side]
    out = _board(board)
    if state.teams:
        out["commands"] = {
            "overall": board.overall,
            "forces": dict(sorted(board.force_commands.items())),
            "units": dict(sorted(board.commands.items())),
            "flagships": dict(sorted(board.flagships.items())),
        }
    return out


def _board(board: Board) -> dict[str, Any]:
    return {
        "forces": {m: h for m, h in sorted(board.forces.items()) if h is not None},
        "flying": {
            uid: {"hex": f.hex, "moved": f.moved, "group": f.group, "path": list(f.path)}
            for uid, f in sorted(board.flights.items())
        },
        "groups": {g: list(members) for g, members in sorted(board.groups.items())},
        "routes": {uid: list(r) for uid, r in sorted(board.routes.items())},  # 18c1
        "over": board.over,  # 18c1, 15a1.1: the scout whose player chooses factors
        "searched": list(board.searched),
        "sea_searched": list(board.sea_searched),
        "committed": list(board.committed),
        "midway_control_turns": board.control_turns,
        "spotted": [
            {
                "turn": s.turn,
                "hex": s.hex,
                "how": s.how,
                "level": s.level,
                "ships": s.ships,
                "forces": {m: list(v) for m, v in s.forces.items()},
                **({"said": s.said} if s.said else {}),  # 18d: the umpire's own words
            }
            for s in board.intel
        ],
    }
