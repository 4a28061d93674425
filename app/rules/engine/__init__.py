"""The engine: what any game of the family is played with, whatever its rules.

Owns the actions and their text form (actions.py, paths.py), the refusals (errors.py),
the events and their audiences (events.py), the dice (dice.py), the state (state.py) and
its copying (copying.py), the typed codec and the snapshots (codec.py, snapshot.py), the
bounded memos (kept.py), and the step table (steps.py) the rules register their steps in.

May import: the standard library's pure parts and the engine's own modules - no rules
package (board, base, optional, modes, expansions), no hooks, no flow. One exception, kept
while 16's combat is a slot of the core State: state.py and snapshot.py read the record
types of optional/surface/model.py (tests/rules/test_parts.py lists it).
"""
