"""Pages and page regions, rendered from one seat's view (and the log that seat may read).

A seat page is a shell plus regions. Each region is one element with a fixed id, the
seat's view version in `data-v`, and `hx-swap-oob`, so the same HTML serves the first
load, an action's answer and the websocket's pushes; the page keeps the newest of each.
The Operations Cards are in parts (PARTED): each area of a card an element with an id
and a stamp of its own, which a live page may be pushed alone.
Nothing here reads the game state: only the view dict the server computed for the seat.
"""

from __future__ import annotations

import hashlib
import pickle
import re
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, meta, select_autoescape
from markupsafe import Markup

from app.data import catalog
from app.data.options import optional_rules
from app.data.rules_help import rules_help
from app.games.standing import can_stand, quiet
from app.rules.board.time_record import track_of
from app.rules.engine.kept import Kept
from app.rules.modes.audiences import MODES, Mode
from app.web import battleboard, cards, choices, console, searchboard
from app.web.counters import SIDE_LABEL, SIDE_TITLE, Counter, sides_of
from app.web.events import STEP_RULE, Line
from app.web.names import ship_name
from app.web.narration import Narration, event_turn, gathered, log_lines
from app.web.prompt_bar import CANNOT_LAND, act_buttons, idpart, prompt_bar, subject_buttons
from app.web.replay_nav import replay_nav
from app.web.rule_links import link_rules, linked, rule_link

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
    "reach",
    "dice",
    "cards",
    "log",
)
LOG_TURNS = 2  # the log region shows this Turn and the one before; the rest on request
VERSION_ATTR = re.compile(r' data-v="-?\d+"')
FORM_VERSION = re.compile(r'<input type="hidden" name="version" value="-?\d+"')


@cache
def static_url(name: str) -> str:
    """A static file's URL with its content hash, so it may be cached forever."""
    digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:10]
    return f"/static/{name}?v={digest}"


@cache
def env() -> Environment:
    return make_env()


def make_env(linking: bool = True) -> Environment:
    """The templates' environment; `linking` False leaves the rule numbers of the regions
    LINKED_IN_TEMPLATE as plain text (what `link_rules` then links: tests check that the
    templates link exactly what it would)."""
    e = Environment(
        loader=FileSystemLoader(APP / "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # the templates ship with the code: no stat() per render
    )
    e.globals.update(
        counter=counter_html,
        static=static_url,
        side_label=SIDE_LABEL,
        side_title=SIDE_TITLE,
        step_rule=STEP_RULE,
        cannot_land=CANNOT_LAND,
        option_rules=optional_rules().options,
        rule_link=rule_link if linking else Markup.escape,
        cells_svg=cells_svg,
        act_buttons=scoped_buttons,
        subject_buttons=subject_buttons,
        reach_parts=searchboard.reach_parts,
    )
    e.filters["linked"] = linked if linking else Markup.escape
    e.filters["idpart"] = idpart
    return e


ACT_BUTTON = re.compile(r"""(<button name="action" value='([^']*)'[^>]*)>""")


def scoped_buttons(shown: list[choices.Choice], lost: object, ids: bool = False) -> Markup:
    """The prompt's buttons of a list of choices (prompt_bar.act_buttons), each with an
    id made of its action (issue 34: a live page is sent the buttons that changed, by
    their ids; a button moved between lists, folded or not, keeps it). An action is on
    one button of a prompt: a choice is in one list."""
    html = act_buttons(shown, lost)
    if not ids:
        return html
    return Markup(
        ACT_BUTTON.sub(
            lambda m: f'{m.group(1)} id="a-{zlib.crc32(m.group(2).encode()):08x}">', html
        )
    )


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

    @property
    def tag(self) -> str:
        """The short tag of the seat's side ("US", "IJN"), or the seat's name where it
        plays no side (18: "Umpire")."""
        return SIDE_LABEL.get(self.plays) or self.label or self.seat

    def seen_in(self, view: dict[str, Any]) -> Seat:
        """This seat with its side and command as its view says."""
        viewer = view.get("viewer") or {}
        return replace(
            self, side=str(viewer.get("side") or ""), label=str(viewer.get("label") or "")
        )


COMPUTER_THINKING = " (the computer is thinking)"


def seat_titles(view: dict[str, Any]) -> dict[str, str]:
    """Each seat of the game (as its view lists them) by its words for people; a seat the
    computer plays (issue 35: the live page puts them under "computer") says so."""
    computer = view.get("computer") or ()
    return {
        str(s["seat"]): Seat("", str(s["seat"]), str(s["side"]), str(s["label"] or "")).title
        + (COMPUTER_THINKING if s["seat"] in computer else "")
        for s in view.get("seats") or []
    }


def seat_of(game_id: str, seat: str, seats: tuple[dict[str, Any], ...]) -> Seat | None:
    """The game's seat by its id, from the seats the engine declares for it."""
    for s in seats:
        if s.get("seat") == seat:
            return Seat(game_id, seat, str(s.get("side") or ""), str(s.get("label") or ""))
    return None


def mode_named(mode: str) -> Mode | None:
    """The game's mode (18, 2c) by its id, for the pages that name it; None if unknown."""
    return MODES.get(mode)


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


def no_searchboard(view: dict[str, Any]) -> bool:
    """7e: Scenario Four is fought on the Battleboard alone, with no Searchboards."""
    return (view.get("scenario") or {}).get("id") == "four"


def board_of(
    view: dict[str, Any], side: str, namer: Callable[[], choices.Namer] | None = None
) -> searchboard.Board | None:
    """The seat's own Searchboard (its names from `namer()` when given: the page's Namer,
    made once for its prompt, log and board); for a view of everything (the umpire, a
    finished game's replay of both sides), both sides' on one board."""
    if "searchboard" not in view:
        return searchboard.both_sides(view) if view.get("searchboards") else None
    return searchboard.searchboard(view, side, namer=namer() if namer else None)


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


# The engine's prompt, where its words say less than the page knows: a task force goes as
# far as its speed this Turn (3c; 12a's speeds; the theatre map's zones), not "one hex"
PROMPT_WORDS = (
    (
        "move your task force markers up to one hex",
        "move your task force markers, each as far as it may go this Turn (pick one: where it "
        "may go lights up)",
    ),
)


def prompt_words(text: str) -> str:
    for said, meant in PROMPT_WORDS:
        text = text.replace(said, meant)
    return text


def team_line(view: dict[str, Any]) -> str:
    """17c1, 17c2: in a team game, the side's overall commander and the flagships named so
    far, from the side's own Searchboard (known to both its players, never to the enemy)."""
    commands = (view.get("searchboard") or {}).get("commands")
    viewer = view.get("viewer") or {}
    side = str(viewer.get("side") or "")
    if not commands or not side:
        return ""
    labels = {
        str(s["command"]): str(s.get("label") or s.get("seat"))
        for s in view.get("seats") or []
        if s.get("side") == side and s.get("command")
    }
    mine = str(viewer.get("command") or "")
    overall = str(commands.get("overall") or "")
    out = f"Overall commander (17c1): {labels.get(overall, overall)}"
    out += " (you)" if overall == mine else ""
    flagships = commands.get("flagships") or {}
    named = [
        f"{ship_name(side, str(ship)) or ship} ({labels.get(str(c), str(c))})"
        for c, ship in flagships.items()
    ]
    return out + (f"; flagships (17c2): {', '.join(named)}" if named else "")


def tally(view: dict[str, Any], who: Seat) -> str:
    """7a3 so far, as the engine counted it for this seat (view["score"]), in words: the
    units eliminated or flipped (the bonus points count at the end)."""
    score = view.get("score")
    if not score:
        return ""
    points = ", ".join(f"{SIDE_TITLE.get(s, s)} {n}" for s, n in score["points"].items())
    told = " (the enemy's losses as told, 18c2)" if score.get("basis") == "told" else ""
    return f"Score so far ({score['rule']}): {points}{told}."


ALL = "*"  # a read of the whole view (iterating it, copying it)
EVENTS = "#events"  # a read of the log the seat may read
VERSION = "version"


class ViewReads(dict[str, Any]):
    """A seat's view that notes which of its top-level keys are read, into the set on top
    of `sinks` (a region being rendered, or a context entry being worked out): what a
    region was rendered from, so that a live page renders it again only when one of
    those keys changed (LiveRegions). Its values are the view's own: read them only."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(view)
        self.sinks: list[set[str]] = [set()]

    def __getitem__(self, key: str) -> Any:
        self.sinks[-1].add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.sinks[-1].add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.sinks[-1].add(str(key))
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        self.sinks[-1].add(ALL)
        return super().__iter__()

    def keys(self) -> Any:
        self.sinks[-1].add(ALL)
        return super().keys()

    def values(self) -> Any:
        self.sinks[-1].add(ALL)
        return super().values()

    def items(self) -> Any:
        self.sinks[-1].add(ALL)
        return super().items()

    def copy(self) -> dict[str, Any]:
        self.sinks[-1].add(ALL)
        return dict(super().items())

    def version(self) -> int:
        """The view's version, unnoted: it stamps the regions (`data-v`) and, in forms,
        is sent back with a click; `form_regions()` depend on it, the others do not."""
        return int(super().get(VERSION) or 0)


class Context:
    """What the region templates are rendered from, each entry worked out when a region
    first asks for it (ENTRIES), with the view keys it read: a region asks for the
    entries its template names (`template_names`), and nothing else is worked out."""

    def __init__(
        self,
        view: dict[str, Any],
        events: list[dict[str, Any]],
        who: Seat,
        replay: bool = False,
        narration: Narration | None = None,
    ) -> None:
        self.view = view if isinstance(view, ViewReads) else ViewReads(view)
        self.seat = who
        self.replay = replay
        self._events = events
        # the log's lines: a live page's kept from push to push, else told afresh
        self.narration = narration or Narration()
        self._values: dict[str, Any] = {}
        self._reads: dict[str, frozenset[str]] = {}

    def events(self) -> list[dict[str, Any]]:
        self.view.sinks[-1].add(EVENTS)
        return self._events

    def __getitem__(self, name: str) -> Any:
        if name not in self._values:
            make = ENTRIES.get(name)
            if make is None:
                raise KeyError(name)
            self.view.sinks.append(set())
            try:
                self._values[name] = make(self)
            finally:
                self._reads[name] = frozenset(self.view.sinks.pop())
        self.view.sinks[-1] |= self._reads[name]
        return self._values[name]

    def reading(self) -> None:
        """Start noting what a region reads (its render); `done` ends it."""
        self.view.sinks.append(set())

    def done(self, name: str) -> frozenset[str]:
        """What region `name` read since `reading`, with the version if its forms send it."""
        reads = self.view.sinks.pop()
        return frozenset(reads | {VERSION} if name in form_regions() else reads)

    def for_region(self, name: str) -> dict[str, Any]:
        """The entries region `name`'s template reads (the rest are Jinja globals)."""
        return {n: self[n] for n in template_names(name) if n in ENTRIES}


def _offered(c: Context) -> list[choices.Choice]:
    return choices.choices(c.view, c["namer"])


def _all_choices(c: Context) -> list[choices.Choice]:
    """The choices but the radio's notes (17c3: written below the prompt)."""
    return [x for x in c["offered"] if x.action.get("kind") != "radio"]


def _bar(c: Context) -> Any:
    all_choices = c["all_choices"]
    by_subject: dict[str, list[choices.Choice]] = {}
    for x in all_choices:
        if x.subject:
            by_subject.setdefault(x.subject, []).append(x)
    return prompt_bar(
        choices.subjects(c["namer"], all_choices),
        by_subject,
        [x for x in all_choices if not x.subject],
        bool((c.view.get("prompt") or {}).get("take_back")),
    )


def standing_shown(view: Any) -> dict[str, Any] | None:
    """Issue 30: the seat's "Done for this Turn" of this Turn as its page shows it; an
    order that stands, where the seat now has a decision (`quiet` says which), is shown
    stopped there (the server stops it a moment later)."""
    order = view.get("standing")
    if not order:
        return None
    if order["stands"] and (view.get("prompt") or {}).get("actions"):
        why = quiet(view)
        if why is not None:
            return {**order, "stands": False, "stopped": why}
    return dict(order)


def _since(c: Context) -> int:
    """The first Turn the log region shows (all of them in a replay)."""
    return 0 if c.replay else int(c.view.get("turn") or 0) - LOG_TURNS + 1


def _this_turn(c: Context) -> list[Line]:
    turn = int(c.view.get("turn") or 0)
    return [ln for ln in c["lines"] if ln.turn == turn]


ENTRIES: dict[str, Callable[[Context], Any]] = {
    "who": lambda c: c.seat.seen_in(c.view),
    # the names of what actions and events mention, as the seat knows them: one for all
    "namer": lambda c: choices.Namer(c.view, c["who"].plays),
    "view": lambda c: c.view,
    "v": lambda c: c.view.version(),
    "p": lambda c: c.view["prompt"],
    "prompt_text": lambda c: prompt_words(str(c.view["prompt"].get("text") or "")),
    "replay": lambda c: c.replay,
    "seat_titles": lambda c: seat_titles(c.view),
    "track": lambda c: track(c.view),
    "goal": lambda c: goal(c.view),
    "tally": lambda c: tally(c.view, c["who"]),
    "team": lambda c: team_line(c.view),
    "offered": _offered,
    "choices": lambda c: c["offered"],
    "all_choices": _all_choices,
    "radio": lambda c: radio(c.view, [x for x in c["offered"] if x.action.get("kind") == "radio"]),
    "bar": _bar,
    "standing": lambda c: None if c.replay else standing_shown(c.view),
    "may_stand": lambda c: not c.replay and can_stand(c.view),
    "board": lambda c: (
        None if no_searchboard(c.view) else board_of(c.view, c["who"].plays, lambda: c["namer"])
    ),
    "reach": lambda c: None if no_searchboard(c.view) else reach_of(c.view, c["who"].plays),
    # 18: the umpire's
    "console": lambda c: None if c.replay else console.console(c.view, c.events()),
    "umpire_boards": lambda c: [] if no_searchboard(c.view) else umpire_boards(c.view, c["who"]),
    "battle": lambda c: battleboard.battle(c.view) or battleboard.surface(c.view),
    "cards": lambda c: cards.cards(c.view, c["who"].plays),
    # the log region's Turns in words; of the earlier ones, only how many events
    "lines": lambda c: gathered(c.narration.lines(c["namer"], c.events(), c["older_before"])),
    "older": lambda c: sum(1 for e in c.events() if event_turn(e) < c["older_before"]),
    "older_before": _since,
    "rolls": lambda c: [ln for ln in c["this_turn"] if ln.roll is not None][-4:][::-1],
    # the Dice panel is "latest first": the sides' rolls too (a tie, then the roll again)
    "sides_rolls": lambda c: [ln for ln in c["this_turn"] if ln.kind == "sides-roll"][::-1],
    # issue 30: each battle's result, from the seat's own log
    "battle_results": lambda c: battleboard.results(c["this_turn"]),
    "this_turn": _this_turn,
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
        c = Context(board_view, [], Seat(who.game_id, side, side), True)
        ctx = {**c.for_region("searchboard"), "v": 0}
        html = env().get_template("regions/searchboard.html").render(ctx)
        html = (
            html.replace('<section id="r-searchboard"', f'<div id="r-searchboard-{side}"', 1)
            .replace(' hx-swap-oob="true"', "", 1)
            .replace('"sb-h"', f'"sb-h-{side}"')
            .replace('id="hx"', f'id="hx-{side}"')
            .replace('href="#hx"', f'href="#hx-{side}"')
            .replace("(as it stood then)", "(its side's copy)")
        )
        html = BOARD_IDS.sub(rf' id="{side}-\1', html)  # its cells', marks' (issue 34)
        out.append(Markup(html.rsplit("</section>", 1)[0] + "</div>"))
    return out


# the ids of a Searchboard's parts (issue 34: a live page is sent the parts that changed),
# each side's own on the umpire's copies
BOARD_IDS = re.compile(r' id="(sb[cm]-|sb-(?:cells|marks|paths|bases|legend|areas|pops))')


def reach_of(view: dict[str, Any], side: str) -> dict[str, Any] | None:
    """Where the seat's air units can fly and still land (3d1, 5a2): the page's data."""
    return searchboard.reach_data(view, side) if "searchboard" in view else None


# each cell's drawing, by the cell's key
_CELL_SVG: Kept[searchboard.CellKey, str] = Kept(searchboard.CELLS_MADE)


def cells_svg(board: searchboard.Board) -> Markup:
    """A board's cells, each drawn once for every board that shows it as it is (a push
    that moves a counter, or marks a hex searched, draws no cell or one)."""
    square = board.grid == "square"
    drawn = []
    for c in board.cells:
        html = _CELL_SVG.get(c.key)
        if html is None:
            html = _CELL_SVG.put(c.key, str(_cell_macro()(c, square)))
        drawn.append(html)
    return Markup('<g id="sb-cells" class="cells">\n' + "\n".join(drawn) + "\n</g>")


def _cell_macro() -> Any:
    return env().get_template("searchboard_cell.html").module.cell  # type: ignore[attr-defined]


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
    and the words say what the side had then rather than what "you" have now. Only what
    the named regions read is worked out (Context)."""
    key = None if replay else _rendered_key(view, who)
    c = Context(view, events, who, replay)
    before = SEEN.before(key, view) if key is not None else None
    out, seen = {}, {}
    for name in names:
        known = RENDERED.get(key, name) if key is not None else None
        if known is None and before is not None and key is not None:
            known = before.region(name, key[2])
        if known is None:
            known = render_region(c, name)
            if key is not None:
                RENDERED.put(key, name, known)
        out[name] = known[0]
        seen[name] = known
    if key is not None:
        SEEN.saw(key, view, seen)
    return out


def render_region(c: Context, name: str) -> tuple[str, frozenset[str]]:
    """Region `name` from context `c`, with the view keys it was rendered from."""
    c.reading()
    try:
        html = region_html(name, c.for_region(name))
    finally:
        reads = c.done(name)
    return html, reads


def region_html(name: str, ctx: dict[str, Any]) -> str:
    """One region, its rule numbers links to their explanations (rules at hand): those
    LINKED_IN_TEMPLATE link theirs in the template, the others' HTML is scanned."""
    html = env().get_template(f"regions/{name}.html").render(ctx)
    return html if name in LINKED_IN_TEMPLATE else link_rules(html)


# the regions too large to scan for rule numbers (mostly counters and boards), and the
# prompt, rendered at nearly every push (its many buttons are no place for a link): their
# templates link them, the static ones with `rule_link`, the words made with `|linked`
LINKED_IN_TEMPLATE = frozenset({"cards", "searchboard", "battle", "log", "prompt"})


def _rendered_key(view: dict[str, Any], who: Seat) -> tuple[str, str, int] | None:
    """A seat's view document is one per (game, seat, version): versions only grow."""
    game, version = view.get("id"), view.get("version")
    if not isinstance(game, str) or not isinstance(version, int) or not who.seat:
        return None
    if "standing" in view:
        return None  # issue 30: the seat's order is beside its view, not of its version
    return game, who.seat, version


Region = tuple[str, frozenset[str]]  # its HTML, and the view keys it was rendered from


class Rendered:
    """Regions of recently rendered views that read nothing but the view, by (game,
    seat, version): a click's answer and the page socket's push show the same version
    of the seat's view, rendered once for both."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str, int], dict[str, Region]] = OrderedDict()

    def get(self, key: tuple[str, str, int], name: str) -> Region | None:
        return self._items.get(key, {}).get(name)

    def put(self, key: tuple[str, str, int], name: str, region: Region) -> None:
        if EVENTS in region[1]:
            return  # it read the log, which the key does not name
        self._items.setdefault(key, {})[name] = region
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


RENDERED = Rendered(256)  # an answer and its push are milliseconds apart


class Before:
    """A seat's view as its regions were last rendered for a GET, and those regions; for
    a later version of the view, each region that read none of the view keys changed
    since (nor the log, nor the whole view, nor the version, as form regions do) is that
    HTML with the new version stamped in it: what rendering it again gives (a region is
    made from what it reads of the view, the seat and the rules alone; the version is
    its stamps', `data-v`, and no more: ViewReads.version)."""

    def __init__(self, version: int, view: dict[str, Any], regions: dict[str, Region]) -> None:
        self.version = version
        self.view = view  # read only, as the store's documents are
        self.regions = regions
        self._changed: set[str] | None = None
        self._against: dict[str, Any] | None = None

    def against(self, view: dict[str, Any]) -> Before:
        self._against, self._changed = view, None
        return self

    def changed(self) -> set[str]:
        """The top-level keys of the view asked for whose values differ from this one's."""
        if self._changed is None:
            new, old = self._against or {}, self.view
            self._changed = {
                k
                for k in old.keys() | new.keys()
                if (a := old.get(k, _MISSING)) is not (b := new.get(k, _MISSING)) and a != b
            }
        return self._changed

    def region(self, name: str, version: int) -> Region | None:
        known = self.regions.get(name)
        if known is None:
            return None
        html, reads = known
        if reads & {ALL, EVENTS, VERSION} or reads & self.changed():
            return None
        return VERSION_ATTR.sub(f' data-v="{version}"', html), reads


class Seen:
    """Issue 34: the regions last rendered for a GET of each seat's page, by (game, seat),
    the least recently used dropped first (`Before`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], Before] = OrderedDict()
        self._lock = threading.Lock()

    def before(self, key: tuple[str, str, int], view: dict[str, Any]) -> Before | None:
        """The regions of an earlier version of the seat's view, compared with `view`."""
        with self._lock:
            found = self._items.get(key[:2])
        if found is None or found.version >= key[2]:
            return None
        return Before(found.version, found.view, found.regions).against(view)

    def saw(
        self, key: tuple[str, str, int], view: dict[str, Any], regions: dict[str, Region]
    ) -> None:
        game, seat, version = key
        with self._lock:
            found = self._items.get((game, seat))
            if found is not None and found.version > version:
                return
            if found is not None and found.version == version:
                regions = {**found.regions, **regions}
            self._items[(game, seat)] = Before(version, view, regions)
            self._items.move_to_end((game, seat))
            while len(self._items) > self.size:
                self._items.popitem(last=False)


SEEN = Seen(128)  # about 60 kB of regions a seat


def _source(path: str) -> str:
    e = env()
    return e.loader.get_source(e, path)[0] if e.loader else ""


def _included(path: str) -> list[str]:
    """The template at `path` and those it includes, at any depth."""
    todo, seen = [path], []
    while todo:
        seen.append(todo.pop())
        found = meta.find_referenced_templates(env().parse(_source(seen[-1])))
        todo += [t for t in found if t and t not in seen]
    return seen


@cache
def template_names(name: str) -> frozenset[str]:
    """The names region `name`'s template reads, with those of the templates it
    includes (they see its context): its context entries and Jinja globals."""
    found: set[str] = set()
    for path in _included(f"regions/{name}.html"):
        found |= meta.find_undeclared_variables(env().parse(_source(path)))
    return frozenset(found)


@cache
def form_regions() -> frozenset[str]:
    """The regions whose forms send the view's version back with a click: sent again
    at every version, whatever else changed."""
    return frozenset(
        name
        for name in REGIONS
        if any('name="version"' in _source(p) for p in _included(f"regions/{name}.html"))
    )


# Entries digested in a plainer form that tells apart every value they may take as well:
# a prompt's choices as tuples (pickling each Choice by its class costs five times as
# much), and its bar, made from those choices and the prompt's take back (both in the
# prompt's entries, "choices" and "p"), by the names of the counters it offers to pick.
DIGESTED: dict[str, Callable[[Any], Any]] = {
    "choices": lambda offered: [(x.action, x.label, x.subject, x.target) for x in offered],
    "bar": lambda bar: (
        [(s.key, s.label) for s in bar.subjects],
        [(s.key, s.label) for s in bar.more_subjects],
    ),
}


def digested(name: str, value: Any) -> Any:
    """Context entry `name` as its digest takes it (DIGESTED)."""
    plain = DIGESTED.get(name)
    return value if plain is None else plain(value)


def digest(value: Any) -> bytes | None:
    """A digest of what a region is rendered from (its pickle: the same values pickle
    alike), kept instead of the values: a live page holds one per region. None for
    values that do not pickle: the region is rendered every time."""
    try:
        return hashlib.blake2b(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)).digest()
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


_MISSING = object()


@dataclass(frozen=True)
class Parted:
    """A region a live page may be sent in parts: when what it shows besides its parts
    (`skeleton`: the parts' ids in order among it) is as before, only the parts whose
    entries changed are rendered and sent, each an element of its own (its id, its own
    version stamp, `hx-swap-oob`); else the whole region. A fresh render holds them all."""

    skeleton: Callable[[dict[str, Any]], Any]  # from the region's context entries
    parts: Callable[[dict[str, Any]], list[Any]]  # each with its element's `id`
    html: Callable[[Any, int], str]  # one part alone, stamped with the version, oob


def _card_part(p: cards.Part, v: int) -> str:
    part = env().get_template("regions/card_part.html").module.part  # type: ignore[attr-defined]
    return str(part(p, v, True))


PARTED = {
    # 2c: both Operations Cards, an area of a card each part
    "cards": Parted(
        skeleton=lambda ctx: (
            ctx["replay"],
            [(c.side, c.title, c.mine, [p.id for p in c.parts]) for c in ctx["cards"]],
        ),
        parts=lambda ctx: [p for c in ctx["cards"] for p in c.parts],
        html=_card_part,
    ),
}


def part_name(region: str, part_id: str) -> str:
    """A part's name among the regions LiveRegions.render gives."""
    return f"{region}/{part_id}"


class LiveRegions:
    """The regions of one live page, each rendered again only when what it was rendered
    from changed: first the view keys it read last time (a region that read none of the
    keys that changed is not looked at, nothing worked out for it); then, for a region
    whose template does not read the view itself, a digest of its context entries (the
    same entries render the same HTML, its version stamp aside: the page has it). A
    region in parts (PARTED) is compared part by part, and only its changed parts given
    (named `part_name(region, id)`) while its skeleton stands; the whole region else."""

    def __init__(self) -> None:
        self._reads: dict[str, frozenset[str]] = {}  # what each region read last time
        self._inputs: dict[str, bytes] = {}  # a digest of each region's entries
        # a region in parts: its skeleton and its parts (by id) as last rendered, kept
        # rather than digested (a card's areas compare in a fraction of their pickling;
        # about 14 kB a page); equal parts render alike, as their counters do (counter_html)
        self._parts: dict[str, tuple[Any, dict[str, Any]]] = {}
        self._view: dict[str, Any] | None = None  # the view last rendered: read only
        self._events: tuple[list[dict[str, Any]], int] | None = None
        self._forms: dict[str, str] = {}  # a form region's HTML as last given
        self._narration = Narration()  # the log's lines, each told once (app.web.narration)

    def changed(self, view: dict[str, Any], events: list[dict[str, Any]]) -> set[str] | None:
        """The view keys (VERSION, EVENTS for the log) changed since the last render;
        None the first time."""
        before, self._view = self._view, view
        log, self._events = self._events, (events, len(events))
        if before is None or log is None:
            return None
        out = {
            k
            for k in before.keys() | view.keys()
            if (old := before.get(k, _MISSING)) is not (new := view.get(k, _MISSING)) and old != new
        }
        if log[0] is not events or log[1] != len(events):
            out.add(EVENTS)
        return out

    def render(
        self, view: dict[str, Any], events: list[dict[str, Any]], who: Seat
    ) -> dict[str, str]:
        """The regions that may have changed (every region the first time), by name; of
        a region in parts, maybe only some of its parts."""
        changed = self.changed(view, events)
        key = _rendered_key(view, who)
        c = Context(view, events, who, narration=self._narration)
        out: dict[str, str] = {}
        for name in REGIONS:
            reads = self._reads.get(name)
            if reads is not None and changed is not None and ALL not in reads:
                touched = reads & changed
                if not touched:
                    continue
                held = self._forms.get(name)
                if touched == {VERSION} and held is not None:
                    # a form region whose entries are as before: only the version its
                    # stamp and its forms carry is new
                    out[name] = self._forms[name] = restamped(held, c.view.version())
                    continue
            if name in PARTED:
                out |= self._render_parted(c, name, key)
                continue
            known = RENDERED.get(key, name) if key is not None else None
            if known is not None:
                out[name], self._reads[name] = known
            else:
                html = self._render(c, name)
                if html is None:
                    continue
                out[name] = html
                if key is not None:
                    RENDERED.put(key, name, (html, self._reads[name]))
            if name in form_regions():
                self._forms[name] = out[name]
        return out

    def _render(self, c: Context, name: str) -> str | None:
        """The region's HTML, or None when its entries are those it was last rendered
        from (its reads are noted either way); of a form region, whose forms carry the
        version, the HTML it was last given stamped anew when its other entries are
        those it was rendered from."""
        c.reading()
        try:
            ctx = c.for_region(name)
            inputs = None
            if "view" not in ctx:
                inputs = digest(tuple(digested(n, ctx[n]) for n in sorted(ctx) if n != "v"))
                if inputs is not None and self._inputs.get(name) == inputs:
                    if name not in form_regions():
                        return None
                    held = self._forms.get(name)
                    if held is not None:
                        return restamped(held, int(ctx["v"]))
            html = region_html(name, ctx)
            if inputs is not None:
                self._inputs[name] = inputs
            return html
        finally:
            self._reads[name] = c.done(name)

    def _render_parted(
        self, c: Context, name: str, key: tuple[str, str, int] | None
    ) -> dict[str, str]:
        """A region in parts: the parts that changed, or the whole region when its
        skeleton did (or the first time)."""
        how = PARTED[name]
        c.reading()
        try:
            ctx = c.for_region(name)
            skeleton = how.skeleton(ctx)
            parts = {p.id: p for p in how.parts(ctx)}
            before = self._parts.get(name)
            self._parts[name] = (skeleton, parts)
            if before is not None and before[0] == skeleton:
                v = int(ctx["v"])
                return {
                    part_name(name, i): how.html(p, v)
                    for i, p in parts.items()
                    if before[1].get(i) != p
                }
            known = RENDERED.get(key, name) if key is not None else None
            html = known[0] if known is not None else region_html(name, ctx)
        finally:
            self._reads[name] = c.done(name)
        if key is not None and known is None:
            RENDERED.put(key, name, (html, self._reads[name]))
        return {name: html}


def full_log(
    view: dict[str, Any], events: list[dict[str, Any]], who: Seat, before: int | None = None
) -> str:
    who = who.seen_in(view)
    lines = gathered(log_lines(choices.Namer(view, who.plays), events))
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


@lru_cache(maxsize=1024)
def flash(message: str = "", level: str = "info", detail: str = "") -> str:
    """The flash region: made once for the same words (the cleared one answers every
    click of a live page)."""
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


def restamped(html: str, version: int) -> str:
    """A form region's HTML stamped with another version: its own stamp, and the
    version each of its forms sends back with a click."""
    html = VERSION_ATTR.sub(f' data-v="{version}"', html, count=1)
    return FORM_VERSION.sub(f'<input type="hidden" name="version" value="{version}"', html)


def without_version(html: str) -> str:
    """A region's HTML minus its version stamp: what decides whether it changed."""
    return VERSION_ATTR.sub("", html, count=1)
