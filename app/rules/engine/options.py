"""The optional rules (11-16), each by its option id: the rule that states it.

A game's options are the ids of scenarios/options.toml's options (the data: each rule's
name, the scenarios that bring or refuse it), kept in `State.options` as their words;
the rules ask for one by its member here (`OptionId.FIGHTERS in state.options`), never by
a string, so that a misspelt id is mypy's error and not an option silently off
(tests/rules/engine/test_option_ids.py holds the members to the data and the rules to them).
"""

from __future__ import annotations

from enum import StrEnum


class OptionId(StrEnum):
    """An optional rule, by its rule number."""

    FREE_ROLL = "11a"  # the free roll marker
    AIRCRAFT_DAMAGE = "11b"  # aircraft damage on damaged base and ship units
    DEAD_IN_THE_WATER = "11c"
    REPAIRS = "11d"
    SUBMARINES = "11e"  # submarine attacks
    SHIP_INTERVALS = "11f"  # different ship intervals
    VARIABLE_SEA_MOVEMENT = "12a"
    SMALL_UNITS_HALF = "12b1"  # small air units count half
    EXPANDED_LAUNCHES = "12b2"
    UNEQUAL_LEGS = "12c1"  # unequal movement legs
    STAGING = "12c2"
    PATROLS = "12d"  # patrolling air units and shadowing
    WAVES = "13"  # wave attacks
    FIGHTERS = "14"  # fighters and air combats
    VARIABLE_SPOTTING = "15a"  # variable spotting information
    SCOUT_LOSSES = "15b"  # loss of scout air units
    NEW_SCOUTS = "15c"  # creating new scout air units
    SURFACE_COMBATS = "16"
    TORPEDO_RELOADS = "16f5"  # Japanese torpedo reloads
    NIGHT_SURPRISE = "16k"  # first Surface Turn night surprise
    # 7e4.2: Scenario Four's ships "for variety" facing opposite ways - a game option key
    # of that scenario's, not one of options.toml's
    FACING_VARIANT = "7e4.2"
