"""Dealing a round: notes (or cards) to each casino, chip cards, and dice of imaginary owners."""

from __future__ import annotations

from dataclasses import replace

from companion.errors import IllegalMove
from companion.events import DealRound
from companion.money import Pile, deal_value, draw_notes, note_label, pile_exhausted
from companion.rules import CHIP_CARD_COLOURS
from companion.state import (
    GREY,
    NEUTRAL_SET,
    WHITE,
    Casino,
    GameState,
    Phase,
    PlacedDie,
    Supply,
    Tile,
)
from companion.steps import expect_phase
from companion.tile_codes import TileCode
from companion.tiles import HANDICAP_SETUP, setup_tiles


def check_values(values: tuple[int, ...], what: str) -> None:
    """Refuse a die value outside 1-6."""
    for value in values:
        if not isinstance(value, int) or not 1 <= value <= 6:
            raise IllegalMove("die value", f"{what}: a die shows 1-6, got {value!r}")


def _check_casino_notes(
    state: GameState, number: int, notes: tuple[int, ...], short_ok: bool
) -> None:
    rules = state.rules
    valid = {value for value, _ in rules.deck}
    for note in notes:
        if note not in valid:
            raise IllegalMove(
                "money deck", f"casino {number}: {note!r} is not a note of this edition"
            )
    if rules.notes_per_casino:
        if len(notes) != rules.notes_per_casino and not (
            short_ok and len(notes) < rules.notes_per_casino
        ):
            raise IllegalMove(
                "deal",
                f"casino {number} takes {rules.notes_per_casino} cards, got {len(notes)}",
                why={
                    "key": "deal_cards",
                    "casino": number,
                    "wanted": rules.notes_per_casino,
                    "got": len(notes),
                },
            )
        return
    minimum = rules.minimum_money(len(state.players))
    total = sum(deal_value(n) for n in notes)
    if total < minimum and not short_ok:
        raise IllegalMove(
            "deal minimum",
            f"casino {number} must reach ${minimum:,}, its notes total ${total:,}",
            why={"key": "deal_short", "casino": number, "minimum": minimum, "total": total},
        )
    if notes and total - max(deal_value(n) for n in notes) >= minimum:
        raise IllegalMove(
            "deal minimum",
            f"casino {number} reached ${minimum:,} before its last note; "
            f"notes {[note_label(n) for n in notes]} are one too many",
            why={"key": "deal_over", "casino": number, "minimum": minimum},
        )


def _deal_notes(state: GameState, event: DealRound) -> tuple[Pile, tuple[int, ...]]:
    """Draw each casino's notes from the pile, checking them; returns the pile and discards."""
    rules = state.rules
    count = rules.casino_count()
    if len(event.casinos) != count:
        raise IllegalMove("deal", f"notes for {count} casinos expected, got {len(event.casinos)}")
    valid = {value for value, _ in rules.deck}
    for number, notes in enumerate(event.casinos, start=1):
        for note in notes:
            if note not in valid:
                raise IllegalMove(
                    "money deck", f"casino {number}: {note!r} is not a note of this edition"
                )
    pile, discards = state.pile, state.discards
    for notes in event.casinos:
        pile, discards = draw_notes(pile, discards, notes, rules.reshuffle)
    exhausted = pile_exhausted(pile, discards, rules.reshuffle)
    for number, notes in enumerate(event.casinos, start=1):
        _check_casino_notes(state, number, notes, short_ok=exhausted)
    return pile, discards


def _deal_chip_cards(state: GameState, event: DealRound) -> tuple[str, ...]:
    """Check the chip card laid at each casino; returns the chip cards left to deal."""
    chip_pile = list(state.chip_pile)
    if not state.rules.chip_cards:
        if event.chip_cards:
            raise IllegalMove("chip cards", "this game is played without chip cards")
        return tuple(chip_pile)
    wanted = min(6, len(state.chip_pile))
    if len(event.chip_cards) != wanted:
        raise IllegalMove(
            "chip cards",
            f"one chip card per casino: {wanted} expected, got {len(event.chip_cards)}",
            why={"key": "chips_count", "wanted": wanted, "got": len(event.chip_cards)},
        )
    for number, colour in enumerate(event.chip_cards, start=1):
        if colour not in CHIP_CARD_COLOURS:
            raise IllegalMove(
                "chip cards",
                f"casino {number}: {colour!r} is not a chip card; "
                f"chip cards are {', '.join(CHIP_CARD_COLOURS)}",
                why={"key": "chip_pick", "casino": number},
            )
        if colour not in chip_pile:
            raise IllegalMove(
                "chip cards",
                f"no {colour!r} chip card is left to deal",
                why={"key": "chip_none", "chip": colour},
            )
        chip_pile.remove(colour)
    return tuple(chip_pile)


def _deal_start_dice(state: GameState, event: DealRound) -> tuple[PlacedDie, ...]:
    """The imaginary owner's dice rolled onto the casinos before the first turn, checked."""
    extra = state.rules.neutral_at_round_start(len(state.players))
    if len(event.neutral_start) != extra:
        raise IllegalMove(
            "neutral dice",
            f"{extra} neutral dice are rolled at the start of this round, "
            f"got {len(event.neutral_start)}",
            why={"key": "start_dice", "wanted": extra, "got": len(event.neutral_start)},
        )
    check_values(event.neutral_start, "neutral start")
    return _start_dice(state, event.neutral_start)


def _deal_tiles(state: GameState, event: DealRound) -> tuple[Tile, ...]:
    """Royale's casino tiles for the round; no other edition has any."""
    if state.rules.edition == "royale":
        return setup_tiles(state, event.tiles)
    if event.tiles:
        raise IllegalMove(
            "tiles", f"casino tiles belong to Las Vegas Royale, not {state.rules.edition}"
        )
    return ()


def _laid_casinos(
    state: GameState, event: DealRound, start_dice: tuple[PlacedDie, ...]
) -> tuple[Casino, ...]:
    """Every casino with its dealt notes, its chip card and the dice lying there at the start."""
    casinos = []
    for casino, notes in zip(state.casinos, event.casinos, strict=True):
        chips = casino.chip_cards
        if casino.number <= 6 and casino.number <= len(event.chip_cards):
            chips = tuple(sorted(chips + (event.chip_cards[casino.number - 1],)))
        dice = tuple(d for d in start_dice if d.value == casino.number)
        if TileCode.HANDICAP in event.tiles and casino.number <= 6:
            dice += (PlacedDie(GREY, casino.number, False, 0),) * HANDICAP_SETUP[casino.number - 1]
        casinos.append(Casino(casino.number, tuple(notes), dice, chips))
    return tuple(casinos)


def _round_supply(state: GameState) -> Supply:
    """The dice each player holds at the start of a round, by kind."""
    rules = state.rules
    players = len(state.players)
    kickers = rules.kickers_per_player(players)
    biggy = 1 if rules.biggies else 0
    return Supply(
        regular=rules.dice_per_player - kickers - biggy,
        biggy=biggy,
        kickers=kickers,
        neutral=rules.neutral_per_player(players),
    )


def deal(state: GameState, event: DealRound) -> GameState:
    """Lay out a round: notes, chip cards, the dice lying out at the start, tiles; hand out dice."""
    expect_phase(state, Phase.DEAL, event)
    rules = state.rules
    pile, discards = _deal_notes(state, event)
    chip_pile = _deal_chip_cards(state, event)
    start_dice = _deal_start_dice(state, event)
    if rules.pairs_by_total:
        check_pairs_by_total(event.casinos)
    tiles = _deal_tiles(state, event)
    supply = _round_supply(state)
    return replace(
        state,
        phase=Phase.CARDS if rules.play == "cards" else Phase.ROLL,
        current=state.start_player,
        turn=1,
        supplies=tuple(supply for _ in state.players),
        casinos=_laid_casinos(state, event, start_dice),
        pile=pile,
        discards=discards,
        skips_used=tuple(0 for _ in state.players),
        skip_tokens=tuple(t + rules.tokens_per_round for t in state.skip_tokens),
        chip_pile=chip_pile,
        pending_roll=None,
        white_out=0,
        tiles=tiles,
    )


def _start_dice(state: GameState, values: tuple[int, ...]) -> tuple[PlacedDie, ...]:
    """The imaginary owner's dice placed at round start (Royale: the last one is the Biggy)."""
    if state.rules.edition == "royale":
        return tuple(
            PlacedDie(NEUTRAL_SET, v, i == len(values) - 1, 0) for i, v in enumerate(values)
        )
    return tuple(PlacedDie(WHITE, v, False, 0) for v in values)


def pair_rank(pair: tuple[int, ...]) -> tuple[int, int]:
    """How a Royale money-card pair ranks: by total, then by its higher card."""
    return (sum(pair), max(pair, default=0))


def arrange_pairs(pairs: list[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    """Royale's deal: the lowest pair to casino 1 ... the highest pair to casino 6."""
    return tuple(tuple(sorted(p, reverse=True)) for p in sorted(pairs, key=pair_rank))


def check_pairs_by_total(casinos: tuple[tuple[int, ...], ...]) -> None:
    """Royale pairs lie by total, higher casinos higher; equal totals by the higher card."""
    for lower, (number, pair) in zip(casinos, enumerate(casinos[1:], start=2), strict=False):
        if pair_rank(pair) < pair_rank(lower):
            raise IllegalMove(
                "money pairs",
                f"casino {number} has {[note_label(n) for n in pair]}, less than casino "
                f"{number - 1}'s {[note_label(n) for n in lower]}; pairs go by total, "
                "then by the higher card",
            )
