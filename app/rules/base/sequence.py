"""2b: the Sequence of Play - what comes after each step, in one table.

A step's module holds what the step does; when it is over, its `finish` (or the handler
that ends it) says `advance(state, out)` and this table says where the game goes: a
step (`StepId`), a procedure called (`Call`: 16's surface combat, which goes on by its
own table in optional/surface/sequence.py), a return to the caller (`Return`), a
`Branch` on the state where the rulebook branches (battles or none, the options in
force), or, where the step's handler itself chooses in the middle of its work, its named
`Ways`. The optional rules' steps stand in the order of play where the rules put them,
each passing at once when its option is off. The steps of the modes (17c3's radio
notes, 18c1's scout routes) stand here too: the table names them by their step ids and
imports no mode. `app/rules/game.py` checks on import that every step id has its entry
here or in a procedure's table, and every target is a registered step
(`steps.check_sequence`).

The rulebook's order (2b):

- 2a, 7: setup; then each Turn:
- 2b1, 3: the Action Phase - Sides A and B (3), radio notes (17c3, team games), the
  Assembly Step (3a), the Ready Step (3b), shadowing (12d2), the Sea Movement Step (3c),
  the Air Movement and Search Step (3d; 18c1: the scouts' routes first, umpired);
- 2b2, 4: the Combat Phase - each battle as Side A orders them (4): its setup (4a, 14),
  air combats (14), anti-aircraft (4c) and bombing (4d) combats, each wave again (13b),
  reorganisation (4e1); then the surface combats (16); aircraft damage (11b);
- 2b3, 5: the Air Return Phase; the submarine attack (11e);
- 2b4, 6: the Turn Record Phase, then the next Turn (7a3: after the last, the end).
"""

from __future__ import annotations

from app.rules import hooks
from app.rules.base.battle import setup_step
from app.rules.engine.options import OptionId
from app.rules.engine.state import State
from app.rules.engine.steps import (
    After,
    Branch,
    Call,
    GameOver,
    Next,
    Return,
    StepId,
    Way,
    Ways,
    follow,
)

SURFACE_COMBATS = OptionId.SURFACE_COMBATS


def _first_turn(state: State) -> Next:
    """7e: Scenario Four is one surface combat, set up at once, and then the game's end."""
    rec = state.surface
    if rec is not None and rec.combat is not None:
        return Call(StepId.SURFACE_SETUP, then=StepId.TURN_RECORD)
    return StepId.SIDES


def _after_sides(state: State) -> Next:
    """17c3: in a team game the players' radio notes come first."""
    return StepId.RADIO if state.teams else StepId.ASSEMBLY


def _after_air_battles(state: State) -> Next:
    """16: "Surface combats are resolved after all bombing"; then aircraft damage (11b)."""
    return StepId.SURFACE_CONTACT if SURFACE_COMBATS in state.options else StepId.AIRCRAFT_DAMAGE


def _battle_or_none(state: State) -> Next:
    """4, 2b2: the battle Side A chose (or the only one) is set up - first, in the
    expansion, the attacker's choice of which bombers strike first (Bombers 6); with no
    battle left, on."""
    b = state.battle
    if b is None:
        return AFTER_AIR_BATTLES
    return STRIKE_ORDER if hooks.of(state).strike_order(state, b) else SETUP_STEP


def _setup_step(state: State) -> Next:
    """4a: the defender's ships first, unless the base alone is there (at the centre)."""
    assert state.battle is not None
    return setup_step(state.battle)


def _air_combat_or_not(state: State) -> Next:
    """14: with fighters on either side, CAP and escorts first (14a); else 4c."""
    b = state.battle
    assert b is not None
    return StepId.CAP_SETUP if b.caps or b.escorts else StepId.ANTI_AIRCRAFT_COMBAT


def _surface_contact(state: State) -> Next:
    """16a, 16j: a contact engaged is a surface combat, which ends with 4e1's
    reorganisation; a bombardment of Midway; else on to aircraft damage (11b)."""
    rec = state.surface
    if rec is not None and rec.combat is not None:
        return SURFACE_COMBAT
    if rec is not None and rec.bombardment is not None:
        return StepId.BOMBARDMENT
    return StepId.AIRCRAFT_DAMAGE


SETUP_STEP = Branch("4a", (StepId.BATTLE_SETUP, StepId.AIR_ATTACK_SETUP), _setup_step)
STRIKE_ORDER = StepId.STRIKE_ORDER
AFTER_AIR_BATTLES = Branch(
    "16, 11b", (StepId.SURFACE_CONTACT, StepId.AIRCRAFT_DAMAGE), _after_air_battles
)
SURFACE_COMBAT = Call(StepId.SURFACE_SETUP, then=StepId.REORGANIZATION)
GAME_OVER = GameOver("7a3")


def _next_turn_or_over(state: State) -> Next:
    """6: the Turn marker advanced, the next Turn; after the scenario's last, its victory
    counted (7a3), the game is over."""
    return GAME_OVER if state.victory is not None else StepId.SIDES


SEQUENCE: dict[StepId, After] = {
    # 7a: setup, then the first Turn (7e: Scenario Four's one surface combat)
    StepId.SETUP: Branch(
        "7a, 7e",
        (Call(StepId.SURFACE_SETUP, then=StepId.TURN_RECORD), StepId.SIDES),
        _first_turn,
    ),
    # 2b1, 3: the Action Phase
    StepId.SIDES: Branch("3, 17c3", (StepId.RADIO, StepId.ASSEMBLY), _after_sides),
    StepId.RADIO: StepId.ASSEMBLY,  # 17c3
    StepId.ASSEMBLY: StepId.READY,  # 3a, then 3b
    StepId.READY: StepId.SHADOWING,  # 3b, then 12d2
    StepId.SHADOWING: StepId.SEA_MOVEMENT,  # 12d2, then 3c
    StepId.SEA_MOVEMENT: StepId.AIR_MOVEMENT_AND_SEARCH,  # 3c, then 3d
    StepId.AIR_MOVEMENT_AND_SEARCH: Ways(
        "18c1, 2b2",
        {
            # 18c1: the air units in the air, the scouts' routes are handed in and flown
            # first (umpired modes), then back here for the strikes
            Way.SCOUT_ROUTES: Call(StepId.SCOUT_ROUTES),
            Way.COMBAT: StepId.COMBAT,  # 2b2: the Combat Phase
        },
    ),
    StepId.SCOUT_ROUTES: Branch(
        "18c1, 15a1.1",
        (StepId.SCOUTING, Return("18c1")),
        lambda state: (
            StepId.SCOUTING if OptionId.VARIABLE_SPOTTING in state.options else Return("18c1")
        ),
    ),
    StepId.SCOUTING: Return("18c1"),  # the scouts flown, back to the strikes' movement
    StepId.SEARCH_REPORT: Return("15a1.2"),  # the number stated, the search goes on
    # 2b2, 4: the Combat Phase, battle by battle
    StepId.COMBAT: Branch("4, 2b2", (AFTER_AIR_BATTLES, STRIKE_ORDER, SETUP_STEP), _battle_or_none),
    StepId.STRIKE_ORDER: SETUP_STEP,  # Bombers 6, then 4a
    StepId.BATTLE_SETUP: StepId.AIR_ATTACK_SETUP,  # 4a2, then 4a3
    StepId.AIR_ATTACK_SETUP: Branch(
        "14", (StepId.CAP_SETUP, StepId.ANTI_AIRCRAFT_COMBAT), _air_combat_or_not
    ),
    StepId.CAP_SETUP: StepId.ESCORT_SETUP,  # 14a2, then 14a3
    StepId.ESCORT_SETUP: StepId.AIR_COMBAT,  # 14a3, then 14c
    StepId.AIR_COMBAT: StepId.BREAKTHROUGHS,  # 14c, then 14e
    StepId.BREAKTHROUGHS: StepId.ANTI_AIRCRAFT_COMBAT,  # 14e, then 4c
    StepId.ANTI_AIRCRAFT_COMBAT: StepId.BOMBING_COMBAT,  # 4c, then 4d
    StepId.BOMBING_COMBAT: Ways(
        "13b2, 4e",
        {
            Way.NEXT_WAVE: StepId.AIR_ATTACK_SETUP,  # 13b2: the next wave, the same defenders
            Way.BATTLE_OVER: StepId.REORGANIZATION,  # 4e, then 4e1
        },
    ),
    StepId.FREE_ROLL: Return("11a"),  # the dice kept or rolled again, the combat goes on
    StepId.REORGANIZATION: StepId.COMBAT,  # 4e1, then the next battle
    # 16: the surface combats, after all bombing (each its own procedure: 16d)
    StepId.SURFACE_CONTACT: Branch(
        "16a, 16j",
        (SURFACE_COMBAT, StepId.BOMBARDMENT, StepId.AIRCRAFT_DAMAGE),
        _surface_contact,
    ),
    StepId.BOMBARDMENT: StepId.SURFACE_CONTACT,  # 16j, then the next contact
    StepId.AIRCRAFT_DAMAGE: StepId.AIR_RETURN,  # 11b, then 2b3
    # 2b3, 5: the Air Return Phase
    StepId.AIR_RETURN: StepId.SUBMARINE_ATTACK,  # 5, then 11e
    StepId.SUBMARINE_ATTACK: StepId.TURN_RECORD,  # 11e, then 2b4
    # 2b4, 6: the Turn Record Phase; the next Turn (7a3: after the last, the game's end)
    StepId.TURN_RECORD: Branch("6, 7a3", (StepId.SIDES, GAME_OVER), _next_turn_or_over),
}

follow(SEQUENCE, first=StepId.SETUP)  # 7a: a game starts with its setup

__all__ = ["SEQUENCE"]
