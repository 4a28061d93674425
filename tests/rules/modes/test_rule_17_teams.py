"""17: Multi-Player Rules - teams of two a side, one seat per command (17a), each player
controlling only the units he commands (17b), side-wide decisions with the side's overall
commander (17c1; until one is named, the command the scenario marks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, seats, view
from app.rules.engine.actions import Action
from app.rules.engine.errors import NotOffered
from app.rules.engine.events import Event, events_for
from app.rules.engine.state import State
from app.rules.engine.steps import StepId
from app.rules.modes.commands import deciders
from app.rules.modes.seats import acting

from ..helpers import play

PLACES = {
    "usa-tf16": ("place TF16 N3", "flagship Enterprise"),
    "usa-tf17": ("place TF17 N4", "flagship Yorktown"),
    "japan-i": ("place MobileForce H2", "flagship Akagi"),
    "japan-vi": ("place EscortForce C9", "place SecondFleet F8", "flagship Kongo"),
}


def team_game(scenario: str = "three", options: frozenset[str] = frozenset()) -> State:
    return new_game(scenario, options, 7, "two-player", True)


def set_up(
    state: State, dice: tuple[int, ...] = (8, 3), radio: bool = False
) -> tuple[State, list[Event]]:
    """Scenario Three: every player places his own task forces and is done; the Sides roll
    then uses `dice` (US first: 8 against 3 makes the US Side A). Then every player
    writes no note in the radio step (17c3), unless `radio` keeps the game there."""
    events: list[Event] = []
    for seat, texts in PLACES.items():
        if seat == "japan-vi":
            state.forced_dice = list(dice)
        state, out = play(state, seat, *texts, "done")
        events += out
    assert state.step == "radio"
    if not radio:
        state, out = no_notes(state)
        events += out
    return state, events


def no_notes(state: State) -> tuple[State, list[Event]]:
    """17c3: every player passes the radio step without a note."""
    events: list[Event] = []
    for seat in PLACES:
        state, out = play(state, seat, "done")
        events += out
    return state, events


def texts(state: State, seat: str) -> set[str]:
    return {a.text() for a in legal_actions(state, seat)}


def test_17a_a_team_game_has_one_seat_per_command_each_named_after_its_side() -> None:
    """17a: two players a side; DESIGN.md: seat ids begin with their side."""
    state = team_game()
    assert [(s.id, s.side, s.command) for s in seats(state)] == [
        ("japan-i", "japan", "i"),
        ("japan-vi", "japan", "vi"),
        ("usa-tf16", "usa", "tf16"),
        ("usa-tf17", "usa", "tf17"),
    ]
    assert [s.id for s in seats(new_game("three", frozenset(), 7))] == ["japan", "usa"]


@pytest.mark.parametrize("scenario", ["one", "four"])
def test_17_teams_are_offered_in_scenarios_two_and_three_only(scenario: str) -> None:
    """17: "only scenarios 7c and 7d be used for multi-player games"."""
    with pytest.raises(NotOffered) as refused:
        new_game(scenario, frozenset(), 1, "two-player", True)
    assert refused.value.rule == "17" and "Scenario Two" in str(refused.value)


def test_17a_each_player_sets_up_only_the_forces_he_commands() -> None:
    """17a: TF 16 and its units / TF 17, Midway and theirs; Japan by area (Scenario Three:
    the Mobile Force with area I, the Escort Force and Second Fleet with area VI)."""
    state = team_game()
    tf16, tf17 = texts(state, "usa-tf16"), texts(state, "usa-tf17")
    assert "place TF16 N3" in tf16 and not any(t.startswith("place TF17") for t in tf16)
    assert "place TF17 N3" in tf17 and not any(t.startswith("place TF16") for t in tf17)
    assert "arm B6" in tf16 and "arm B6" not in tf17  # Enterprise's dive bombers
    assert "arm 5AF" in tf17 and "arm 5AF" not in tf16  # Midway's
    vi, i = texts(state, "japan-vi"), texts(state, "japan-i")
    assert "place EscortForce C9" in vi and "place EscortForce C9" not in i
    assert "place MobileForce H2" in i and "arm ZHT" in vi and "arm ZHT" not in i


def test_17b_an_action_for_another_commands_units_is_refused_naming_17b() -> None:
    """17b: "Players may only control the units that they command"; the game unchanged."""
    state = team_game()
    before = state.clone()
    with pytest.raises(IllegalAction) as refused:
        apply(state, "usa-tf16", Action("place", ("TF17", "N3")))
    assert refused.value.rule == "17b" and "usa-tf17" in str(refused.value)
    assert state == before


def test_17a_the_side_is_done_when_each_of_its_players_is() -> None:
    """Both players of a side set up; the side's setup ends when the second is done."""
    state = team_game()
    state, _ = play(state, "usa-tf16", *PLACES["usa-tf16"], "done")
    assert "usa-tf16" not in acting(state) and "usa-tf17" in acting(state)
    assert "usa" in state.waiting
    state, _ = play(state, "usa-tf17", *PLACES["usa-tf17"], "done")
    assert "usa" not in state.waiting
    assert legal_actions(state, "usa-tf16") == [] == legal_actions(state, "usa-tf17")


def test_17a_task_force_1_goes_to_the_player_the_americans_choose_at_setup() -> None:
    """17a: "If Task Force 1 is used, it may be assigned to either player": the overall
    commander (TF 17's player until one is named, 17c1) assigns it; its player then
    decides whether it enters (7c4.2)."""
    state = team_game("two")
    assert "commit TF1" in texts(state, "usa-tf17") and "commit TF1" not in texts(state, "usa-tf16")
    assert "assign TF1 tf16" in texts(state, "usa-tf17")
    assert not any(t.startswith("assign") for t in texts(state, "usa-tf16"))
    state, _ = play(state, "usa-tf17", "assign TF1 tf16")
    assert "commit TF1" in texts(state, "usa-tf16") and "commit TF1" not in texts(state, "usa-tf17")
    assert state.boards["usa"].commands["Colorado"] == "tf16"


def test_17b_each_player_readies_only_his_own_air_units() -> None:
    """17b, 3b: in the Ready Step (Turn 7 is a night Turn: no launches, 3a1) each Japanese
    player shifts his own carriers' air units (the US is Side A by the forced 8 against 3,
    so Japan acts first)."""
    state, events = set_up(team_game())
    assert [e.data for e in events if e.kind == "sides"] == [
        {"A": "usa", "B": "japan", "at_once": False}
    ]
    assert state.step == "ready" and set(acting(state)) == {"japan-i", "japan-vi"}
    i, vi = texts(state, "japan-i"), texts(state, "japan-vi")
    assert "arm AD" in i and "arm AD" not in vi  # Akagi's
    assert "arm ZHT" in vi and "arm ZHT" not in i  # Zuiho's
    with pytest.raises(IllegalAction) as refused:
        apply(state, "japan-vi", Action("arm", ("AD",)))
    assert refused.value.rule == "17b"


def test_17b_each_player_moves_only_his_own_task_forces() -> None:
    """17b, 3c: in the Sea Movement Step each American moves his own task force."""
    state, _ = set_up(team_game())
    while state.step != "sea movement" or state.waiting[0] != "usa":
        seat = acting(state)[0]
        state, _ = play(state, seat, "done")
    tf16, tf17 = texts(state, "usa-tf16"), texts(state, "usa-tf17")
    assert any(t.startswith("move TF16") for t in tf16)
    assert not any(t.startswith("move TF17") for t in tf16)
    assert any(t.startswith("move TF17") for t in tf17)
    assert not any(t.startswith("move TF16") for t in tf17)


def test_17_a_sides_players_share_its_searchboard_and_its_events() -> None:
    """Two-player mode with teams: a side's players share its Searchboard (one copy on the
    table) and what the side learns; the enemy's players see neither."""
    state, _ = set_up(team_game())
    state, _ = play(state, "japan-i", "done")
    tf16, tf17, i = (view(state, s) for s in ("usa-tf16", "usa-tf17", "japan-i"))
    assert tf16["searchboard"] == tf17["searchboard"]
    assert tf16["searchboard"]["forces"] == {"TF16": "N3", "TF17": "N4"}
    assert "TF16" not in i["searchboard"]["forces"]
    assert tf16["viewer"] == {
        "seat": "usa-tf16",
        "side": "usa",
        "command": "tf16",
        "label": "Task Force 16",
    }
    side_event = Event("sea-search", "usa", state.turn, state.step, {})
    assert events_for([side_event], "usa-tf17") and events_for([side_event], "usa-tf16")
    assert not events_for([side_event], "japan-i")


def test_17c1_side_wide_decisions_are_the_overall_commanders() -> None:
    """17c1: the order of battles (4), the free roll marker (11a) and a reorganisation
    across commands (4e1) are the overall commander's; a reorganisation within one
    command is its own, and the ship then belongs to the task force's command."""
    state, _ = set_up(team_game())
    assert deciders(state, "usa", Action("battle", ("H4",))) == {"tf17"}
    assert deciders(state, "japan", Action("reroll")) == {"i"}
    assert deciders(state, "usa", Action("transfer", ("Hornet", "TF17"))) == {"tf17"}
    assert deciders(state, "usa", Action("transfer", ("Hornet", "TF-A"))) == {"tf16"}
    assert deciders(state, "japan", Action("transfer", ("Hiei", "MobileForce"))) == {"i"}
    assert deciders(state, "japan", Action("transfer", ("Hiei", "Group-A"))) == {"vi"}


def test_17b_the_enemy_is_told_only_which_side_it_waits_for() -> None:
    """Which enemy player is done with a step may tell what he commands: the enemy's
    prompt names the side, a teammate's names the seats."""
    state = team_game()
    state, _ = play(state, "usa-tf16", *PLACES["usa-tf16"], "done")
    assert view(state, "usa-tf16")["prompt"]["waiting_for"] == ["japan", "usa-tf17"]
    assert view(state, "japan-i")["prompt"]["waiting_for"] == ["japan-i", "japan-vi", "usa"]


def test_17c1_either_player_names_the_overall_commander_before_play() -> None:
    """17c1: "One player should be nominated as the overall commander" - until the side
    names one, TF 17's player is (the scenario's default); once play starts it stands."""
    state = team_game()
    assert "overall tf16" in texts(state, "usa-tf16") and "overall tf16" in texts(state, "usa-tf17")
    state, _ = play(state, "usa-tf17", "overall tf16")
    assert state.boards["usa"].overall == "tf16"
    assert view(state, "usa-tf17")["searchboard"]["commands"]["overall"] == "tf16"
    assert "commands" not in view(state, "japan-i")["searchboard"] or (
        view(state, "japan-i")["searchboard"]["commands"]["overall"] == "i"
    )
    state, _ = set_up(state)
    assert deciders(state, "usa", Action("battle", ("H4",))) == {"tf16"}
    assert not any(a.kind == "overall" for s in seats(state) for a in legal_actions(state, s.id))


def test_17c2_each_player_names_a_flagship_known_to_his_side_never_to_the_enemy() -> None:
    """17c2: a carrier or battleship of his own, named before he is done setting up."""
    state = team_game()
    tf16 = texts(state, "usa-tf16")
    assert {"flagship Enterprise", "flagship Hornet"} <= tf16
    assert "flagship Yorktown" not in tf16 and "flagship Minneapolis" not in tf16  # a CA
    state, _ = play(state, "usa-tf16", "place TF16 N3")
    with pytest.raises(IllegalAction) as refused:
        apply(state, "usa-tf16", Action("done"))
    assert refused.value.rule == "17c2"
    state, _ = play(state, "usa-tf16", "flagship Hornet", "done")
    for seat in ("usa-tf16", "usa-tf17"):
        assert view(state, seat)["searchboard"]["commands"]["flagships"] == {"tf16": "Hornet"}
    for seat in ("japan-i", "japan-vi", "spectator"):
        seen = view(state, seat)
        del seen["operations_cards"]  # 2c: Hornet itself is on the open card, not its role
        assert "Hornet" not in json.dumps(seen), seat


CASES = Path(__file__).parent / "cases"


def test_17a_a_players_done_stands_through_the_enemys_search_report() -> None:
    """17a: the side is done with a step when each of its players is. A Japanese player
    who said Done in the Air Movement and Search Step stays done while his teammate's sea
    search (3d5) has the American state the number of ships found (15a1.2): the report is
    called from the step and ends back in it as it was (engine/steps.py `call`/`end`). It
    used to undo his Done, asking him again for a step he had finished: make fuzz's team
    games, compared seed by seed with the engine before its parts, went otherwise there."""
    case = json.loads((CASES / "17a-done-through-a-search-report.json").read_text())
    log = case["log"]
    state = new_game(case["scenario"], frozenset(case["opts"]), case["seed"], case["mode"], True)
    for seat, action in log[:-3]:
        state, _ = apply(state, seat, action)
    assert state.step == StepId.AIR_MOVEMENT_AND_SEARCH and state.waiting[0] == "japan"
    state, _ = apply(state, *log[-3])  # japan-i: done
    assert state.done == ["japan-i"] and acting(state) == ["japan-vi"]
    state, _ = apply(state, *log[-2])  # japan-vi: the sea search that finds TF17
    assert state.step == StepId.SEARCH_REPORT and acting(state) == ["usa-tf16", "usa-tf17"]
    state, events = apply(state, *log[-1])  # usa-tf17 states the number (15a1.2)
    assert "search" in [e.kind for e in events]
    assert state.step == StepId.AIR_MOVEMENT_AND_SEARCH
    assert "japan-i" not in acting(state)  # his Done stands
    assert state.waiting == ["usa"]  # japan-vi had nothing but Done left: the side is done


def test_17a_a_players_done_stands_through_the_enemys_free_roll() -> None:
    """17a, 11a: a Japanese player who said Done in a surface combat's gunnery (16g) stays
    done while his teammate's fire is rolled and the American, holding the free roll
    marker, keeps the dice: the free roll is called from the step and ends back in it as
    it was. It used to undo his Done, as the search report did (above)."""
    case = json.loads((CASES / "17a-done-through-a-free-roll.json").read_text())
    log = case["log"]
    state = new_game(case["scenario"], frozenset(case["opts"]), case["seed"], case["mode"], True)
    for seat, action in log[:-3]:
        state, _ = apply(state, seat, action)
    assert state.step == StepId.GUNNERY
    state, _ = apply(state, *log[-3])  # japan-vi: done
    assert "japan-vi" in state.done
    state, _ = apply(state, *log[-2])  # japan-i fires: the dice, and the free roll (11a)
    assert state.step == StepId.FREE_ROLL
    state, _ = apply(state, *log[-1])  # the American keeps the dice
    assert state.step == StepId.GUNNERY
    assert "japan-vi" in state.done and "japan-vi" not in acting(state)  # his Done stands
