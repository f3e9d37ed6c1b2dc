"""The one error type raised for anything the rules forbid."""

from __future__ import annotations


class IllegalMove(ValueError):
    """An event that breaks a rule; the message names the rule and the values."""

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(f"{rule}: {detail}")
        self.rule = rule
        self.detail = detail
