"""Random-play fuzzer for the rules engine (DESIGN.md, "How we know it works").

Random agents play complete games through `legal_actions`/`apply`; after every step the
engine's invariants are checked, and on sampled states the non-interference property of
`view()`. A failing game is saved as a (scenario, seed, log) JSON file that
tests/rules/test_fuzz_cases.py replays.

    python -m tools.fuzz --games 5000 [--scenario one] [--seed 0] [--teams]
                         [--mode two-player|umpired|double-blind]

With `--teams` (Scenarios Two and Three, 17a) every game has two seats a side; the
non-interference property is checked for every one of them, and the count of states
checked per seat is printed. With `--mode umpired` or `--mode double-blind` (18) the
Operations Cards are private: the scramble also changes the enemy's units (their boxes
and damage, beyond what the umpire reported), his announcements and launches, and the
umpire's seat (umpired) is checked against the dice; every event a player may see is
checked against the mode's audiences; with teams, each player against a scramble of his
teammate's command too (18a). The count of checked states is printed per seat and per
kind of seat (`checked_kind_player=`, `_team_player=`, `_umpire=`, `_spectator=`), and
every game's log is replayed and compared with its final state. In `umpired` the umpire
now and then deals with a report waiting for him (18c: releases, holds or edits it, 18d),
and a player's scramble changes every report not yet released to his side.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from app.data import catalog
from app.data.options import optional_rules
from app.rules import Action, State, apply, can_take_back, legal_actions, new_game, replay, view
from app.rules.base.landing import holds_planes, room
from app.rules.base.units import launch_number, ship_record
from app.rules.base.victory import victory_points
from app.rules.board.boards import searchboard_of
from app.rules.engine.events import Event, visible_to
from app.rules.engine.state import (
    ARMING,
    ELIMINATED,
    FLIP,
    FLYING,
    GONE,
    HIGH_CAP,
    LOW_CAP,
    MAX_STRIKE,
    READY,
    SHIPS,
    SIDES,
    STRIKE,
    Side,
    other,
)
from app.rules.engine.steps import StepId
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.theatre_air import no_launch_number
from app.rules.modes.audiences import mode_of
from app.rules.modes.command_copies import separate
from app.rules.modes.commands import command_of, force_command
from app.rules.modes.r17_teams.radio import readable
from app.rules.modes.reports import DAMAGE, OPEN, find
from app.rules.modes.seats import Seat, acting, is_umpire, players, seat_of, seats, side_of_seat
from app.rules.modes.umpire import UMPIRE, UMPIRE_ROLLS, in_sight
from tools.fuzz_identity import Ledger, check_unit_keys

FAILURES = Path("fuzz-failures")
MAX_ACTIONS = 20_000
# Steps of the Action Phase before the air units leave their Normal Strike boxes (3a-3c, 12d2).
EARLY_STEPS = (StepId.ASSEMBLY, StepId.READY, StepId.SHADOWING, StepId.SEA_MOVEMENT)


class InvariantError(AssertionError):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise InvariantError(message)


# ---------------------------------------------------------------- the agent


def side_of(state: State, seat: str) -> Side:
    who = seat_of(state, seat)
    assert who is not None, f"{seat!r} is no seat of this game"
    return who.side


def _nearest_enemy(state: State, side: Side, hex_: str) -> int:
    grid = searchboard_of(state)
    enemy = [h for h in state.boards[other(side)].forces.values() if h is not None]
    return min((grid.distance(hex_, h) for h in enemy), default=0)


# 18c: how often the umpire of an umpired game acts, between two of the players' actions,
# when a report waits for him, and when none does (a message, a note, an auto-release)
UMPIRE_ACTS = 0.3
UMPIRE_IDLE_ACTS = 0.02
_SAID = ("nothing", "something", "smoke on the horizon")  # 18d: a sighting in his words
_DAMAGE_SAID = ("eliminated", "flipped", "flipped and 1 hit", "1 hit", "2 hits")  # 18c2
_WORDS = ("strike", "at", "dawn", "hold", "east", "of", "Midway", "carriers", "in", "M5", "E9")


def _umpire_turn(state: State, rng: random.Random) -> bool:
    """Whether the umpire acts next (in `umpired`: he acts whenever he likes, 18c)."""
    if not mode_of(state.mode).umpire_seat or state.status == "finished":
        return False
    waiting = any(d.status in OPEN for d in state.drafts)
    return rng.random() < (UMPIRE_ACTS if waiting else UMPIRE_IDLE_ACTS)


def choose(state: State, seat: str, rng: random.Random) -> Action:
    """A random legal action, its written fields filled in (17c3: a note's text; 18c, 18d:
    the umpire's messages and notes, and his edits in words the rules read)."""
    action = _umpire_pick(state, rng) if is_umpire(state, seat) else _pick(state, seat, rng)
    if action.is_written:
        return action
    if action.kind == "edit-report":
        draft = find(state, action.get("report"))
        assert draft is not None  # offered: an open report
        if draft.kind == DAMAGE:
            return action.written(text=rng.choice(_DAMAGE_SAID))
        return action.written(text=rng.choice([*_SAID, f"{rng.randint(1, 40)} ships"]))
    words = [rng.choice(_WORDS) for _ in range(rng.randint(1, 12))]
    return action.written(text=" ".join(words))


# Auto-release rarely: once a kind goes through at once, its reports are no drafts.
_UMPIRE_WEIGHTS = {
    "release-report": 8.0,
    "edit-report": 3.0,
    "hold-report": 2.0,
    "auto-release": 0.2,
}


def _umpire_pick(state: State, rng: random.Random) -> Action:
    """18c: the umpire mostly releases reports as they are, sometimes edits or holds one,
    writes a message or a note, or switches a kind's auto-release."""
    by_kind: dict[str, list[Action]] = {}
    for a in legal_actions(state, UMPIRE):
        by_kind.setdefault(a.kind, []).append(a)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [_UMPIRE_WEIGHTS.get(k, 1.0) for k in kinds])[0]
    return rng.choice(by_kind[kind])


def _pick(state: State, seat: str, rng: random.Random) -> Action:
    """A random legal action, leaning toward finishing steps and toward the enemy.

    The lean reads the enemy's true positions: a test agent may cheat, so that battles
    happen often enough to be tested.
    """
    acts = legal_actions(state, seat)
    side = side_of(state, seat)
    by_kind: dict[str, list[Action]] = {}
    for a in acts:
        by_kind.setdefault(a.kind, []).append(a)
    for kind in ("fly", "route"):  # 18c1: a scout's route, hex by hex
        if kind in by_kind and rng.random() < 0.7:
            return min(
                by_kind[kind],
                key=lambda a: (_nearest_enemy(state, side, a.get("hex")), rng.random()),
            )
    for kind in ("move", "enter"):  # task forces close with the enemy, so that battles happen
        if kind in by_kind and rng.random() < 0.6:
            return min(
                by_kind[kind],
                key=lambda a: (_nearest_enemy(state, side, a.get("hex")), rng.random()),
            )
    if "launch" in by_kind and rng.random() < 0.8:
        return rng.choice(by_kind["launch"])
    if "land" in by_kind and rng.random() < 0.9:
        return rng.choice(by_kind["land"])
    if "done" in by_kind and (len(acts) == 1 or rng.random() < 0.35):
        return by_kind["done"][0]
    if "position" in by_kind and "formation" in by_kind and rng.random() < 0.5:
        return Action("formation")
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


# ---------------------------------------------------------------- invariants


def check_invariants(state: State) -> None:
    """No unit in two places; capacities and launch numbers respected; damage in range."""
    for side in SIDES:
        board = state.boards[side]
        flying = {u.id for u in state.units[side].values() if u.box == FLYING}
        check(
            flying == set(board.flights),
            f"{side}: flying units {flying} != flights {set(board.flights)}",
        )
        for u in state.units[side].values():
            check(0 <= u.damage <= ELIMINATED, f"{u.id}: damage {u.damage}")
            check((u.box == GONE) == (u.damage >= ELIMINATED), f"{u.id}: eliminated flag vs damage")
            if u.box in (READY, ARMING):
                carrier = state.units[side][u.area]
                check(carrier.box != GONE, f"{u.id} aboard eliminated {carrier.id}")
            if u.box == SHIPS:
                check(u.area in board.forces, f"{u.id} in unknown task force {u.area}")
            if u.box in (STRIKE, MAX_STRIKE):
                check(
                    state.step in EARLY_STEPS,
                    f"{u.id} in a Normal Strike box",
                )
        for c in state.units[side].values():
            if holds_planes(state, c):
                check(room(state, c) >= 0, f"{c.id} over capacity")  # 5a3, Bases 2
                if state.step in EARLY_STEPS and not no_launch_number(state, c):
                    check(
                        state.launched.get(c.key, 0)
                        <= launch_number(c) * (2 if "12b2" in state.options else 1),
                        f"{c.id} over launch number",
                    )
        for m, h in board.forces.items():
            check(h is None or searchboard_of(state).contains(h), f"{m} at {h}")
    check(state.status == "finished" or bool(acting(state)), f"dead end in {state.step}")


def independent_points(state: State) -> dict[str, int]:
    """7a3 from scratch: the chart, unit by unit, without the engine's victory module."""
    if catalog().scenarios[state.scenario].theatre is not None:
        return independent_theatre_points(state)
    chart = catalog().victory_points
    totals = {"japan": 0, "usa": 0}
    for side in SIDES:
        for u in state.units[side].values():
            if u.ship:
                rec = ship_record(u)
                kind, elim = rec.type, rec.back is None
            else:
                arec = catalog().airunit(side, u.id)
                kind = "scout" if arec.type == "S" else "air"
                elim = arec.back_label == "ELIM"
            if u.box == GONE:
                pts = chart.eliminated.get(kind, 0)
                if kind in ("air", "DD", "AP") and (elim or u.started_back):
                    pts //= 2
            elif u.ship and 3 <= u.damage < 6:
                pts = chart.flipped.get(kind, 0)
            else:
                pts = 0
            totals[other(side)] += pts
    spec = catalog().scenarios[state.scenario]
    for marker, bonus in dict(spec.special.get("optional_force_bonus", {})).items():
        if marker in state.boards[bonus["side"]].committed:
            totals[bonus["points_to"]] += bonus["points"]
    if spec.control_of_midway_points:
        holder = "japan" if state.boards["japan"].controls_midway else "usa"
        totals[holder] += spec.control_of_midway_points
    return totals


def independent_theatre_points(state: State) -> dict[str, int]:
    """The expansion's Victory Points from scratch: the scenario's points per ship sunk (an
    AP's after landing once landed), one per three enemy planes lost as recorded, the
    landings once a place, the Allied bonuses."""
    rules = catalog().scenarios[state.scenario].theatre
    assert rules is not None
    totals = {"japan": 0, "usa": 0}
    for side in SIDES:
        lost = sum(
            n for day in record(state).planes_lost.get(side, {}).values() for n in day.values()
        )
        totals[other(side)] += lost // rules.planes_per_point
        for u in state.units[side].values():
            if u.ship and u.box == GONE:
                table = (
                    rules.points_after_landing if u.key in record(state).landed else rules.points
                )
                totals[other(side)] += table.get((side, u.id), 0)
    places = set(record(state).landed.values())
    for landing in rules.landings:
        if landing.area in places:
            totals[landing.side] += landing.points
    for bonus in rules.bonuses:
        if bonus.condition == "no-landing" and bonus.area not in places:
            totals[bonus.side] += bonus.points
        if bonus.condition == "all-destroyed-before-landing":
            aps = [
                u
                for u in state.units[other(bonus.side)].values()
                if fnmatchcase(u.id, bonus.units or "*")
            ]
            if aps and all(u.box == GONE and u.key not in record(state).landed for u in aps):
                totals[bonus.side] += bonus.points
    return totals


def scramble(state: State, seat: str, rng: random.Random) -> State:
    """A state that differs from `state` only in what `seat` may not know: every other
    side's Searchboard (a seat sees its own side's, 1c; a spectator none) with who commands
    what there and which of its players are done with the step (17a), the text of every
    radio note it may not read, its own side's too (17c3), and the dice."""
    s = state.clone()
    who = seat_of(state, seat)
    hidden = [] if is_umpire(state, seat) else [x for x in SIDES if who is None or x != who.side]
    if who is not None and who.command is not None and separate(s):
        _scramble_teammate(s, who, rng)
    if not is_umpire(state, seat):
        whole = who is not None and (who.command is None or not separate(s))
        _scramble_drafts(s, rng, who.side if whole and who is not None else None)
    for x in hidden:
        _scramble_commands(s, x, rng)
        if not mode_of(s.mode).open_cards:
            _scramble_card(s, x, None if who is None else who.side, rng)
    hexes = searchboard_of(s).hexes()
    for side in hidden:
        board = s.boards[side]
        board.forces = {
            m: (rng.choice(hexes) if h is not None else None) for m, h in board.forces.items()
        }
        board.turn_start = {m: rng.choice(hexes) for m in board.turn_start}
        board.moved = [m for m in board.moved if rng.random() < 0.5]
        for f in board.flights.values():
            f.hex, f.moved, f.path = rng.choice(hexes), rng.randint(0, 9), [rng.choice(hexes)]
        board.groups = {f"{rng.choice(hexes)}-{g}": v for g, v in board.groups.items()}
        board.may_search = {g: rng.choice(hexes) for g in board.may_search}
        board.routes = {u: [rng.choice(hexes) for _ in r] for u, r in board.routes.items()}
        board.over = rng.choice([None, *board.flights])
        board.searched = [rng.choice(hexes) for _ in board.searched]
        board.sea_searched = [rng.choice(hexes) for _ in board.sea_searched]
        board.intel = board.intel[: rng.randint(0, len(board.intel))]
        board.night_watch = {u: rng.choice(hexes) for u in board.night_watch}
        if board.report is not None:
            board.report.actual = rng.randint(1, 40)
    for board in s.boards.values():  # 17c3: the text of every note the seat may not read
        for note in board.radio:
            if not readable(note, seat):
                note.text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 12)))
    s.rng = rng.getrandbits(64)
    s.seed = rng.getrandbits(64)
    return s


def _scramble_drafts(s: State, rng: random.Random, own: Side | None) -> None:
    """18c: what the rules made of every report not yet released, and the truth beside it
    (the umpire's alone until he releases it); of a report to the seat's `own` side, not
    the hex its scout entered, which that side knows (app/rules/modes/r18_umpired/heard.py)."""
    hexes = searchboard_of(s).hexes()
    for d in s.drafts:
        if d.status in OPEN:
            hex_ = d.data.get("hex") if d.side == own else rng.choice(hexes)
            d.data = {**d.data, "hex": hex_, "ships": rng.randint(1, 40)}
            d.data |= {"damage": rng.randint(0, ELIMINATED), "found": []}
            d.truth = {"scrambled": rng.random()}


def _scramble_teammate(s: State, who: Seat, rng: random.Random) -> None:
    """18a with teams: where the teammate's task forces and flying air units are, their
    routes (18c1), and which of the teammate's carriers' air units wait in which box."""
    board = s.boards[who.side]
    hexes = searchboard_of(s).hexes()
    for m, h in board.forces.items():
        if h is not None and force_command(s, who.side, m) != who.command:
            board.forces[m] = rng.choice(hexes)
            if m in board.turn_start:
                board.turn_start[m] = rng.choice(hexes)
    theirs = {uid for uid in s.units[who.side] if command_of(board, uid) != who.command}
    for uid, f in board.flights.items():
        if uid in theirs:
            f.hex, f.moved, f.path = rng.choice(hexes), rng.randint(0, 9), [rng.choice(hexes)]
    for uid in board.routes:
        if uid in theirs:
            board.routes[uid] = [rng.choice(hexes) for _ in board.routes[uid]]
    waiting = [
        u
        for u in s.units[who.side].values()
        if u.id in theirs and u.box in (READY, ARMING) and command_of(board, u.area) != who.command
    ]
    places = [(u.box, u.area) for u in waiting]
    rng.shuffle(places)
    for u, (box, area) in zip(waiting, places, strict=True):
        s.put(replace(u, box=box, area=area))


# Operations Card boxes an air unit may be shuffled between (18b: private in umpired modes).
_BOXES = (READY, ARMING, STRIKE, MAX_STRIKE, HIGH_CAP, LOW_CAP)


def _scramble_card(s: State, side: Side, viewer: Side | None, rng: random.Random) -> None:
    """18b, 18c2: `side`'s Operations Card, private from `viewer` (a side, or None for a
    spectator): the damage of its units beyond what the viewer was told or sees on the
    Battleboard, where its air units wait, how many each carrier launched, its
    announcements and what it was told of the viewer's units."""
    seen = in_sight(s, viewer) if viewer is not None else frozenset()
    told = s.boards[viewer].told if viewer is not None else {}
    for u in s.units[side].values():
        if u.box != GONE and u.id not in seen and u.id not in told:
            damage = rng.randint(0, ELIMINATED - 1)
            if damage >= FLIP and not u.ship:
                damage = rng.randint(0, FLIP - 1)  # ELIM-back air units: front side only
            s.put(replace(u, damage=damage))
    waiting = [u for u in s.units[side].values() if u.box in _BOXES and u.id not in seen]
    places = [(u.box, u.area) for u in waiting]
    rng.shuffle(places)
    for u, (box, area) in zip(waiting, places, strict=True):
        s.put(replace(u, box=box, area=area))
    for key in [k for k in s.launched if k.side == side]:
        s.launched[key] = float(rng.randint(0, 4))
    hexes = searchboard_of(s).hexes()
    s.announcements = [
        (x, how, rng.choice(hexes) if x == side else h) for x, how, h in s.announcements
    ]
    board = s.boards[side]
    board.told = {uid: rng.randint(0, ELIMINATED) for uid in board.told}
    s.shifted = [k for k in s.shifted if k.side != side or rng.random() < 0.5]


def check_audiences(state: State, events: list[Event]) -> None:
    """18b, 18c: in an umpired mode no player hears of the umpire's dice, nor of a
    combat's result on an enemy unit (the umpire's report tells him)."""
    if mode_of(state.mode).open_cards:
        return
    for e in events:
        for p in players(state):
            if not visible_to(e, p.id):
                continue
            check(e.kind not in UMPIRE_ROLLS and e.kind != "umpire-die", f"{p.id} sees {e.kind}")
            target = e.data.get("target_side")
            check(
                "outcome" not in e.data or target == p.side,
                f"{p.id} sees the result of {e.kind} on an enemy unit",
            )


# A command's own doings (3a-3c, 5, 12c2): in an umpired team game its player's only (18a).
_COMMAND_DOINGS = frozenset(
    {"move", "enter", "launch", "cap", "max-strike", "ready", "arm", "land"}
)


def check_command_copies(state: State, events: list[Event]) -> None:
    """18a with teams: no player of an umpired team game hears of his teammate's doings."""
    if not separate(state):
        return
    for e in events:
        if e.kind not in _COMMAND_DOINGS:
            continue
        side = e.data.get("side", side_of_seat(e.audience))
        check(side in SIDES, f"{e.kind} heard by {e.audience}, of no side")
        board = state.boards[side]
        uid, marker = e.data.get("unit"), e.data.get("force")
        command = command_of(board, uid) if uid is not None else force_command(state, side, marker)
        for p in players(state):
            if visible_to(e, p.id) and p.side == side:
                check(p.command == command, f"{p.id} hears of {e.kind} {uid or marker} (18a)")


def _scramble_commands(s: State, side: Side, rng: random.Random) -> None:
    """17a: the side's assignment of units and task forces to its players, its overall
    commander and which of its players are done with the step."""
    if not s.teams:
        return
    board = s.boards[side]
    mine = [x.command for x in seats(s) if x.side == side and x.command is not None]
    board.commands = {u: rng.choice(mine) for u in board.commands}
    board.force_commands = {m: rng.choice(mine) for m in board.force_commands}
    board.overall = rng.choice(mine)
    ships = sorted(u.id for u in s.units[side].values() if u.ship)
    board.flagships = {c: rng.choice(ships) for c in mine if rng.random() < 0.7}
    ours = [d for d in s.done if side_of_seat(d) != side]
    theirs = [x.id for x in seats(s) if x.side == side and rng.random() < 0.5]
    if side in s.waiting and len(theirs) < len(mine):
        s.done = ours + theirs


def check_non_interference(
    state: State, rng: random.Random, checked: Counter[str] | None = None
) -> None:
    """DESIGN.md: states that differ only in what a seat may not know look the same to it."""
    if state.status == "finished":
        return
    for seat in (*(x.id for x in seats(state)), "spectator"):  # the umpire's too (18)
        if checked is not None:
            checked[seat] += 1
        other_state = scramble(state, seat, rng)
        check(
            view(state, seat) == view(other_state, seat),
            f"view of {seat} depends on hidden information",
        )
        check(
            legal_actions(state, seat) == legal_actions(other_state, seat),
            f"legal actions of {seat} depend on hidden information",
        )


TAKE_BACK_WINDOW = 64  # states kept to check a take-back against (older: not checked)


Past = deque[tuple[State, str, Action, list[Event]]]


def check_take_back(past: Past, state: State) -> None:
    """Issue 14 and 31: a seat is offered its take-back only when nothing was seen by
    anyone else: taken back as the store does (its last action out of the log, the other
    seats' actions after it replayed), every other player's and the spectator's view is
    as it is now (less their own take-back flags), and so is what their logs hold. The
    umpire, who sees every move as it is made, aside (18c1, app/rules/modes/takeback.py).
    `past` holds the last actions, each with the state before it and its events."""
    for who in seats(state):
        if not can_take_back(state, who.id).actions:
            continue
        mine = [i for i, (_, seat, _, _) in enumerate(past) if seat == who.id]
        if not mine:
            continue  # its last action is older than the window
        last = mine[-1]
        back = past[last][0]
        told_now: list[Event] = []
        told_back: list[Event] = []
        for i in range(last, len(past)):
            _before, seat, action, told = past[i]
            told_now.extend(told)
            if i != last:
                back, events = apply(back, seat, action)
                told_back.extend(events)
        for watcher in (*(s.id for s in seats(state) if s.id != who.id), "spectator"):
            if is_umpire(state, watcher):
                continue
            check(
                _shown(view(back, watcher)) == _shown(view(state, watcher)),
                f"{who.id}'s take-back would change {watcher}'s view",
            )
            check(
                [e for e in told_back if visible_to(e, watcher)]
                == [e for e in told_now if visible_to(e, watcher)],
                f"{who.id}'s take-back would change {watcher}'s log",
            )


def _shown(doc: dict[str, Any]) -> dict[str, Any]:
    prompt = {k: v for k, v in doc["prompt"].items() if k != "take_back"}
    return {**doc, "prompt": prompt}


# ---------------------------------------------------------------- games


@dataclass
class GameResult:
    scenario: str
    seed: int
    actions: int
    log: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    battles: int = 0
    final: State | None = None
    options: frozenset[str] = frozenset()
    teams: bool = False
    checked: Counter[str] = field(default_factory=Counter)  # non-interference, per seat
    mode: str = "two-player"


def play_game(
    scenario: str,
    seed: int,
    interference_every: int = 7,
    log: list[tuple[str, dict[str, Any]]] | None = None,
    options: frozenset[str] = frozenset(),
    teams: bool = False,
    mode: str = "two-player",
) -> GameResult:
    """One complete random game, every invariant checked after every step; with `teams`,
    two seats a side (17a), each playing only what it is offered; in `mode` (18: the
    umpired modes check every seat's view against a scramble of the enemy's units too).

    `log`, if given, receives the actions as they are played, so a failure can be saved.
    """
    rng = random.Random(seed)
    state = new_game(scenario, options, seed, mode, teams)
    result = GameResult(
        scenario, seed, 0, log if log is not None else [], options=options, teams=teams, mode=mode
    )
    ledger = Ledger()
    past: Past = deque(maxlen=TAKE_BACK_WINDOW)
    while state.status != "finished":
        check(result.actions < MAX_ACTIONS, "the game does not end")
        umpire = _umpire_turn(state, rng)
        seat = UMPIRE if umpire else _next_seat(state, rng)
        action = choose(state, seat, rng)
        result.log.append((seat, action.to_json()))
        before = state
        state, events = apply(state, seat, action)
        past.append((before, seat, action, events))
        check_take_back(past, state)
        ledger.record(before, seat, action, events)
        result.actions += 1
        result.battles += sum(1 for e in events if e.kind == "battle")
        check_invariants(state)
        check_unit_keys(state)  # 4c2, 3b: a unit is its side and its id
        ledger.check(state)
        check_audiences(state, events)
        check_command_copies(state, events)
        if result.actions % interference_every == 0:
            check_non_interference(state, rng, result.checked)
    rebuilt, _ = replay(scenario, options, seed, result.log, mode, teams)
    check(rebuilt == state, "replay of the log differs from the state")
    check(state.victory is not None, "no victory points at the end")
    assert state.victory is not None
    check(state.victory["points"] == independent_points(state), "victory points do not add up")
    check(victory_points(state) == state.victory, "victory points changed after the end")
    result.final = state
    return result


def _next_seat(state: State, rng: random.Random) -> str:
    """One of the seats that may act; with teams, one that has something it may do."""
    seats_now = acting(state)
    if not state.teams:
        return seats_now[0] if len(seats_now) == 1 else rng.choice(seats_now)
    ready = [s for s in seats_now if legal_actions(state, s)]
    check(bool(ready), f"dead end in {state.step}: {seats_now} may act and have nothing to do")
    return rng.choice(ready)


def save_failure(
    scenario: str,
    seed: int,
    log: list[tuple[str, dict[str, Any]]],
    error: str,
    options: frozenset[str] = frozenset(),
    teams: bool = False,
    mode: str = "two-player",
) -> Path:
    FAILURES.mkdir(exist_ok=True)
    suffix = ("-teams" if teams else "") + ("" if mode == "two-player" else f"-{mode}")
    path = FAILURES / f"{scenario}-{seed}{suffix}.json"
    record = {
        "scenario": scenario,
        "options": sorted(options),
        "teams": teams,
        "mode": mode,
        "seed": seed,
        "log": log,
        "error": error,
    }
    path.write_text(json.dumps(record, indent=1))
    return path


def random_options(
    rng: random.Random, mode: str = "two-player", scenario: str = "one"
) -> frozenset[str]:
    """A random subset of the optional rules available in `mode`, with what each one needs
    (scenarios/options.toml: 15b needs 14, 16f5 and 16k need 16)."""
    chosen = {o for o in mode_options(mode, scenario) if rng.random() < 0.5}
    rules = optional_rules().options
    while missing := {n for o in chosen for n in rules[o].needs} - chosen:
        chosen |= missing
    return frozenset(chosen)


def mode_options(mode: str, scenario: str = "one") -> list[str]:
    """The optional rules the mode offers (18: the umpired modes refuse 11a) in the
    scenario (the expansion's have no scouts: scenarios/options.toml)."""
    refused = {rule for rule, _ in mode_of(mode).refuses}
    return [o for o in sorted(optional_rules().offered(scenario)) if o not in refused]


def seat_kind(seat: str) -> str:
    """What kind of seat a checked seat is: a side's one player, a team player (17a), the
    umpire (18) or a spectator - the figures `run` prints per kind."""
    if seat in ("spectator", "umpire"):
        return seat
    return "team_player" if "-" in seat else "player"


def run(
    scenario: str,
    games: int,
    first_seed: int,
    options: str,
    teams: bool = False,
    mode: str = "two-player",
    counts: Path | None = None,
) -> int:
    """Play `games` games; options "none", "all", or "random" (a random subset each game).
    With `counts`, each game's seed, actions and battles are written there, a JSON line
    each: two checkouts' files compared say whether a change of structure changed play."""
    failures = 0
    battles = actions = 0
    checked: Counter[str] = Counter()
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        log: list[tuple[str, dict[str, Any]]] = []
        chosen = {
            "none": frozenset(),
            "all": frozenset(mode_options(mode, scenario)),
            "random": random_options(random.Random(seed), mode, scenario),
        }[options]
        try:
            result = play_game(scenario, seed, log=log, options=chosen, teams=teams, mode=mode)
            battles += result.battles
            actions += result.actions
            checked += result.checked
            if counts is not None:
                with counts.open("a") as f:
                    line = {"seed": seed, "actions": result.actions, "battles": result.battles}
                    f.write(json.dumps(line) + "\n")
        except Exception:  # every failure is saved, whatever it is
            failures += 1
            path = save_failure(scenario, seed, log, traceback.format_exc(), chosen, teams, mode)
            print(f"FAIL seed={seed}: saved {path}", file=sys.stderr)
            traceback.print_exc()
    elapsed = time.perf_counter() - start
    per_seat = " ".join(f"checked_{s}={n}" for s, n in sorted(checked.items()))
    kinds: Counter[str] = Counter()
    for seat, n in checked.items():
        kinds[seat_kind(seat)] += n
    per_seat += " " + " ".join(f"checked_kind_{k}={n}" for k, n in sorted(kinds.items()))
    print(
        f"fuzz scenario={scenario} mode={mode} options={options} teams={teams} games={games} "
        f"failures={failures} actions={actions} battles={battles} seconds={elapsed:.1f} "
        f"{per_seat}"
    )
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--scenario", default="one")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", choices=("none", "all", "random"), default="none")
    parser.add_argument("--teams", action="store_true", help="two seats a side (17a)")
    parser.add_argument("--mode", default="two-player", help="two-player, umpired, double-blind")
    parser.add_argument(
        "--counts", type=Path, help="append each game's seed, actions and battles (JSON lines)"
    )
    args = parser.parse_args()
    failed = run(
        args.scenario, args.games, args.seed, args.options, args.teams, args.mode, args.counts
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
