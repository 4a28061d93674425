"""17c3, 17c4: radio messages between the players of a side in a team game.

17c1 ends the players' talk when play starts; from then on they write notes (17c3). A
team game has a step of its own for it, "radio", at the start of each Turn's Assembly
Step (between the Sides roll and the launches): the notes due this Turn are delivered to
their addressees first, then every player of both sides may write one note to a
teammate, or none, at once (a simultaneous step: no player waits on another's note).

Sending rolls the sender's die against an opposing player's, no modifiers: equal or
higher, the note is delivered at the start of the next Turn's Assembly Step, else two
Turns later. Sending announces the sender's flagship hex to the opposing side (17c4),
which notes it on its Searchboard. A player whose flagship is eliminated may neither
send nor receive (17c2): notes still due to him are lost.

The note (app/rules/engine/state.py `Message`) lives on the side's own Board: its outside - who
to whom, the Turn written and of delivery - is said at the table (the die roll is made
against the enemy); its text is read by its sender, and by its addressee once delivered.
"""

from __future__ import annotations

from app.rules.board.boards import carrier_hex
from app.rules.engine.actions import DONE, Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import SIDES, Message, Side, Spotting, State, other
from app.rules.engine.steps import Step, StepId, WhoActs, advance, register
from app.rules.modes.r17_teams.teams import flagship_lost
from app.rules.modes.seats import Seat, seat_of, side_seats

STEP = StepId.RADIO


def next_step(state: State) -> StepId:
    """After the Sides roll: the radio step in a team game, else the Assembly Step."""
    return STEP if state.teams else StepId.ASSEMBLY


def flagship_hex(state: State, seat: Seat) -> str | None:
    """17c4: where the seat's flagship is (None: none named, or not on the Searchboard)."""
    assert seat.command is not None
    ship = state.boards[seat.side].flagships.get(seat.command)
    if ship is None:
        return None
    return carrier_hex(state, state.units[seat.side][ship])


def teammates(state: State, seat: Seat) -> list[Seat]:
    return [s for s in side_seats(state, seat.side) if s.id != seat.id]


def cannot_send(state: State, seat: Seat) -> tuple[str, str] | None:
    """Why `seat` may write no note now (rule, words); None when it may."""
    assert seat.command is not None
    board = state.boards[seat.side]
    ship = board.flagships.get(seat.command)
    if flagship_lost(state, seat.side, seat.command):
        return "17c2", (
            f"your flagship {ship} is eliminated: you may not send or receive messages "
            "for the rest of the game"
        )
    if any(m.sender == seat.id and m.written == state.turn for m in board.radio):
        return "17c3", f"you have written your note of Turn {state.turn}"
    if flagship_hex(state, seat) is None:
        # RULES? 17c4 has sending announce the flagship's hex; a player with no flagship
        # on the Searchboard (none named, or its task force not yet entered) has no hex
        # to announce, so he sends nothing until it is there.
        return "17c4", "a note is sent from your flagship, and it is not on the Searchboard"
    return None


def _sender(state: State, side: Side, to: str) -> Seat | None:
    """The writer of a note of `side` to `to`: the side's other player (17a: two a side)."""
    addressee = seat_of(state, to)
    if addressee is None or addressee.side != side:
        return None
    return next(iter(teammates(state, addressee)), None)


def _actions(state: State, side: Side) -> list[Action]:
    """A note from each player who may send one, to each teammate (the text his own)."""
    acts = [DONE]
    for seat in side_seats(state, side):
        if cannot_send(state, seat) is None:
            acts += [Action(STEP, (to.id, "")) for to in teammates(state, seat)]
    return acts


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    sender = _sender(state, side, action.get("to"))
    assert sender is not None  # legal_actions offers notes to teammates only
    mine, theirs = roll_d10(state), roll_d10(state)
    delivery = state.turn + (1 if mine >= theirs else 2)
    note = Message(sender.id, action.get("to"), state.turn, delivery, action.get("text"))
    state.boards[side].radio.append(note)
    outside = {"side": side, "from": sender.id, "to": note.to, "written": state.turn}
    dice = {"delivery": delivery, "roll": mine, "against": theirs}
    out.append(Event("radio", ALL, state.turn, STEP, outside | dice))
    where = flagship_hex(state, sender)
    assert where is not None  # cannot_send refuses a flagship off the Searchboard
    enemy = other(side)
    state.boards[enemy].intel.append(Spotting(state.turn, where, {}, "radio", "something"))
    out.append(
        Event(
            "flagship-revealed",
            enemy,
            state.turn,
            STEP,
            {"side": side, "by": sender.id, "hex": where},
        )
    )


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind != STEP:
        return None
    sender = _sender(state, side, action.get("to"))
    if sender is None:
        names = " and ".join(s.id for s in side_seats(state, side))
        return "17c3", f"a note goes to a teammate ({names})"
    return cannot_send(state, sender)


def _deliver(state: State, out: list[Event]) -> None:
    """17c3: the notes due this Turn go to their addressees; 17c2: not to one whose
    flagship is eliminated (the note is lost)."""
    for side in SIDES:
        for note in state.boards[side].radio:
            if note.status != "waiting" or note.delivery > state.turn:
                continue
            addressee = seat_of(state, note.to)
            assert addressee is not None and addressee.command is not None
            if flagship_lost(state, side, addressee.command):
                note.status = "lost"
                continue
            note.status = "delivered"
            out.append(
                Event(
                    "radio-delivered",
                    note.to,
                    state.turn,
                    STEP,
                    {
                        "side": side,
                        "from": note.sender,
                        "to": note.to,
                        "written": note.written,
                        "delivery": note.delivery,
                        "text": note.text,
                    },
                )
            )


def _enter(state: State, out: list[Event]) -> None:
    _deliver(state, out)
    state.waiting = list(SIDES)


def readable(note: Message, seat: str) -> bool:
    """Whether `seat` may read the note's text: its sender, and its addressee once given."""
    return note.sender == seat or (note.to == seat and note.status == "delivered")


def notes_of(state: State, seat: str) -> list[dict[str, object]]:
    """The seat's notes (the view's `radio`): those it wrote, and those to it - with the
    text once delivered, else only their outside, as the pile on the table shows it."""
    who = seat_of(state, seat)
    if who is None or who.command is None:
        return []
    out: list[dict[str, object]] = []
    for note in state.boards[who.side].radio:
        if seat not in (note.sender, note.to):
            continue
        doc: dict[str, object] = {
            "from": note.sender,
            "to": note.to,
            "written": note.written,
            "delivery": note.delivery,
            "status": note.status,
        }
        if readable(note, seat):
            doc["text"] = note.text
        out.append(doc)
    return out


register(
    Step(
        STEP,
        "17c3",
        "Radio: write a note to your teammate, or none (17c3)",
        _actions,
        _handle,
        _enter,
        advance,
        _why,
        always_asks=True,  # whether a player may send must not show (17c2: his flagship)
        acts=WhoActs.AT_ONCE,  # 17c3: no player waits on another's note
    )
)
