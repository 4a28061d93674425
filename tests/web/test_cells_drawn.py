"""Issue 17: a Searchboard's cells (1a: its hexes, as the seat's view marks them) are
made and drawn once for every board that shows them so: a hex searched (3d2) makes a
board that shares every other cell with the one before, and draws that one cell alone;
what it draws is what drawing each cell afresh gives."""

from __future__ import annotations

from typing import Any

import pytest

from app import rules
from app.web import render, searchboard


def boards() -> tuple[searchboard.Board, searchboard.Board, str]:
    view: dict[str, Any] = rules.view(rules.new_game("one", frozenset(), 5), "usa")
    board = render.board_of(view, "usa")
    searched = sorted(view["searchboard"]["searched"] or [])
    fresh = next(c.name for c in board.cells if c.name not in searched) if board else ""
    later = {**view, "searchboard": {**view["searchboard"], "searched": [*searched, fresh]}}
    after = render.board_of(later, "usa")
    assert board is not None and after is not None
    return board, after, fresh


def test_a_hex_searched_makes_that_cell_alone_anew() -> None:
    before, after, hex_ = boards()
    assert len(before.cells) == len(after.cells) > 200
    for old, new in zip(before.cells, after.cells, strict=True):
        if old.name == hex_:
            assert old is not new and "searched" in new.classes
            assert "searched" not in old.classes
        else:
            assert old is new, old.name  # shared, not made again


def test_a_hex_searched_draws_that_cell_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    before, after, hex_ = boards()
    render.cells_svg(before)
    macro = render._cell_macro()
    drawn: list[str] = []

    def counted() -> Any:
        def draw(c: searchboard.Cell, square: bool) -> Any:
            drawn.append(c.name)
            return macro(c, square)

        return draw

    monkeypatch.setattr(render, "_cell_macro", counted)
    html = render.cells_svg(after)
    assert drawn in ([hex_], [])  # [] when an earlier test drew that cell already
    every = "\n".join(str(macro(c, False)) for c in after.cells)
    assert html == f'<g id="sb-cells" class="cells">\n{every}\n</g>'
    assert f'data-hex="{hex_}"' in html and "searched this Turn" in html
