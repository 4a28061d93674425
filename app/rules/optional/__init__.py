"""The optional rules 11-16, each switched on by its option id (engine/options.py:
`OptionId.STAGING in state.options`):
11a free roll and combat resolution (free_roll.py), 11b aircraft damage, 11c/12a ship
movement, 11d repairs, 11e submarines, 12c2 staging, 12d patrols, 14 fighters, 15c scouts,
16 surface combats (surface/).

May import: the engine, the board, the base game, the hooks and the modes' shared parts;
never an expansion, modes/r17_teams or modes/r18_umpired (tests/rules/test_parts.py).
"""
