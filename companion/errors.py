"""The one error type raised for anything the rules forbid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class IllegalMove(ValueError):
    """An event that breaks a rule; the message names the rule and the values.

    A refusal a player can meet at the table (a deal that misses its minimum, a roll with a die
    too few) also carries `why`: a key and the values its message needs, so that a page can
    word it in its own language. Refusals only a program can cause carry none.
    """

    def __init__(self, rule: str, detail: str, why: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{rule}: {detail}")
        self.rule = rule
        self.detail = detail
        self.why = dict(why) if why else None
