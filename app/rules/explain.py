"""Why a click makes no legal action: the refusal `apply` would give for it, with its rule.

A player clicks a counter (the subject: a task force marker, an air unit or a flying
group, a ship) and then a hex or a box (the target: a hex, or the carrier or base whose
box it is), or a hex alone. `why_not` turns that click into the action it is shaped like
in the step now (the kind the step offers for that counter, else for any counter) and
asks `play.refusal` why that action is not legal: the same words, and the same rule, as
the 422 `apply` gives for it. A click that matches a legal action has no refusal (None).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.rules.engine.actions import FIELDS, Action
from app.rules.engine.errors import ActionParseError, IllegalAction
from app.rules.engine.play import legal_actions, refusal, step_actions
from app.rules.engine.state import State
from app.rules.engine.steps import current
from app.rules.modes.seats import acting, seat_of

SUBJECT_FIELDS = ("force", "unit", "group", "ship")
HEX_FIELDS = ("hex", "at")  # where a counter goes: a hex ("at": an off-board landing hex)
UNIT_FIELDS = ("at", "target", "force")  # onto whom: a carrier or base, an enemy, a force


@dataclass(frozen=True, slots=True)
class Click:
    """What was clicked: `subject` of side `owner` (None: no counter picked), then `target`,
    a hex when `on_hex`, else the unit a box or a counter belongs to (None: the counter
    alone)."""

    subject: str | None = None
    owner: str | None = None
    target: str | None = None
    on_hex: bool = True

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> Click:
        """{"subject", "owner", "hex" | "unit"}: each a short word, or absent."""
        values = {k: obj.get(k) for k in ("subject", "owner", "hex", "unit")}
        for k, v in values.items():
            if v is not None and (not isinstance(v, str) or not v or len(v) > 40 or " " in v):
                raise ActionParseError(f"field {k!r} of a click must be a short word, got {v!r}")
        if values["hex"] is not None and values["unit"] is not None:
            raise ActionParseError("a click goes to a hex or to a unit, not both")
        hex_, unit = values["hex"], values["unit"]
        target = hex_ if hex_ is not None else unit
        return cls(
            None if values["subject"] is None else str(values["subject"]),
            None if values["owner"] is None else str(values["owner"]),
            None if target is None else str(target),
            unit is None,
        )


def why_not(state: State, seat: str, click: Click) -> IllegalAction | None:
    """Why `click` does nothing now, in the rules' words; None when it makes a legal action
    (or, a counter alone, when that counter has something to do)."""
    who = seat_of(state, seat)
    if state.status == "finished" or who is None or seat not in acting(state):
        return refusal(state, seat, Action("done"))  # 7a3, 2a, 3: the game, the seat, the turn
    step = current(state)
    if click.owner is not None and click.owner != who.side:
        return IllegalAction(
            "2c",
            f"{click.subject} is the enemy's: you may watch what is done with the enemy's "
            "units, not move them",
        )
    offered = step_actions(state, who.side)
    if click.subject is None:
        return _hex_alone(state, seat, click.target, offered)
    own = [a for a in offered if _subject_of(a) == click.subject]
    if click.target is None and own:
        return None
    if click.target is None and who.command is None:  # 17b: a teammate's, said below
        held = _held(state, seat, click.subject, offered)
        if held is not None:
            return held
    action = _shaped(click, own) or _shaped(click, offered) or _alone(click.subject, offered)
    if action is None:
        return IllegalAction(
            step.rule, f"{click.subject} has nothing to do in the {state.step} step: {step.prompt}"
        )
    if action not in legal_actions(state, seat):
        return refusal(state, seat, action)
    if click.target is not None and len(action.values) == 1:  # the box is its own, not this
        return IllegalAction(
            step.rule, f"{click.subject} may {action.text()!r}, not go to {click.target}"
        )
    return None


def _hex_alone(
    state: State, seat: str, target: str | None, offered: list[Action]
) -> IllegalAction | None:
    """A hex clicked with no counter picked: a search or a battle there, else nothing."""
    step = current(state)
    kinds = sorted({a.kind for a in offered if FIELDS[a.kind] == ("hex",)})
    if target is not None and kinds:
        action = Action(kinds[0], (target,))
        return None if action in legal_actions(state, seat) else refusal(state, seat, action)
    return IllegalAction(
        step.rule,
        f"nothing is done in {target} by itself in the {state.step} step: pick one of your "
        "counters first, then where it goes",
    )


def _held(state: State, seat: str, subject: str, offered: list[Action]) -> IllegalAction | None:
    """A counter alone that the step offers nothing: why it may not do what the others of
    its kind do now (a task force marker that may not move, 3c and Coral Sea's "APs cannot
    move until..."), asked of the step for one of their actions with this counter in it:
    the reason in words, with its own rule; None when the step has no reason of its own."""
    who = seat_of(state, seat)
    if who is None:
        return None
    step = current(state)
    for action in offered:
        fields = FIELDS[action.kind]
        if len(fields) != 2 or fields[0] not in SUBJECT_FIELDS:
            continue
        reason = step.why(state, who.side, Action(action.kind, (subject, action.values[1])))
        if reason is not None:
            return IllegalAction(*reason)
    return None


def _subject_of(action: Action) -> str | None:
    fields = FIELDS[action.kind]
    return action.values[0] if fields and fields[0] in SUBJECT_FIELDS else None


def _shaped(click: Click, offered: list[Action]) -> Action | None:
    """The action of the first offered kind of two fields, a counter then where it goes
    (a hex, or a unit, as clicked)."""
    assert click.subject is not None
    if click.target is None:
        return None
    targets = HEX_FIELDS if click.on_hex else UNIT_FIELDS
    for kind in sorted({a.kind for a in offered}):
        fields = FIELDS[kind]
        if len(fields) == 2 and fields[0] in SUBJECT_FIELDS and fields[1] in targets:
            return Action(kind, (click.subject, click.target))
    return None


def _alone(subject: str, offered: list[Action]) -> Action | None:
    """The action of the first offered kind whose one field is the counter (launch B5)."""
    if any(a.kind == "arm" for a in offered):  # 3b, Bombers 8: an idle one is not readied
        return Action("ready", (subject,))
    for kind in sorted({a.kind for a in offered}):
        if FIELDS[kind] in tuple((f,) for f in SUBJECT_FIELDS):
            return Action(kind, (subject,))
    return None
