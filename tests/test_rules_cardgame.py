"""The Las Vegas card game (2016): selection rule, 8-card stop, ties on dice, two notes."""

from __future__ import annotations

import pytest

from companion.choices import legal_choices
from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import DealRound, PlayCards, ResolvePayout
from companion.payout import pay_casino
from companion.rules import make_rules
from companion.state import Casino, Phase, PlacedDie, new_game

LEO, HENRY, REBECCA, EMILY = 0, 1, 2, 3
NOTES = DealRound(
    (
        (100_000, 30_000),
        (90_000, 40_000),
        (80_000, 50_000),
        (70_000, 60_000),
        (90_000, 30_000),
        (100_000, 40_000),
    )
)


def card_game(players=("Leo", "Henry", "Rebecca", "Emily"), **options):
    """A dealt card game, waiting for the start player's cards."""
    return apply(new_game(make_rules("cards", options), list(players)), NOTES)


def lay(state, *plays):
    """Each player in turn lays out the given cards (1 = single die, 2 = double)."""
    for cards in plays:
        state = apply(state, PlayCards(tuple(cards)))
    return state


@pytest.mark.parametrize(
    "cards",
    [
        [(5, 1), (5, 1), (5, 1)],  # Leo: three 5s
        [(6, 1), (6, 2)],  # Henry: two 6s
        [(1, 1), (4, 1)],  # Rebecca: a 1 and a 4
        [(5, 1)],  # Emily: a 5
        [(2, 1)] * 5,  # up to five cards of one number
    ],
)
def test_selection_examples_that_are_allowed(cards):
    """1-2 cards of any numbers, or up to 5 of one number."""
    state = apply(card_game(), PlayCards(tuple(cards)))
    assert state.to_move() == "Henry"


@pytest.mark.parametrize(
    "cards, message",
    [
        (
            [(4, 1), (4, 1), (2, 1)],
            "more than 2 cards must all show the same number",
        ),  # two 4s and a 2
        ([(3, 1)] * 6, "holds 5 cards, not 6"),  # more than a hand
        ([], "at least one card"),  # nothing
        ([(7, 1)], "casino 1-6 with 1 or 2 dice"),  # no such casino
        ([(3, 3)], "casino 1-6 with 1 or 2 dice"),  # no card has 3 dice
    ],
)
def test_selection_examples_that_are_refused(cards, message):
    """No one may select two 4s and a 2, for instance."""
    with pytest.raises(IllegalMove, match=message):
        apply(card_game(), PlayCards(tuple(cards)))


def test_casino_5_tie_example_counts_dice_not_cards():
    """Leo 3 cards = 4 dice, Henry 4 cards = 4 dice, Rebecca 1 double, Emily 2 singles: all removed."""
    cards = (
        [PlacedDie(LEO, 5, True, 1), PlacedDie(LEO, 5, False, 1), PlacedDie(LEO, 5, False, 2)]
        + [PlacedDie(HENRY, 5, False, 1)] * 4
        + [PlacedDie(REBECCA, 5, True, 1)]
        + [PlacedDie(EMILY, 5, False, 1)] * 2
    )
    result = pay_casino(Casino(5, (90_000, 30_000), tuple(cards)), "out")
    assert {(g.owners, g.dice) for g in result.tied} == {((LEO, HENRY), 4), ((REBECCA, EMILY), 2)}
    assert result.awards == () and result.leftover_to == "out"


def test_two_notes_most_and_second_most_dice():
    """The most dice take the higher note, the second most the other; the rest nothing."""
    cards = (
        [PlacedDie(LEO, 1, False, 1)] * 3
        + [PlacedDie(HENRY, 1, True, 1)]
        + [PlacedDie(EMILY, 1, False, 1)]
    )
    result = pay_casino(Casino(1, (100_000, 30_000), tuple(cards)), "out")
    assert [(a.owner, a.note) for a in result.awards] == [(LEO, 100_000), (HENRY, 30_000)]
    assert result.empty_handed == (EMILY,)


def test_rebecca_stops_after_eight_cards():
    """Seven cards after turn 3, four 2s in turn 4: Rebecca sits out turns 5 and 6."""
    state = card_game()
    for _ in range(3):  # turns 1-3: Rebecca lays 3, 2, 2 cards
        state = lay(state, [(1, 1)], [(2, 1)], [(3, 1)] * (3 if state.turn == 1 else 2), [(4, 1)])
    assert sum(1 for c in state.casinos for d in c.dice if d.owner == REBECCA) == 7
    state = lay(state, [(1, 1)], [(2, 1)], [(2, 1)] * 4, [(4, 1)])
    assert state.turn == 5
    state = lay(state, [(1, 1)], [(2, 1)])
    assert state.to_move() == "Emily"  # Rebecca is skipped


def test_round_ends_after_six_turns_and_notes_leave_the_game():
    """After turn 6 the casinos pay out; notes nobody wins go back to the box."""
    state = card_game(players=("Leo", "Henry"))
    for _ in range(6):
        state = lay(state, [(1, 1)], [(6, 1)])
    assert state.phase is Phase.PAYOUT
    state = apply(state, ResolvePayout())
    assert state.winnings == ((100_000,), (100_000,))
    assert sorted(state.discards) == sorted(
        [90_000, 40_000, 80_000, 50_000, 70_000, 60_000, 90_000, 30_000, 30_000, 40_000]
    )
    assert state.round == 2 and state.phase is Phase.DEAL


def test_round_ends_early_when_everyone_has_eight_cards():
    """Two players with 10 cards each after two turns: the round is over."""
    state = card_game(players=("Leo", "Henry"))
    state = lay(state, [(3, 1)] * 5, [(4, 1)] * 5, [(3, 1)] * 5, [(4, 2)] * 5)
    assert state.phase is Phase.PAYOUT


def test_card_deal_is_two_notes_from_48():
    """48 notes, $30,000 to $100,000, two per casino."""
    rules = make_rules("cards")
    assert sum(count for _, count in rules.deck) == 48
    with pytest.raises(IllegalMove, match="casino 1 takes 2 cards, got 1"):
        apply(new_game(rules, ["Leo", "Henry"]), DealRound(((100_000,),) + NOTES.casinos[1:]))


def test_chip_card_with_a_double_card():
    """A double card is two dice: its player may take a chip card there."""
    deal = DealRound(NOTES.casinos, chip_cards=("pink", "gold", "green", "blue", "silver", "pink"))
    state = apply(new_game(make_rules("cards", {"chip_cards": True}), ["Leo", "Henry"]), deal)
    with pytest.raises(IllegalMove, match="at least 2 dice"):
        apply(state, PlayCards(((2, 1),), chips=((2, "gold"),)))
    state = apply(state, PlayCards(((2, 2),), chips=((2, "gold"),)))
    assert state.chip_cards[LEO] == ("gold",)
    assert any(c.chips for c in legal_choices(state))


def test_sequential_variation_start_player_moves_left():
    """The player to the left of the start player begins the next round."""
    state = card_game(players=("Leo", "Henry", "Rebecca"), sequential=True)
    for _ in range(6):
        state = lay(state, [(1, 1)], [(2, 1)], [(3, 1)])
    state = apply(state, ResolvePayout())
    assert state.start_player == HENRY
