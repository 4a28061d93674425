"""18c: what a player has heard from the umpire - his messages, and his reports awaited.

In the umpired modes "all information must go through the umpire" (18c). A player's view
holds (`heard`):

- `messages`: the umpire's messages to everyone, to the player's side or to him (18c),
  in the order written;
- `awaited`: the reports the rules made for his side that the umpire has not released
  yet - of a spotting only the hex a scout of his side entered, of a damage report only
  the unit his side attacked (both things the player knows already), never what the
  report will say, nor whether the umpire holds it or has not looked at it yet;
- `released`: how many reports his side has had (every player of it hears each);
- `bases` (only once there is one): of each enemy base his side attacked today, what the
  last report released today said of its hits today and its knockout (the expansion's
  Bases 3, reported under 18c2), so that his map can mark it as his enemy's own does.

A message or a released report is news for the player even where nothing on his board
changes (a damage report telling what he saw already): this part of his view changes,
so his page hears of it as it happens.
"""

from __future__ import annotations

from typing import Any

from app.rules.board.time_record import turn_box
from app.rules.engine.events import ALL
from app.rules.engine.state import Draft, State
from app.rules.modes.command_copies import separate
from app.rules.modes.reports import BASE_HITS, DAMAGE, OPEN, REPORT_RULES, SPOTTING
from app.rules.modes.seats import Seat


def heard(state: State, who: Seat) -> dict[str, Any]:
    """The player `who`'s part of the umpire's news (18c)."""
    mine = (ALL, who.side, who.id)
    drafts = [d for d in state.drafts if d.side == who.side]
    # RULES? 18a with teams: a player's copy is his command's, and a report does not say
    # whose scout asked for it: one awaited would tell him of his teammate's scouts, so
    # he learns of the side's reports as they are released only.
    awaited = [] if who.command is not None and separate(state) else drafts
    out: dict[str, Any] = {
        "messages": [
            {"to": m.to, "turn": m.turn, "step": m.step, "text": m.text}
            for m in state.umpire_messages
            if m.to in mine
        ],
        "awaited": [_awaited(d) for d in awaited if d.status in OPEN],
        "released": sum(1 for d in drafts if d.status == "released"),
    }
    bases = _bases_told_today(state, drafts)
    if bases:
        out["bases"] = bases
    return out


def _bases_told_today(state: State, drafts: list[Draft]) -> dict[str, dict[str, Any]]:
    """Base id -> the last released base report of today's date: its hits today and
    knockout as told (an edit's words may leave either unsaid: None).

    # RULES? Bases 3 counts a base's damage by the day: a report of an earlier date says
    # nothing of today's, so it is not shown on the map (it stays in the player's log).
    """
    today = turn_box(state).date
    out: dict[str, dict[str, Any]] = {}
    for d in drafts:
        if d.kind != BASE_HITS or d.status != "released" or turn_box(state, d.turn).date != today:
            continue
        told = d.told if d.told is not None else d.data
        out[str(told["base"])] = {
            "hits_today": told.get("hits_today"),
            "knocked_out": told.get("knocked_out"),
            "turn": d.turn,
        }
    return out


def _awaited(d: Draft) -> dict[str, Any]:
    """A report not yet released, as its side may know of it: what was searched or hit."""
    out: dict[str, Any] = {"reports": d.kind, "rule": REPORT_RULES[d.kind], "turn": d.turn}
    if d.kind == SPOTTING:
        out["hex"] = d.data["hex"]
    elif d.kind == DAMAGE:
        out["target"] = d.data["target"]
    return out
