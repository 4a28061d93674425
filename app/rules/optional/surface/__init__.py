"""16: Surface Combats (optional rule), and Scenario Four (7e) which is one.

The modules follow the rule's sections: contact.py (16a, 16b), setup.py (16c),
sequence.py (16d, 16k), movement.py (16e), torpedoes.py (16f, 16h), gunnery.py (16g),
breakoff.py (16i), bombardment.py (16j), scenario_four.py (7e); geometry.py holds the
Battleboard's setup lines, sectors and torpedo lines; model.py what `State.surface` keeps;
view.py the public view of a surface combat. Importing the package registers its steps,
its action kinds and Scenario Four's setup.
"""

from __future__ import annotations

from app.rules.engine.actions import FIELDS

# The action kinds of option 16, and their fields (see app/rules/engine/actions.py).
FIELDS.update(
    {
        "engage": ("hex",),  # 16a: the side with the information fights; 16j: bombard
        "decline": ("hex",),  # 16a: ... or lets the enemy pass; 16j: no bombardment
        "line": ("column", "direction"),  # 16c1: Side B's setup line and facing
        "surprise": ("effect",),  # 16k2: "attack" (16k2.1) or "delay" (16k2.2)
        "advance": ("ship",),  # 16e1: one hex ahead
        "turn": ("ship", "way"),  # 16e2: one hexside to "port" or "starboard"
        "shift": ("direction",),  # 16e4: every ship one hex, away from an edge
        "torpedo": ("ship", "hex"),  # 16f: a torpedo marker beside the ship
        "gun": ("ship", "target"),  # 16g, 16j3: gunnery at an enemy ship
        "salvo": ("hex",),  # 16h: the torpedo combat against the ship in a hex
        "breakoff": ("ship",),  # 16i: the group named by its first ship
        "bombard": ("stack",),  # 16j4: a stack (gun letter) fires at the base
    }
)

from app.rules.optional.surface import (  # noqa: E402
    bombardment,
    breakoff,
    contact,
    gunnery,
    movement,
    scenario_four,
    sequence,
    setup,
    torpedoes,
)

__all__ = [
    "bombardment",
    "breakoff",
    "contact",
    "gunnery",
    "movement",
    "scenario_four",
    "sequence",
    "setup",
    "torpedoes",
]
