"""Las Vegas Royale (2019), basic game and 2-player variant: the rule text's examples."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.choices import legal_choices
from companion.deal import arrange_pairs
from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import DealRound, Place, ResolvePayout, Roll, Skip
from companion.payout import pay_casino
from companion.rules import make_rules
from companion.standings import standings, winners
from companion.state import NEUTRAL_SET, Casino, Phase, PlacedDie, new_game
from tests.table import casino

ANNA, BEN, CARLA, DENNY = 0, 1, 2, 3
PAIRS = DealRound(
    (
        (40_000, 30_000),
        (50_000, 30_000),
        (60_000, 40_000),
        (70_000, 30_000),
        (60_000, 50_000),
        (90_000, 80_000),
    )
)


def royale(players=("Anna", "Ben", "Carla", "Denny"), deal=PAIRS, start=0):
    """A dealt basic Royale game."""
    return apply(new_game(make_rules("royale"), list(players), start), deal)


def test_seven_dice_and_a_biggy_and_two_chips():
    """Each player has 7 regular dice and a Biggy, and 2 chips at the start."""
    state = royale()
    assert state.supplies[ANNA] == (7, 1, 0, 0)
    assert state.skip_tokens == (2, 2, 2, 2)
    assert state.rules.rounds == 3


def test_ben_places_all_four_threes():
    """Ben rolls four 3s and a 5 and must place all four 3s."""
    state = royale(players=("Ben", "Anna", "Carla"))
    state = apply(state, Roll((3, 3, 3, 5, 1, 1, 1), biggy=(3,)))
    state = apply(state, Place(3))
    assert state.casino(3).counted() == {0: 5}  # four dice, the Biggy counting two


def test_pairs_go_to_casinos_by_total_and_equal_totals_by_the_higher_card():
    """The highest pair lies at casino 6; of two $90k pairs the one with $60k lies higher."""
    pairs = [
        (30_000, 60_000),
        (40_000, 50_000),
        (90_000, 30_000),
        (100_000, 80_000),
        (30_000, 40_000),
        (50_000, 50_000),
    ]
    casinos = arrange_pairs(pairs)
    assert casinos == (
        (40_000, 30_000),
        (50_000, 40_000),
        (60_000, 30_000),
        (50_000, 50_000),
        (90_000, 30_000),
        (100_000, 80_000),
    )
    wrong = (casinos[1], casinos[0]) + casinos[2:]
    with pytest.raises(IllegalMove, match="pairs go by total"):
        apply(
            new_game(make_rules("royale"), ["Anna", "Ben"]),
            DealRound(wrong, neutral_start=(1,) * 8),
        )


def test_example_1_carla_one_plus_biggy_ties_ben():
    """Anna 5, Ben 3, Carla 1 + Biggy = 3, Denny 1: Ben and Carla remove their dice."""
    dice = [PlacedDie(ANNA, 4, False, 1)] * 5 + [PlacedDie(BEN, 4, False, 1)] * 3
    dice += [
        PlacedDie(CARLA, 4, False, 1),
        PlacedDie(CARLA, 4, True, 2),
        PlacedDie(DENNY, 4, False, 1),
    ]
    result = pay_casino(Casino(4, (70_000, 30_000), tuple(dice)), "pile")
    assert [(g.owners, g.dice) for g in result.tied] == [((BEN, CARLA), 3)]
    assert [(a.owner, a.note) for a in result.awards] == [(ANNA, 70_000), (DENNY, 30_000)]


def test_example_2_biggy_ties_two_dice():
    """Anna's Biggy and Carla's 2 dice tie, Ben and Denny tie at 1: all four remove their dice."""
    dice = [PlacedDie(ANNA, 5, True, 1)] + [PlacedDie(CARLA, 5, False, 1)] * 2
    dice += [PlacedDie(BEN, 5, False, 1), PlacedDie(DENNY, 5, False, 1)]
    result = pay_casino(Casino(5, (60_000, 50_000), tuple(dice)), "pile")
    assert result.awards == () and len(result.tied) == 2


@pytest.mark.parametrize(
    "table, awards, leftover",
    [
        # Ben wins a $40,000 card; the other $40,000 card goes back under the pile
        (casino(1, (40_000, 40_000), p0=2, p2=2, p1=1), [(BEN, 40_000)], (40_000,)),
        # Carla wins $70,000 and Ben $30,000; Denny gets nothing
        (casino(2, (70_000, 30_000), p2=4, p1=2, p3=1), [(CARLA, 70_000), (BEN, 30_000)], ()),
        # Anna wins $80,000 and Denny $50,000
        (casino(3, (80_000, 50_000), p0=3, p3=1), [(ANNA, 80_000), (DENNY, 50_000)], ()),
    ],
)
def test_payout_examples_higher_card_to_most_dice_lower_to_runner_up(table, awards, leftover):
    """Two cards per casino: the higher to the most dice, the lower to the runner-up."""
    result = pay_casino(table, "pile")
    assert [(a.owner, a.note) for a in result.awards] == awards
    assert result.leftover == leftover


def test_pay_a_chip_to_pass_and_two_more_chips_each_round():
    """After rolling, a chip passes the turn; each round adds 2 chips; chips are $10,000 at the end."""
    state = royale(players=("Anna", "Ben"), deal=DealRound(PAIRS.casinos, neutral_start=(1,) * 8))
    state = apply(state, Roll((1, 2, 3, 4, 5, 6, 6), biggy=(2,)))
    assert Skip() in legal_choices(state)
    state = apply(state, Skip())
    assert state.skip_tokens == (1, 2) and state.supplies[ANNA].total() == 8
    assert state.to_move() == "Ben"
    while state.phase is not Phase.PAYOUT:
        held = state.supplies[state.current]
        state = apply(state, Roll((6,) * held.regular, biggy=(6,) * held.biggy))
        state = apply(state, Place(6))
    state = apply(state, ResolvePayout())
    state = apply(state, DealRound(((40_000, 30_000),) + PAIRS.casinos[1:], neutral_start=(2,) * 8))
    assert state.skip_tokens == (3, 4)


def test_next_start_player_is_casino_6_winner_else_lower_casinos():
    """Nobody wins casino 6: the winner of casino 5's higher card starts the next round."""
    state = royale()
    plan = {ANNA: 6, BEN: 6, CARLA: 5, DENNY: 1}  # Anna and Ben tie at casino 6
    while state.phase is Phase.ROLL:
        held = state.supplies[state.current]
        number = plan[state.current]
        state = apply(state, Roll((number,) * held.regular, biggy=(number,) * held.biggy))
        state = apply(state, Place(number))
    state = apply(state, ResolvePayout())
    assert state.start_player == CARLA


def test_end_tie_break_counts_money_cards_and_chips():
    """Money (chips at $10,000 included), then money cards plus chips, then a shared win."""
    state = replace(
        royale(),
        phase=Phase.OVER,
        winnings=((90_000,), (60_000, 20_000), (80_000,), ()),
        skip_tokens=(1, 1, 2, 0),
    )
    rows = {r.player: (r.money, r.notes) for r in standings(state)}
    assert (
        rows["Anna"] == (100_000, 2)
        and rows["Ben"] == (90_000, 3)
        and rows["Carla"] == (100_000, 3)
    )
    assert winners(state) == ("Carla",)


def test_two_players_roll_a_neutral_set_at_round_start():
    """With 2 players, 7 dice and a Biggy of a non-player colour lie on the casinos first."""
    state = new_game(make_rules("royale"), ["Anna", "Ben"])
    with pytest.raises(IllegalMove, match="8 neutral dice are rolled"):
        apply(state, PAIRS)
    state = apply(state, DealRound(PAIRS.casinos, neutral_start=(1, 1, 2, 3, 3, 3, 5, 6)))
    assert state.casino(3).counted() == {NEUTRAL_SET: 3}
    assert state.casino(6).counted() == {NEUTRAL_SET: 2}  # the Biggy


@pytest.mark.parametrize(
    "table, awards",
    [
        # the $80,000 card goes to the neutral player (under the pile); Ben wins $30,000
        (
            Casino(
                1,
                (80_000, 30_000),
                (PlacedDie(NEUTRAL_SET, 1, True, 0), PlacedDie(BEN, 1, False, 1)),
            ),
            [(NEUTRAL_SET, 80_000), (BEN, 30_000)],
        ),
        # Carla wins $70,000, the neutral player $40,000 (under the pile); Ben gets nothing
        (
            Casino(
                2,
                (70_000, 40_000),
                (
                    PlacedDie(CARLA, 2, True, 1),
                    PlacedDie(CARLA, 2, False, 1),
                    PlacedDie(NEUTRAL_SET, 2, False, 0),
                    PlacedDie(NEUTRAL_SET, 2, False, 0),
                    PlacedDie(BEN, 2, False, 1),
                ),
            ),
            [(CARLA, 70_000), (NEUTRAL_SET, 40_000)],
        ),
    ],
)
def test_two_player_neutral_examples(table, awards):
    """The neutral set ranks like a player; what it wins leaves play."""
    assert [(a.owner, a.note) for a in pay_casino(table, "pile").awards] == awards
