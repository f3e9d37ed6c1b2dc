"""The kinds of die a player can hold and roll: one name for each, used everywhere."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

Own = TypeVar("Own", str, str | None)


class DieKind(StrEnum):
    """A kind of die. Each value is the name of its field in `Roll` and `Supply`."""

    REGULAR = "regular"
    BIGGY = "biggy"
    NEUTRAL = "neutral"
    KICKERS = "kickers"

    @property
    def label(self) -> str:
        """How the rules and messages name this die: 'regular', 'white', 'Biggy', 'kicker'."""
        return _LABELS[self]

    @property
    def counts_as(self) -> int:
        """How many dice this die counts for at a casino (a Biggy counts as two)."""
        return 2 if self is DieKind.BIGGY else 1


_LABELS = {
    DieKind.REGULAR: "regular",
    DieKind.BIGGY: "Biggy",
    DieKind.NEUTRAL: "white",
    DieKind.KICKERS: "kicker",
}


DIE_KINDS: tuple[DieKind, ...] = tuple(DieKind)
"""Every kind of die, as a tuple: quicker to walk than the enum on the engine's hot path."""


NEUTRAL_COLOUR = "white"
"""Las Vegas 2012's neutral dice are white."""

KICKER_COLOUR = "purple"
"""Las Vegas 2012's kickers are violet dice."""


def kind_colour(kind: DieKind, own: Own) -> str | Own:
    """The colour of a die of `kind` in the hand of a player whose dice are `own` (None where
    unknown): their own for regular dice and Biggies, white for neutral dice, violet for
    kickers."""
    return _SHARED_COLOURS.get(kind, own)


_SHARED_COLOURS = {DieKind.NEUTRAL: NEUTRAL_COLOUR, DieKind.KICKERS: KICKER_COLOUR}
