"""18c: the umpire's reports - every report the rules make to a side waits for him.

In the umpired modes "all information must go through the umpire" (18c). Each report the
rules produce for a side - a search's answer with its sighting for the side's Searchboard
(3d3, 15a; 18c1: each hex a scout's route enters, modes/r18_umpired/scout_routes.py), a damage
report of an enemy unit (18c2) - is first a `Draft` in the State, which only the umpire
sees (the DPjudge Master's PREVIEW: would-be results wait until released). What the
side sees of it - its log, its Searchboard's sightings, the damage it was told - changes
only when the umpire releases it:

A third kind is the expansion's (Pacific Theatre Via Midway, Bases 3): after an attack on a
base, its hits today and whether it is knocked out, to the attacking side (`report_base`).

- `release-report r3`: as the rules made it;
- `edit-report r3 <words>`: in his own words (18d: "other ideas ... left to the individual
  umpires"); the edit is logged for him, and so shown in the replay once the game ends;
- `hold-report r3`: kept back for now (it may be released or edited later);
- `release-reports spotting` (or `damage`, or `nothing`: the spotting reports that found
  nothing): every report of that kind waiting, as the rules made it, in one action (those
  he holds stay held).

He may also write to one player or one side (`message`), keep private notes
(`umpire-note`) and let a kind of report through as soon as it is made (`auto-release`:
the reports made from then on; those already waiting stay for him), so that a human
umpire is no bottleneck. In `double-blind` the server is the umpire: the
same pipeline, every report released as the rules made it, at once.

RULES? 18c1 has the umpire "get back to the players" with the reports; no step of play
waits for him here: a player goes on with what he has been told, and a report held back
is one he has not had yet (so a sighting held is no ground for 12d2's shadowing or 11e's
submarine attack until it is released).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules import hooks
from app.rules.engine.actions import Action, add_kinds
from app.rules.engine.errors import IllegalAction
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import (
    ELIMINATED,
    FLIP,
    SIDES,
    Draft,
    Side,
    Spotting,
    State,
    UmpireMessage,
    Unit,
    other,
)
from app.rules.modes.audiences import mode_of
from app.rules.modes.seats import players
from app.rules.modes.umpire import UMPIRE, UNREPORTED, face, secret_die, told_damage

SPOTTING = "spotting"
DAMAGE = "damage"
BASE_HITS = "base"  # the expansion's Bases 3: a base's hits today and its knockout
REPORT_RULES = {SPOTTING: "18c1", DAMAGE: "18c2", BASE_HITS: "18c2"}  # each kind's rule
ON, OFF = "on", "off"

add_kinds(
    {
        "release-report": ("report",),  # 18c: a report to its side as the rules made it
        "release-reports": ("reports",),  # ... every report of a kind waiting, at once
        "edit-report": ("report", "text"),  # 18d: ... in the umpire's own words
        "hold-report": ("report",),  # 18c: kept back for now
        "message": ("to", "text"),  # 18c: the umpire writes to one player or one side
        "umpire-note": ("text",),  # the umpire's private note
        "auto-release": ("reports", "setting"),  # a kind of report let through at once
    }
)
UMPIRE_KINDS = frozenset(
    {
        "release-report",
        "release-reports",
        "edit-report",
        "hold-report",
        "message",
        "umpire-note",
        "auto-release",
    }
)
# `release-reports`: a kind of report, or NOTHING - the spotting reports that found nothing
NOTHING = "nothing"
OPEN = ("waiting", "held")  # a draft not yet released
# A report made for a side, waiting or released: what was done to get it stands (issue 14:
# take-back ends at a reveal, and the side has, or will have, the answer)
ANSWERS = frozenset({"report-draft", "search", "damage-report"})


# ---------------------------------------------------------------- the rules' reports


def report(
    state: State,
    kind: str,
    side: Side,
    data: dict[str, Any],
    truth: dict[str, Any],
    out: list[Event],
) -> None:
    """A report of `kind` the rules make to `side` (`data`: its event's data): a draft
    for the umpire, or released at once (double-blind, or his auto-release)."""
    draft = Draft(f"r{len(state.drafts) + 1}", kind, side, state.turn, state.step, data, truth)
    state.drafts.append(draft)
    if not mode_of(state.mode).umpire_seat:
        _release(state, draft, data, out)  # 18: the server is the umpire
        return
    out.append(_umpire_event(state, "report-draft", _outline(draft)))
    if kind in state.auto_release:
        _release(state, draft, data, out)
        out.append(_umpire_event(state, "report-released", {"report": draft.id, "auto": True}))


def report_spotting(
    state: State, side: Side, spot: Spotting, truth: dict[str, Any], out: list[Event]
) -> None:
    """3d3.2, 15a1.2, 18c1: a search's answer, its sighting for the side's Searchboard
    (`truth`: the task forces and the number of ships really in the hex)."""
    report(state, SPOTTING, side, sighting(side, spot), truth, out)


def sighting(side: Side, spot: Spotting) -> dict[str, Any]:
    """3d3.2: a search's answer as its event tells it to the searching side."""
    return {
        "side": side,
        "hex": spot.hex,
        "how": spot.how,
        "level": spot.level,
        "ships": spot.ships,
        "found": [{"force": m, "ships": ships} for m, ships in sorted(spot.forces.items())],
    }


def report_damage(state: State, target: Unit, before: int, kind: str, out: list[Event]) -> None:
    """18c2: the umpire reports a combat's damage to the side that fought the target's,
    through his secret die (`before`: the target's damage points before the combat, what
    that side saw of it unless it was told otherwise)."""
    if kind in UNREPORTED:
        return
    target = state.unit_of(target.key)  # as the combat left it
    side = other(target.side)
    points = target.damage - before
    truth = {"target": target.id, "target_side": target.side, "points": points}
    die = secret_die(state, "damage report", out, **truth)
    board = state.boards[side]
    told = told_damage(_told_before(state, side, target.id, before), points, die, target.damage)
    # RULES? 18c2 has the umpire report the damage; until he does, the side believes
    # what it saw of the unit before the combat (16a's "exact information" at first sight)
    board.told.setdefault(target.id, before)
    data = {"target": target.id, "target_side": target.side, "damage": told, **face(told)}
    actual = {"target": target.id, "target_side": target.side, "damage": target.damage}
    report(state, DAMAGE, side, data, actual | face(target.damage), out)


def report_base(
    state: State, base: Unit, hits_today: int, knocked_out: bool, out: list[Event]
) -> None:
    """18c2 in the expansion (Bases 3): after an attack on `base`, the umpire reports to the
    attacking side the base's hits today and whether it is knocked out.

    # RULES? 18c2's secret die shifts a unit's damage by hits, a flip three and elimination
    # six; a base's hits today are the expansion's own count against its knockout number, on
    # no such scale, so no die is rolled: the report says what the rules counted, and the
    # umpire may word it otherwise (18d) or hold it.
    """
    data = {
        "base": base.id,
        "base_side": base.side,
        "hits_today": hits_today,
        "knocked_out": knocked_out,
    }
    report(state, BASE_HITS, other(base.side), data, dict(data), out)


def _told_before(state: State, side: Side, target: str, before: int) -> int:
    """What the last report of the target says, released or not (a report goes on from
    the one before it): else what the side saw of it before the combat."""
    pending = [
        d
        for d in state.drafts
        if d.kind == DAMAGE and d.side == side and d.data["target"] == target and d.status in OPEN
    ]
    if pending:
        return int(str(pending[-1].data["damage"]))
    return state.boards[side].told.get(target, before)


# ---------------------------------------------------------------- releasing


def _release(state: State, draft: Draft, told: Mapping[str, Any], out: list[Event]) -> None:
    """The report reaches its side: its log, and its Searchboard or the damage it was told."""
    draft.status, draft.told, draft.released = "released", told, state.turn
    board = state.boards[draft.side]
    if draft.kind == SPOTTING:
        forces = {str(f["force"]): list(f["ships"]) for f in told["found"]}
        board.intel.append(
            Spotting(
                draft.turn,
                str(told["hex"]),
                forces,
                str(told["how"]),
                str(told["level"]),
                told["ships"],
                str(told.get("said", "")),
            )
        )
        out.append(Event("search", draft.side, state.turn, state.step, dict(told)))
    elif draft.kind == BASE_HITS:
        out.append(Event("base-report", draft.side, state.turn, state.step, dict(told)))
    else:
        target, damage = str(told["target"]), int(told["damage"])
        if not draft.words:  # RULES? 18c2: a report never takes back damage told before,
            damage = max(damage, board.told.get(target, 0))  # released late or not
        board.told[target] = damage
        told = {**told, "damage": damage, **face(damage)}
        draft.told = told
        out.append(Event("damage-report", draft.side, state.turn, state.step, dict(told)))


def edited(draft: Draft, words: str, believed: int = 0) -> dict[str, Any] | tuple[str, str]:
    """18d: the report in the umpire's own words ("other ideas ... must be left to the
    individual umpires"), any words (or why they cannot be it: rule, why).

    A sighting: "nothing" (no marker), "something", or a number of ships first ("12
    ships"), as 15a1.2 answers; any other words are his own report (level "report"). The
    task forces his words name (of those in the hex, "Mobile Force" for MobileForce) are
    marked on the side's Searchboard, without their ships: his words tell the rest.
    RULES? an edited sighting names a task force only where the umpire's words do.

    A damage report in 18c2's words ("eliminated", "flipped", "flipped and 1 hit", "2
    hits") tells that damage; in any other words it is his report of the unit, and what
    the side believes of its damage stays as it was (`believed`). A base report: its hits
    today and "knocked out" or "not knocked out" ("12 hits, knocked out")."""
    first = words.split()[0].lower().strip(".,;:")
    if draft.kind == SPOTTING:
        base = {k: draft.data[k] for k in ("side", "hex", "how")}
        if first == NOTHING:
            return {**base, "level": first, "ships": None, "found": [], "said": words}
        found = [{"force": m, "ships": []} for m in named_forces(draft, words)]
        level = "number" if first.isdigit() else first if first == "something" else "report"
        ships = int(first) if first.isdigit() else None
        return {**base, "level": level, "ships": ships, "found": found, "said": words}
    if draft.kind == BASE_HITS:
        return _base_words(draft, words)
    damage = _told_points(words)
    base = {k: draft.data[k] for k in ("target", "target_side")}
    if damage is None:
        damage = believed  # his own words: the damage believed stays as it was
    return {**base, "damage": damage, **face(damage), "said": words}


def _base_words(draft: Draft, words: str) -> dict[str, Any]:
    """A base report in the umpire's words: a number of hits today ("12 hits"), and
    "knocked out" or "not knocked out". What the words do not say is not told (None): any
    other words are the umpire's own report, as an edited sighting's are."""
    text = words.lower().replace(",", " ")
    numbers = [int(w) for w in text.split() if w.isdigit()]
    knocked = None if "knocked out" not in text else "not knocked" not in text
    base = {k: draft.data[k] for k in ("base", "base_side")}
    hits = numbers[0] if numbers else None
    return {**base, "hits_today": hits, "knocked_out": knocked, "said": words}


def named_forces(draft: Draft, words: str) -> list[str]:
    """The task force markers in the searched hex (as the rules' report or the truth has
    them) that the umpire's words name."""
    said = _compact(words)
    reported, truth = draft.data.get("found"), draft.truth.get("found")
    markers = {str(f["force"]) for f in reported} if isinstance(reported, list) else set()
    markers |= {str(m) for m in truth} if isinstance(truth, dict) else set()
    return sorted(m for m in markers if any(n in said for n in _names(m)))


def _names(marker: str) -> tuple[str, ...]:
    name = _compact(marker)
    return (name, "taskforce" + name[2:]) if name.startswith("tf") else (name,)


def _compact(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _told_points(words: str) -> int | None:
    """18c2's words for damage, as damage points (a flip three hits, elimination six)."""
    text = words.lower().replace(",", " ").split()
    if not text:
        return None
    if text[0] == "eliminated":
        return ELIMINATED
    numbers = [int(w) for w in text if w.isdigit()]
    if text[0] == "flipped":
        hits = numbers[0] if numbers else 0
        return FLIP + hits if hits < FLIP else None
    if numbers and text[0].isdigit() and numbers[0] < FLIP:
        return numbers[0]
    return None


# ---------------------------------------------------------------- the umpire's actions


def umpire_actions(state: State) -> list[Action]:
    """18c: what the umpire may do now - each open report released, edited or held; a
    message to a player or a side; a note; each kind's auto-release switched."""
    if state.status == "finished" or not mode_of(state.mode).umpire_seat:
        return []
    acts: list[Action] = []
    for d in state.drafts:
        if d.status in OPEN:
            acts += [Action("release-report", (d.id,)), Action("edit-report", (d.id, ""))]
        if d.status == "waiting":
            acts.append(Action("hold-report", (d.id,)))
    acts += [Action("release-reports", (k,)) for k in BATCHES if batch(state, k)]
    acts += [Action("message", (to, "")) for to in addressees(state)]
    acts.append(Action("umpire-note", ("",)))
    for kind in report_kinds(state):
        acts.append(Action("auto-release", (kind, OFF if kind in state.auto_release else ON)))
    return sorted(set(acts))


def report_kinds(state: State) -> list[str]:
    """The kinds of report the game's rules make: a base report in the expansion's games."""
    return [k for k in REPORT_RULES if k != BASE_HITS or hooks.of(state).base_reports(state)]


BATCHES = (NOTHING, *REPORT_RULES)


def batch(state: State, which: str) -> list[Draft]:
    """The reports waiting (not those he holds) that `release-reports which` releases:
    of a kind, or the spotting reports that found nothing (NOTHING)."""
    if which == NOTHING:
        return [d for d in _waiting(state, SPOTTING) if d.data.get("level") == NOTHING]
    return _waiting(state, which)


def _waiting(state: State, kind: str) -> list[Draft]:
    return [d for d in state.drafts if d.kind == kind and d.status == "waiting"]


def addressees(state: State) -> list[str]:
    """Whom the umpire may write to: every player at once, each side, and each player in
    a team game (17a)."""
    seats = [s.id for s in players(state)]
    return [ALL, *SIDES, *(s for s in seats if s not in SIDES)]


def refusal(state: State, action: Action) -> IllegalAction:
    """Why the umpire's `action` is not legal now, naming the rule."""
    if state.status == "finished":
        return IllegalAction("7a3", "the game is over")
    if action.kind in ("release-report", "edit-report", "hold-report"):
        draft = find(state, action.get("report"))
        if draft is None:
            known = ", ".join(d.id for d in state.drafts if d.status in OPEN) or "none"
            return IllegalAction(
                "18c", f"there is no report {action.get('report')!r} to release; open: {known}"
            )
        rule = REPORT_RULES[draft.kind]
        if draft.status == "released":
            return IllegalAction(
                rule,
                f"report {draft.id} was released on Turn {draft.released}: a report reaches "
                "its side once",
            )
        if action.kind == "hold-report":
            return IllegalAction(rule, f"report {draft.id} is held already")
    if action.kind == "release-reports":
        kinds = ", ".join(BATCHES)
        return IllegalAction(
            "18c",
            f"no report of {action.get('reports')!r} waits for the umpire (reports held "
            f"are released one by one); release-reports takes one of: {kinds}",
        )
    if action.kind == "message":
        whom = ", ".join(addressees(state))
        return IllegalAction("18c", f"the umpire writes to all, a side or a player: {whom}")
    if action.kind == "auto-release":
        kinds = ", ".join(f"{k} ({REPORT_RULES[k]})" for k in report_kinds(state))
        return IllegalAction(
            "18c",
            f"auto-release is switched 'on' or 'off' for a kind of report: {kinds}; "
            f"{action.get('reports')!r} is {action.get('setting')!r} already or no such kind",
        )
    if action.kind in UMPIRE_KINDS and not action.is_written:
        return IllegalAction("18c", f"{action.kind!r} needs its text written")
    return IllegalAction(
        "18",
        f"{action.text()!r} is a player's action: the umpire plays no side (18b), he "
        "releases, edits or holds reports, writes messages and notes",
    )


def _target(draft: Draft) -> str:
    return str(draft.data.get("target", ""))


def find(state: State, report_id: str) -> Draft | None:
    return next((d for d in state.drafts if d.id == report_id), None)


def act(state: State, action: Action, out: list[Event]) -> None:
    """The umpire's legal `action` on `state` (a copy): its events into `out`."""
    kind = action.kind
    if kind in ("release-report", "edit-report", "hold-report"):
        draft = find(state, action.get("report"))
        assert draft is not None  # umpire_actions offers the open reports only
        if kind == "hold-report":
            draft.status = "held"
            out.append(_umpire_event(state, "report-held", {"report": draft.id}))
            return
        told = draft.data
        if kind == "edit-report":
            words = action.get("text")
            result = edited(draft, words, state.boards[draft.side].told.get(_target(draft), 0))
            if isinstance(result, tuple):
                raise IllegalAction(*result)
            told, draft.words = result, words
            logged = {"report": draft.id, "words": words, "before": draft.data, "after": told}
            out.append(_umpire_event(state, "report-edited", logged))
        _release(state, draft, told, out)
        out.append(_umpire_event(state, "report-released", {"report": draft.id, "auto": False}))
    elif kind == "release-reports":
        for draft in batch(state, action.get("reports")):
            _release(state, draft, draft.data, out)
            out.append(_umpire_event(state, "report-released", {"report": draft.id, "auto": False}))
    elif kind == "message":
        to, text = action.get("to"), action.get("text")
        state.umpire_messages.append(UmpireMessage(to, state.turn, state.step, text))
        out.append(Event("umpire-message", to, state.turn, state.step, {"to": to, "text": text}))
    elif kind == "umpire-note":
        out.append(_umpire_event(state, "umpire-note", {"text": action.get("text")}))
    else:
        reports, setting = action.get("reports"), action.get("setting")
        if setting == ON:
            state.auto_release.append(reports)
        else:
            state.auto_release.remove(reports)
        out.append(_umpire_event(state, "auto-release", {"reports": reports, "setting": setting}))


def _umpire_event(state: State, kind: str, data: dict[str, Any]) -> Event:
    return Event(kind, UMPIRE, state.turn, state.step, data)


def _outline(draft: Draft) -> dict[str, Any]:
    return {
        "report": draft.id,
        "reports": draft.kind,
        "rule": REPORT_RULES[draft.kind],
        "side": draft.side,
        "data": draft.data,
        "truth": draft.truth,
    }


# ---------------------------------------------------------------- what the umpire sees


def console(state: State) -> dict[str, Any]:
    """The umpire's part of his view: every report with its status, the auto-release
    settings, and what he may do now."""
    return {
        "reports": [_draft_json(d) for d in state.drafts],
        "auto_release": {k: k in state.auto_release for k in report_kinds(state)},
        "addressees": addressees(state),
        "actions": [a.to_json() for a in umpire_actions(state)],
    }


def _draft_json(d: Draft) -> dict[str, Any]:
    return {
        **_outline(d),
        "turn": d.turn,
        "step": d.step,
        "status": d.status,
        "told": d.told,
        "words": d.words,
        "released": d.released,
    }


def told_versus_truth(state: State) -> list[dict[str, Any]]:
    """Every report a side was given (as released, edits included) beside the truth, in
    the order the rules made them; a report never released is listed with `told` None."""
    return [
        {
            "report": d.id,
            "reports": d.kind,
            "rule": REPORT_RULES[d.kind],
            "side": d.side,
            "turn": d.turn,
            "step": d.step,
            "status": d.status,
            "rules_said": d.data,
            "told": d.told,
            "edited": d.words,
            "truth": d.truth,
        }
        for d in state.drafts
    ]
