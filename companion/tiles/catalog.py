"""Tile names, the printed values the rules give, and the line a tile effect leaves."""

from __future__ import annotations

from dataclasses import dataclass

from companion.tile_codes import TileCode

TILE_NAMES = {code: code.label for code in TileCode}
"""Each tile face's printed name by its code, in the order of the codes."""


JACKPOT_START, JACKPOT_STEP, JACKPOT_MAX = 30_000, 10_000, 80_000


JACKPOT_SUM = 7
"""Jackpot pays out on a pair or on this sum of the two extra dice."""


LUCKY_PUNCH_REWARDS = ("chips", 30_000, 40_000)


HIGH_FIVE_REWARD = 100_000


HIGH_FIVE_DICE = 5
"""High Five's token goes to the first player with this many counted dice at its casino."""


PAY_DAY_PER_CASINO, PAY_DAY_CHIPS_UP_TO = 10_000, 20_000
"""Pay Day pays per casino holding the player's dice; up to $20,000 it pays in chips."""


BAD_LUCK_FINE = 50_000


DOUBLE_DOWN_NOTES = (60_000, 30_000)


KNOCKOUT_BAR = 2


BLOCK_IT_CLUSTERS = (1, 1, 2, 2, 3)


GOLD_SPACE = 60_000


BETS = {"higher": 1, "lower": 2}


BLACK_BOX_CHIPS = 20_000
"""A Black Box pile worth $20,000 pays 2 chips: the text lists '2 chips or money ($40,000 ...)'."""


HANDICAP_SPACES = {"chip": 2, "money": 3, "option": 4}


HANDICAP_SETUP = (1, 1, 1, 2, 2, 2)
"""Grey dice laid in casinos 1-6 when Handicap is out."""


@dataclass(frozen=True, slots=True)
class TileEffect:
    """One line of a round's tile effects: who gained or paid what, and why."""

    casino: int
    code: TileCode
    owner: int
    money: int = 0
    chips: int = 0
    reason: str = ""


def tile_name(code: str) -> str:
    """'A2' -> 'Jackpot'."""
    return TileCode(code).label
