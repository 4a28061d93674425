"""A unit's identity is its side and its id: both sides have DD #1-#5 and scouts A-O.

Regression tests for the records that once kept bare ids (4c2 `aa_used`, 3b `shifted`),
and a walk over every field of the game state's records: a field that can hold unit ids
either keys them by `UnitKey` or belongs to one side by construction, and played games
show that every id such a field holds is a unit of that side.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from collections.abc import Iterator

import pytest

from app.rules import State, apply, legal_actions, new_game
from app.rules.base.setup import OPTIONS
from app.rules.engine.state import (
    Battle,
    Board,
    Caller,
    Draft,
    PendingCombat,
    Report,
    Spotting,
    UnitKey,
)
from app.rules.expansions.ptvm.record import TheatreRecord
from app.rules.modes.seats import acting
from app.rules.optional.surface.model import (
    Bombardment,
    Contact,
    Salvo,
    Surface,
    SurfaceCombat,
    Torpedo,
)
from tools.fuzz import choose
from tools.fuzz_identity import BARE_ID_FIELDS, check_unit_keys

from .base.test_basic_rules import action_phase, fly, game, through
from .base.test_rule_4_combat import MISS
from .helpers import kinds, play

# ---------------------------------------------------------------- 4c2, 3b regressions


def test_4c2_japanese_dd2_firing_aa_leaves_the_american_dd2_its_aa_fire() -> None:
    """4c2: "each unit may have its anti-aircraft factor used only once per Combat Phase" -
    each unit: Japanese DD #2 firing at K3 does not use up American DD #2's AA at L3."""
    s = game(
        [*MISS, *MISS, *MISS, *MISS],
        usa={"TF17": ("L3", ["Yorktown", "DD2"]), "TF-A": ("T1", ["Astoria", "Portland"]),
             "TF16": ("T11", [])},
        japan={"MobileForce": ("K3", ["Haruna", "DD2"]),
               "Group-A": ("I2", ["Akagi", "Hiryu", "Kaga", "Soryu", "Chikuma", "Tone",
                                  "Kirishima", "Nagara", "DD1"])},
    )  # fmt: skip
    s, _ = action_phase(
        s,
        usa=["B5"],
        usa_fly=fly("L3-strike", "K3"),
        japan=["AD"],
        japan_fly=fly("I2-strike", "J2", "K3", "L3"),
    )
    s, _ = play(s, "japan", "battle K3")
    s, _ = play(s, "japan", "face N", "position Haruna K9", "position DD2 K11")
    s, _ = play(s, "usa", "target B5 Haruna")
    s, ev = play(s, "japan", "aa DD2 B5", "fire")
    assert [e.data["ships"] for e in kinds(ev, "anti-aircraft")] == [["DD2"]]
    assert s.aa_used == [UnitKey("japan", "DD2")]
    s, _ = play(s, "japan", "done")
    s, ev = through(s, "reorganization")
    assert [(e.data["hex"], e.data["attacker"]) for e in kinds(ev, "battle")] == [("L3", "japan")]
    s, _ = play(s, "usa", "face N", "position Yorktown J11", "position DD2 J13")
    s, _ = play(s, "japan", "target AD Yorktown")
    assert s.step == "anti-aircraft combat" and s.waiting == ["usa"]
    s, ev = play(s, "usa", "aa DD2 AD", "fire")
    assert [e.data["ships"] for e in kinds(ev, "anti-aircraft")] == [["DD2"]]
    assert s.aa_used == [UnitKey("japan", "DD2"), UnitKey("usa", "DD2")]
    assert s.battle is not None and "aa DD2 AD" not in [a.text() for a in legal_actions(s, "usa")]


def test_3b_american_scout_m_armed_leaves_chikumas_scout_m_free_to_shift() -> None:
    """3b: each air unit may be shifted once per Ready Step - the American scout M being
    armed does not stop Japan arming (or readying) Chikuma's scout M."""
    s = game()
    s, _ = through(s, "assembly")
    assert s.step == "ready" and s.waiting == ["usa", "japan"]  # Side B first
    s, _ = play(s, "usa", "arm M", "done")
    assert s.units["usa"]["M"].box == "arming"
    assert "arm M" in [a.text() for a in legal_actions(s, "japan")]
    s, _ = play(s, "japan", "arm M")
    assert s.units["japan"]["M"].box == "arming"
    assert s.shifted == [UnitKey("usa", "M"), UnitKey("japan", "M")]
    assert "ready M" not in [a.text() for a in legal_actions(s, "japan")]  # 3b: once per Ready Step


# ---------------------------------------------------------------- every unit-keyed record

RECORDS: tuple[type, ...] = (
    State,
    Board,
    Battle,
    PendingCombat,
    Report,
    Caller,
    Spotting,
    Draft,
    Surface,
    Contact,
    SurfaceCombat,
    Torpedo,
    Salvo,
    Bombardment,
    TheatreRecord,
)

# Fields with strings that are not unit ids: hexes, markers, steps, words, events' data.
NOT_UNITS: set[tuple[str, str]] = {
    ("State", "scenario"),
    ("State", "options"),
    ("State", "mode"),
    ("State", "status"),
    ("State", "step"),
    ("State", "battles"),  # (hex, attacker)
    ("State", "fought"),  # hexes
    ("State", "announcements"),  # (side, kind, hex)
    ("State", "victory"),
    ("Board", "forces"),  # marker -> hex
    ("Board", "turn_start"),
    ("Board", "moved"),
    ("Board", "may_search"),  # group -> hex
    ("Board", "searched"),
    ("Board", "sea_searched"),
    ("Board", "committed"),
    ("Board", "force_commands"),  # 17a: marker -> command
    ("Board", "overall"),  # 17c1: a command
    ("State", "done"),  # 17a: seats done with the step
    ("State", "takeback"),  # issue 14: seat id -> what that seat may take back
    ("Spotting", "hex"),
    ("Spotting", "how"),
    ("Spotting", "level"),
    ("Spotting", "said"),  # 18d: the umpire's words
    ("State", "auto_release"),  # 18c: kinds of report
    ("TheatreRecord", "base_damage"),  # Bases 3: by base unit id, unique across both sides
    ("TheatreRecord", "planes_lost"),  # Victory Points: side -> date -> plane type -> planes
    ("TheatreRecord", "replacements_owed"),  # Replacements: side -> plane type -> planes
    ("TheatreRecord", "reinforced"),  # Land-Based Planes: "<side>:<base>" of each arrival
    ("TheatreRecord", "area_queue"),  # Searches 1: (side, zone) still to answer
    ("TheatreRecord", "landing_watch"),  # Victory Points: an AP's UnitKey -> (zone, Turns there)
    ("TheatreRecord", "landed"),  # Victory Points: an AP's UnitKey -> the landing's area
    ("Draft", "id"),  # 18c: a report's id, "r1"
    ("Draft", "kind"),
    ("Draft", "step"),
    ("Draft", "status"),
    ("Draft", "words"),
    ("Draft", "data"),  # the event's data, with its own "target_side" where it names a unit
    ("Draft", "truth"),  # the same
    ("Draft", "told"),  # the same
    ("Report", "hex"),
    ("Report", "how"),
    ("Battle", "hex"),
    ("Battle", "stage"),
    ("PendingCombat", "kind"),
    ("PendingCombat", "cause"),
    ("PendingCombat", "data"),  # the event's data, with its own "side" where it names units
    ("Caller", "step"),  # steps.call: the calling step
    ("Caller", "done"),  # 17a: its seats done with the step
    ("Contact", "hex"),
    ("Contact", "status"),
    ("Torpedo", "origin"),
    ("Torpedo", "hex"),
    ("SurfaceCombat", "hex"),
    ("SurfaceCombat", "facing"),
    ("SurfaceCombat", "line"),
    ("SurfaceCombat", "surprise"),
    ("Surface", "headings"),  # side -> marker -> direction
    ("Bombardment", "hex"),
    ("Bombardment", "positions"),  # "Midway" and stack letters -> Battleboard hex
    ("Bombardment", "fired"),  # stack letters
}


def _holds_str(hint: object) -> bool:
    """Whether a field's type can hold a bare `str` (not inside a `UnitKey`)."""
    if hint is str:
        return True
    if hint is UnitKey or (isinstance(hint, type) and dataclasses.is_dataclass(hint)):
        return False
    return any(_holds_str(arg) for arg in typing.get_args(hint))


def _fields(record: type) -> Iterator[tuple[str, object]]:
    # the State's slots are named for the type checker only (engine/state.py)
    slots = {"Surface": Surface, "TheatreRecord": TheatreRecord}
    hints = typing.get_type_hints(record, localns=slots)
    for f in dataclasses.fields(record):
        yield f.name, hints[f.name]


def test_every_unit_record_keys_units_by_side_or_belongs_to_one_side() -> None:
    """Every field of the state's records that can hold a bare string is either not a unit
    record, or one whose side is fixed by construction; every other unit record holds
    `UnitKey`s (so mypy finds a bare id put into it)."""
    bare = {
        (record.__name__, name)
        for record in RECORDS
        for name, hint in _fields(record)
        if _holds_str(hint)
    }
    unclassified = bare - BARE_ID_FIELDS - NOT_UNITS - {("State", "units")}  # side, then id
    assert not unclassified, f"key these by UnitKey, or classify them: {unclassified}"
    assert bare >= BARE_ID_FIELDS | NOT_UNITS  # no stale entries
    assert not BARE_ID_FIELDS & NOT_UNITS
    keyed = {
        (record.__name__, name)
        for record in RECORDS
        for name, hint in _fields(record)
        if "UnitKey" in str(hint)
    }
    assert {
        ("State", "launched"),
        ("State", "shifted"),
        ("State", "aa_used"),
        ("State", "damaged"),
        ("State", "checks"),
        ("State", "engaged"),
        ("State", "scout_parents"),
        ("Battle", "held"),
    } <= keyed


def test_unit_records_hold_only_their_sides_units_in_played_games() -> None:
    """The fuzzer's unit-identity invariant, on random games with every option: each
    `UnitKey` names a unit of its side, and each single-side field only that side's ids."""
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        options = frozenset(OPTIONS) if seed % 2 else frozenset()
        state = new_game("one" if seed < 2 else "two", options, seed)
        while state.status != "finished":
            seats = acting(state)
            seat = rng.choice(seats)
            state, _ = apply(state, seat, choose(state, seat, rng))
            check_unit_keys(state)
            checked += 1
    assert checked > 1000


def test_a_unit_key_from_the_other_side_is_caught() -> None:
    """The invariant fails on a record naming a unit its side does not have."""
    state = game()
    check_unit_keys(state)
    state.aa_used = [UnitKey("usa", "Haruna")]
    with pytest.raises(AssertionError, match=r"State\.aa_used names Haruna as a unit of usa"):
        check_unit_keys(state)
    state = game()
    state.battle = Battle("K3", "usa", ["Yorktown"], ["B5"])  # Yorktown is not Japan's
    with pytest.raises(AssertionError, match=r"Battle\.defender names Yorktown"):
        check_unit_keys(state)
