"""The base game, rules 3-7: the Action Phase (3: action_phase.py, air_movement.py,
air_ranges.py, search.py), the Combat Phase (4: battle.py, battle_setup.py, combat.py,
air_attack.py, units.py), the Air Return Phase (5: air_return.py, landing.py), the Turn
Record Phase (6: victory.py) and the scenarios' setup and victory (7: setup.py, score.py);
the Sequence of Play (2b: sequence.py), which says what comes after every step, the
optional rules' and the modes' included.

Where an expansion plays otherwise, these modules ask a hook (app/rules/hooks.py), whose
defaults are the base game's answers; where a mode does, a mode hook
(app/rules/modes/hooks.py), whose defaults are the two-player game's.

May import: the engine, the board, the optional rules, the hooks and the modes' shared parts
(modes/: seats, audiences, commands, command copies, umpire, reports); never an expansion,
modes/r17_teams or modes/r18_umpired (tests/rules/test_parts.py).
"""
