"""The ways a game is played and who sees what: the modes and their audience policies
(audiences.py), the seats (seats.py), who commands which units (commands.py, 17a-b) and
what each command's copy shows (command_copies.py, 18a), who hears of what and the
umpire's dice (umpire.py), the reports made to a side (reports.py, 18c), the observer that
builds each seat's view (observer.py), take-back (takeback.py), and the table they make
together, which the engine plays by (table.py). What the rules ask of a
mode is its hooks (hooks.py, the two-player game's answers as defaults). The team games
(17) are r17_teams/, the umpired games' own procedures (18c) and their answers at the mode
hooks r18_umpired/.

May import: the engine, the board, the base game and the optional rules (the observer asks
the engine's play what is legal); never an expansion.
"""
