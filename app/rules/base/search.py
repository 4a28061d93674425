"""Search answers: 3d3.2 in the Basic Game, 15a variable spotting as an option.

3d3.2: a spotted hex is answered exactly - its task force markers and their ship units.
15a: "something is there", then competitive rolls, the searcher's modified by +3 in a day
Turn (+0 for a sea search at night), +2 per extra movement factor spent circling (air
searches), +3 for land or reef, +6 for the Midway base (15a1.1). Tie or less: still just
"something"; more: a number of ships, which the owner may state falsely from half (round
up) to double; two times: the actual number; three times: exact (15a1.2, RULES-NOTES.md).
"""

from __future__ import annotations

from app.rules import hooks
from app.rules.base.units import BASE_ID, ship_record
from app.rules.board.boards import forces_at, land_hexes, midway_hex, ships_in
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import Action
from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import BASE, Report, Side, Spotting, State, other
from app.rules.engine.steps import Step, StepId, advance, call, nothing, register
from app.rules.modes import hooks as mode_hooks

DAY = 3  # 15a1.1
LAND = 3
MIDWAY = 6
PER_FACTOR = 2


def exact_answer(state: State, searcher: Side, hex_: str) -> dict[str, list[str]]:
    """3d3.2: the opponent reveals every task force marker in the hex and its exact ships."""
    enemy = other(searcher)
    return {m: [u.id for u in ships_in(state, enemy, m)] for m in forces_at(state, enemy, hex_)}


def ships_present(state: State, searcher: Side, hex_: str) -> int:
    """15a1.2: ships, not units - a DD or AP unit is three to six ships (1b reference)."""
    enemy = other(searcher)
    return sum(
        ship_record(u).ships
        for m in forces_at(state, enemy, hex_)
        for u in ships_in(state, enemy, m)
    )


def search_modifier(state: State, hex_: str, how: str, factors: int) -> int:
    """15a1.1: the searching side's modifiers."""
    night = turn_box(state).night
    total = 0 if night else DAY
    if how == "air search":
        total += PER_FACTOR * factors
    if hex_ in land_hexes(state):
        total += LAND
    base = state.units["usa"].get(BASE_ID)
    if base is not None and base.box == BASE and hex_ == midway_hex():
        total += MIDWAY
    return total


def search(
    state: State, side: Side, hex_: str, how: str, out: list[Event], factors: int = 0
) -> None:
    """3d3, 3d5: announce the hex; the opponent answers by the procedure in force."""
    state.announcements.append((side, how, hex_))
    found = exact_answer(state, side, hex_)
    if not found:
        _record(state, side, Spotting(state.turn, hex_, {}, how, "nothing"), out)
    elif OptionId.VARIABLE_SPOTTING not in state.options:
        _record(state, side, Spotting(state.turn, hex_, found, how), out)
    else:
        _variable(state, side, hex_, how, factors, found, out)


def _variable(
    state: State,
    side: Side,
    hex_: str,
    how: str,
    factors: int,
    found: dict[str, list[str]],
    out: list[Event],
) -> None:
    modifier = search_modifier(state, hex_, how, factors)
    mine, theirs = roll_d10(state), roll_d10(state)
    number = mine + modifier
    roll = {
        "searcher_roll": mine,
        "modifier": modifier,
        "searcher_number": number,
        "opponent_roll": theirs,
    }
    out.append(
        Event("search-roll", ALL, state.turn, state.step, {"side": side, "hex": hex_, **roll})
    )
    actual = ships_present(state, side, hex_)
    if number >= 3 * theirs:
        _record(state, side, Spotting(state.turn, hex_, found, how), out)
    elif number >= 2 * theirs:
        _record(state, side, Spotting(state.turn, hex_, {}, how, "actual", actual), out)
    elif number > theirs and (stated := _stated(state, side, hex_, actual, out)) is not None:
        _record(state, side, Spotting(state.turn, hex_, {}, how, "number", stated), out)
    elif number > theirs:
        owner = other(side)
        state.boards[owner].report = Report(side, hex_, how, actual)
        call(state, StepId.SEARCH_REPORT, out)  # back to the search's step once stated
    else:
        _record(state, side, Spotting(state.turn, hex_, {}, how, "something"), out)


def _stated(state: State, side: Side, hex_: str, actual: int, out: list[Event]) -> int | None:
    """15a1.2: the number stated at once, if the mode states it (18c1: the umpire's "lie")."""
    return mode_hooks.of(state).number_stated(state, side, hex_, actual, out)


def _record(state: State, side: Side, spot: Spotting, out: list[Event]) -> None:
    """3d3.2: the search's answer, heard as the mode says (18c1: through the umpire)."""
    mode_hooks.of(state).search_answered(state, side, spot, out)


def _report_range(actual: int) -> range:
    """15a1.2: any number from half (rounded up) to double the actual number of ships."""
    return range((actual + 1) // 2, 2 * actual + 1)


def _actions(state: State, side: Side) -> list[Action]:
    report = state.boards[side].report
    return (
        []
        if report is None
        else [Action("report", (str(n),)) for n in _report_range(report.actual)]
    )


def _handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    report = state.boards[side].report
    assert report is not None
    state.boards[side].report = None
    advance(state, out)  # back in the search's step (15a1.2: a Return)
    stated = int(action.get("ships"))
    _record(
        state,
        report.searcher,
        Spotting(state.turn, report.hex, {}, report.how, "number", stated),
        out,
    )
    hooks.of(state).after_number_report(state, out)  # Searches 1: an area search's zones


def _enter(state: State, out: list[Event]) -> None:
    """15a1.2: the owner of the ships found states their number."""
    state.waiting = [s for s, board in state.boards.items() if board.report is not None]


def _why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "15a1.2", "the number stated is from half (rounded up) to double the ships present"


register(
    Step(
        StepId.SEARCH_REPORT,
        "15a1.2",
        "Search report: state the number of ships in the hex (half to double the real number)",
        _actions,
        _handle,
        _enter,
        nothing,
        _why,
    )
)
