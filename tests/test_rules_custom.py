"""The Custom edition: playing cards 3-10 as money, its start-player rule, both skip house rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.choices import legal_choices
from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import DealRound, Place, ResolvePayout, Roll, Skip
from companion.payout import pay_casino
from companion.rules import make_rules
from companion.standings import standings, winners
from companion.state import Phase, new_game
from tests.table import casino

RED, YELLOW, BLUE = 0, 1, 2
CARDS = DealRound(((10, 3), (9, 4), (8, 5), (7, 6), (10, 9), (8, 3)))


def custom(players=("Red", "Yellow", "Blue"), start=0, **options):
    """A dealt Custom-edition game."""
    state = new_game(make_rules("custom", options), list(players), start)
    return apply(state, CARDS)


def test_tray_tiebreaker_two_red_two_yellow_removed():
    """Two red and two yellow dice on a tray: all four are removed, nobody there is paid."""
    result = pay_casino(casino(2, (9, 4), p0=2, p1=2), "out")
    assert [g.owners for g in result.tied] == [(RED, YELLOW)]
    assert result.awards == () and result.leftover == (9, 4)


def test_higher_card_to_most_dice_lower_card_to_second():
    """Most dice take the higher card, second most the lower; third gets nothing."""
    result = pay_casino(casino(1, (10, 3), p0=3, p1=2, p2=1), "out")
    assert [(a.owner, a.note) for a in result.awards] == [(RED, 10), (YELLOW, 3)]
    assert result.empty_handed == (BLUE,)


@pytest.mark.parametrize(
    "casinos, message",
    [
        (
            ((10,), (9, 4), (8, 5), (7, 6), (10, 9), (8, 3)),
            "casino 1 takes 2 cards, got 1",
        ),  # one card short
        (((11, 3), (9, 4), (8, 5), (7, 6), (10, 9), (8, 3)), "11 is not a note"),  # no such card
    ],
)
def test_deal_two_cards_of_rank_3_to_10(casinos, message):
    """Each tray gets exactly two cards, each 3-10."""
    state = new_game(make_rules("custom"), ["Red", "Yellow"])
    with pytest.raises(IllegalMove, match=message):
        apply(state, DealRound(casinos))


def _play_round(state, sixes_by):
    """Every player places all 8 dice in one go: `sixes_by` on casino 6, the others on casino 1-3."""
    while state.phase is Phase.ROLL:
        seat = state.current
        number = 6 if seat == sixes_by else seat + 1
        state = apply(state, Roll((number,) * 8))
        state = apply(state, Place(number))
    return apply(state, ResolvePayout())


def test_casino_6_winner_starts_next_round():
    """The winner of casino 6's higher card starts the next round."""
    state = _play_round(custom(), sixes_by=BLUE)
    assert state.start_player == BLUE and state.to_move() == "Blue"


def test_same_start_player_when_nobody_wins_casino_6():
    """Nobody paid at casino 6: the same player starts again."""
    state = _play_round(custom(start=YELLOW), sixes_by=None)
    assert state.start_player == YELLOW


def test_leftover_cards_are_discarded():
    """Cards nobody wins leave the game (they do not go back under the deck)."""
    state = _play_round(custom(), sixes_by=None)
    assert 9 in state.discards and 10 in state.discards  # casino 5 was empty


def test_skip_rule_a_costs_a_chip_and_chips_count_as_dollars():
    """Version A: $2 in chips each; a skip costs $1; chips left count but are not money cards."""
    state = custom(skip_rule="chips")
    assert state.rules.rounds == 3  # recommended with a skip rule
    assert state.skip_tokens == (2, 2, 2)
    state = apply(state, Roll((1, 2, 3, 4, 5, 6, 1, 2)))
    assert Skip() in legal_choices(state)
    state = apply(state, Skip())
    assert state.skip_tokens[RED] == 1 and state.supplies[RED].total() == 8
    assert state.to_move() == "Yellow"
    rows = {r.player: r for r in standings(state)}
    assert rows["Red"].money == 1 and rows["Red"].notes == 0


def test_skip_rule_b_cards_worth_one_dollar_not_money_cards():
    """Version B: 4 skip cards; each left is worth $1 but does not count in the tie-break."""
    state = custom(skip_rule="cards")
    assert state.skip_tokens == (4, 4, 4)
    state = replace(state, phase=Phase.OVER, winnings=((10,), (7, 3), ()), skip_tokens=(4, 4, 0))
    assert [(r.player, r.money, r.notes) for r in standings(state)][:2] == [
        ("Yellow", 14, 2),
        ("Red", 14, 1),
    ]
    assert winners(state) == ("Yellow",)


def test_skip_limit_per_round():
    """With a limit of 1, a second skip in the same round is refused."""
    state = custom(players=("Red", "Yellow"), skip_rule="cards", skip_limit=1)
    for _ in range(2):
        state = apply(state, Roll((1, 2, 3, 4, 5, 6, 1, 2)))
        state = apply(state, Skip())
    state = apply(state, Roll((1, 2, 3, 4, 5, 6, 1, 2)))
    assert Skip() not in legal_choices(state)
    with pytest.raises(IllegalMove, match="already skipped 1 times this round"):
        apply(state, Skip())


def test_skip_without_the_house_rule_is_refused():
    """Without a skip rule the player must place."""
    state = apply(custom(), Roll((1, 2, 3, 4, 5, 6, 1, 2)))
    with pytest.raises(IllegalMove, match="without the skip house rule"):
        apply(state, Skip())


def test_unknown_option_is_refused_with_the_known_ones():
    """Options are checked by name and value."""
    with pytest.raises(IllegalMove, match="custom has no option 'kickers'"):
        make_rules("custom", {"kickers": True})
    with pytest.raises(IllegalMove, match="skip_rule must be one of none, chips, cards"):
        make_rules("custom", {"skip_rule": "dice"})
