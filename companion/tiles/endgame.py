"""Tiles at round end: Prime Time and Black Box before payout, then rewards and fines."""

from __future__ import annotations

from dataclasses import replace

from companion.payout import rank_casino
from companion.state import GameState, Pending, Phase, Tile
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

ROUND_END_ASKS = {"B1": "extra dice", "G1": "chosen pile"}


def round_end(state: GameState) -> GameState:
    """Tiles acting at round end, each once: every Prime Time, then every Black Box.

    The winner of the tile's casino (after ties) throws Prime Time's extra dice, or
    chooses one of the two Black Box piles. Prime Time acts 'before payout' and Black
    Box 'during payout', so Prime Time's extra dice can change who wins a Black Box
    casino. A tile is marked done (level 1) once decided.
    """
    for tile in sorted(state.tiles, key=lambda t: (t.code != "B1", t.casino)):
        if tile.code in ROUND_END_ASKS and tile.level == 0:
            ranking = rank_casino(state.casino(tile.casino))[2]
            if ranking and ranking[0] >= 0:
                ask = ROUND_END_ASKS[tile.code]
                return replace(
                    state,
                    phase=Phase.TILE,
                    pending=Pending(tile.casino, tile.code, ranking[0], ask),
                )
    return state


def before_payout(state: GameState) -> tuple[tuple[int, int], ...]:
    """Bad Luck: (casino, player) for the fewest dice at its casino, seen before ties are removed."""
    fined: list[tuple[int, int]] = []
    for tile in state.tiles:
        if tile.code == "C2":
            counted = state.casino(tile.casino).counted()
            counts = [counted.get(seat, 0) for seat in range(len(state.players))]
            fined += [(tile.casino, seat) for seat, n in enumerate(counts) if n == min(counts)]
    return tuple(fined)


def _double_down_ranking(tile: Tile) -> list[int]:
    counts: dict[int, int] = {}
    for die in tile.dice:
        counts[die.owner] = counts.get(die.owner, 0) + (2 if die.big else 1)
    by_count: dict[int, list[int]] = {}
    for owner, n in counts.items():
        by_count.setdefault(n, []).append(owner)
    return [owners[0] for n, owners in sorted(by_count.items(), reverse=True) if len(owners) == 1]


def after_payout(
    state: GameState, fined: tuple[tuple[int, int], ...]
) -> tuple[GameState, tuple[TileEffect, ...]]:
    """Tile rewards and fines at round end, with a line for each."""
    effects: list[TileEffect] = []
    for tile in state.tiles:
        if tile.code == "C1" and tile.holder is not None:
            state = gain(state, tile.holder, money=HIGH_FIVE_REWARD)
            effects.append(
                TileEffect(
                    tile.casino, tile.code, tile.holder, HIGH_FIVE_REWARD, 0, "fifth die placed"
                )
            )
        if tile.code == "H1":
            for die in sorted(tile.dice, key=lambda d: d.value):
                if die.owner >= 0:
                    money, chips = state.rules.nice_dice_rewards[die.value - 1]
                    state = gain(state, die.owner, money=money, chips=chips)
                    effects.append(
                        TileEffect(
                            tile.casino,
                            tile.code,
                            die.owner,
                            money,
                            chips,
                            f"die on space {die.value}",
                        )
                    )
        if tile.code == "H2":
            for die in tile.dice:
                state = gain(state, die.owner, money=GOLD_SPACE)
                effects.append(
                    TileEffect(
                        tile.casino, tile.code, die.owner, GOLD_SPACE, 0, "die on the gold space"
                    )
                )
        if tile.code == "G1" and tile.holder is not None:
            total = sum(tile.spaces)
            money, chips = (0, 2) if total == BLACK_BOX_CHIPS else (total, 0)
            state = gain(state, tile.holder, money=money, chips=chips)
            effects.append(
                TileEffect(tile.casino, tile.code, tile.holder, money, chips, "chosen pile")
            )
        if tile.code == "G2":
            for rank, owner in enumerate(_double_down_ranking(tile)[: len(DOUBLE_DOWN_NOTES)]):
                if owner >= 0:
                    state = gain(state, owner, money=DOUBLE_DOWN_NOTES[rank])
                    effects.append(
                        TileEffect(
                            tile.casino,
                            tile.code,
                            owner,
                            DOUBLE_DOWN_NOTES[rank],
                            0,
                            f"rank {rank + 1} on the tile",
                        )
                    )
    for casino, seat in fined:
        cash = max(0, sum(state.winnings[seat]) + state.bank[seat])
        pay = min(BAD_LUCK_FINE, cash)
        chips = 0
        if pay < BAD_LUCK_FINE:  # not enough money: chips at $10,000 each make up the rest
            short = BAD_LUCK_FINE - pay
            chips = min(state.skip_tokens[seat], -(-short // CHIP_VALUE))
            pay -= max(0, chips * CHIP_VALUE - short)  # the bank gives change, never in chips
        state = gain(state, seat, money=-pay, chips=-chips)
        effects.append(TileEffect(casino, "C2", seat, -pay, -chips, "fewest dice at Bad Luck"))
    return state, tuple(effects)
