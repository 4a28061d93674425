"""Pacific Theatre Via Midway: the expansion's scenarios, played on the theatre map.

Owns the expansion's rules (bases, land bombers, area searches, replacements and
reinforcements, its Victory Points) and the hooks it overrides (`hooks.Theatre`), which it
registers for the scenarios whose board is the theatre map. It may import the base game,
the board, the engine and the modes; no base module imports it (tests/rules/test_parts.py).
"""

from __future__ import annotations

from app.rules import hooks as _hooks
from app.rules.base import landing as _landing
from app.rules.engine.snapshot import register_old_form as _register_old_form
from app.rules.expansions.ptvm import bases as _bases
from app.rules.expansions.ptvm.hooks import Theatre
from app.rules.expansions.ptvm.record import old_form as _old_form

THEATRE = Theatre()
_hooks.register("theatre", THEATRE)
_register_old_form(_old_form)  # snapshots from before the expansion's slot
_landing.REFUSALS.update(
    {
        "Bases 2": "that base may not accept planes of its type",
        "Bases 3": f"that base is knocked out till {_bases.RECOVERY_TIME}",
        "Carrier Capacity": "that carrier may not accept planes of its type",
    }
)
