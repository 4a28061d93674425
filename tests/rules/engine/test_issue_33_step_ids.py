"""Issue 33 (the turn as data): no step name is a bare string outside the step table.

Every step is named by its `StepId` member (app/rules/engine/steps.py), the one place
its words are written: where the turn goes on to it (`goto`, `call`, the sequences of
play's tables: `SEQUENCE = {...}`, `Call`, `Branch`, `Ways`), where it is registered
(`Step(...)`, `automatic`, `register`), where the state is put in it or its step compared
(`state.step = ...`, `state.step == ...`, `state.step in (...)`), where it is looked up
(`STEPS[...]`), where a path says the step it is taken in (`Path`'s `in_step`) and where
an event says the step it happened in (`Event`'s step). mypy refuses a plain `str` in most
of these (`goto(state, name: StepId, out)`); this test walks the source of every module of
app/rules and refuses a string literal in any of them, mypy or not (a comparison with
`.step` takes any string).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.rules.engine.snapshot import restore, snapshot
from app.rules.engine.steps import StepId, goto

from ..base.test_basic_rules import game

RULES = Path(__file__).resolve().parents[3] / "app" / "rules"
TABLE = RULES / "engine" / "steps.py"  # the step ids' words are written here, once

# A call naming a step, and where its step is: (position, keyword)
CALLS = {
    "goto": (1, "name"),
    "call": (1, "name"),
    "Call": (0, "step"),  # the sequences of play: a procedure called
    "Branch": (1, "targets"),  # ... the steps a branch may go on to
    "Ways": (1, "ways"),  # ... the steps a handler's ways go on to
    "automatic": (0, "name"),
    "register": (0, "step"),
    "Step": (0, "name"),
    "Path": (1, "in_step"),
    "Event": (3, "step"),
}


def _literals(node: ast.expr) -> Iterator[ast.Constant]:
    """The string literals a step expression may be: itself, either branch of a
    conditional, the items of a tuple, list or set, a `frozenset(...)`'s argument."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _literals(value)
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for item in node.elts:
            yield from _literals(item)
    elif isinstance(node, ast.Dict):  # a step's ways: the steps they go on to
        for item in node.values:
            yield from _literals(item)
    elif isinstance(node, ast.Call) and _called(node.func) in ("frozenset", "set", "tuple"):
        yield from _literals(node.args[0]) if node.args else iter(())


def _is_step(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "step"


def _is_sequence(node: ast.AnnAssign | ast.Assign) -> bool:
    """`SEQUENCE = {...}`: a sequence of play's table."""
    targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
    named = any(isinstance(t, ast.Name) and t.id == "SEQUENCE" for t in targets)
    return named and isinstance(node.value, ast.Dict)


def _called(func: ast.expr) -> str | None:
    """A call's name: `goto(...)`, `steps.goto(...)`; `hooks.register(...)` registers a
    game family, not a step, so `register` counts only called by that name alone."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and func.attr != "register":
        return func.attr
    return None


def _step_expressions(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    """Each expression of the source that names a step, with how it names it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node.func) in CALLS:
            name = _called(node.func)
            assert name is not None
            position, keyword = CALLS[name]
            arg = node.args[position] if len(node.args) > position else None
            arg = next((k.value for k in node.keywords if k.arg == keyword), arg)
            if arg is not None:
                yield name, arg
        elif isinstance(node, ast.AnnAssign | ast.Assign) and _is_sequence(node):
            assert isinstance(node.value, ast.Dict)
            for item in [*node.value.keys, *node.value.values]:
                if item is not None:
                    yield "SEQUENCE", item
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = zip(target.elts, node.value.elts, strict=False)
                    yield from (("state.step =", v) for t, v in pairs if _is_step(t))
                elif _is_step(target):
                    yield "state.step =", node.value
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_step(s) for s in sides):
                yield from (("state.step ==", s) for s in sides if not _is_step(s))
        elif isinstance(node, ast.Subscript) and _called(node.value) == "STEPS":
            yield "STEPS[]", node.slice


def bare_step_names(source: str, where: str) -> list[str]:
    """'where:line: how "words"' for each string literal naming a step in `source`."""
    found = [
        (literal.lineno, literal.col_offset, how, literal.value)
        for how, expr in _step_expressions(ast.parse(source))
        for literal in _literals(expr)
    ]
    return [f"{where}:{line}: {how} {words!r}" for line, _, how, words in sorted(found)]


def _modules() -> list[Path]:
    return [p for p in sorted(RULES.rglob("*.py")) if p != TABLE]


def test_issue_33_no_step_name_is_a_bare_string_outside_the_step_table() -> None:
    """Every module of app/rules but the step table names its steps by their StepId."""
    found = [
        bad
        for path in _modules()
        for bad in bare_step_names(path.read_text(), str(path.relative_to(RULES)))
    ]
    assert found == [], "\n".join(found)
    assert len(_modules()) > 60  # the walk reads the whole package


BARE = """
def go(state, out, c):
    goto(state, "sea movement", out)
    call(state, StepId.COMBAT if c else "turn record", out)
    call(state, "combat", out, then=StepId.READY)
    automatic("sides", "3", _enter)
    register(Step("air return", "5", "", a, h, e, f))
    Path("fly", "air movement and search", reach, why)
    state.step, state.waiting = "search report", [owner]
    if state.step in ("assembly", StepId.READY) or "free roll" != state.step:
        out.append(Event("x", ALL, state.turn, "combat", {}))
    STEPS["radio"]
    SEQUENCE: dict = {StepId.SIDES: "assembly", "radio": Call("surface setup")}
    X = Branch("4", ("combat", StepId.READY), f)
"""


def test_issue_33_each_bare_step_name_is_found_with_its_line() -> None:
    """A string literal in each place a step is named is told, with its line."""
    found = bare_step_names(BARE, "fake.py")
    assert found == [
        "fake.py:3: goto 'sea movement'",
        "fake.py:4: call 'turn record'",
        "fake.py:5: call 'combat'",
        "fake.py:6: automatic 'sides'",
        "fake.py:7: Step 'air return'",
        "fake.py:8: Path 'air movement and search'",
        "fake.py:9: state.step = 'search report'",
        "fake.py:10: state.step == 'assembly'",
        "fake.py:10: state.step == 'free roll'",
        "fake.py:11: Event 'combat'",
        "fake.py:12: STEPS[] 'radio'",
        "fake.py:13: SEQUENCE 'assembly'",
        "fake.py:13: SEQUENCE 'radio'",
        "fake.py:13: Call 'surface setup'",
        "fake.py:14: Branch 'combat'",
    ]


@pytest.mark.parametrize(
    ("module", "by_id", "member", "bare", "how"),
    [
        (
            "base/sequence.py",
            "StepId.REORGANIZATION: StepId.COMBAT,",
            "StepId.COMBAT",
            '"combat"',
            "SEQUENCE",
        ),
        (
            "optional/surface/sequence.py",
            "StepId.GUNNERY: StepId.TORPEDO_COMBAT,",
            "StepId.GUNNERY",
            '"gunnery"',
            "SEQUENCE",
        ),
        (
            "base/sequence.py",
            "Call(StepId.SURFACE_SETUP, then=StepId.REORGANIZATION)",
            "StepId.SURFACE_SETUP",
            '"surface setup"',
            "Call",
        ),
        (
            "expansions/ptvm/area_search.py",
            "state.step == StepId.SEARCH_REPORT",
            "StepId.SEARCH_REPORT",
            '"search report"',
            "state.step ==",
        ),
    ],
)
def test_issue_33_a_step_named_by_its_words_again_is_refused(
    module: str, by_id: str, member: str, bare: str, how: str
) -> None:
    """The engine's own source with one step named by its words, as it was before the
    step ids: the walk finds that one, on its line."""
    source = (RULES / module).read_text()
    assert source.count(by_id) == 1
    old = source.replace(by_id, by_id.replace(member, bare, 1), 1)
    line = old[: old.index(by_id.replace(member, bare, 1))].count("\n") + 1
    assert bare_step_names(old, module) == [f"{module}:{line}: {how} {bare.strip(chr(34))!r}"]


def _enum_members_set(tree: ast.Module) -> Iterator[int]:
    """The lines where `.step` is set to a `StepId` member itself (not its `.value`)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            pairs: list[tuple[ast.expr, ast.expr]] = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts, strict=False))
            for t, v in pairs:
                member = (
                    isinstance(v, ast.Attribute)
                    and isinstance(v.value, ast.Name)
                    and v.value.id == "StepId"
                )
                if _is_step(t) and member:
                    yield node.lineno


def test_issue_33_the_state_keeps_a_step_as_its_words() -> None:
    """The state's step is a plain str (the snapshot holds JSON types only, and reads back
    equal): `goto` stores the id's words, and a module that puts the state in a step
    itself stores `StepId.X.value`, not the member."""
    found = [
        f"{path.relative_to(RULES)}:{line}"
        for path in _modules()
        for line in _enum_members_set(ast.parse(path.read_text()))
    ]
    assert found == []
    assert list(_enum_members_set(ast.parse("state.step, w = StepId.FREE_ROLL, []"))) == [1]
    s = game()
    for step in (StepId.ASSEMBLY, StepId.AIR_RETURN):
        goto(s, step, [])
        assert type(s.step) is str and s.step == step
        assert restore(snapshot(s)) == s
