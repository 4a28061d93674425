"""The engine: what any game of the family is played with, whatever its rules.

Owns the actions and their text form (actions.py, paths.py), the refusals (errors.py),
the events and their audiences (events.py), the dice (dice.py), the state (state.py) and
its copying (copying.py), the typed codec and the snapshots (codec.py, snapshot.py), the
bounded memos (kept.py) and each state's (memo.py), the step table (steps.py) the rules
register their steps in, with the sequences of play the game families give it and the calls
kept in the state, and play itself (play.py: legal_actions, apply, replay), by the table the
modes seat at it (who plays which side, who hears what: modes/table.py).

May import: the standard library's pure parts and the engine's own modules - no rules
package (board, base, optional, modes, expansions), no hooks, no game
(tests/rules/test_parts.py). The State has slots for what a part keeps of its own (16's
surface combat, the expansion's record): state.py names their classes for the type checker
only, and the packages that own them register them (`register_slot`) for the copier and the
codec; a package that changes the state's shape registers a reader of the old one
(snapshot.py `register_old_form`).
"""
