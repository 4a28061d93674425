"""18: the umpired games' own procedures - scouts' routes handed in and flown by the
umpire (scout_routes.py, 18c1) and what a player has heard from him (heard.py, 18c).

May import: the engine, the board, the base game and modes/; no base, board or optional
module imports this package (tests/rules/test_parts.py).
"""
