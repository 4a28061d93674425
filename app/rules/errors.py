"""The two ways an action can be refused: it does not parse, or the rules forbid it."""

from __future__ import annotations


class ActionParseError(ValueError):
    """The action is not a well-formed action object."""


class IllegalAction(ValueError):
    """The action is well formed, but the rule named in `rule` forbids it now."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
