"""The one error type for a refused request: an HTTP status and a message for the player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ActionError(Exception):
    """A request the table refuses; nothing changed. The message is for the person who tapped.

    A refusal a player meets on the page also carries `why`: a key and the values its text
    needs, so that the page can say it in its own language.
    """

    def __init__(
        self,
        status: int,
        message: str,
        rule: str | None = None,
        why: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule
        self.why = dict(why) if why else None
