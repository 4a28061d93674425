"""Pages and page regions, rendered from one seat's view (and the log that seat may read).

A seat page is a shell plus regions. Each region is one element with a fixed id, the
seat's view version in `data-v`, and `hx-swap-oob`, so the same HTML serves the first
load, an action's answer and the websocket's pushes; the page keeps the newest of each.
Nothing here reads the game state: only the view dict the server computed for the seat.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from app.data import catalog
from app.data.options import optional_rules
from app.web import battleboard, cards, choices, searchboard
from app.web.counters import SIDE_LABEL, SIDE_TITLE, sides_of
from app.web.events import STEP_RULE, Line, Narrator
from app.web.prompt_bar import prompt_bar

HERE = Path(__file__).parent
APP = HERE.parent
STATIC = APP / "static"
REGIONS = ("status", "prompt", "victory", "battle", "searchboard", "dice", "cards", "log")
LOG_TURNS = 2  # the log region shows this Turn and the one before; the rest on request
VERSION_ATTR = re.compile(r' data-v="-?\d+"')


@cache
def static_url(name: str) -> str:
    """A static file's URL with its content hash, so it may be cached forever."""
    digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]
    return f"/static/{name}?v={digest}"


@cache
def env() -> Environment:
    e = Environment(
        loader=FileSystemLoader(APP / "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    e.globals.update(
        static=static_url,
        side_label=SIDE_LABEL,
        side_title=SIDE_TITLE,
        step_rule=STEP_RULE,
        option_rules=optional_rules().options,
    )
    return e


def page(name: str, **context: Any) -> str:
    return env().get_template(name).render(**context)


@dataclass(frozen=True)
class Seat:
    """Who the page is for: a seat of the game (with the side it plays and, in a team
    game, its command's name, as the engine declares them) or "omniscient"."""

    game_id: str
    seat: str
    side: str = ""  # "" until known, and for what is no seat ("omniscient")
    label: str = ""  # 17a: the command's name when the seat commands part of its side

    @property
    def plays(self) -> str:
        """The side whose colours, Searchboard and words the page takes."""
        return self.side or self.seat

    @property
    def title(self) -> str:
        side = SIDE_TITLE.get(self.plays, self.plays)
        return f"{self.label} ({side})" if self.label else side

    def seen_in(self, view: dict[str, Any]) -> Seat:
        """This seat with its side and command as its view says."""
        viewer = view.get("viewer") or {}
        return replace(
            self, side=str(viewer.get("side") or ""), label=str(viewer.get("label") or "")
        )


def seat_titles(view: dict[str, Any]) -> dict[str, str]:
    """Each seat of the game (as its view lists them) by its words for people."""
    return {
        str(s["seat"]): Seat("", str(s["seat"]), str(s["side"]), str(s["label"] or "")).title
        for s in view.get("seats") or []
    }


def seat_of(game_id: str, seat: str, seats: tuple[dict[str, Any], ...]) -> Seat | None:
    """The game's seat by its id, from the seats the engine declares for it."""
    for s in seats:
        if s.get("seat") == seat:
            return Seat(game_id, seat, str(s.get("side") or ""), str(s.get("label") or ""))
    return None


def seats_offered(scenarios: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every seat a game of the playable scenarios may have (GET /api/scenarios), once
    each, in the engine's order, with its title: the seats a creator may keep."""
    out: dict[str, str] = {}
    for s in scenarios:
        if not s.get("playable"):
            continue
        for mode in s.get("modes") or []:
            for seating in mode.get("seatings") or []:
                for seat in seating.get("seats") or []:
                    who = Seat("", str(seat["seat"]), str(seat["side"]), str(seat["label"] or ""))
                    out.setdefault(who.seat, who.title)
    return list(out.items())


def track(view: dict[str, Any]) -> list[dict[str, Any]]:
    """6: the Turns of this scenario on the TIME RECORD TRACK."""
    first, last = int(view.get("first_turn") or 1), int(view.get("last_turn") or 1)
    out = []
    for box in catalog().time_record.turns:
        if first <= box.turn <= last:
            out.append({"turn": box.turn, "date": box.date, "time": box.time, "night": box.night})
    return out


def log_lines(view: dict[str, Any], side: str, events: list[dict[str, Any]]) -> list[Line]:
    teller = Narrator(choices.Namer(view, side))
    return [teller.line(i, e) for i, e in enumerate(events)]


def no_searchboard(view: dict[str, Any]) -> bool:
    """7e: Scenario Four is fought on the Battleboard alone, with no Searchboards."""
    return (view.get("scenario") or {}).get("id") == "four"


def goal(view: dict[str, Any]) -> str:
    """The scenario's victory condition (7b4.1, 7c4.1, ...) in words, from its data file."""
    spec = catalog().scenarios.get(str((view.get("scenario") or {}).get("id")))
    if spec is None:
        return ""
    us, jp = SIDE_TITLE["usa"], SIDE_TITLE["japan"]

    def wins(side: str, enemy: str, margin: int) -> str:
        more = "more" if margin == 1 else f"{margin} or more more"
        return f"{side} wins with {more} victory points than {enemy}"

    return (
        f"To win ({spec.rule}4.1): {wins(jp, us, spec.japan_wins_margin)}; "
        f"{wins(us, jp, spec.usa_wins_margin)}; anything else is a tie."
    )


def context(
    view: dict[str, Any], events: list[dict[str, Any]], who: Seat, replay: bool = False
) -> dict[str, Any]:
    who = who.seen_in(view)
    all_choices = choices.choices(view, who.plays)
    lines = log_lines(view, who.plays, events)
    turn = int(view.get("turn") or 0)
    since = 0 if replay else turn - LOG_TURNS + 1
    by_subject: dict[str, list[choices.Choice]] = {}
    for c in all_choices:
        if c.subject:
            by_subject.setdefault(c.subject, []).append(c)
    return {
        "who": who,
        "seat_titles": seat_titles(view),
        "replay": replay,
        "view": view,
        "v": int(view.get("version") or 0),
        "track": track(view),
        "goal": goal(view),
        "choices": all_choices,
        "bar": prompt_bar(
            choices.subjects(view, who.plays, all_choices),
            by_subject,
            [c for c in all_choices if not c.subject],
            bool((view.get("prompt") or {}).get("take_back")),
        ),
        "board": None if no_searchboard(view) else searchboard.searchboard(view, who.plays),
        "battle": battleboard.battle(view) or battleboard.surface(view),
        "cards": cards.cards(view, who.plays),
        "lines": [ln for ln in lines if ln.turn >= since],
        "older": sum(1 for ln in lines if ln.turn < since),
        "older_before": since,
        "rolls": [ln for ln in lines if ln.roll is not None and ln.turn == turn][-4:][::-1],
        "sides_rolls": [ln for ln in lines if ln.kind == "sides-roll" and ln.turn == turn],
    }


def regions(
    view: dict[str, Any],
    events: list[dict[str, Any]],
    who: Seat,
    names: tuple[str, ...] = REGIONS,
    replay: bool = False,
) -> dict[str, str]:
    """Regions of the seat page, by name (every region unless `names` says which); the
    log region holds the last LOG_TURNS Turns; for the replay page (`replay`), all of it,
    and the words say what the side had then rather than what "you" have now."""
    ctx = context(view, events, who, replay)
    return {name: env().get_template(f"regions/{name}.html").render(ctx) for name in names}


def full_log(
    view: dict[str, Any], events: list[dict[str, Any]], who: Seat, before: int | None = None
) -> str:
    who = who.seen_in(view)
    lines = log_lines(view, who.plays, events)
    if before is not None:
        lines = [ln for ln in lines if ln.turn < before]
    return page("full_log.html", lines=lines, who=who)


REPLAY_REGIONS = ("status", "victory", "battle", "searchboard", "dice", "cards", "log")
OMNISCIENT = "omniscient"  # the replay of everything: both Searchboards


@dataclass(frozen=True)
class ReplayNav:
    """The replay page's ways on: (label, actions, rel) with None where there is none
    to go to, the first action of each Turn, and the other views of the same moment."""

    moves: list[tuple[str, int | None, str]]
    turns: list[tuple[int, int]]
    others: list[tuple[str, str]]  # (seat, words)


def replay_nav(
    at: int, total: int, turns: tuple[int, ...], seat: str, view: dict[str, Any]
) -> ReplayNav:
    starts: dict[int, int] = {}
    for i, turn in enumerate(turns):
        starts.setdefault(turn, i)
    moves = [
        ("Start", 0 if at > 0 else None, "first"),
        ("Previous", at - 1 if at > 0 else None, "prev"),
        ("Next", at + 1 if at < total else None, "next"),
        ("End", total if at < total else None, "last"),
    ]
    views = [
        (
            str(s["seat"]),
            f"What {Seat('', str(s['seat']), str(s['side']), str(s['label'])).title} knew then",
        )
        for s in view.get("seats") or []
    ] + [(OMNISCIENT, "Both sides")]
    return ReplayNav(moves, sorted(starts.items()), [(s, w) for s, w in views if s != seat])


def _replay_regions(
    view: dict[str, Any], events: list[dict[str, Any]], who: Seat
) -> dict[str, str]:
    """The seat page's regions with the whole log; for OMNISCIENT, each side's
    Searchboard in turn (each with ids of its own)."""
    parts = regions(view, events, who, REPLAY_REGIONS, replay=True)
    if who.seat == OMNISCIENT:
        boards = []
        for side in sides_of(view):
            board_view = {**view, "searchboard": (view.get("searchboards") or {}).get(side)}
            side_seat = Seat(who.game_id, side, side)
            html = regions(board_view, events, side_seat, ("searchboard",), True)
            boards.append(
                html["searchboard"]
                .replace('id="r-searchboard"', f'id="r-searchboard-{side}"')
                .replace('"sb-h"', f'"sb-h-{side}"')
            )
        parts["searchboard"] = "".join(boards)
    return parts


def replay(
    game_id: str,
    seat: str,
    at: int,
    total: int,
    turns: tuple[int, ...],
    view: dict[str, Any],
    events: list[dict[str, Any]],
) -> str:
    """A finished game as one side saw it after `at` actions, or both sides' positions
    then (OMNISCIENT), with its ways on."""
    who = Seat(game_id, seat).seen_in(view)
    return page(
        "replay.html",
        who=who,
        step={"at": at, "total": total, "turns": turns},
        nav=replay_nav(at, total, turns, seat, view),
        parts=_replay_regions(view, events, who),
        link=lambda s, n: f"/games/{game_id}/replay?seat={s}&at={n}",
    )


def flash(message: str = "", level: str = "info", detail: str = "") -> str:
    return page("flash.html", message=message, level=level, detail=detail)


def synced(version: int) -> str:
    """Sent first in every websocket message: the version the socket has brought the page."""
    return f'<div id="sync" data-v="{version}" hx-swap-oob="true" hidden></div>'


def without_version(html: str) -> str:
    """A region's HTML minus its version stamp: what decides whether it changed."""
    return VERSION_ATTR.sub("", html, count=1)
