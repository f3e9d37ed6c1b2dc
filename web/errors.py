"""The one error type for a refused request: an HTTP status and a message for the player."""

from __future__ import annotations


class ActionError(Exception):
    """A request the table refuses; nothing changed. The message is for the person who tapped."""

    def __init__(self, status: int, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule
