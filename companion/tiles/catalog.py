"""Tile names, the printed values the rules give, and laying the tiles out for a round."""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import IllegalMove
from companion.state import GameState, Tile

TILE_NAMES = {
    "A1": "Lucky Punch",
    "A2": "Jackpot",
    "B1": "Prime Time",
    "B2": "Fifty Fifty",
    "C1": "High Five",
    "C2": "Bad Luck",
    "D1": "Pay Day",
    "D2": "Power Play",
    "E1": "No Entry",
    "E2": "Knockout",
    "F1": "Block It",
    "F2": "Handicap",
    "G1": "Black Box",
    "G2": "Double Down",
    "H1": "Nice Dice",
    "H2": "My Choice",
}


JACKPOT_START, JACKPOT_STEP, JACKPOT_MAX = 30_000, 10_000, 80_000


LUCKY_PUNCH_REWARDS = ("chips", 30_000, 40_000)


HIGH_FIVE_REWARD = 100_000


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
    code: str
    owner: int
    money: int = 0
    chips: int = 0
    reason: str = ""


def tile_name(code: str) -> str:
    """'A2' -> 'Jackpot'."""
    return TILE_NAMES[code]


def setup_tiles(state: GameState, codes: tuple[str, ...]) -> tuple[Tile, ...]:
    """Check the tiles dealt this round and lay them beside casinos 1, 2, 3 ..."""
    wanted = state.rules.tiles
    if len(codes) != wanted:
        raise IllegalMove(
            "tiles",
            f"{wanted} tiles lie out each round, got {len(codes)}",
            why={"key": "tiles_count", "wanted": wanted, "got": len(codes)},
        )
    for code in codes:
        if code not in TILE_NAMES:
            raise IllegalMove(
                "tiles", f"there is no tile {code!r}; tiles are {', '.join(TILE_NAMES)}"
            )
    sides = [code[0] for code in codes]
    if len(set(sides)) != len(sides):
        raise IllegalMove(
            "tiles",
            f"{codes}: the two faces of one tile cannot both lie out",
            why={"key": "tiles_faces"},
        )
    return tuple(
        Tile(
            code,
            casino,
            level=JACKPOT_START if code == "A2" else 0,
            spaces=BLOCK_IT_CLUSTERS
            if code == "F1"
            else tuple(HANDICAP_SPACES.values())
            if code == "F2"
            else (),
        )
        for casino, code in enumerate(codes, start=1)
    )
