"""The kinds of die a player can hold and roll: one name for each, used everywhere."""

from __future__ import annotations

from enum import StrEnum


class DieKind(StrEnum):
    """A kind of die. Each value is the name of its field in `Roll` and `Supply`."""

    REGULAR = "regular"
    BIGGY = "biggy"
    NEUTRAL = "neutral"
    KICKERS = "kickers"

    @property
    def counts_as(self) -> int:
        """How many dice this die counts for at a casino (a Biggy counts as two)."""
        return 2 if self is DieKind.BIGGY else 1


NEUTRAL_COLOUR = "white"
"""Las Vegas 2012's neutral dice are white."""

KICKER_COLOUR = "purple"
"""Las Vegas 2012's kickers are violet dice."""
