"""The prompt bar (issue 13, the board is the page): at most MAX_BUTTONS buttons in sight,
the rest of the prompt's choices one click away in a folded list, sorted in board order
(A1, A2 ... A10, B1 ..., a natural sort on the hex code), while the board takes them by a
click on the hex, the box or the counter.

What stays in the bar first: choices the board cannot take (Done, Fire ...), then the task
forces to pick (before set-up their markers are on no board), then the other counters to
pick (air units, flying groups: on the Operations Card and the Searchboard too), then the
choices of a hex or box; a group that does not fit is folded whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from markupsafe import Markup

from app.rules.engine.kept import Kept
from app.web.choices import CHOICES_MADE, IN_THE_BAR, Choice, Subject, action_value

MAX_BUTTONS = 8
# Issue 13: why an air unit would be lost on Done (5), by the rule the engine names.
CANNOT_LAND = {
    "5a1": "no carrier or base of its basing colour",
    "5a2": "no carrier or base within its movement factor",
    "5a3": "every carrier or base in reach is full",
    "11c2": "its carrier is dead in the water",
}
HEX = re.compile(r"([A-Z])(\d{1,2})([A-I]?)")  # a hex "K11", or a theatre zone "F4F"
NUMBERS = re.compile(r"(\d+)")


@lru_cache(maxsize=20_000)
def natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """ "L2" before "L10": digits compare as numbers."""
    return tuple((1, int(p)) if p.isdigit() else (0, p.lower()) for p in NUMBERS.split(text))


def hex_of(c: Choice) -> str | None:
    code = c.action.get("hex")
    if not code and c.target and c.target[:3] in ("sb:", "bb:"):
        code = c.target[3:]
    return code if code and HEX.fullmatch(code) else None


# The sort keys of the choices lately ordered: a Choice is made once for its action and
# names (choices.choice), and each push of a prompt of set-up sorts its dozens again.
_ORDERS: Kept[int, tuple[Choice, tuple[object, ...]]] = Kept(CHOICES_MADE)


def board_order(c: Choice) -> tuple[object, ...]:
    """By hex code, column letter then row number (A1, A2 ... A10, B1); a theatre zone by
    its area, then its letter (A1A, A1B ... A2A); then by words. A Choice is frozen: its
    key is worked out once while it is kept (the entry holds it, so its id is its own)."""
    kept = _ORDERS.get(id(c))
    if kept is not None and kept[0] is c:
        return kept[1]
    return _ORDERS.put(id(c), (c, _board_order(c)))[1]


def _board_order(c: Choice) -> tuple[object, ...]:
    code = hex_of(c)
    if code:
        m = HEX.fullmatch(code)
        assert m
        return (0, m[1], int(m[2]), m[3], natural(c.label))
    return (1, natural(c.label))


@dataclass(frozen=True)
class Fold:
    shown: list[Choice]
    folded: list[Choice]


@dataclass(frozen=True)
class Bar:
    plain: Fold  # the general choices no board click takes
    aimed: Fold  # the general choices with a hex, box or counter
    subjects: list[Subject]
    more_subjects: list[Subject]
    groups: dict[str, Fold]  # a picked counter's choices


def act_button(c: Choice, lost: object) -> Markup:
    """One choice's button in the prompt: its action the value the form sends; Done,
    while some air units would be lost by it (`lost`), a button that asks first. (A
    prompt has up to a hundred: built here, not by a template macro, at a fifth of the
    cost.)"""
    return Markup(_button_of(c, bool(lost)))


def act_buttons(shown: list[Choice], lost: object) -> Markup:
    """The buttons of a list of choices, one after the other (what a template loop over
    `act_button` gave, without a call into Python per button)."""
    ask = bool(lost)
    return Markup("".join([_button_of(c, ask) for c in shown]))


NOT_IN_ID = re.compile(r"[^A-Za-z0-9_-]")


def idpart(key: str) -> str:
    """A key as part of an element's id ("box:usa:Midway:ready" -> "box-usa-Midway-ready"):
    issue 34 sends the elements that changed by their ids."""
    return NOT_IN_ID.sub("-", key)


def subject_buttons(subjects: list[Subject]) -> Markup:
    """The buttons that pick a counter, one after the other (what a template macro gave
    a call at a time: a prompt of set-up has a dozen), each with an id of its counter's
    (issue 34: a counter moved in the list is sent alone, not the list)."""
    return Markup(
        "".join(
            [
                f'<button type="button" class="subject" data-key="{escaped(s.key)}"'
                f' id="p-{idpart(s.key)}" aria-pressed="false">{escaped(s.label)}</button>'
                for s in subjects
            ]
        )
    )


def _button_of(c: Choice, ask: bool) -> str:
    done = c.action.get("kind") == "done"
    if isinstance(c.label, Markup) or isinstance(c.target, Markup):
        return _button(c.label, c.target, action_value(c.action), done, ask)
    try:
        return _made_button(c.label, c.target, tuple(c.action.items()), done, ask)
    except TypeError:  # a field that is no string: made every time
        return _button(c.label, c.target, action_value(c.action), done, ask)


def _button(label: str, target: str | None, value: str, done: bool, ask: bool) -> str:
    """A choice's button from its words, the key of what completes it and its action as
    the form sends it (`Choice.value`), in an attribute quoted with '."""
    shown = escaped(label)
    if done and ask:
        return (
            '<button type="button" class="done ask" aria-expanded="false"'
            f' aria-controls="confirm-loss">{shown}…</button>'
        )
    at = f' data-target="{escaped(target)}"' if target else ""
    done_class = ' class="done"' if done else ""
    return f"<button name=\"action\" value='{quoted(value)}'{at}{done_class}>{shown}</button>"


@lru_cache(maxsize=8192)
def _made_button(
    label: str, target: str | None, fields: tuple[tuple[str, str], ...], done: bool, ask: bool
) -> str:
    """A button by what makes it (its action by its fields, in order: an action's values
    are strings), each made once while it is in use: most of a prompt's choices are
    offered again at the next push, and the same ones come up in every game of a
    scenario. Plain strings only: Markup would compare equal to its source."""
    return _button(label, target, action_value(dict(fields)), done, ask)


def quoted(text: str) -> str:
    """`text` escaped for an attribute quoted with ' (an action's JSON: its many " left
    as they are, where `escaped` would write each as &#34;, 5 bytes; issue 34)."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;")
    )


def escaped(text: str) -> str:
    """`markupsafe.escape(text)`, the same characters escaped alike, as a plain string
    (no Markup made per call); text already Markup is kept as it is."""
    if isinstance(text, Markup):
        return text
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
    )


def _fold(items: list[Choice], room: int) -> Fold:
    if len(items) <= room:
        return Fold(items, [])
    return Fold([], sorted(items, key=board_order))


def prompt_bar(
    subjects: list[Subject],
    by_subject: dict[str, list[Choice]],
    general: list[Choice],
    take_back: bool,
) -> Bar:
    room = MAX_BUTTONS - (1 if take_back else 0)
    plain_all = [c for c in general if not c.target]
    # a set-up's own decisions (a flagship, 17c2) give way to the task forces to place
    late = [c for c in plain_all if c.action.get("kind") in IN_THE_BAR]
    plain_all = [c for c in plain_all if c not in late]
    forces = [s for s in subjects if s.key.startswith("tf:")]
    others = [s for s in subjects if not s.key.startswith("tf:")]
    first = plain_all[:room]
    room -= len(first)
    shown = forces if len(forces) <= room else []
    room -= len(shown)
    late_shown = late[:room] if len(late) <= room else []
    room -= len(late_shown)
    if len(others) <= room:
        shown = shown + others
        room -= len(others)
    folded = [c for c in plain_all + late if c not in first and c not in late_shown]
    plain = Fold(first + late_shown, sorted(folded, key=board_order))
    shown_keys = {s.key for s in shown}
    more = [s for s in subjects if s.key not in shown_keys]
    aimed = _fold([c for c in general if c.target], room)
    room -= len(aimed.shown)
    # a picked counter's choices come with the "Then choose where: on the board" button
    groups = {key: _fold(group, room - 1) for key, group in by_subject.items()}
    return Bar(plain, aimed, [s for s in subjects if s.key in shown_keys], more, groups)
