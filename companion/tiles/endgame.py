"""Tiles at round end: who wins a tile's casino, each tile's rewards, and Bad Luck's fines."""

from __future__ import annotations

from companion.payout import rank_casino, strike_ties
from companion.state import GameState, Tile
from companion.tile_codes import TileCode
from companion.tiles.board import (
    gain,
)
from companion.tiles.catalog import (
    BAD_LUCK_FINE,
    BLACK_BOX_CHIPS,
    DOUBLE_DOWN_NOTES,
    GOLD_SPACE,
    HIGH_FIVE_REWARD,
    TileEffect,
)

CHIP_VALUE = 10_000
"""What a chip is worth when Bad Luck's fine takes it."""


def casino_winner(state: GameState, casino: int) -> int | None:
    """The player who wins a casino once ties are struck out, if a player does."""
    ranking = rank_casino(state.casino(casino))[2]
    return ranking[0] if ranking and ranking[0] >= 0 else None


def before_payout(state: GameState) -> tuple[tuple[int, int], ...]:
    """Bad Luck: (casino, player) for the fewest dice at its casino, seen before ties are removed."""
    fined: list[tuple[int, int]] = []
    for tile in state.tiles:
        if tile.code is TileCode.BAD_LUCK:
            counted = state.casino(tile.casino).counted()
            counts = [counted.get(seat, 0) for seat in range(len(state.players))]
            fined += [(tile.casino, seat) for seat, n in enumerate(counts) if n == min(counts)]
    return tuple(fined)


def _double_down_ranking(tile: Tile) -> tuple[int, ...]:
    """Owners of the dice on the tile by counted dice (a Biggy counts two), ties struck out."""
    counts: dict[int, int] = {}
    for die in tile.dice:
        counts[die.owner] = counts.get(die.owner, 0) + (2 if die.big else 1)
    return strike_ties((owner, (n,)) for owner, n in counts.items())[1]


Effects = tuple[GameState, list[TileEffect]]


def high_five(state: GameState, tile: Tile) -> Effects:
    """High Five: the holder of the token wins its reward."""
    if tile.holder is None:
        return state, []
    state = gain(state, tile.holder, money=HIGH_FIVE_REWARD)
    return state, [
        TileEffect(tile.casino, tile.code, tile.holder, HIGH_FIVE_REWARD, 0, "fifth die placed")
    ]


def nice_dice(state: GameState, tile: Tile) -> Effects:
    """Nice Dice: each player's die on the tile earns the reward of its space."""
    effects = []
    for die in sorted(tile.dice, key=lambda d: d.value):
        if die.owner >= 0:
            money, chips = state.rules.nice_dice_rewards[die.value - 1]
            state = gain(state, die.owner, money=money, chips=chips)
            reason = f"die on space {die.value}"
            effects.append(TileEffect(tile.casino, tile.code, die.owner, money, chips, reason))
    return state, effects


def my_choice(state: GameState, tile: Tile) -> Effects:
    """My Choice: the die on the gold space earns its owner the gold reward."""
    effects = []
    for die in tile.dice:
        state = gain(state, die.owner, money=GOLD_SPACE)
        reason = "die on the gold space"
        effects.append(TileEffect(tile.casino, tile.code, die.owner, GOLD_SPACE, 0, reason))
    return state, effects


def black_box(state: GameState, tile: Tile) -> Effects:
    """Black Box: the winner who chose a pile takes what its tokens show ($20,000 as 2 chips)."""
    if tile.holder is None:
        return state, []
    total = sum(tile.spaces)
    money, chips = (0, 2) if total == BLACK_BOX_CHIPS else (total, 0)
    state = gain(state, tile.holder, money=money, chips=chips)
    return state, [TileEffect(tile.casino, tile.code, tile.holder, money, chips, "chosen pile")]


def double_down(state: GameState, tile: Tile) -> Effects:
    """Double Down: the first and second on the tile, ties struck out, win its notes."""
    effects = []
    for rank, owner in enumerate(_double_down_ranking(tile)[: len(DOUBLE_DOWN_NOTES)]):
        if owner >= 0:
            note = DOUBLE_DOWN_NOTES[rank]
            state = gain(state, owner, money=note)
            reason = f"rank {rank + 1} on the tile"
            effects.append(TileEffect(tile.casino, tile.code, owner, note, 0, reason))
    return state, effects


def bad_luck_fines(state: GameState, fined: tuple[tuple[int, int], ...]) -> Effects:
    """Bad Luck: each player seen with the fewest dice pays the fine, in chips when short."""
    effects = []
    for casino, seat in fined:
        cash = max(0, sum(state.winnings[seat]) + state.bank[seat])
        pay = min(BAD_LUCK_FINE, cash)
        chips = 0
        if pay < BAD_LUCK_FINE:  # not enough money: chips at $10,000 each make up the rest
            short = BAD_LUCK_FINE - pay
            chips = min(state.skip_tokens[seat], -(-short // CHIP_VALUE))
            pay -= max(0, chips * CHIP_VALUE - short)  # the bank gives change, never in chips
        state = gain(state, seat, money=-pay, chips=-chips)
        effects.append(
            TileEffect(casino, TileCode.BAD_LUCK, seat, -pay, -chips, "fewest dice at Bad Luck")
        )
    return state, effects
