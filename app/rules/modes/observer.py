"""view(): exactly what a seat may know, built part by part (DESIGN.md, Hidden information).

A view is made of named parts (`PARTS`), each with its audience (app/rules/modes/sight.py:
PUBLIC, a SIDE's, one COMMAND's, the UMPIRE's, EVERYONE_AFTER_END...) and how it is built
for a viewer; a key may have several parts, one for each audience (the Operations Cards:
the truth, as a side believes them, nothing, one command's share). Which a viewer gets
follows from his kind (player, team player, umpire, spectator, the replay) and the mode's
policy (`sight.plan`); the parts an audience sees alike are built once per state.
The keys and their types are `view_doc.View`.

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

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, cast

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
from app.rules.engine.play import legal_actions
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
from app.rules.modes import takeback
from app.rules.modes.command_copies import own_board, own_card, own_prompt
from app.rules.modes.r17_teams.radio import notes_of
from app.rules.modes.r18_umpired.heard import heard
from app.rules.modes.reports import console, told_versus_truth
from app.rules.modes.seats import OMNISCIENT, Seat, Umpire, acting, seats, waiting_for
from app.rules.modes.sight import (
    ABSENT,
    Audience,
    Build,
    Kind,
    Part,
    Policy,
    Sources,
    Viewer,
    document,
    viewer_of,
)
from app.rules.modes.umpire import believed, in_sight
from app.rules.modes.view_doc import (
    Announcement,
    LostIfDone,
    Prompt,
    ScenarioRef,
    TimeBox,
    View,
)
from app.rules.optional.surface.view import surface_view


def view(state: State, seat: str) -> View:
    """What `seat` may know now: a JSON document built from the state, part by part."""
    return views(state, (seat,))[seat]


def views(state: State, seats: Iterable[str]) -> dict[str, View]:
    """`view` for several seats of one state: the parts an audience sees alike are built
    once and shared between the documents (read them, never change them)."""
    src = Sources.of(state)
    # the parts' keys are the View's (view_doc.py; modes/test_issue_33_observer_parts.py)
    return {seat: cast(View, document(src, viewer_of(state, seat), PARTS)) for seat in seats}


# ---------------------------------------------------------------- the parts, for a viewer


def _scenario(src: Sources, v: Viewer) -> ScenarioRef:
    spec = scenario_of(src.state)
    return {"id": spec.id, "name": spec.name, "rule": spec.rule}


def _time(src: Sources, v: Viewer) -> TimeBox:
    box = turn_box(src.state)
    return {"date": box.date, "time": box.time, "night": box.night}


def _sides(src: Sources, v: Viewer) -> dict[str, Side | None] | None:
    s = src.state
    return None if s.side_a is None else {"A": s.side_a, "B": s.side_b}


def _field(name: str) -> Build:
    """A part that is the state's field of that name, as it is (JSON already)."""
    return lambda src, v: getattr(src.state, name)


def _victory(src: Sources, v: Viewer) -> Any:
    return ABSENT if src.state.victory is None else src.state.victory


def _viewer(src: Sources, v: Viewer) -> dict[str, Any]:
    """Who looks: his seat, or when it is no player's the umpire (18), everything, or a
    spectator."""
    if v.who is not None:
        return v.who.to_json()
    if v.kind is Kind.UMPIRE:
        return Umpire().to_json()
    return _NOBODY[v.kind is Kind.OMNISCIENT]


# Who looks when no seat of the game does: a spectator (False) or everything (True).
_NOBODY = {
    False: {"seat": None, "side": None, "command": None, "label": ""},
    True: {"seat": OMNISCIENT, "side": None, "command": None, "label": ""},
}


def _cards(src: Sources, v: Viewer) -> dict[str, Any]:
    """2c: both Operations Cards as they are."""
    return {side: _card(src.state, side) for side in SIDES}


def _private_cards(src: Sources, v: Viewer) -> dict[str, Any]:
    """18b, 18c: a player's own Operations Card, and of the enemy only what he believes."""
    side = _side(v)
    return {side: src.value(_CARDS_OPEN, v)[side], other(side): _believed_card(src.state, side)}


def _own_cards(src: Sources, v: Viewer, cards: dict[str, Any]) -> dict[str, Any]:
    """18a: of his side's card, his command's part."""
    who = _seat(v)
    return {**cards, who.side: own_card(src.state, who, cards[who.side])}


def _announcements(src: Sources, v: Viewer) -> list[Announcement]:
    return [{"side": s, "how": how, "hex": h} for s, how, h in src.state.announcements]


def _side_announcements(src: Sources, v: Viewer) -> list[Announcement]:
    """18: the enemy's searches are not announced to a side."""
    return [a for a in src.value(_ANNOUNCEMENTS_OPEN, v) if a["side"] == v.side]


def _surface(exact: Callable[[Viewer], tuple[Side, ...]]) -> Build:
    """16: the surface combat, the ships of the sides `exact` names shown as they are."""
    return lambda src, v: surface_view(src.state, v.seat, exact(v))


def _midway_open(src: Sources, v: Viewer) -> dict[str, Any] | None:
    return _midway(src.state)


def _midway_believed(src: Sources, v: Viewer) -> dict[str, Any] | None:
    return _believed_midway(src.state, v.side)


def _prompt_of(src: Sources, v: Viewer) -> Prompt:
    return _prompt(src.state, v.seat, v.side)


def _own_prompt(src: Sources, v: Viewer, prompt: Any) -> dict[str, Any]:
    return own_prompt(src.state, _seat(v), prompt)


def _side_board(src: Sources, v: Viewer) -> dict[str, Any]:
    return _searchboard(src.state, _side(v))


def _own_board(src: Sources, v: Viewer, board: dict[str, Any]) -> dict[str, Any]:
    return own_board(src.state, _seat(v), board)


def _boards(src: Sources, v: Viewer) -> dict[str, Any]:
    return {side: _searchboard(src.state, side) for side in SIDES}


def _score(src: Sources, v: Viewer) -> Any:
    """7a3 so far, by what the seat may know (app/rules/base/score.py decides alike)."""
    score = known_score(src.state, v.seat, src.scores)
    return ABSENT if score is None else score


def _seat(v: Viewer) -> Seat:
    if v.who is None:
        raise TypeError(f"{v.seat} ({v.kind.value}) plays no side")
    return v.who


def _side(v: Viewer) -> Side:
    return _seat(v).side


def _teams(p: Policy) -> bool:
    return p.teams


def _umpired(p: Policy) -> bool:
    return p.umpired


def _separate(p: Policy) -> bool:
    return p.separate


_P = Audience.PUBLIC
_CARDS_OPEN = Part(
    "operations_cards", Audience.EVERYONE_AFTER_END, "1d, 2c, 18b", _cards, open_with_cards=True
)
_ANNOUNCEMENTS_OPEN = Part(
    "announcements", Audience.EVERYONE_AFTER_END, "3d3.1, 18b", _announcements, open_with_cards=True
)

# Every part a view may have, in the view's order; of a key's parts, a viewer gets the
# first whose audience he belongs to (app/rules/modes/sight.py `plan`).
PARTS: tuple[Part, ...] = (
    Part("scenario", _P, "7", _scenario),
    Part("mode", _P, "2c, 18", _field("mode")),
    Part("teams", _P, "17a", _field("teams")),
    Part("seats", _P, "17a, 18b", lambda src, v: [s.to_json() for s in seats(src.state)]),
    Part("options", _P, "11-16", lambda src, v: list(src.state.options)),
    Part("status", _P, "2b", _field("status")),
    Part("turn", _P, "2b", _field("turn")),
    Part("first_turn", _P, "7a", lambda src, v: scenario_of(src.state).first_turn),
    Part("last_turn", _P, "2b", lambda src, v: scenario_of(src.state).last_turn),
    Part("time", _P, "6, 7a", _time),
    Part("step", _P, "2b", _field("step")),
    Part("sides", _P, "3", _sides),
    # 4a1, 4e2: the base is on both Searchboards; in an umpired game its damage is what
    # the other side was told (18c2), and a spectator sees only where it is
    Part("midway", Audience.EVERYONE_AFTER_END, "4a1", _midway_open, open_with_cards=True),
    Part("midway", Audience.SIDE, "18c2", _midway_believed),
    Part("midway", _P, "18b", lambda src, v: _believed_midway(src.state, None)),
    Part("battle", _P, "4", lambda src, v: _battle(src.state)),
    Part("viewer", Audience.VIEWER, "17a, 18b", _viewer),
    Part("operations_cards", Audience.COMMAND, "18a", narrow=_own_cards, only=_separate),
    _CARDS_OPEN,
    Part("operations_cards", Audience.SIDE, "18b, 18c2", _private_cards),
    Part("operations_cards", _P, "18b", lambda src, v: {}),  # nothing until the end
    _ANNOUNCEMENTS_OPEN,
    Part("announcements", Audience.SIDE, "18c1", _side_announcements),
    Part("announcements", _P, "18b", lambda src, v: []),
    Part(
        "surface",
        Audience.EVERYONE_AFTER_END,
        "16a",
        _surface(lambda v: SIDES),
        open_with_cards=True,
    ),
    Part("surface", Audience.SIDE, "16a, 18c2", _surface(lambda v: (_side(v),))),
    Part("surface", _P, "16a, 18b", _surface(lambda v: ())),
    Part("prompt", Audience.COMMAND, "18a, 5", narrow=_own_prompt, only=_separate),
    Part("prompt", Audience.VIEWER, "2b", _prompt_of),
    Part("free_roll", _P, "11a", _field("free_roll")),  # who holds the marker
    Part("pending_combat", _P, "11a", lambda src, v: _pending(src.state)),
    Part("searchboard", Audience.COMMAND, "18a", narrow=_own_board, only=_separate),
    Part("searchboard", Audience.SIDE, "1c, 17a", _side_board),
    Part("radio", Audience.SEAT, "17c3", lambda src, v: notes_of(src.state, v.seat), only=_teams),
    # 18c: the umpire's messages and reports to the player
    Part("heard", Audience.SEAT, "18c", lambda src, v: heard(src.state, _seat(v)), only=_umpired),
    Part("searchboards", Audience.EVERYONE_AFTER_END, "18b", _boards),
    Part("umpire", Audience.UMPIRE, "18c", lambda src, v: console(src.state)),
    Part(
        "told_versus_truth",
        Audience.EVERYONE_AFTER_END,
        "18c2",
        lambda src, v: told_versus_truth(src.state),
        only=_umpired,
    ),
    Part("score", Audience.EVERYONE_AFTER_END, "7a3", _score, open_with_cards=True, each=True),
    Part("score", Audience.SIDE, "7a3, 18c2", _score, each=True),
    Part("victory", _P, "7a3", _victory),
)


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


def _prompt(state: State, seat: str, side: Side | None) -> Prompt:
    mine = seat in acting(state)
    waiting = waiting_for(state, side)
    if state.status == "finished":
        text = "The game is over"
    elif mine:
        text = current(state).prompt
    else:
        text = "Waiting for " + " and ".join(waiting)
    step = None if state.step == FINISHED else current(state)
    lost: list[LostIfDone] = []
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
