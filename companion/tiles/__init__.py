"""Las Vegas Royale's casino tiles: setup, activation, decisions and payout effects.

Tiles lie beside casinos 1 to k (k = the `tiles` option, 3 in the main game).
Placing dice in such a casino activates its tile. A tile whose outcome the
companion cannot see (extra dice, a hidden guess, a player's choice) puts the
game in the TILE phase until a TileDecision brings the outcome.
"""

from companion.tiles.activation import (
    power_play_choices,
    power_play_rolled,
    return_power_play,
    use_power_play,
)
from companion.tiles.board import check_open, closed_casino
from companion.tiles.catalog import (
    HANDICAP_SETUP,
    JACKPOT_MAX,
    TILE_NAMES,
    TileEffect,
    tile_name,
)
from companion.tiles.endgame import before_payout
from companion.tiles.table import (
    TILES,
    TileRules,
    activate,
    after_payout,
    decide,
    decision_choices,
    round_end,
    setup_tiles,
)

__all__ = [
    "HANDICAP_SETUP",
    "JACKPOT_MAX",
    "TILES",
    "TILE_NAMES",
    "TileEffect",
    "TileRules",
    "activate",
    "after_payout",
    "before_payout",
    "check_open",
    "closed_casino",
    "decide",
    "decision_choices",
    "power_play_choices",
    "power_play_rolled",
    "return_power_play",
    "round_end",
    "setup_tiles",
    "tile_name",
    "use_power_play",
]
