"""The log region's lines, each put in words once for a live page (issue 17).

A live page's log grows by an action's events at a time, and the region shows the lines
of its last Turns: put in words again on every push, they were about a third of the
page's rendering. A line depends on its event, on the battle the narrator follows (who
fires: `Narrator.attacker`) and on what the seat's names answer for it (a task force's
name, a unit's, its type); the names come from the view and may change (a scout aboard
another carrier, an enemy unit no longer in sight). So each line is kept with the
answers it was made from, and is used again only while the same event, after the same
battle, gets the same answers; else it is made anew. A page's lines are then those a
fresh telling of the whole log gives (tests/web/test_narration.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from app.web.events import Line, Naming, Narrator

# (the Naming method, its arguments, what it answered)
Answer = tuple[str, tuple[str, ...], str]


class Noting:
    """A Naming that notes each question the Narrator asks it, with the answer."""

    def __init__(self, names: Naming) -> None:
        self.names = names
        self.other = names.other
        self.seats = names.seats
        self.asked: list[Answer] = []

    def force(self, marker: str) -> str:
        return self._note("force", (marker,), self.names.force(marker))

    def kind(self, side: str, uid: str) -> str:
        return self._note("kind", (side, uid), self.names.kind(side, uid))

    def unit(self, side: str, uid: str) -> str:
        return self._note("unit", (side, uid), self.names.unit(side, uid))

    def _note(self, method: str, args: tuple[str, ...], answer: str) -> str:
        self.asked.append((method, args, answer))
        return answer


class Answers:
    """What a Naming answers, each question asked of it once (many lines ask alike)."""

    def __init__(self, names: Naming) -> None:
        self.names = names
        self.known: dict[tuple[str, tuple[str, ...]], str] = {}

    def hold(self, asked: tuple[Answer, ...]) -> bool:
        """Each question of `asked` still gets the answer noted."""
        for method, args, answer in asked:
            now = self.known.get((method, args))
            if now is None:
                now = self.known[(method, args)] = getattr(self.names, method)(*args)
            if now != answer:
                return False
        return True


@dataclass(frozen=True)
class Told:
    """One event put in words: the line, and what it was made from."""

    event: dict[str, Any]  # the event itself (a live page's log keeps its objects)
    attacker: str  # the battle followed before it
    after: str  # ... and after it
    asked: tuple[Answer, ...]
    line: Line


def event_turn(event: dict[str, Any]) -> int:
    return int(event.get("turn") or 0)


class Narration:
    """The lines of one page's log, kept from push to push."""

    def __init__(self) -> None:
        self._told: dict[int, Told] = {}  # by the event's place in the log
        self._sides: tuple[dict[str, str], dict[str, str]] = ({}, {})
        # the events before the Turns shown, only followed: (the log, `since`, how many,
        # the battle after them). A live page's log is one list, only ever extended.
        self._before: tuple[list[dict[str, Any]], int, int, str] | None = None

    def lines(self, names: Naming, events: list[dict[str, Any]], since: int = 0) -> list[Line]:
        """The events of Turn `since` and after, in words (each line numbered by its place
        in `events`; the earlier ones only followed for the battle they start)."""
        sides = (names.other, names.seats)  # read whole by the lines, so compared whole
        if sides != self._sides:
            self._told, self._sides = {}, sides
        teller = Narrator(names)
        answers = Answers(names)
        told: dict[int, Told] = {}
        out = []
        start = 0
        if self._before is not None:
            log, shown_from, count, attacker = self._before
            if log is events and shown_from == since and count <= len(events):
                start, teller.attacker = count, attacker
        followed = start  # the events up to here are all before the Turns shown
        for i in range(start, len(events)):
            e = events[i]
            if event_turn(e) < since:
                teller.skip(e)
                if followed == i:
                    followed = i + 1
                    self._before = (events, since, followed, teller.attacker)
                continue
            kept = self._told.get(i)
            if (
                kept is None
                or kept.event is not e
                or kept.attacker != teller.attacker
                or not answers.hold(kept.asked)
            ):
                kept = self._tell(teller, names, i, e)
            teller.attacker = kept.after
            told[i] = kept
            out.append(kept.line)
        self._told = told  # the Turns no longer shown are not kept
        return out

    @staticmethod
    def _tell(teller: Narrator, names: Naming, i: int, e: dict[str, Any]) -> Told:
        noting = Noting(names)
        before, teller.n = teller.attacker, noting
        try:
            line = teller.line(i, e)
        finally:
            teller.n = names
        return Told(e, before, teller.attacker, tuple(noting.asked), line)


def log_lines(names: Naming, events: list[dict[str, Any]], since: int = 0) -> list[Line]:
    """`Narration.lines` told once, with nothing kept (a page loaded whole, the full log)."""
    return Narration().lines(names, events, since)


NOTHING = ": nothing there"
ZONE = re.compile(r"(?P<area>[A-I][1-7])[A-I]")  # a theatre zone: its area, then A to I


def gathered(lines: list[Line]) -> list[Line]:
    """Searches that found nothing, one after the other, by the same side and in the same
    step, as one line: an area search (Searches 1) asks each of its nine zones (3d3.2),
    and the log said "nothing there" nine times. A search that found something keeps its
    own line, and breaks the run."""
    out: list[Line] = []
    run: list[Line] = []

    def close() -> None:
        if len(run) == 1:
            out.append(run[0])
        elif run:
            head = run[0].text.split(" of ", 1)[0]
            places = [ln.text.split(" of ", 1)[1].removesuffix(NOTHING) for ln in run]
            out.append(replace(run[0], text=f"{head} of {_places(places)}{NOTHING}"))
        run.clear()

    for ln in lines:
        empty = ln.kind == "search" and ln.text.endswith(NOTHING) and " of " in ln.text
        if run and not (
            empty
            and (ln.turn, ln.step) == (run[0].turn, run[0].step)
            and ln.text.split(" of ", 1)[0] == run[0].text.split(" of ", 1)[0]
        ):
            close()
        if empty:
            run.append(ln)
        else:
            out.append(ln)
    close()
    return out


def _places(places: list[str]) -> str:
    """Hexes or zones searched: the zones of one area as that area ("area C2, its 9
    zones"), else each named."""
    areas = {m.group("area") if (m := ZONE.fullmatch(p)) else None for p in places}
    if len(areas) == 1 and None not in areas and len(set(places)) == 9:
        return f"area {areas.pop()} (its 9 zones)"
    return ", ".join(places)
