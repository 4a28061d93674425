"""Take-back (issue 14): which of a seat's last actions it may take back.

A player may take back his own last actions while no die has been rolled and nothing has
been revealed to anyone else since (STYLE.md: take-back ends at chance and at a reveal).
`apply` keeps, for each seat, how many of its last actions it may take back
(`State.takeback`), and why no more:

- The acting seat's action adds one when it drew no die (1f: the generator's state and
  the forced dice are as they were), emitted no event any other seat or a spectator may
  see (1c), gave the move to no seat that did not have it (3), and left every other
  player's and the spectator's view as it was (1c: "nothing was seen by anyone else" is
  decided by what their views show, not by the events alone: an arming in the set-up
  tells no event to the enemy, yet shows on the Operations Card both sides see, 2c).
  Else the count falls to 0, with that reason.
- Another seat's action leaves the count alone unless the seat could tell it happened:
  an event it may see, a new step, Turn or status, its own turn to act come or gone.
  Then the count falls to 0: what was done since would have to be taken back too. The
  count never changes on anything the seat cannot see (its view carries it: a change
  the seat could not otherwise notice would tell it something).

So the actions of other seats that may stand after a seat's retractable ones are those
of a simultaneous step (7a2.2: the setup), each side on its own Searchboard and its own
units: they commute with the seat's, and the server takes the seat's action out from
under them (app/games/takeback.py checks that they do, by replaying them).
"""

from __future__ import annotations

from app.rules.engine.events import Event, visible_to
from app.rules.engine.memo import of as memo_of
from app.rules.engine.state import State, TakeBack
from app.rules.modes.reports import ANSWERS
from app.rules.modes.seats import SPECTATOR, acting, is_umpire, players, seat_of, seats

SIDE_TITLE = {"japan": "Japan", "usa": "the United States"}


def title(state: State, seat: str) -> str:
    """A seat as a refusal names it: its side, and its command with teams (17a)."""
    who = seat_of(state, seat)
    if is_umpire(state, seat):
        return "the umpire"  # 18: he sees every move as it is made
    if who is None:
        return "a spectator"
    name = SIDE_TITLE[who.side]
    return f"{name} ({who.label})" if who.label else name


def of(state: State, seat: str) -> TakeBack:
    """What `seat` may take back now (nothing, for anyone but a seat of the game)."""
    if seat_of(state, seat) is None:
        return TakeBack()
    return state.takeback.get(seat, TakeBack())


# A step passed for a side with nothing to do in it (engine/play.py): told to that side, it shows
# nothing of the action that led there.
PASSED = frozenset({"step-skipped"})


def record(before: State, after: State, seat: str, events: list[Event]) -> None:
    """After `seat`'s action took `before` to `after` with `events` (each with the audience
    the game's mode gave it): update the counts."""
    own = of(before, seat)
    refusal = why_not(before, after, seat, events)
    memo_of(before).shown.clear()  # asked again only of a state taken back to: kept is `after`
    if refusal is None:
        after.takeback[seat] = TakeBack(own.actions + 1, own.rule, own.why)
    else:
        after.takeback[seat] = TakeBack(0, *refusal)
    rolled = drew_dice(before, after)
    for other in seats(after):
        if other.id == seat or not of(after, other.id).actions:
            continue
        if noticed(before, after, other.id, events):
            if rolled:
                after.takeback[other.id] = TakeBack(0, "1f", "a die was rolled since (1f)")
            else:
                why = f"{title(after, seat)} has acted since (3)"
                after.takeback[other.id] = TakeBack(0, "3", why)


def why_not(before: State, after: State, seat: str, events: list[Event]) -> tuple[str, str] | None:
    """Why `seat`'s action from `before` to `after` cannot be taken back, or None."""
    if drew_dice(before, after):
        return "1f", "a die was rolled (1f)"
    # RULES? 18c1: players notify the umpire of what they have done, so his seeing a move
    # as it is made does not keep a player from changing his mind before the move passes
    for other in (*(s.id for s in players(before)), SPECTATOR):
        if other != seat and any(visible_to(e, other) for e in events if e.kind not in PASSED):
            return "1c", f"{title(before, other)} has seen it (1c)"
    if any(e.kind in ANSWERS for e in events):
        return "18c", "the umpire has had it to answer (18c)"
    gained = [s for s in acting(after) if s != seat and s not in acting(before)]
    if gained:
        return "3", f"{title(after, gained[0])} has the move now (3)"
    for other in (*(s.id for s in players(before) if s.id != seat), SPECTATOR):
        if shows(before, other) != shows(after, other):  # one seat at a time: most stop early
            return "1c", f"{title(before, other)} has seen it (1c)"
    return None


def shows(state: State, seat: str) -> dict[str, object]:
    """What `seat` sees of the game: its view, less its own take-back flag (which an
    action of another seat may change without showing it anything). Worked out once per
    state (engine/memo.py): the state an action made is the next action's state before,
    and its take-back counts, which `record` sets after looking, are in no seat's view
    but as that flag."""
    shown = memo_of(state).shown
    doc = shown.get(seat)
    if doc is None:
        doc = shown[seat] = _shows(state, seat)
    return doc


def _shows(state: State, seat: str) -> dict[str, object]:
    from app.rules.modes.observer import view  # the view reads this module's counts

    doc = view(state, seat)
    prompt = {k: v for k, v in doc["prompt"].items() if k != "take_back"}
    return {**doc, "prompt": prompt}


def drew_dice(before: State, after: State) -> bool:
    """1f: all chance comes through the generator, or the dice a test forced."""
    return after.rng != before.rng or after.forced_dice != before.forced_dice


def noticed(before: State, after: State, seat: str, events: list[Event]) -> bool:
    """Could `seat` tell that another seat's action took `before` to `after`? (Sure
    signs only: an event it may see, or a new step, Turn, status or turn to act.)"""
    if any(visible_to(e, seat) for e in events):
        return True
    if (before.step, before.turn, before.status) != (after.step, after.turn, after.status):
        return True
    return (seat in acting(before)) != (seat in acting(after))
