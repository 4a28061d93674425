"""Issue 17: the prompt's choice buttons are built in Python (prompt_bar.act_button), not
by a template macro per button; each is the HTML the macro gave, for every choice of
random games of every kind of seat, and `escaped` escapes as markupsafe does."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from jinja2 import Environment, select_autoescape
from markupsafe import Markup, escape

from app import rules
from app.web import choices
from app.web.prompt_bar import act_button, escaped, quoted
from tests.web.games import KINDS, played

# the macro the prompt region's template had for a choice's button (issue 34: its action
# quoted with ', and a class only for Done)
MACRO = (
    '{% if c.action.kind == \'done\' and lost %}<button type="button" class="done ask" '
    'aria-expanded="false" aria-controls="confirm-loss">{{ c.label }}…</button>{% else %}'
    "<button name=\"action\" value='{{ c.value|quoted }}'"
    '{% if c.target %} data-target="{{ c.target }}"{% endif %}'
    "{% if c.action.kind == 'done' %} class=\"done\"{% endif %}>{{ c.label }}"
    "</button>{% endif %}"
)
ENV = Environment(autoescape=select_autoescape(default=True))
# escaped as autoescape would, but for " (the attribute is quoted with ')
ENV.filters["quoted"] = lambda text: Markup(str(escape(text)).replace("&#34;", '"'))
TEMPLATE = ENV.from_string(MACRO)


@given(st.text())
def test_escaped_is_markupsafe_escape(text: str) -> None:
    assert escaped(text) == str(escape(text))
    assert escaped(Markup(text)) == Markup(text)


@given(st.text())
def test_34_quoted_escapes_as_markupsafe_but_for_double_quotes(text: str) -> None:
    """An action's JSON in an attribute quoted with ': what markupsafe escapes, " aside."""
    assert quoted(text) == str(escape(text)).replace("&#34;", '"')


def test_buttons_are_what_the_macro_gave() -> None:
    seen = done_asked = 0
    for n, kind in enumerate(KINDS):
        for _step, state, _logs in played(kind, 40 + n, n, 150):
            for seat in rules.seats(state):
                view = json.loads(json.dumps(rules.view(state, seat.id)))
                namer = choices.Namer(view, seat.side or seat.id)
                for c in choices.choices(view, namer):
                    for lost in ([], [{"unit": "VF-3", "rule": "5a2"}]):
                        want = TEMPLATE.render(c=c, lost=lost)
                        assert str(act_button(c, lost)) == want, c
                        done_asked += bool(lost) and c.action.get("kind") == "done"
                    seen += 1
    assert seen > 1000 and done_asked > 10
