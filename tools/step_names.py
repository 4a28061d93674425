"""Issue 33: every step the rules name is a registered step, and every registered step is
gone on to somewhere.

    python -m tools.step_names     every name of a step in app/rules, with where it is;
                                   exit status 1, with each problem, if one is wrong

A step is named where the turn goes on to it (`goto(state, StepId.COMBAT, out)`, `call`),
where the state is put in it (`state.step = ...`), where the state's
step is compared (`state.step == ...`, `state.step in EARLY_STEPS`), looked up
(`STEPS[...]`), and where an event says which step it happened in (`Event(kind, audience,
turn, step, ...)`). The names are read from the package's source: a step id (`StepId.X`),
a literal (which tests/rules/engine/test_issue_33_step_ids.py refuses in app/rules), a module's
constant (its own or imported: `STEP`, `radio.STEP`), both branches of a conditional, the
items of a tuple or set, and whatever a function of the package returns (`setup_step(b)`).
A value the code only passes on (a parameter, the step a call returns to) names nothing
and is not read: it was named where it came from. The sequences of play
(app/rules/base/sequence.py, optional/surface/sequence.py) name the steps the game goes
on to as data, which the engine checks on import (`steps.check_sequence`): their targets
count as gone on to (`gone_on_to`).

Reading the source is I/O, which the engine does not do (STYLE.md 1): the engine checks at
import what it can without it (`app.rules.engine.steps.check_registered`: each step registered
under a step id, each step id registered), and tests/rules/engine/test_step_names.py runs this.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FunctionType, ModuleType

import app.rules
from app.rules.engine.steps import (
    FINISHED,
    SEQUENCE,
    STEPS,
    Call,
    StepId,
    first_step,
    targets,
)

PACKAGE = "app.rules"
ROOT = Path(app.rules.__file__).resolve().parent


@dataclass(frozen=True)
class Named:
    """A step's name where the source names it."""

    step: str
    where: str  # "app/rules/base/battle.py:158"
    how: str  # "goto", "call", "state.step =", "state.step ==", "STEPS[]", "Event"

    def __str__(self) -> str:
        return f"{self.where}: {self.how} {self.step!r}"


# A call and the place of its step argument: (position, keyword)
_CALLS = {
    "goto": (1, "name"),
    "call": (1, "name"),
    "Event": (3, "step"),
}


def named_steps() -> list[Named]:
    """Every name of a step in the package's source, file by file, line by line."""
    return [n for module, source in _package() for n in names_in(module, source)]


def problems(named: Iterable[Named]) -> list[str]:
    """What is wrong with the names: a name that is no registered step; a step id no
    module registers; a step nothing goes on to (by the sequences of play, `goto`, `call`
    or setting the state's step)."""
    named = list(named)
    out = [f"{n}: no step is registered under this name" for n in named if not _known(n.step)]
    out += [f"step id {s.value!r} is registered by no module" for s in StepId if s not in STEPS]
    begun = {n.step for n in named if n.how in ("goto", "call", "state.step =")}
    begun |= gone_on_to()
    out += [f"step {s!r} is registered but nothing goes on to it" for s in STEPS if s not in begun]
    return out


def gone_on_to() -> set[str]:
    """The steps the sequences of play go on to (app/rules/base/sequence.py, and a
    procedure's own), their first step and the steps called: the engine checks on import
    that each is registered (`steps.check_sequence`)."""
    out: set[str] = {str(first_step())}
    for after in SEQUENCE.values():
        for target in targets(after):
            if isinstance(target, Call):
                out |= {str(target.step)} | ({str(target.then)} if target.then else set())
            elif isinstance(target, StepId):
                out.add(str(target))
    return out


def _known(step: str) -> bool:
    return step in STEPS or step == FINISHED


def _package() -> Iterator[tuple[ModuleType, str]]:
    for path in sorted(ROOT.rglob("*.py")):
        source = path.read_text()
        if "step" not in source and "goto(" not in source and "Event(" not in source:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join((PACKAGE, *parts)).removesuffix(".__init__")
        module = sys.modules.get(name) or importlib.import_module(name)
        yield module, source


def names_in(module: ModuleType, source: str) -> list[Named]:
    """The steps `source`, the text of `module`, names (see the module's docstring)."""
    path = getattr(module, "__file__", None) or module.__name__
    try:
        where_file = str(Path(path).resolve().relative_to(ROOT.parents[1]))
    except ValueError:
        where_file = str(path)
    resolve = _Resolver(module)
    out: list[Named] = []

    def add(node: ast.expr, how: str, at: ast.AST) -> None:
        line = getattr(at, "lineno", 0)
        out.extend(Named(s, f"{where_file}:{line}", how) for s in resolve(node))

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = _called(node.func)
            if name in _CALLS:
                pos, keyword = _CALLS[name]
                arg = node.args[pos] if len(node.args) > pos else None
                arg = next((k.value for k in node.keywords if k.arg == keyword), arg)
                if arg is not None:
                    add(arg, name, node)
        elif isinstance(node, ast.Assign):
            for target, value in _assigned(node):
                if _is_step(target):
                    add(value, "state.step =", node)
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_step(s) for s in sides):
                for s in sides:
                    if not _is_step(s):
                        add(s, "state.step ==", node)
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id == "STEPS"
        ):
            add(node.slice, "STEPS[]", node)
    return sorted(out, key=lambda n: int(n.where.rsplit(":", 1)[1]))


def _assigned(node: ast.Assign) -> Iterator[tuple[ast.expr, ast.expr]]:
    """Each target with its value (`a.step, a.waiting = "x", []` pairs them off)."""
    for target in node.targets:
        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
            yield from zip(target.elts, node.value.elts, strict=False)
        else:
            yield target, node.value


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_step(node: ast.expr) -> bool:
    """`<something>.step`: a state's, an event's, a report's step."""
    return isinstance(node, ast.Attribute) and node.attr == "step"


class _Resolver:
    """The step names an expression of `module` may have (module docstring)."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.seen: set[Callable[..., object]] = set()

    def __call__(self, node: ast.expr) -> list[str]:
        if isinstance(node, ast.Constant):
            return [node.value] if isinstance(node.value, str) else []
        if isinstance(node, ast.IfExp):
            return self(node.body) + self(node.orelse)
        if isinstance(node, ast.BoolOp):
            return [s for v in node.values for s in self(v)]
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return [s for e in node.elts for s in self(e)]
        if isinstance(node, ast.Name | ast.Attribute):
            return _values(self._lookup(node))
        if isinstance(node, ast.Call):
            func = self._lookup(node.func)
            if isinstance(func, FunctionType) and func.__module__.startswith(PACKAGE):
                return self._returns(func)
        return []

    def _lookup(self, node: ast.expr) -> object:
        """A module-level value named by `node` (a Name, or a module's attribute)."""
        if isinstance(node, ast.Name):
            return getattr(self.module, node.id, None)
        if isinstance(node, ast.Attribute):
            base = self._lookup(node.value)
            if isinstance(base, ModuleType | type):  # a module's name, or StepId.X
                return getattr(base, node.attr, None)
            if isinstance(base, StepId) and node.attr == "value":  # StepId.X.value
                return base.value
        return None

    def _returns(self, func: FunctionType) -> list[str]:
        """What a function of the package returns, where its returns are names."""
        if func in self.seen:
            return []
        self.seen.add(func)
        try:
            tree = ast.parse(inspect.getsource(func).lstrip())
        except (OSError, SyntaxError, IndentationError):
            return []
        inner = _Resolver(sys.modules[func.__module__])
        inner.seen = self.seen
        return [
            s
            for n in ast.walk(tree)
            if isinstance(n, ast.Return) and n.value is not None
            for s in inner(n.value)
        ]


def _values(value: object) -> list[str]:
    """A constant's step names: a string, or the strings of a tuple, list or set."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple | list | frozenset | set) and all(isinstance(v, str) for v in value):
        return sorted(str(v) for v in value)
    return []


def main() -> None:
    named = named_steps()
    for n in named:
        print(n)
    found = problems(named)
    for p in found:
        print(f"WRONG {p}", file=sys.stderr)
    print(f"{len(named)} names of {len({n.step for n in named})} steps; {len(found)} wrong")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
