"""The fuzzer's unit-identity invariant: every unit a record of the state names is a unit
of the side the record says.

Both sides have units with the same ids (DD1-DD5, scouts A-O). A record holding units of
both sides keys them by `UnitKey`; a record holding bare ids belongs to one side by
construction (a side's Board, a Battle's defender or attacker, a per-side dict of the
surface combat). `unit_refs` lists every unit a state's records name, with that side;
`check_unit_keys` fails on one that side has not. `BARE_ID_FIELDS` names the bare-id
fields it reads, so that tests/rules/test_unit_identity.py can show none is left out.

`Ledger` checks the behaviour: a unit its own side has not used is still offered, whatever
the other side did with its unit of the same id (3b shifting, 4c2 anti-aircraft fire).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from app.rules import Action, Event, hooks, legal_actions
from app.rules.board.boards import battleboard
from app.rules.engine.state import (
    ARMING,
    GONE,
    READY,
    SIDES,
    Battle,
    Board,
    PendingCombat,
    Side,
    State,
    Unit,
    UnitKey,
    other,
)
from app.rules.engine.steps import StepId
from app.rules.modes.commands import command_of
from app.rules.modes.seats import acting, seat_of
from app.rules.optional.surface.model import Surface

Ref = tuple[str, UnitKey]  # (where it is recorded, the unit)

_BATTLE = """ships air positions targets air_hexes aa_ships aa_target bombed escorts caps
facing_cap joined escort_fired cap_fired breakthrough intercepted low_after waves peeled"""
_SURFACE = "ships hexes facings lines spent gunned fired designated broke_off"
BARE_ID_FIELDS: frozenset[tuple[str, str]] = frozenset(
    {
        *(("Board", f) for f in ("flights", "groups", "night_watch", "engaged_before")),
        ("Board", "commands"),  # 17a: the side's own units -> their command
        ("Board", "routes"),  # 18c1: the side's own scouts -> the hexes of their routes
        ("Board", "over"),  # 18c1: one of the side's own scouts
        ("Board", "flagships"),  # 17c2: command -> one of the side's own ships
        ("Board", "told"),  # 18c2: the OTHER side's units -> the damage reported of them
        ("Spotting", "forces"),
        *(("Battle", f) for f in _BATTLE.split()),
        ("PendingCombat", "target"),
        ("Salvo", "target"),
        ("Torpedo", "ship"),
        *(("SurfaceCombat", f) for f in _SURFACE.split()),
        ("Surface", "fired"),
        ("Contact", "broke_off"),
        ("Bombardment", "stacks"),
    }
)


def _keys(where: str, side: Side, ids: Iterable[str]) -> Iterator[Ref]:
    return ((where, UnitKey(side, uid)) for uid in ids)


def _keyed(where: str, value: object) -> Iterator[Ref]:
    """Every `UnitKey` anywhere in a value (lists, tuples, dicts' keys and values)."""
    if isinstance(value, UnitKey):
        yield where, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _keyed(where, k)
            yield from _keyed(where, v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _keyed(where, v)


def _board(side: Side, board: Board) -> Iterator[Ref]:
    yield from _keys("Board.flights", side, board.flights)
    yield from _keys("Board.groups", side, (u for g in board.groups.values() for u in g))
    yield from _keys("Board.night_watch", side, board.night_watch)
    yield from _keys("Board.engaged_before", side, board.engaged_before)
    yield from _keys("Board.commands", side, board.commands)
    yield from _keys("Board.routes", side, board.routes)
    yield from _keys("Board.over", side, [] if board.over is None else [board.over])
    yield from _keys("Board.flagships", side, board.flagships.values())
    yield from _keys("Board.told", other(side), board.told)
    for spot in board.intel:
        ships = (u for us in spot.forces.values() for u in us)
        yield from _keys("Spotting.forces", other(side), ships)


def _battle(b: Battle) -> Iterator[Ref]:
    d, a = other(b.attacker), b.attacker
    yield from _keys("Battle.defender", d, [*b.ships, *b.positions, *b.aa_ships, *b.caps])
    yield from _keys("Battle.defender", d, [*b.low_after, *b.facing_cap, *b.breakthrough])
    yield from _keys("Battle.defender", d, b.peeled)
    yield from _keys("Battle.defender", d, [*b.targets.values(), *b.joined.values()])
    yield from _keys("Battle.defender", d, (r.split("/")[0] for r in b.bombed))
    yield from _keys("Battle.attacker", a, [*b.air, *b.air_hexes, *b.escorts, *b.targets])
    yield from _keys("Battle.attacker", a, [*b.escort_fired, *b.cap_fired, *b.joined])
    yield from _keys("Battle.attacker", a, [*b.facing_cap.values(), *b.breakthrough.values()])
    yield from _keys("Battle.attacker", a, (r.split("/")[1] for r in b.intercepted))
    yield from _keys("Battle.attacker", a, (u for w in b.waves for u in w))
    yield from _keys("Battle.attacker", a, [] if b.aa_target is None else [b.aa_target])


def _pending(p: PendingCombat) -> Iterator[Ref]:
    yield "PendingCombat.target", UnitKey(p.target_side, p.target)


def _surface(rec: Surface) -> Iterator[Ref]:
    for side in SIDES:
        yield from _keys("Surface.fired", side, rec.fired[side])
    for contact in rec.contacts:
        yield from _keys("Contact.broke_off", "japan", contact.broke_off)
    if rec.bombardment is not None:
        stacks = rec.bombardment.stacks.values()
        yield from _keys("Bombardment.stacks", "japan", (u for s in stacks for u in s))
    c = rec.combat
    if c is None:
        return
    for side in SIDES:
        ids = [*c.ships[side], *c.hexes[side], *c.facings[side], *c.spent[side]]
        ids += [*c.gunned[side], *c.fired[side], *c.broke_off[side]]
        ids += [u for line in c.lines[side] for u in line]
        ids += [u for group in c.designated[side] for u in group]
        yield from _keys("SurfaceCombat", side, ids)
    for t in c.torpedoes:
        yield "Torpedo.ship", UnitKey(t.side, t.ship)
    if c.salvo is not None:
        yield "Salvo.target", UnitKey(c.salvo.target_side, c.salvo.target)


def unit_refs(state: State) -> Iterator[Ref]:
    """Every unit a record of the state names, with the side it belongs to."""
    for f in dataclasses.fields(state):
        yield from _keyed(f"State.{f.name}", getattr(state, f.name))
    if state.battle is not None:
        yield from _keyed("Battle.held", state.battle.held)
        yield from _battle(state.battle)
    for side, board in state.boards.items():
        yield from _board(side, board)
    if state.pending is not None:
        yield from _pending(state.pending)
    if isinstance(state.surface, Surface):
        yield from _surface(state.surface)


def check_unit_keys(state: State) -> None:
    """Each unit named in a record is a unit of the side it is recorded for."""
    for side, units in state.units.items():
        for uid, u in units.items():
            if u.key != (side, uid):
                raise AssertionError(f"State.units[{side}][{uid}] holds {u.key}")
    for where, key in unit_refs(state):
        if key.id not in state.units[key.side]:
            raise AssertionError(f"{where} names {key.id} as a unit of {key.side}, which has none")


# ---------------------------------------------------------------- offers (3b, 4c2)

SHIFTS = ("ready", "arm", "stage")  # 3b, 12c2


@dataclass
class Ledger:
    """What each side has done with its own units, from its own actions: the air units it
    shifted this Ready Step (3b) and the ships whose AA it used this Combat Phase (4c2,
    13b2.1: again for each wave). A unit the other side used is still offered."""

    turn: int = 0
    shifted: set[UnitKey] = field(default_factory=set)
    aa_used: set[UnitKey] = field(default_factory=set)

    def record(self, before: State, seat: str, action: Action, events: list[Event]) -> None:
        if before.turn != self.turn:
            self.turn, self.shifted, self.aa_used = before.turn, set(), set()
        who = seat_of(before, seat)
        if who is None:
            return
        side = who.side
        if before.step == StepId.READY and action.kind in SHIFTS:
            self.shifted.add(UnitKey(side, action.get("unit")))
        if action.kind in ("fire", "destroyers") and before.battle is not None:
            self.aa_used |= {UnitKey(side, s) for s in before.battle.aa_ships}
        for e in events:
            if e.kind == "wave" and before.battle is not None:
                defender = other(before.battle.attacker)
                self.aa_used -= {UnitKey(defender, s) for s in before.battle.ships}

    def check(self, state: State) -> None:
        """A unit its side has not used is offered (3b: shift it; 4c2: fire its AA)."""
        for seat in acting(state):
            if state.step == StepId.READY:
                self._check_ready(state, seat)
            if state.step == StepId.ANTI_AIRCRAFT_COMBAT:
                self._check_aa(state, seat)

    def _check_ready(self, state: State, seat: str) -> None:
        offered = legal_actions(state, seat)
        side = _side(state, seat)
        for u in _commanded(state, seat):
            kind = {ARMING: "ready", READY: "arm"}.get(u.box)
            missing = kind and u.key not in self.shifted and Action(kind, (u.id,)) not in offered
            if kind == "ready" and hooks.of(state).readying_refusal(state, u) is not None:
                missing = False  # Bombers 8: it waits its base's readying time
            if not u.ship and missing:
                raise AssertionError(f"3b: {side} {u.id} is not offered {kind}")

    def _check_aa(self, state: State, seat: str) -> None:
        b = state.battle
        side = _side(state, seat)
        if b is None or side == b.attacker or b.aa_ships:
            return
        offered = {a.get("ship") for a in legal_actions(state, seat) if a.kind == "aa"}
        mine = {u.id for u in _commanded(state, seat)}
        for s in b.ships:
            u = state.units[side][s]
            if s not in mine:
                continue
            if u.box == GONE or u.key in self.aa_used or not _aa_in_reach(state, b, s):
                continue
            if s not in offered:
                raise AssertionError(f"4c2: {side} {s} is not offered anti-aircraft fire")


def _commanded(state: State, seat: str) -> list[Unit]:
    """The units the seat commands: its side's, or with teams its command's (17a)."""
    who = seat_of(state, seat)
    assert who is not None, f"{seat!r} is no seat of this game"
    units = list(state.units[who.side].values())
    if who.command is None:
        return units
    board = state.boards[who.side]
    return [u for u in units if command_of(board, u.id) == who.command]


def _side(state: State, seat: str) -> Side:
    who = seat_of(state, seat)
    assert who is not None, f"{seat!r} is no seat of this game"
    return who.side


def _aa_in_reach(state: State, b: Battle, ship: str) -> bool:
    """4c1: an attacking air unit within three Battleboard hexes of the ship (4c: bombers,
    and fighters strafing, 14f); in the expansion's scenarios not a base (Bases 4), nor at
    land bombers on a ship or planes on a base (Bombers 3, 4: expansions/ptvm/strikes.py)."""
    grid = battleboard()
    if hooks.of(state).base_aa_apart(state, other(b.attacker), ship):
        return False
    targets = [
        a
        for a in [*b.air, *(e for e in b.escorts if e in b.targets)]
        if state.units[b.attacker][a].box != GONE
        and a in b.air_hexes
        and not hooks.of(state).outside_4c(state, b, a)
    ]
    if b.aa_target is not None:
        targets = [b.aa_target]
    here = b.positions.get(ship)
    return here is not None and any(grid.distance(here, b.air_hexes[a]) <= 3 for a in targets)
