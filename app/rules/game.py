"""The game assembled: its steps, its sequence of play checked, its table seated.

The step modules of the base game, the optional rules and the modes register their steps
in the engine's table on import (engine/steps.py), in the order of play; the sequences of
play (base/sequence.py, 16's optional/surface/sequence.py) say what comes after each.
Once all are imported, every step id has its step and every target of the sequences is a
registered step, or `import app.rules` fails (`check_registered`, `check_sequence`). The
modes' table - who sits at it, who hears what, what take-back keeps - is seated with the
engine's play (modes/table.py; engine/play.py plays by it).
"""

from __future__ import annotations

# The step modules register themselves in STEPS on import.
from app.rules.base import (  # noqa: F401
    action_phase,
    air_attack,
    air_movement,
    air_return,
    battle,
    battle_setup,
    sequence,
    setup,
    victory,
)
from app.rules.engine.steps import check_registered, check_sequence
from app.rules.modes import table  # noqa: F401  (seats the modes' table with the engine)
from app.rules.modes.r17_teams import radio  # noqa: F401
from app.rules.modes.r18_umpired import scout_routes  # noqa: F401
from app.rules.optional import (  # noqa: F401
    aircraft_damage,
    fighters,
    patrols,
    submarines,
    surface,
)

# Issue 33: the step modules imported, every step id has its step (each step registers
# under a step id). The names the rules' source gives steps are checked by
# tools/step_names.py, which the tests run.
check_registered()
# ... and the sequence of play goes on from every step, to registered steps only.
check_sequence()
