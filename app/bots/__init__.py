"""The computer player: a seat like any other (DESIGN.md, Bots; issue 35).

It is handed what a person at the seat is handed - the seat's view document, whose
prompt lists the legal actions, and the seat's log - and chooses one of those actions
(`choose`). It reads nothing else: this package imports no module of the rules engine or
of the server (tests/bots/test_imports.py), so it cannot reach the game's state, its
seed or the enemy's hidden positions.
"""

from __future__ import annotations

from app.bots.policy import LEVELS, choose

__all__ = ["LEVELS", "choose"]
