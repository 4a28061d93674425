"""Issue 34: a seat page's GET costs little on the theatre map. The map's bases read the
day's damage of every base (Bases 3) from the Operations Cards in one pass
(app.web.theatre.base_states) rather than scanning the cards once a base; a region that
read nothing changed since the seat's last GET is not rendered again (app.web.render
SEEN); what the page shows is what it was."""

from __future__ import annotations

from typing import Any

import pytest

from app import rules
from app.web import render, theatre
from app.web.render import Context, Seat, render_region
from tests.web.games import KINDS, Kind, played

CORAL_SEA = ("coral-sea", (), "two-player", False)


def scanned(view: dict[str, Any], name: str) -> tuple[int | None, bool]:
    """Bases 3 as it was read before: the first base unit of that name on the cards."""
    for card in (view.get("operations_cards") or {}).values():
        for u in ((card or {}).get("units") or {}).values():
            if u.get("type") == "base" and str(u.get("name") or u.get("id")) == name:
                damage = u.get("damage_today")
                return (None if damage is None else int(damage)), bool(u.get("knocked_out"))
    return None, False


def test_bases_3_each_base_shows_what_a_scan_of_the_cards_finds() -> None:
    names = set(theatre.spec().bases) | {"Truk", "Nowhere"}
    damaged = 0
    for step, state, _logs in played(CORAL_SEA, 33, 33, 2000):  # a game with bases hit
        if step % 5:
            continue
        for seat in ("japan", "usa"):
            view = rules.view(state, seat)
            for name in names:
                assert theatre.base_state(view, name) == scanned(view, name), (step, name)
            marks = {b.name: (b.damage, b.knocked_out) for b in theatre.bases(view)}
            assert marks == {n: scanned(view, n) for n in marks}
            damaged += sum(1 for d, ko in marks.values() if d or ko)
    assert damaged > 0


def test_bases_3_the_first_card_holding_a_base_says_its_state() -> None:
    unit = {"type": "base", "name": "Rabaul"}
    view = {
        "operations_cards": {
            "japan": {"units": {"R": {**unit, "damage_today": 2}}},
            "usa": {"units": {"R": {**unit, "damage_today": 5, "knocked_out": True}}},
        }
    }
    assert theatre.base_state(view, "Rabaul") == (2, False) == scanned(view, "Rabaul")


def fresh(view: dict[str, Any], events: list[dict[str, Any]], seat: str) -> dict[str, str]:
    """Every region rendered afresh: nothing kept from an earlier render."""
    c = Context(view, events, Seat(view["id"], seat))
    return {name: render_region(c, name)[0] for name in render.REGIONS}


@pytest.mark.parametrize("kind", KINDS, ids=[f"{k[0]}-{k[2]}" for k in KINDS])
def test_34_a_seat_pages_regions_are_those_rendered_afresh(kind: Kind) -> None:
    """A seat's page GET after GET, version after version (app.web.render.SEEN: a region
    that read none of the view keys changed since the seat's last GET is its HTML then,
    stamped with the new version): each region is what rendering it afresh gives, for a
    seat of every kind (17a's commands, 18's umpire, the theatre map)."""
    game = f"{KINDS.index(kind) + 0x3500:016x}"  # by game id: not 0x34.. (test_page_patches)
    reused = 0
    for step, state, logs in played(kind, 34, 34, 80):
        for seat, log in logs.items():
            view = {**rules.view(state, seat), "id": game, "version": step + 1}
            before = render.SEEN.before((game, seat, step + 1), view)
            got = render.regions(view, log, Seat(game, seat))
            assert got == fresh(view, log, seat), (step, seat)
            if before is not None:
                reused += sum(1 for n in render.REGIONS if before.region(n, step + 1))
    assert reused > 0


def test_34_a_region_that_read_nothing_changed_is_not_rendered_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is measured: the regions rendered for a seat's GET of its next version when
    only the Turn record's time changed: none of those that do not read it."""
    game = "0000000000003499"
    (_step, state, logs), *_ = played(CORAL_SEA, 35, 35, 1)
    view = {**rules.view(state, "usa"), "id": game, "version": 1}
    render.regions(view, logs["usa"], Seat(game, "usa"))
    rendered: list[str] = []
    render_one = render.render_region

    def counted(c: Context, name: str) -> tuple[str, frozenset[str]]:
        rendered.append(name)
        return render_one(c, name)

    monkeypatch.setattr(render, "render_region", counted)
    later = {**view, "version": 2, "prompt": {**view["prompt"], "text": "changed"}}
    got = render.regions(later, logs["usa"], Seat(game, "usa"))
    assert got == fresh(later, logs["usa"], "usa")
    assert "prompt" in rendered and len(rendered) < len(render.REGIONS) - 3
