"""Issue 17: what a live page's push works out for its prompt, log and Searchboard costs
little. The seat's names (a Namer) are made once for the push and shared by the regions
that name things, and each of its tables is drawn up only when something asks for it;
the HTML is what it was."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from jinja2.runtime import Macro

from app import rules
from app.web import choices, prompt_bar, render
from app.web.render import Context, LiveRegions, Seat
from tests.web.games import KINDS, played

GAME = "00000000000000ee"


def placing() -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """A view of a Scenario One game at set-up, whose prompt offers task forces to place
    and air units to ready or arm, and nothing else."""
    for step, state, logs in played(KINDS[0], 3, 3, 40):
        for seat in logs:
            view = {**rules.view(state, seat), "id": GAME, "version": step}
            kinds = {a["kind"] for a in view["prompt"]["actions"]}
            if len(view["prompt"]["actions"]) > 10 and kinds <= {"place", "arm", "ready"}:
                return view, logs[seat], seat
    raise AssertionError("no prompt of set-up")


def test_17_a_push_makes_one_namer_for_its_regions(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is measured: how many Namers are made for a whole page (its prompt, its log
    and its Searchboard each name things): one."""
    view, log, seat = placing()
    made: list[object] = []
    init = choices.Namer.__init__

    def counted(self: choices.Namer, view: dict[str, Any], side: str) -> None:
        made.append(self)
        init(self, view, side)

    monkeypatch.setattr(choices.Namer, "__init__", counted)
    c = Context(view, log, Seat(GAME, seat))
    for name in render.REGIONS:
        render.render_region(c, name)
    assert c["board"] is not None  # the log named its lines with the Namer too
    assert len(made) == 1


def test_17_a_namer_draws_up_only_the_tables_asked_of_it() -> None:
    """What is measured: which of a Namer's tables are drawn up for a prompt at set-up
    (its task forces and air units on their carriers): that of the carriers' air units
    alone. Asked, the others hold what the view says."""
    view, log, seat = placing()
    c = Context(view, log, Seat(GAME, seat))
    render.render_region(c, "prompt")
    n = c["namer"]
    tables = ("kinds", "carrier_of", "carrier_name", "force_of_ship", "afloat")
    assert set(tables) & set(vars(n)) == {"carrier_of"}
    assert n.kind("japan", "Akagi") == "CV"
    carriers = [x for card in view["operations_cards"].values() for x in card["carriers"]]
    assert n.carrier_name == {str(x["id"]): x.get("name") or x["id"] for x in carriers}


def test_17_a_choice_is_made_once_for_the_action_dict_and_its_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is measured: how many Choices are made for a prompt of set-up offered again
    (the engine's same action dicts, a new Namer from the same view): none. A copy of the
    view (equal dicts, not the same) gives equal Choices made anew; another side's Namer
    (other names: the key holds them) gives Choices of its own."""
    view, _log, seat = placing()
    made: list[dict[str, str]] = []
    make = getattr(choices, "_choice", choices.choice)

    def counted(a: dict[str, str], n: choices.Namer) -> choices.Choice:
        made.append(a)
        return make(a, n)

    monkeypatch.setattr(choices, "_choice", counted, raising=False)
    first = choices.choices(view, choices.Namer(view, seat))
    again = choices.choices(view, choices.Namer(view, seat))
    assert len(again) > 10 and all(x is y for x, y in zip(first, again, strict=True))
    made.clear()
    choices.choices(view, choices.Namer(view, seat))
    assert made == []
    copy: dict[str, Any] = json.loads(json.dumps(view))
    fresh = choices.choices(copy, choices.Namer(copy, seat))
    assert len(made) == len(first) and fresh == first
    assert not any(x is y for x, y in zip(fresh, first, strict=True))
    other = "usa" if seat == "japan" else "japan"
    theirs = choices.choices(view, choices.Namer(view, other))
    assert not any(x is y for x, y in zip(theirs, first, strict=True))
    assert len(choices._MADE) <= choices.CHOICES_MADE


def test_17_the_prompt_is_digested_without_pickling_its_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is measured: how many Choices, Subjects and bars are pickled (each by its
    class, at five times the cost of a tuple) when a live page decides whether its prompt
    changed: none. The prompt still changes with a choice's words or a counter's name."""
    view, log, seat = placing()
    pickled: list[object] = []
    for cls in (choices.Choice, choices.Subject, prompt_bar.Bar, prompt_bar.Fold):

        def counted(self: object, protocol: Any, keep: Any = cls.__reduce_ex__) -> Any:
            pickled.append(self)
            return keep(self, protocol)

        monkeypatch.setattr(cls, "__reduce_ex__", counted)
    live = LiveRegions()
    got = live.render(view, log, Seat(GAME, seat))
    assert "prompt" in got and pickled == []
    c = Context(view, log, Seat(GAME, seat))
    ctx = c.for_region("prompt")
    forms = {n: render.digested(n, ctx[n]) for n in ctx}
    first, subject = ctx["choices"][0], ctx["bar"].subjects[0]
    renamed = [replace(first, label=first.label + "!"), *ctx["choices"][1:]]
    assert render.digested("choices", renamed) != forms["choices"]
    bar = replace(ctx["bar"], subjects=[replace(subject, label="x"), *ctx["bar"].subjects[1:]])
    assert render.digested("bar", bar) != forms["bar"]


def test_17_the_counters_to_pick_are_buttons_made_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is measured: how many template macros the prompt calls for its buttons that
    pick a counter (a dozen at set-up): none, a list of them made at once
    (`subject_buttons`). Their HTML is what the macro gave, names escaped alike."""
    view, log, seat = placing()
    calls: list[str] = []
    invoke = Macro._invoke

    def counted(self: Macro, arguments: Any, autoescape: bool) -> Any:
        calls.append(self.name)
        return invoke(self, arguments, autoescape)

    monkeypatch.setattr(Macro, "_invoke", counted)
    html = render.region_html("prompt", Context(view, log, Seat(GAME, seat)).for_region("prompt"))
    assert html.count('class="subject"') > 10 and calls == []
    subjects = [choices.Subject("u:usa:VF-3", "A & <\"b'>"), choices.Subject("tf:usa:16", "TF")]
    macro = render.env().from_string(
        '{% macro subject(s) %}<button type="button" class="subject" data-key="{{ s.key }}"'
        ' id="p-{{ s.key|idpart }}" aria-pressed="false">{{ s.label }}</button>{% endmacro %}'
        "{% for s in subjects %}{{ subject(s) }}{% endfor %}"
    )
    assert str(prompt_bar.subject_buttons(subjects)) == macro.render(subjects=subjects)
