"""18: the umpire's console - his part of the seat page, from his view alone.

The umpire's view (app/rules/modes/reports.py `console`) holds every report the rules made for
a side with its status, the auto-release settings and what he may do; this module turns
it into what regions/umpire.html shows: the reports waiting, each with Release, Edit and
Hold; the message and note forms; the auto-release switches; his own log. Both
Searchboards and both Operations Cards are on his page too (18b: "the umpire's copy
displays all information and counters for both sides"). "Told versus truth", the
replay's section on the reports, is here too (`told_truth`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from app.web.counters import SIDE_TITLE

UMPIRE = "umpire"
KIND_WORDS = {"spotting": "Spotting report", "damage": "Damage report", "base": "Base report"}
OPEN = ("waiting", "held")
# The events of the umpire's own doings: his log on the console
OWN = (
    "report-held",
    "report-edited",
    "report-released",
    "umpire-message",
    "umpire-note",
    "auto-release",
)


@dataclass(frozen=True)
class Draft:
    """One report on the console: what the rules say, the truth, and its three forms."""

    id: str
    kind: str
    where: str  # a spotting report's hex (18c1: a scout's route makes one for each hex)
    rule: str
    side: str
    turn: int
    status: str
    said: str
    truth: str
    suggestion: str  # the edit box's first words: the report as the rules word it
    release: str | None  # each action's JSON value (None: not offered)
    hold: str | None
    edit: str | None


def value(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def said(kind: str, data: dict[str, Any]) -> str:
    """A report in words, as the rules made it or as it was told."""
    if data.get("said") and kind == "damage":  # 18d: his words, of the unit named
        return f"{data.get('target', '?')}: “{data['said']}”"
    if data.get("said"):
        return str(data["said"])
    if kind == "damage":
        return damage_words(data)
    if kind == "base":
        return base_words(data)
    level = data.get("level")
    found = data.get("found") or []
    if found:
        return "; ".join(f"{f['force']}: {', '.join(f['ships'])}" for f in found)
    if level in ("number", "actual"):
        return f"{data.get('ships')} ships"
    return "nothing" if level == "nothing" else "something"


def damage_words(data: dict[str, Any]) -> str:
    """18c2's words: "eliminated", "flipped and 1 hit", "2 hits" - of the unit named."""
    unit = data.get("target", "?")
    face, hits = data.get("face"), int(data.get("hits") or 0)
    if face == "eliminated":
        return f"{unit} eliminated"
    if face == "back":
        return f"{unit} flipped" + (f" and {hits} hit{'s' if hits != 1 else ''}" if hits else "")
    return f"{unit} {hits} hit{'s' if hits != 1 else ''}"


def base_words(data: dict[str, Any]) -> str:
    """The expansion's Bases 3 as 18c2 reports it: "Rabaul 3 hits today, knocked out" -
    only what the report tells (an edit may leave the hits or the knockout untold)."""
    told = []
    if data.get("hits_today") is not None:
        hits = int(data["hits_today"])
        told.append(f"{hits} hit{'s' if hits != 1 else ''} today")
    if data.get("knocked_out") is not None:
        told.append("knocked out" if data["knocked_out"] else "not knocked out")
    return f"{data.get('base', '?')} " + (", ".join(told) or "attacked")


def truth_words(kind: str, truth: dict[str, Any]) -> str:
    if kind == "damage":
        return damage_words(truth)
    if kind == "base":
        return base_words(truth)
    found = truth.get("found") or {}
    if not found:
        return "nothing there"
    forces = "; ".join(f"{m}: {', '.join(ships)}" for m, ships in found.items())
    counters = sum(len(ships) for ships in found.values())
    # 15a1.2 counts ships, not counters (a DD or AP counter is three to six ships): both said
    unit = "counter" if counters == 1 else "counters"
    return f"{forces} ({counters} {unit}: {truth.get('ships')} ships)"


def _suggestion(kind: str, data: dict[str, Any]) -> str:
    """The edit box's first words, in the forms `edited` reads (app/rules/modes/reports.py)."""
    if kind in ("damage", "base"):
        return said(kind, data).split(" ", 1)[1]
    return said(kind, data)


def console(view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The console of the umpire's seat page (None for any other seat)."""
    mine: dict[str, Any] | None = view.get("umpire")
    if mine is None:
        return None
    offered = {(a["kind"], a.get("report")): a for a in mine["actions"]}
    drafts = []
    for d in mine["reports"]:
        if d["status"] not in OPEN:
            continue
        rid = d["report"]
        act = {k: offered.get((k, rid)) for k in ("release-report", "hold-report", "edit-report")}
        drafts.append(
            Draft(
                id=rid,
                kind=KIND_WORDS.get(d["reports"], d["reports"]),
                where=str(d["data"].get("hex") or ""),
                rule=d["rule"],
                side=SIDE_TITLE.get(d["side"], d["side"]),
                turn=int(d["turn"]),
                status=d["status"],
                said=said(d["reports"], d["data"]),
                truth=truth_words(d["reports"], d["truth"]),
                suggestion=_suggestion(d["reports"], d["data"]),
                release=None if act["release-report"] is None else value(act["release-report"]),
                hold=None if act["hold-report"] is None else value(act["hold-report"]),
                edit=None if act["edit-report"] is None else value(act["edit-report"]),
            )
        )
    names = {str(s["seat"]): str(s.get("label") or "") for s in view.get("seats") or []}
    messages = [
        (value(a), _addressee(a["to"], names)) for a in mine["actions"] if a["kind"] == "message"
    ]
    note = next((value(a) for a in mine["actions"] if a["kind"] == "umpire-note"), None)
    switches = [
        {
            "kind": KIND_WORDS.get(a["reports"], a["reports"]),
            "on": a["setting"] == "off",  # offered "off": it is on now
            "value": value(a),
        }
        for a in mine["actions"]
        if a["kind"] == "auto-release"
    ]
    released = [d for d in mine["reports"] if d["status"] == "released"]
    return {
        "batches": batches(mine),
        "drafts": drafts,
        "waiting": sum(1 for d in drafts if d.status == "waiting"),
        "released": len(released),
        "messages": messages,
        "note": note,
        "switches": sorted(switches, key=lambda s: str(s["kind"])),
        "own": own_log(events),
    }


BATCH_WORDS = {
    "nothing": "spotting reports that found nothing",
    "spotting": "spotting reports",
    "damage": "damage reports",
    "base": "base reports",
}


def batches(mine: dict[str, Any]) -> list[dict[str, Any]]:
    """18c: "release all" of a kind in one click - each `release-reports` offered, with
    how many reports waiting it releases (those held stay held)."""
    waiting = [d for d in mine["reports"] if d["status"] == "waiting"]
    out = []
    for a in mine["actions"]:
        if a["kind"] != "release-reports":
            continue
        which = a["reports"]
        if which == "nothing":
            n = sum(1 for d in waiting if d["reports"] == "spotting" and _found_nothing(d))
        else:
            n = sum(1 for d in waiting if d["reports"] == which)
        words = BATCH_WORDS.get(which, which)
        if n == 1:
            words = words.replace("reports", "report")
        out.append({"value": value(a), "count": n, "words": words})
    return out


def _found_nothing(d: dict[str, Any]) -> bool:
    return bool(d["data"].get("level") == "nothing")


def _addressee(to: str, names: dict[str, str]) -> str:
    if to == "all":
        return "Everyone (both sides)"
    side = to.split("-", 1)[0]
    title = SIDE_TITLE.get(side, side)
    return f"{names[to]} ({title})" if names.get(to) else f"{title}, every player"


def own_log(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The umpire's own doings, newest first: the log of his console."""
    out = []
    for e in events:
        if e.get("kind") not in OWN:
            continue
        out.append({"turn": e.get("turn"), "text": own_line(e)})
    return out[::-1]


def own_line(e: dict[str, Any]) -> str:
    kind = e.get("kind")
    if kind == "report-held":
        return f"Report {e.get('report')} held"
    if kind == "report-released":
        how = "automatically" if e.get("auto") else "as the rules made it or as edited"
        return f"Report {e.get('report')} released ({how})"
    if kind == "report-edited":
        return f"Report {e.get('report')} edited (18d): “{e.get('words')}”"
    if kind == "umpire-message":
        to = str(e.get("to"))
        return f"Message to {SIDE_TITLE.get(to, to)}: “{e.get('text')}”"
    if kind == "umpire-note":
        return f"Note: “{e.get('text')}”"
    return f"Auto-release of {e.get('reports')} reports switched {e.get('setting')}"


def told_truth(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Told versus truth (the replay of a finished umpired game): every report a side
    was given, as released (edits included), beside what was really so."""
    out = []
    for p in view.get("told_versus_truth") or []:
        kind = str(p["reports"])
        told = p.get("told")
        out.append(
            {
                "id": p["report"],
                "kind": KIND_WORDS.get(kind, kind),
                "rule": p["rule"],
                "side": SIDE_TITLE.get(str(p["side"]), str(p["side"])),
                "turn": p["turn"],
                "rules_said": said(kind, p["rules_said"]),
                "told": None if told is None else said(kind, told),
                "edited": bool(p.get("edited")),
                "truth": truth_words(kind, p["truth"]),
                "status": p["status"],
            }
        )
    return out


class UmpireLines:
    """The game log's lines for 18's events (app/web/events.py's Narrator has these)."""

    def _report_draft(self, e: dict[str, Any]) -> str:
        kind = str(e.get("reports"))
        side = SIDE_TITLE.get(str(e.get("side")), str(e.get("side")))
        data = e.get("data") or {}
        where = f" of {data['hex']}" if data.get("hex") else ""
        return (
            f"{KIND_WORDS.get(kind, kind)} {e.get('report')}{where} for {side} waits for the "
            f"umpire ({e.get('rule')}): {said(kind, data)}"
        )

    def _report_held(self, e: dict[str, Any]) -> str:
        return own_line(e)

    def _report_released(self, e: dict[str, Any]) -> str:
        return own_line(e)

    def _report_edited(self, e: dict[str, Any]) -> str:
        return own_line(e)

    def _umpire_note(self, e: dict[str, Any]) -> str:
        return f"The umpire's note: “{e.get('text')}”"

    def _auto_release(self, e: dict[str, Any]) -> str:
        return own_line(e)

    def _umpire_message(self, e: dict[str, Any]) -> str:
        to = str(e.get("to"))
        return f"The umpire to {SIDE_TITLE.get(to, to)}: “{e.get('text')}”"

    def _damage_report(self, e: dict[str, Any]) -> str:
        return f"The umpire reports (18c2): {said('damage', e)}"

    def _base_report(self, e: dict[str, Any]) -> str:
        if e.get("said"):  # 18d: his words, of the base named
            return f"The umpire reports (18c2, Bases 3): {e.get('base', '?')}: “{e['said']}”"
        return f"The umpire reports (18c2, Bases 3): {base_words(e)}"
