"""The two ways an action can be refused: it does not parse, or the rules forbid it; and
a game the rules cannot set up as asked."""

from __future__ import annotations


class ActionParseError(ValueError):
    """The action is not a well-formed action object."""


class IllegalAction(ValueError):
    """The action is well formed, but the rule named in `rule` forbids it now."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


class NotOffered(ValueError):
    """A game that cannot be set up as asked (a mode, or teams where rule `rule` has none)."""

    def __init__(self, rule: str | None, message: str) -> None:
        super().__init__(message)
        self.rule = rule
