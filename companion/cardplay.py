"""The card game (2016): dice cards laid out turn by turn instead of rolled dice."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations_with_replacement

from companion.errors import IllegalMove
from companion.events import PlayCards
from companion.state import GameState, Phase, PlacedDie
from companion.steps import expect_phase, replace_at

CARD_TYPES = tuple((number, dice) for number in range(1, 7) for dice in (1, 2))
HAND_SIZE = 5


def cards_placed(state: GameState, seat: int) -> int:
    """Dice cards the player has laid at the casinos this round."""
    return sum(1 for casino in state.casinos for card in casino.dice if card.owner == seat)


def check_selection(name: str, cards: tuple[tuple[int, int], ...]) -> None:
    """1-2 cards of any numbers, or up to 5 cards that all show one number."""
    for number, dice in cards:
        if not 1 <= number <= 6 or dice not in (1, 2):
            raise IllegalMove(
                "dice card", f"a card shows casino 1-6 with 1 or 2 dice, got {(number, dice)}"
            )
    if not cards:
        raise IllegalMove(
            "card selection",
            f"{name} must lay out at least one card",
            why={"key": "cards_none", "player": name},
        )
    if len(cards) > HAND_SIZE:
        raise IllegalMove(
            "card selection",
            f"{name} holds {HAND_SIZE} cards, not {len(cards)}",
            why={"key": "cards_hand", "player": name, "count": HAND_SIZE},
        )
    numbers = sorted({number for number, _ in cards})
    if len(cards) > 2 and len(numbers) > 1:
        raise IllegalMove(
            "card selection",
            f"{name} chose {len(cards)} cards showing {numbers}; "
            "more than 2 cards must all show the same number",
            why={"key": "cards_same", "player": name, "count": len(cards)},
        )


def _next_player(state: GameState) -> GameState:
    """The next player this turn, the first of the next turn, or the payout."""
    players = len(state.players)
    stop = state.rules.stop_at_cards
    seat = (state.current + 1) % players
    while seat != state.start_player:
        if cards_placed(state, seat) < stop:
            return replace(state, current=seat)
        seat = (seat + 1) % players
    turn = state.turn + 1
    order = [(state.start_player + k) % players for k in range(players)]
    active = [s for s in order if cards_placed(state, s) < stop]
    if turn > state.rules.max_turns or not active:
        return replace(state, phase=Phase.PAYOUT, turn=turn)
    return replace(state, current=active[0], turn=turn)


def play_cards(state: GameState, event: PlayCards) -> GameState:
    """Lay out the player's chosen cards; take chip cards where 2+ dice went at once."""
    expect_phase(state, Phase.CARDS, event)
    seat, name = state.current, state.to_move()
    cards = tuple(tuple(card) for card in event.cards)
    check_selection(name, cards)  # type: ignore[arg-type]
    casinos = list(state.casinos)
    dice_at: Counter[int] = Counter()
    for number, dice in cards:
        casino = casinos[number - 1]
        casinos[number - 1] = replace(
            casino, dice=casino.dice + (PlacedDie(seat, number, dice == 2, state.turn),)
        )
        dice_at[number] += dice
    taken = list(state.chip_cards[seat])
    for number, colour in event.chips:
        if not state.rules.chip_cards:
            raise IllegalMove("chip cards", "this game is played without chip cards")
        if not 1 <= number <= 6 or dice_at[number] < 2:
            raise IllegalMove(
                "chip cards",
                f"a chip card needs at least 2 dice laid at casino {number} at once, "
                f"{name} laid {dice_at[number]}",
            )
        if sum(1 for n, _ in event.chips if n == number) > 1:
            raise IllegalMove("chip cards", f"one chip card per casino and turn, casino {number}")
        casino = casinos[number - 1]
        if colour not in casino.chip_cards:
            raise IllegalMove(
                "chip cards",
                f"casino {number} has no {colour!r} chip card (has {list(casino.chip_cards)})",
            )
        chips = list(casino.chip_cards)
        chips.remove(colour)
        casinos[number - 1] = replace(casino, chip_cards=tuple(chips))
        taken.append(colour)
    state = replace(
        state,
        casinos=tuple(casinos),
        chip_cards=replace_at(state.chip_cards, seat, tuple(sorted(taken))),
    )
    return _next_player(state)


def card_selections() -> list[tuple[tuple[int, int], ...]]:
    """Every selection the rule allows, as multisets of card types (180 of them)."""
    result: list[tuple[tuple[int, int], ...]] = [(card,) for card in CARD_TYPES]
    result += list(combinations_with_replacement(CARD_TYPES, 2))
    for number in range(1, 7):
        for size in range(3, HAND_SIZE + 1):
            for doubles in range(size + 1):
                result.append(((number, 1),) * (size - doubles) + ((number, 2),) * doubles)
    return result


def card_choices(state: GameState) -> list[PlayCards]:
    """Every legal PlayCards for the player to move, with the chip cards they may take."""
    result: list[PlayCards] = []
    for cards in card_selections():
        options: list[tuple[tuple[int, str], ...]] = [()]
        if state.rules.chip_cards:
            dice_at: Counter[int] = Counter()
            for number, dice in cards:
                dice_at[number] += dice
            for number, dice in sorted(dice_at.items()):
                colours = sorted(set(state.casino(number).chip_cards)) if dice >= 2 else []
                options = options + [o + ((number, c),) for o in options for c in colours]
        result += [PlayCards(cards, chips) for chips in options]
    return result
