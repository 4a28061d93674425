"""16a: surface contact, 16b: task force facing - the Combat Phase's surface combats.

After the last air battle (4, "surface combats are resolved after all bombing combats"),
every Searchboard hex holding task forces of both sides is checked. A side "has the
information" there if this Turn it had a search result of the actual number ("2X") or
exact information ("3X", 15a1.2; 3d3.2 without option 15a). If both sides have it, the
surface combat must be fought; if only one, that side decides, in secret (16a). The
combats are fought in hex order, each followed by the battle's end (4e); then the
Japanese may bombard the Midway base (16j).

16b: each task force marker faces the way it last moved into its hex (16b1), worked out
from where it started the Turn. Opposing markers that crossed the same or adjacent
hexsides set their ships up facing the same way; otherwise the opposite way; with
several markers, any pair facing the same way decides (16b2.3).
"""

from __future__ import annotations

from app.rules.base.units import BASE_ID
from app.rules.board.boards import forces_at, midway_hex, searchboard_of, ships_in
from app.rules.board.grid import Board
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import BASE, SIDES, Side, Spotting, State, Unit, UnitKey, other
from app.rules.engine.steps import Step, StepId, advance, register
from app.rules.optional.surface.bombardment import bombarding_ships, start_bombardment
from app.rules.optional.surface.fleet import night_turn
from app.rules.optional.surface.model import Contact, Surface, SurfaceCombat, record

STEP = StepId.SURFACE_CONTACT
INFORMED = ("actual", "exact")  # 16a: "2X" and "3X" (or 3d3.2's exact information)

# ---------------------------------------------------------------- 16b task force facing


def _last_hexside(grid: Board, start: str, end: str) -> int:
    """16b1: the direction a marker moved as it entered `end`, coming from `start`.

    # RULES? With 12a a marker may move two hexes and the path is not recorded: it is taken
    # to have come through the first neighbour of `end` (in DIRECTIONS order) on a shortest
    # path from `start`.
    """
    near = grid.distance(start, end) - 1
    turns = len(grid.directions)
    for d in range(turns):
        came_from = grid.step(end, (d + turns // 2) % turns)
        if came_from is not None and grid.distance(start, came_from) == near:
            return d
    raise AssertionError(f"no way from {start} into {end}")


def note_headings(state: State, rec: Surface) -> None:
    """16b1: the markers that moved this Turn now face the way they moved."""
    grid = searchboard_of(state)
    for side in SIDES:
        board = state.boards[side]
        for marker, hex_ in board.forces.items():
            start = board.turn_start.get(marker)
            if hex_ is None:
                rec.headings[side].pop(marker, None)
            elif start is not None and start != hex_:
                rec.headings[side][marker] = _last_hexside(grid, start, hex_)


def facing(state: State, hex_: str) -> str:
    """16b2: "same" or "opposite".

    # RULES? A marker that has not moved since it entered the Searchboard has no facing; with
    # no pair of facings known, the ships face the same way (as 16b2.3 prefers).
    """
    rec = record(state)
    pairs = [
        (rec.headings["usa"].get(m), rec.headings["japan"].get(n))
        for m in forces_at(state, "usa", hex_)
        for n in forces_at(state, "japan", hex_)
    ]
    known = [(a, b) for a, b in pairs if a is not None and b is not None]
    turns = len(searchboard_of(state).directions)
    if not known or any(min((a - b) % turns, (b - a) % turns) <= 1 for a, b in known):
        return "same"
    return "opposite"


# ---------------------------------------------------------------- 16a surface contact


def _informed(state: State, side: Side, hex_: str) -> bool:
    return any(
        s.turn == state.turn and s.hex == hex_ and s.level in INFORMED
        for s in state.boards[side].intel
    )


def _find_contacts(state: State) -> list[Contact]:
    """16a: hexes with both sides' task forces, and who has the information there.

    # RULES? Exact information from an air battle fought in the hex this Turn (4e, recorded
    # as a "battle" spotting) counts as exact search information.
    """
    mine = {s: {h for m, h in state.boards[s].forces.items() if h and forces_at(state, s, h)}
            for s in SIDES}  # fmt: skip
    out = []
    for h in sorted(mine["usa"] & mine["japan"]):
        deciders = [s for s in SIDES if _informed(state, s, h)]
        if deciders:
            out.append(Contact(h, deciders, "engaged" if len(deciders) == 2 else "undecided"))
    return out


def _undecided(state: State) -> tuple[Side, list[str]] | None:
    """The side to decide on contacts only it knows of (Side B first), and the hexes."""
    rec = record(state)
    assert state.side_a is not None
    for side in (other(state.side_a), state.side_a):
        hexes = [c.hex for c in rec.contacts if c.status == "undecided" and side in c.deciders]
        if hexes:
            return side, hexes
    return None


def _could_bombard(state: State, rec: Surface) -> bool:
    """What the Japanese know themselves: their ships in Midway's hex, the base still there."""
    base = state.units["usa"].get(BASE_ID)
    return (
        not rec.bombarded
        and base is not None
        and base.box == BASE
        and bool(bombarding_ships(state))
    )


def _may_bombard(state: State, rec: Surface) -> bool:
    """16j: Japanese ships in Midway's hex, and no American ship there left undefeated.

    # RULES? American ships in the hex without a surface contact this Turn keep the base
    # from bombardment (16j: the Japanese must first eliminate them or force them to break
    # off). The Japanese choose whether to bombard.
    """
    if not _could_bombard(state, rec):
        return False
    fought = [c for c in rec.contacts if c.hex == midway_hex() and c.status == "fought"]
    if forces_at(state, "usa", midway_hex()):
        return bool(fought) and not fought[0].us_left
    return True


def next_contact(state: State, out: list[Event]) -> None:
    """Decisions first, then each surface combat in hex order, then bombardment, then on.

    # RULES? 16 does not say who orders several surface combats; they are fought in hex order.
    """
    rec = record(state)
    assert state.side_a is not None
    deciding = [s for s in (other(state.side_a), state.side_a) if s not in rec.decided]
    if deciding:
        # Both sides always take their turn, Side B first, whether or not they have a
        # contact (16a) or a bombardment (16j) to decide: that one does must not show.
        state.waiting = deciding
        return
    for contact in rec.contacts:
        if contact.status == "engaged":
            contact.status = "fought"
            if all(forces_at(state, s, contact.hex) for s in SIDES):
                start_combat(state, contact.hex, out)
                return
    if rec.bombard and not rec.bombarded:
        allowed = _may_bombard(state, rec)
        rec.bombarded = True
        if allowed:
            start_bombardment(state, out)
            return
        out.append(Event("bombardment-prevented", ALL, state.turn, STEP, {"hex": midway_hex()}))
    advance(state, out)


def start_combat(state: State, hex_: str, out: list[Event]) -> None:
    """16c: the ships of every task force of both sides in the hex go to the Battleboard."""
    assert state.side_a is not None
    c = SurfaceCombat(hex_, night_turn(state), facing(state, hex_), other(state.side_a))
    for side in SIDES:
        c.ships[side] = [u.id for u in _ships_at(state, side, hex_)]
        enemy = other(side)
        markers = forces_at(state, enemy, hex_)
        found = {m: [u.id for u in ships_in(state, enemy, m)] for m in markers}
        state.boards[side].intel.append(Spotting(state.turn, hex_, found, "surface contact"))
    begin_combat(state, c, out)


def _ships_at(state: State, side: Side, hex_: str) -> list[Unit]:
    return [u for m in forces_at(state, side, hex_) for u in ships_in(state, side, m)]


def begin_combat(state: State, c: SurfaceCombat, out: list[Event]) -> None:
    """A surface combat begins: both sides see every ship present (16a)."""
    rec = record(state)
    rec.combat = c
    state.fought.append(c.hex)  # 4e1
    if OptionId.NIGHT_SURPRISE in state.options and c.night:
        c.surprise = "possible"
    for side in SIDES:
        for uid in c.ships[side]:
            if UnitKey(side, uid) not in state.engaged:
                state.engaged.append(UnitKey(side, uid))  # 11d: in combat this Turn
    data = {
        "hex": c.hex,
        "night": c.night,
        "facing": c.facing,
        "side_b": c.setup_b,
        "ships": {s: list(c.ships[s]) for s in SIDES},
    }
    out.append(Event("surface-combat", ALL, state.turn, STEP, data))
    advance(state, out)


def _enter(state: State, out: list[Event]) -> None:
    rec = record(state)
    if rec.phase != state.turn:
        note_headings(state, rec)
        rec.phase, rec.contacts, rec.bombarded = state.turn, _find_contacts(state), False
        rec.decided, rec.bombard = [], False
    next_contact(state, out)


def _open(state: State, side: Side) -> list[str]:
    """The hexes this side still has to decide: its one-sided contacts, then bombardment."""
    rec = record(state)
    hexes = [c.hex for c in rec.contacts if c.status == "undecided" and side in c.deciders]
    # The offer reads only what the Japanese know: whether American ships in the hex stop
    # the bombardment shows when it would be fought.
    if side == "japan" and not rec.bombard and _could_bombard(state, rec):
        hexes.append(midway_hex())
    return hexes


def _actions(state: State, side: Side) -> list[Action]:
    acts = [Action(kind, (h,)) for h in _open(state, side) for kind in ("engage", "decline")]
    return [*acts, DONE]


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    rec = record(state)
    h, engage = action.get("hex"), action.kind == "engage"
    contact = next((c for c in rec.contacts if c.hex == h and c.status == "undecided"), None)
    if contact is None:  # 16j: the bombardment, fought after the surface combats
        rec.bombard, rec.bombarded = engage, not engage
        out.append(
            Event("bombardment-choice", side, state.turn, STEP, {"hex": h, "bombard": engage})
        )
        return
    contact.status = "engaged" if engage else "declined"
    out.append(Event("surface-contact", side, state.turn, STEP, {"hex": h, "engage": engage}))


def _decided(state: State, side: Side, action: Action, out: list[Event]) -> None:
    """Done: contacts left undecided are declined (16a)."""
    rec = record(state)
    for c in rec.contacts:
        if c.status == "undecided" and side in c.deciders and len(c.deciders) == 1:
            c.status = "declined"
    rec.decided.append(side)


def _finish(state: State, out: list[Event]) -> None:
    next_contact(state, out)


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind not in ("engage", "decline"):
        return None
    if _undecided(state) is None:
        return "16j", "the Japanese may bombard the Midway base from its hex"
    return "16a", "only the side with 2X/3X or exact information in a hex decides on contact"


register(
    Step(
        STEP,
        "16a",
        "Surface contact: fight where you alone know of the enemy, or let him pass; then done",
        _actions,
        _handle,
        _enter,
        _finish,
        _why,
        on_done=_decided,
        always_asks=True,
    )
)
