"""Final (or running) standings: money, notes and the end-of-game tie-break."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from companion.rules import CHIP_SET_BONUS
from companion.state import GameState


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's total and what it is made of."""

    player: str
    money: int
    notes: int
    note_money: int
    chip_bonus: int
    token_money: int
    bank_money: int = 0


def chip_bonus(colours: tuple[str, ...]) -> int:
    """End bonus for chip cards: per colour 10/30/60/100/150k for 1-5 cards."""
    return sum(CHIP_SET_BONUS[min(n, 5)] for n in Counter(colours).values())


def standings(state: GameState) -> tuple[Standing, ...]:
    """Players by money, then by number of notes (the tie-break), best first."""
    rows = []
    for seat, name in enumerate(state.players):
        notes = state.winnings[seat]
        bonus = chip_bonus(state.chip_cards[seat])
        # Skip chips and cards have a value at the end; only Royale counts its chips
        # with the money cards in the tie-break.
        held = state.skip_tokens[seat]
        tokens = held * state.rules.token_value
        cards = len(notes) + (held if state.rules.tokens_break_ties else 0)
        if state.bank_cards:  # money cards taken from Royale's bank count as cards too
            cards += state.bank_cards[seat]
        bank = state.bank[seat] if state.bank else 0
        rows.append(
            Standing(
                name, sum(notes) + bonus + tokens + bank, cards, sum(notes), bonus, tokens, bank
            )
        )
    return tuple(sorted(rows, key=lambda r: (-r.money, -r.notes)))


def winners(state: GameState) -> tuple[str, ...]:
    """Everyone with the most money and, among them, the most notes (a shared win if still tied)."""
    rows = standings(state)
    best = (rows[0].money, rows[0].notes)
    return tuple(r.player for r in rows if (r.money, r.notes) == best)


class WinReason(StrEnum):
    """Why the winners won: most money, most notes among those level on money, or a shared win."""

    MONEY = "money"
    NOTES = "notes"
    SHARED = "shared"


@dataclass(frozen=True, slots=True)
class Victory:
    """Who won and why; `level_on_money` lists everyone with the most money, best first."""

    winners: tuple[str, ...]
    reason: WinReason
    level_on_money: tuple[Standing, ...]


def victory(state: GameState) -> Victory:
    """The winners and the reason they won: the one place that says why."""
    rows = standings(state)
    best = winners(state)
    level = tuple(r for r in rows if r.money == rows[0].money)
    if len(level) == 1:
        reason = WinReason.MONEY
    else:
        reason = WinReason.NOTES if len(best) == 1 else WinReason.SHARED
    return Victory(best, reason, level)
