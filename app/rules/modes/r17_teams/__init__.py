"""17: the team games - what the players of a side settle at setup (teams.py, registered
with setup through `register_team_setup`) and the radio messages between them (radio.py).

May import: the engine, the board, the base game and modes/; no base, board or optional
module imports this package (tests/rules/test_parts.py).
"""
