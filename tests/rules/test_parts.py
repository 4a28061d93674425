"""Issue 33: the rules engine as parts, each package saying what it may import.

Each package of app/rules opens with a docstring saying what it owns and what it may
import; these tests walk the imports of every module (as test_engine.py keeps the engine
pure) and fail on an import a part may not make.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.rules import new_game
from app.rules.modes import hooks as mode_hooks
from app.rules.modes.r18_umpired.hooks import Umpired

RULES = Path(__file__).resolve().parents[2] / "app" / "rules"
PACKAGES = ("engine", "board", "base", "optional", "modes", "expansions")
# What the base game (and the board and the optional rules) never import: an expansion and
# the modes' own procedures. They ask a hook (app/rules/hooks.py) or a registry instead.
NOT_FROM_BASE = (
    "app.rules.expansions",
    "app.rules.modes.r17_teams",
    "app.rules.modes.r18_umpired",
)
RULES_PACKAGES = (
    *(f"app.rules.{p}" for p in PACKAGES if p != "engine"),
    "app.rules.hooks",
    "app.rules.game",
    "app.rules.explain",
)


def _type_checking_only(tree: ast.Module) -> set[ast.AST]:
    """The nodes under `if TYPE_CHECKING:` (names for the type checker, never imported)."""
    return {
        n
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for child in node.body
        for n in ast.walk(child)
    }


def imports(path: Path, at_run_time: bool = False) -> set[str]:
    """The modules `path` imports, `from app.rules import x` read as app.rules.x; with
    `at_run_time`, not those named for the type checker only."""
    names: set[str] = set()
    tree = ast.parse(path.read_text())
    skip = _type_checking_only(tree) if at_run_time else set()
    for node in ast.walk(tree):
        if node in skip:
            continue
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}: relative import"
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def modules(package: str) -> list[Path]:
    return sorted((RULES / package).rglob("*.py"))


def under(name: str, prefixes: tuple[str, ...] | set[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("package", ["base", "board", "optional"])
def test_issue_33_no_base_module_imports_the_expansion_or_the_modes_procedures(
    package: str,
) -> None:
    """The base game names no expansion, no team game and no umpired procedure."""
    for path in modules(package):
        bad = {n for n in imports(path) if under(n, NOT_FROM_BASE)}
        assert not bad, f"{path.relative_to(RULES)} imports {sorted(bad)}"


def test_issue_33_the_engine_imports_no_rules_package() -> None:
    """The State names its slots' classes for the type checker; the packages that own them
    register them (engine/state.py `register_slot`): the engine imports none of them."""
    for path in modules("engine"):
        bad = {n for n in imports(path, at_run_time=True) if under(n, RULES_PACKAGES)}
        assert not bad, f"{path.relative_to(RULES)} imports {sorted(bad)}"


def test_issue_33_the_modes_import_no_expansion() -> None:
    for path in modules("modes"):
        bad = {n for n in imports(path) if under(n, ("app.rules.expansions",))}
        assert not bad, f"{path.relative_to(RULES)} imports {sorted(bad)}"


def test_issue_33_app_rules_keeps_the_facade_and_a_handful_of_modules() -> None:
    loose = sorted(p.name for p in RULES.glob("*.py"))
    assert len(loose) <= 5, loose
    folders = sorted(p.name for p in RULES.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(PACKAGES)


def test_issue_33_the_tests_mirror_the_tree() -> None:
    """tests/rules has a folder for each part it tests, named as the part; what stays at
    its top tests the rules whole (the fuzzers, the golden playthroughs, these parts, the
    facade's why_not)."""
    tests = Path(__file__).resolve().parent
    folders = sorted(p.name for p in tests.iterdir() if (p / "__init__.py").exists())
    assert folders and set(folders) <= set(PACKAGES), folders
    for folder in folders:
        assert sorted((tests / folder).glob("test_*.py")), f"tests/rules/{folder} tests nothing"
    loose = sorted(p.name for p in tests.glob("test_*.py"))
    assert len(loose) <= 6, loose


@pytest.mark.parametrize(
    "init", sorted(p for p in RULES.rglob("__init__.py") if p.parent != RULES), ids=str
)
def test_issue_33_each_package_says_what_it_owns_and_may_import(init: Path) -> None:
    doc = ast.get_docstring(ast.parse(init.read_text())) or ""
    assert doc, f"{init.relative_to(RULES)} has no docstring"
    if init.parent.name in ("surface",):
        return  # a rule's package inside a part: the part's docstring holds its imports
    assert "import" in doc, f"{init.relative_to(RULES)} does not say what it may import"


# What a mode is to the rest of the rules: its hooks (app/rules/modes/hooks.py), never its
# flags. The modes' own package reads them (`mode_of(state.mode).umpired`) to answer a hook.
MODE_FLAGS = frozenset({"umpired", "open_cards", "umpire_seat"})
OUTSIDE_THE_MODES = (
    *(p for package in ("base", "board", "optional", "expansions") for p in modules(package)),
    RULES / "game.py",
    RULES / "hooks.py",
    RULES / "explain.py",
)


def flag_reads(path: Path) -> list[int]:
    """The lines of `path` that read a mode's flag (`<anything>.umpired`, `.open_cards`, ...)."""
    tree = ast.parse(path.read_text())
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in MODE_FLAGS
        and isinstance(node.ctx, ast.Load)
    ]


@pytest.mark.parametrize("path", OUTSIDE_THE_MODES, ids=lambda p: str(p.relative_to(RULES)))
def test_issue_33_no_rules_module_outside_the_modes_reads_a_modes_flag(path: Path) -> None:
    """A mode is a module with hooks: the base game, the optional rules, the board, the
    expansion and the engine's play ask `mode_hooks.of(state)` what the rule asks (who hears a
    search's answer, 18c1; what the attacker learns of a base, 18c2; ...), never whether
    the game is umpired or its Operations Cards open. Who acts at once in the Action
    Phase and the Air Return Phase (18c1, 18c3) is declared on each Step
    (`Step.acts`), not read from the mode."""
    name = str(path.relative_to(RULES))
    lines = flag_reads(path)
    assert lines == [], f"{name} reads a mode's flag: {lines}"


@pytest.mark.parametrize("mode", ["two-player", "umpired", "double-blind"])
def test_issue_33_each_mode_answers_the_mode_hooks(mode: str) -> None:
    """The two-player game keeps the defaults (2c); both umpired modes answer with the
    umpire's procedure (18), registered by modes/r18_umpired."""
    state = new_game("one", mode=mode)
    expected = mode_hooks.ModeHooks if mode == "two-player" else Umpired
    assert type(mode_hooks.of(state)) is expected
    assert mode_hooks.of(state).sees_all_losses(state, "usa") is (mode == "two-player")
