"""The Royale casino tiles by the code printed on them: one name for each, used everywhere."""

from __future__ import annotations

from enum import StrEnum


class TileCode(StrEnum):
    """A tile face. The value is its printed code (the letter names the tile, the digit its face)."""

    LUCKY_PUNCH = "A1"
    JACKPOT = "A2"
    PRIME_TIME = "B1"
    FIFTY_FIFTY = "B2"
    HIGH_FIVE = "C1"
    BAD_LUCK = "C2"
    PAY_DAY = "D1"
    POWER_PLAY = "D2"
    NO_ENTRY = "E1"
    KNOCKOUT = "E2"
    BLOCK_IT = "F1"
    HANDICAP = "F2"
    BLACK_BOX = "G1"
    DOUBLE_DOWN = "G2"
    NICE_DICE = "H1"
    MY_CHOICE = "H2"

    @property
    def label(self) -> str:
        """The name printed on the face: 'A2' -> 'Jackpot'."""
        return self.name.replace("_", " ").title()

    @property
    def letter(self) -> str:
        """The letter shared by the two faces of one tile: only one of them lies out."""
        return self.value[0]
