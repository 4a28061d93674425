"""Issue 17: the prompt region, sent on every push, costs little to render. Its choices'
buttons are made in Python a list at a time, each button once for what makes it (most
of a prompt's choices are offered again at the next push), an action's JSON (what its
button sends) is written without json.dumps, and its rule numbers are linked by its
template rather than found by scanning its HTML; the HTML is what it was."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import rules
from app.rules.engine.kept import Kept
from app.web import choices, prompt_bar, render
from app.web.render import Context, Seat, render_region
from app.web.rule_links import link_rules
from tests.web.games import KINDS, played

GAME = "00000000000000dd"


def offering(many: int) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """The first view of a Scenario One game whose prompt offers `many` choices or more."""
    for step, state, logs in played(KINDS[0], 3, 3, 40):
        for seat in logs:
            view = {**rules.view(state, seat), "id": GAME, "version": step}
            if len(view["prompt"]["actions"]) >= many:
                return view, logs[seat], seat
    raise AssertionError("no prompt offers that many choices")


def prompt(view: dict[str, Any], log: list[dict[str, Any]], seat: str) -> str:
    """The prompt region rendered afresh (a new context: nothing worked out is kept)."""
    return render_region(Context(view, log, Seat(GAME, seat)), "prompt")[0]


def test_17_a_prompt_offered_again_makes_no_button_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is measured: how many buttons are made (an action's JSON written for one) when
    the same prompt is rendered twice: every button the first time, none the second."""
    view, log, seat = offering(20)
    made: list[dict[str, str]] = []

    def counted(action: dict[str, str]) -> str:
        made.append(action)
        return choices.action_value(action)

    monkeypatch.setattr(prompt_bar, "action_value", counted)
    prompt_bar._made_button.cache_clear()
    first = prompt(view, log, seat)
    assert len(made) >= 20
    made.clear()
    again = prompt(json.loads(json.dumps(view)), log, seat)  # equal, not the same objects
    assert made == [] and again == first


def test_17_buttons_of_a_list_are_its_buttons_one_after_the_other() -> None:
    """`act_buttons` gives what a template loop over `act_button` gave, asked or not."""
    view, _log, seat = offering(20)
    offered = choices.choices(view, choices.Namer(view, seat))
    for lost in ([], [{"unit": "VF-3", "rule": "5a2"}]):
        loop = "".join(str(prompt_bar.act_button(c, lost)) for c in offered)
        assert str(prompt_bar.act_buttons(offered, lost)) == loop


@given(st.dictionaries(st.text(), st.text()))
def test_17_an_action_is_written_as_json_dumps_writes_it(action: dict[str, str]) -> None:
    assert choices.action_value(action) == json.dumps(action, separators=(",", ":"))


def test_17_an_action_of_strings_is_written_without_json_dumps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is measured: calls of json.dumps for an action whose fields are strings (the
    engine's always are): none. Other values still go through it."""
    calls: list[object] = []
    dumps = json.dumps

    def counted(value: object, **kw: Any) -> str:
        calls.append(value)
        return dumps(value, **kw)

    monkeypatch.setattr(json, "dumps", counted)
    assert choices.action_value({"kind": "place", "force": 'A\u00e9"', "hex": "C3"}) == (
        '{"kind":"place","force":"A\\u00e9\\"","hex":"C3"}'
    )
    assert calls == []
    assert choices.action_value({"kind": "x", "n": 1}) == '{"kind":"x","n":1}'  # type: ignore[dict-item]
    assert len(calls) == 1


def test_17_the_prompt_links_rule_numbers_in_its_template(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is measured: how many times a prompt's HTML is scanned for rule numbers (the
    scan of its many buttons cost as much as the rest of it): never. Its links are
    those the scan made, air units at risk of Done (5) and their rules too."""
    view, log, seat = offering(20)
    lost = [{"unit": "VF-3", "rule": "5a2"}, {"unit": "VB-6", "rule": "11c2"}]
    view = {**view, "prompt": {**view["prompt"], "lost_if_done": lost}}
    ctx = Context(view, log, Seat(GAME, seat)).for_region("prompt")
    plain = render.make_env(linking=False).get_template("regions/prompt.html").render(ctx)
    scanned = link_rules(plain)
    assert 'class="at-risk"' in scanned and scanned.count('class="rule"') >= 4
    scans: list[str] = []
    monkeypatch.setattr(render, "link_rules", lambda html: scans.append(html) or html)
    assert render.region_html("prompt", ctx) == scanned
    assert scans == []


def test_17_a_prompt_offered_again_orders_its_choices_without_working_out_a_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is measured: how many sort keys (board order: hex, then words) are worked out
    for a prompt of many choices rendered again from the same view: none, where the
    first render worked out some. The HTML is that of the first render."""
    view, log, seat = offering(40)
    worked: list[object] = []
    order = prompt_bar._board_order

    def counted(c: choices.Choice) -> tuple[object, ...]:
        worked.append(c)
        return order(c)

    monkeypatch.setattr(prompt_bar, "_board_order", counted)
    monkeypatch.setattr(prompt_bar, "_ORDERS", Kept(prompt_bar.CHOICES_MADE))
    first = prompt(view, log, seat)
    assert worked
    worked.clear()
    assert prompt(view, log, seat) == first
    assert worked == []
