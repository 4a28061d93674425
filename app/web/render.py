"""Pages and page regions, rendered from one seat's view (and the log that seat may read).

A seat page is a shell plus regions. Each region is one element with a fixed id, the
seat's view version in `data-v`, and `hx-swap-oob`, so the same HTML serves the first
load, an action's answer and the websocket's pushes; the page keeps the newest of each.
Nothing here reads the game state: only the view dict the server computed for the seat.
"""

from __future__ import annotations

import hashlib
import pickle
import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, meta, select_autoescape
from markupsafe import Markup

from app.data import catalog
from app.data.options import optional_rules
from app.data.rules_help import rules_help
from app.rules.time_record import track_of
from app.web import battleboard, cards, choices, console, searchboard
from app.web.counters import SIDE_LABEL, SIDE_TITLE, Counter, sides_of
from app.web.events import STEP_RULE, Line, Narrator
from app.web.prompt_bar import CANNOT_LAND, prompt_bar
from app.web.replay_nav import replay_nav
from app.web.rule_links import link_rules, rule_link

if TYPE_CHECKING:
    from app.games.replays import ReplayStep

HERE = Path(__file__).parent
APP = HERE.parent
STATIC = APP / "static"
REGIONS = (
    "status",
    "prompt",
    "victory",
    "umpire",
    "battle",
    "searchboard",
    "dice",
    "cards",
    "log",
)
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
        counter=counter_html,
        static=static_url,
        side_label=SIDE_LABEL,
        side_title=SIDE_TITLE,
        step_rule=STEP_RULE,
        cannot_land=CANNOT_LAND,
        option_rules=optional_rules().options,
        rule_link=rule_link,
    )
    return e


@lru_cache(maxsize=20_000)
def counter_html(c: Counter, where: str = "card") -> Markup:
    """macros.html's counter, rendered once per counter as it shows and place (a Card
    region has about sixty, most the same from one push to the next)."""
    html: Markup = env().get_template("macros.html").module.counter(c, where)  # type: ignore[attr-defined]
    return html


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
        if self.label and not self.side:
            return self.label  # 18: the umpire plays no side
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
    for box in track_of(str((view.get("scenario") or {}).get("id") or "one")).turns:
        if first <= box.turn <= last:
            out.append({"turn": box.turn, "date": box.date, "time": box.time, "night": box.night})
    return out


def log_lines(view: dict[str, Any], side: str, events: list[dict[str, Any]]) -> list[Line]:
    teller = Narrator(choices.Namer(view, side))
    return [teller.line(i, e) for i, e in enumerate(events)]


def no_searchboard(view: dict[str, Any]) -> bool:
    """7e: Scenario Four is fought on the Battleboard alone, with no Searchboards."""
    return (view.get("scenario") or {}).get("id") == "four"


def board_of(view: dict[str, Any], side: str) -> searchboard.Board | None:
    """The seat's own Searchboard; for a view of everything (the umpire, a finished
    game's replay of both sides), both sides' on one board."""
    if "searchboard" not in view and view.get("searchboards"):
        return searchboard.both_sides(view)
    return searchboard.searchboard(view, side)


def goal(view: dict[str, Any]) -> str:
    """The scenario's victory condition (7b4.1, 7c4.1, ...) in words, from its data file."""
    spec = catalog().scenarios.get(str((view.get("scenario") or {}).get("id")))
    if spec is None:
        return ""
    us, jp = SIDE_TITLE["usa"], SIDE_TITLE["japan"]

    def needs(side: str, enemy: str, margin: int) -> str:
        more = "more" if margin == 1 else f"{margin} more"
        return f"{side} needs {more} victory points than {enemy}"

    if spec.theatre is not None:  # the expansion's scenarios: their Victory Points section
        floor = spec.theatre.minimum_points
        least = "" if floor is None else f" and at least {floor} points"
        return (
            f"To win ({spec.name}, Victory Points): more victory points than the enemy{least}; "
            "anything else is a tie."
        )
    return (
        f"To win ({spec.rule}4.1): {needs(jp, us, spec.japan_wins_margin)}, "
        f"{needs(us, jp, spec.usa_wins_margin)}; anything else is a tie."
    )


def tally(view: dict[str, Any], who: Seat) -> str:
    """7a3 so far, as the engine counted it for this seat (view["score"]), in words: the
    units eliminated or flipped (the bonus points count at the end)."""
    score = view.get("score")
    if not score:
        return ""
    points = ", ".join(f"{SIDE_TITLE.get(s, s)} {n}" for s, n in score["points"].items())
    told = " (the enemy's losses as told, 18c2)" if score.get("basis") == "told" else ""
    return f"Score so far ({score['rule']}): {points}{told}."


def context(
    view: dict[str, Any], events: list[dict[str, Any]], who: Seat, replay: bool = False
) -> dict[str, Any]:
    who = who.seen_in(view)
    offered = choices.choices(view, who.plays)
    notes = [c for c in offered if c.action.get("kind") == "radio"]  # 17c3: written below
    all_choices = [c for c in offered if c not in notes]
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
        "tally": tally(view, who),
        "choices": offered,
        "radio": radio(view, notes),
        "bar": prompt_bar(
            choices.subjects(view, who.plays, all_choices),
            by_subject,
            [c for c in all_choices if not c.subject],
            bool((view.get("prompt") or {}).get("take_back")),
        ),
        "board": None if no_searchboard(view) else board_of(view, who.plays),
        "console": None if replay else console.console(view, events),  # 18: the umpire's
        "umpire_boards": [] if no_searchboard(view) else umpire_boards(view, who),
        "battle": battleboard.battle(view) or battleboard.surface(view),
        "cards": cards.cards(view, who.plays),
        "lines": [ln for ln in lines if ln.turn >= since],
        "older": sum(1 for ln in lines if ln.turn < since),
        "older_before": since,
        "rolls": [ln for ln in lines if ln.roll is not None and ln.turn == turn][-4:][::-1],
        # the Dice panel is "latest first": the sides' rolls too (a tie, then the roll again)
        "sides_rolls": [ln for ln in lines if ln.kind == "sides-roll" and ln.turn == turn][::-1],
    }


def umpire_boards(view: dict[str, Any], who: Seat) -> list[Markup]:
    """18b: the umpire's copy shows both Searchboards, each as its side has it."""
    if "umpire" not in view:
        return []
    out = []
    for side in sides_of(view):
        board_view = {
            **{k: v for k, v in view.items() if k != "umpire"},
            "searchboard": (view.get("searchboards") or {}).get(side),
            "viewer": {"seat": side, "side": side, "command": None, "label": ""},
        }
        ctx = {**context(board_view, [], Seat(who.game_id, side, side), True), "v": 0}
        html = env().get_template("regions/searchboard.html").render(ctx)
        html = (
            html.replace('<section id="r-searchboard"', f'<div id="r-searchboard-{side}"', 1)
            .replace(' hx-swap-oob="true"', "", 1)
            .replace('"sb-h"', f'"sb-h-{side}"')
            .replace('id="hx"', f'id="hx-{side}"')
            .replace('href="#hx"', f'href="#hx-{side}"')
            .replace("(as it stood then)", "(its side's copy)")
        )
        out.append(Markup(html.rsplit("</section>", 1)[0] + "</div>"))
    return out


def radio(view: dict[str, Any], notes: list[choices.Choice]) -> dict[str, Any] | None:
    """17c3: a team game's radio - the notes the seat may write now (one form each, its
    text the player's) and the notes it wrote or that are addressed to it."""
    if not view.get("teams") or view.get("radio") is None:
        return None
    names = {str(s["seat"]): str(s.get("label") or s["seat"]) for s in view.get("seats") or []}
    return {
        "write": [
            {"to": names.get(c.action["to"], c.action["to"]), "value": c.value} for c in notes
        ],
        "notes": [
            {
                **n,
                "from_label": names.get(n["from"], n["from"]),
                "to_label": names.get(n["to"], n["to"]),
            }
            for n in view["radio"]
        ],
        "me": (view.get("viewer") or {}).get("seat"),
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
    key = _rendered_key(view, who)
    if not replay and key is not None and set(names) <= set(VIEW_ONLY):
        known = RENDERED.get(key, names)
        if known is not None:
            return known
    ctx = context(view, events, who, replay)
    out = {name: region_html(name, ctx) for name in names}
    if not replay and key is not None:
        RENDERED.put(key, {n: h for n, h in out.items() if n in VIEW_ONLY})
    return out


def region_html(name: str, ctx: dict[str, Any]) -> str:
    """One region, its rule numbers links to their explanations (rules at hand); the
    Operations Cards, mostly counters, link theirs in the template (`rule_link`)."""
    html = env().get_template(f"regions/{name}.html").render(ctx)
    return html if name in LINKED_IN_TEMPLATE else link_rules(html)


LINKED_IN_TEMPLATE = frozenset({"cards"})


# The regions rendered from a seat's view alone (not its log): the same HTML for the
# same version of the same seat's view, whoever renders it.
VIEW_ONLY = ("status", "prompt", "victory")


def _rendered_key(view: dict[str, Any], who: Seat) -> tuple[str, str, int] | None:
    """A seat's view document is one per (game, seat, version): versions only grow."""
    game, version = view.get("id"), view.get("version")
    if not isinstance(game, str) or not isinstance(version, int) or not who.seat:
        return None
    return game, who.seat, version


class Rendered:
    """The view-only regions of recently rendered views, by (game, seat, version): a
    click's answer and the page socket's push show the same version of the seat's view,
    rendered once for both."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str, int], dict[str, str]] = OrderedDict()

    def get(self, key: tuple[str, str, int], names: Iterable[str]) -> dict[str, str] | None:
        known = self._items.get(key)
        if known is None or any(n not in known for n in names):
            return None
        return {n: known[n] for n in names}

    def put(self, key: tuple[str, str, int], parts: dict[str, str]) -> None:
        if parts:
            self._items[key] = {**self._items.get(key, {}), **parts}
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


RENDERED = Rendered(2048)


@cache
def region_inputs(name: str) -> frozenset[str] | None:
    """What region `name` is rendered from: the names of the context it reads, besides
    its version (`v`, only its `data-v` stamp); None when it reads the whole `view`."""
    e = env()
    source = e.loader.get_source(e, f"regions/{name}.html")[0] if e.loader else ""
    names = meta.find_undeclared_variables(e.parse(source))
    return None if "view" in names else frozenset(names - {"v"})


def digest(value: Any) -> bytes | None:
    """A digest of what a region is rendered from (its pickle: the same values pickle
    alike), kept instead of the values: a live page holds one per region. None for
    values that do not pickle: the region is rendered every time."""
    try:
        return hashlib.blake2b(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)).digest()
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


class LiveRegions:
    """The regions of one live page: each rendered again only when what it is rendered
    from changed since it was last rendered (a region of the same inputs renders the
    same HTML, its version stamp aside, so the page has it already). The status and
    prompt regions read the whole view and are rendered every time."""

    def __init__(self) -> None:
        self._inputs: dict[str, bytes] = {}  # a digest of each region's inputs

    def render(
        self, view: dict[str, Any], events: list[dict[str, Any]], who: Seat
    ) -> dict[str, str]:
        """The regions whose inputs changed (every region the first time), by name."""
        key = _rendered_key(view, who)
        ctx = context(view, events, who)
        out = RENDERED.get(key, VIEW_ONLY) if key is not None else None
        out = out or {}
        for name in REGIONS:
            if name in out:
                continue
            names = region_inputs(name)
            inputs = None if names is None else digest(tuple(ctx.get(n) for n in sorted(names)))
            if inputs is not None and self._inputs.get(name) == inputs:
                continue
            out[name] = region_html(name, ctx)
            if inputs is not None:
                self._inputs[name] = inputs
        if key is not None:
            RENDERED.put(key, {n: h for n, h in out.items() if n in VIEW_ONLY})
        return out


def full_log(
    view: dict[str, Any], events: list[dict[str, Any]], who: Seat, before: int | None = None
) -> str:
    who = who.seen_in(view)
    lines = log_lines(view, who.plays, events)
    if before is not None:
        lines = [ln for ln in lines if ln.turn < before]
    return link_rules(page("full_log.html", lines=lines, who=who))


REPLAY_REGIONS = ("status", "victory", "battle", "searchboard", "dice", "cards", "log")


def replay(game_id: str, step: ReplayStep) -> str:
    """A finished game as one seat saw it after `step.at` actions, or both sides'
    positions then (OMNISCIENT), with its ways on (app.games.replays.ReplayStep)."""
    who = Seat(game_id, step.seat).seen_in(step.view)
    return link_rules(
        page(
            "replay.html",
            who=who,
            step=step,
            nav=replay_nav(step.at, step.marks, step.seat, step.view),
            parts=regions(step.view, step.events, who, REPLAY_REGIONS, replay=True),
            link=lambda s, n: f"/games/{game_id}/replay?seat={s}&at={n}",
            told_truth=console.told_truth(step.view),  # 18: the reports beside the truth
        )
    )


def flash(message: str = "", level: str = "info", detail: str = "") -> str:
    return link_rules(page("flash.html", message=message, level=level, detail=detail))


@cache
def rules_page() -> str:
    """Rules at hand: every entry of scenarios/rules-help.toml, in the rulebook's order."""
    known = rules_help()
    return page(
        "rules.html",
        rules=sorted(known.rules.values(), key=lambda r: rule_order(r.rule)),
        provenance=known.provenance,
    )


def rule_order(rule: str) -> tuple[int, str]:
    digits = re.match(r"\d+", rule)
    return (int(digits.group()) if digits else 0, rule)


def synced(version: int) -> str:
    """Sent first in every websocket message: the version the socket has brought the page."""
    return f'<div id="sync" data-v="{version}" hx-swap-oob="true" hidden></div>'


def without_version(html: str) -> str:
    """A region's HTML minus its version stamp: what decides whether it changed."""
    return VERSION_ATTR.sub("", html, count=1)
