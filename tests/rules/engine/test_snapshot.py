"""Snapshots as data (issue 16): `snapshot(state)` is a versioned document of JSON types
and `restore` its exact inverse, so a game restored from a snapshot's JSON text is the
same game: an equal state, the same dice after it, the same views and events."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from app.rules import Action, State, apply, new_game, restore, snapshot, views
from app.rules.base.setup import OPTIONS
from app.rules.engine.codec import codec
from app.rules.engine.dice import roll_d10
from app.rules.engine.snapshot import FORMAT, SnapshotError
from app.rules.engine.state import Side, UnitKey
from app.rules.expansions.ptvm.record import FIELDS as RECORD_FIELDS
from app.rules.modes.seats import acting
from tools.fuzz import MAX_ACTIONS, choose, random_options

from ..optional.test_surface_fuzz import SURFACE, WITH, lean

SEATS = ("japan", "usa", "spectator")
EVERY = 5  # the game carried on from its restored snapshot every this many actions
OPTION_SETS = ("none", "all", "random")


def through_json(state: State) -> State:
    """What the server does: the snapshot as JSON text, read back and restored."""
    text = json.dumps(snapshot(state), allow_nan=False)
    return restore(json.loads(text))


def options_for(which: str, seed: int) -> frozenset[str]:
    return {
        "none": frozenset(),
        "all": frozenset(OPTIONS),
        "random": random_options(random.Random(seed)),
        "surface": SURFACE | WITH,
    }[which]


Agent = Callable[[State, Side, random.Random], Action]
SEEDS = {"one": 3, "two": 5, "three": 7, "four": 11}
GAMES = [
    *((scenario, which, SEEDS[scenario], choose) for scenario in SEEDS for which in OPTION_SETS),
    # Leaning at the enemy: surface combats, a bombardment of Midway
    # (16j), pending free rolls (11a), damage checks (11b) and false reports (15a1.2).
    ("three", "surface", 1, lean),
]


@pytest.mark.parametrize(
    ("scenario", "which", "seed", "agent"), GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES]
)
def test_a_game_carried_on_from_its_snapshots_is_the_same_game(
    scenario: str, which: str, seed: int, agent: Agent
) -> None:
    """Random play to the end. After every action the state goes through snapshot, JSON
    text and restore and comes back equal. Every EVERY actions it also snapshots again
    to the same text (the same order, ints as ints), and the game goes on from the
    restored state beside the original: the same actions give the same events and views
    (so the same dice) after every action."""
    rng = random.Random(seed)
    state = new_game(scenario, options_for(which, seed), seed)
    twin = through_json(state)
    played = 0
    while state.status != "finished":
        assert played < MAX_ACTIONS, "the game does not end"
        seat = rng.choice(acting(state))
        action = agent(state, seat, rng)
        state, events = apply(state, seat, action)
        twin, twin_events = apply(twin, seat, action)
        played += 1
        assert [e.to_json() for e in twin_events] == [e.to_json() for e in events], played
        assert views(twin, SEATS) == views(state, SEATS), f"views differ after {played} actions"
        restored = through_json(state)
        assert restored == state, f"the restored state differs after {played} actions"
        if played % EVERY == 0:
            assert as_text(snapshot(restored)) == as_text(snapshot(state)), played
            twin = restored
    assert twin == state


def as_text(value: object) -> str:
    return json.dumps(value, allow_nan=False)


def mid_game(scenario: str, seed: int, actions: int) -> State:
    rng = random.Random(seed)
    state = new_game(scenario, frozenset(OPTIONS), seed)
    for _ in range(actions):
        seat = rng.choice(acting(state))
        state, _ = apply(state, seat, choose(state, seat, rng))
    return state


def test_1f_the_dice_generator_goes_on_from_a_restored_state() -> None:
    """The splitmix64 state (1f) and the forced dice are in the document."""
    state = mid_game("two", 2, 200)
    state.forced_dice = [4, 9]
    again = through_json(state)
    assert again.rng == state.rng and again.forced_dice == [4, 9]
    assert [roll_d10(again) for _ in range(500)] == [roll_d10(state) for _ in range(500)]


def test_the_document_is_json_types_with_its_format_and_shares_nothing_with_the_state() -> None:
    state = mid_game("two", 4, 300)
    before = state.clone()
    doc = snapshot(state)
    assert doc["format"] == FORMAT
    assert json.loads(json.dumps(doc, allow_nan=False)) == doc  # JSON types only
    state.launched[UnitKey("usa", "VF6")] = 99.0  # the state changed after its snapshot
    state.boards["usa"].moved.append("TF16")
    state.units["japan"].popitem()
    assert restore(doc) == before
    restored = restore(doc)  # and a restored state changed: the document stays as it was
    restored.boards["japan"].intel.clear()
    restored.units["usa"].popitem()
    assert restore(doc) == before


def test_restore_refuses_another_format_version() -> None:
    doc = snapshot(new_game("one", frozenset(), 1))
    doc["format"] = FORMAT + 1
    with pytest.raises(SnapshotError, match=f"format {FORMAT + 1}"):
        restore(doc)


def broken(edit: Any) -> dict[str, Any]:
    doc = json.loads(json.dumps(snapshot(mid_game("one", 6, 60))))
    edit(doc["state"])
    return doc


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda s: s["units"]["usa"]["Hornet"].update(damage="3"), r"units\.usa\.Hornet\.damage"),
        (lambda s: s.update(side_a="germany"), "side_a"),
        (lambda s: s["units"].update(germany={}), r"units\.germany"),
        (lambda s: s["boards"]["japan"].pop("intel"), "Board fields: missing"),
        (lambda s: s.update(extra=1), r"State fields: missing \[\], unknown \['extra'\]"),
        (lambda s: s.update(options="16"), "options: expected an array"),
        (lambda s: s.update(turn=True), "turn: expected an integer"),
        (lambda s: s["shifted"].append(["usa"]), r"shifted\.\d+: expected 2 items"),
        (lambda s: s.update(launched=[[["usa", "VF6"], 1], [["usa", "VF6"], 2]]), "twice"),
        (lambda s: s.update(victory={"points": (1, 2)}), "victory.points: expected JSON"),
    ],
)
def test_restore_names_where_a_document_is_not_a_state(edit: Any, where: str) -> None:
    """Every field by name and every value by type: a document of another shape is refused
    with the path to the fault, never read as something else."""
    with pytest.raises(SnapshotError, match=where):
        restore(broken(edit))


def test_restore_refuses_what_is_not_a_snapshot() -> None:
    for doc in (None, [], {"format": FORMAT}, {"format": FORMAT, "state": [], "x": 1}):
        with pytest.raises(SnapshotError):
            restore(doc)


def test_a_type_without_a_json_mapping_is_refused_when_its_codec_is_built() -> None:
    """A new state field of a type the codec cannot map fails at import, not mid-game."""

    @dataclass
    class WithSet:
        hexes: set[str]

    @dataclass
    class WithUnion:
        either: int | str

    for cls in (WithSet, WithUnion):
        with pytest.raises(TypeError, match="no JSON codec"):
            codec(cls)


def _old_form(doc: dict[str, Any]) -> dict[str, Any]:
    """A snapshot as written while the expansion's fields were the State's own: its slot's
    fields at the top of the state, and the slot absent (empty ones in the base game)."""
    body = dict(doc["state"])
    slot = body.pop("ptvm") or dict.fromkeys(RECORD_FIELDS, None)
    empty: dict[str, Any] = {"reinforced": [], "area_queue": [], "dd_bonus_used": 0}
    for name in RECORD_FIELDS:
        body[name] = slot[name] if slot[name] is not None else empty.get(name, [])
    return {"format": doc["format"], "state": body}


@pytest.mark.parametrize("scenario", ["one", "coral-sea"])
def test_issue_33_a_snapshot_from_before_the_expansions_slot_is_read(scenario: str) -> None:
    """Games stored before the expansion's fields moved into its slot restore as they were."""
    rng = random.Random(7)
    state = new_game(scenario, frozenset(), 7)
    for _ in range(120):
        if state.status == "finished":
            break
        seat = rng.choice(acting(state))
        state, _ = apply(state, seat, choose(state, seat, rng))
    old = json.loads(json.dumps(_old_form(snapshot(state))))
    assert "ptvm" not in old["state"] and "base_damage" in old["state"]
    assert restore(old) == state
    assert (state.ptvm is None) == (scenario == "one")
