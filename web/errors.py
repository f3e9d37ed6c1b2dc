"""The one error type for a refused request: an HTTP status and a message for the player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import IllegalMove
from companion.session import GameFileFull, SessionError, WriteFailed

INSUFFICIENT_STORAGE = 507
"""The status of a write the game file could not take (a full disk): the page may try again."""


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


def refused_move(error: IllegalMove, status: int) -> ActionError:
    """A move the rules refuse, as the page's refusal: the rule's message, and its `why` where
    a player can meet it."""
    return ActionError(status, str(error), error.rule, why=error.why)


def refused_file(error: SessionError) -> ActionError:
    """A game file that could not be written (507) or read (409), as the page's refusal."""
    if isinstance(error, WriteFailed):
        key = "disk_full" if isinstance(error, GameFileFull) else "write_failed"
        return ActionError(INSUFFICIENT_STORAGE, str(error), why={"key": key})
    return ActionError(409, str(error), "game file")
