"""18: the umpired games' own procedures - scouts' routes handed in and flown by the
umpire (scout_routes.py, 18c1), what a player has heard from him (heard.py, 18c) and the
umpire's answers at the mode hooks (hooks.py, `Umpired`), registered here for both
umpired modes (`umpired`, `double-blind`).

May import: the engine, the board, the base game and modes/; no base, board or optional
module imports this package (tests/rules/test_parts.py).
"""

from __future__ import annotations

from app.rules.modes import hooks as _mode_hooks
from app.rules.modes.audiences import DOUBLE_BLIND, UMPIRED
from app.rules.modes.r18_umpired.hooks import Umpired

UMPIRE_S_ANSWERS = Umpired()
for _mode in (UMPIRED, DOUBLE_BLIND):
    _mode_hooks.register(_mode.id, UMPIRE_S_ANSWERS)
