"""A scripted round with a picture of the table after each step (compared exactly)."""

from __future__ import annotations

from textwrap import dedent

from companion.engine import apply
from companion.events import DealRound, Place, ResolvePayout, Roll
from companion.render import explain_round, render_table
from companion.rules import make_rules
from companion.state import new_game

DEAL = DealRound(
    ((60_000,), (20_000, 40_000), (50_000,), (30_000, 30_000), (90_000,), (10_000, 40_000))
)


def picture(text: str) -> str:
    return dedent(text).strip("\n")


def test_two_player_round_with_a_tie():
    """Anna and Ben tie on casino 4; Ben alone on casino 2 takes the higher note."""
    state = apply(new_game(make_rules("classic"), ["Anna", "Ben"]), DEAL)
    state = apply(state, Roll((4, 4, 4, 1, 1, 6, 6, 6)))
    assert render_table(state) == picture(
        """
        Round 1/4 - Anna to choose
          1  | $60k                   |
          2  | $40k $20k              |
          3  | $50k                   |
          4  | $30k $30k              |
          5  | $90k                   |
          6  | $40k $10k              |
        dice in hand: Anna 8, Ben 8
        Anna rolled: 1 1 4 4 4 6 6 6
        """
    )
    state = apply(state, Place(4))
    state = apply(state, Roll((4, 4, 4, 2, 2, 2, 2, 2)))
    state = apply(state, Place(4))
    state = apply(state, Roll((6, 6, 6, 6, 6)))
    state = apply(state, Place(6))
    state = apply(state, Roll((2, 2, 2, 2, 2)))
    state = apply(state, Place(2))
    assert render_table(state) == picture(
        """
        Round 1/4 - ready for payout
          1  | $60k                   |
          2  | $40k $20k              | Ben #####
          3  | $50k                   |
          4  | $30k $30k              | Anna ###  Ben ###
          5  | $90k                   |
          6  | $40k $10k              | Anna #####
        """
    )
    state = apply(state, ResolvePayout())
    assert explain_round(state.payouts[0], state) == picture(
        """
        Payout of round 1
        Casino 1 ($60k): no dice
          $60k go under the pile
        Casino 2 ($40k, $20k): Ben 5
          1. Ben takes $40k
          $20k go under the pile
        Casino 3 ($50k): no dice
          $50k go under the pile
        Casino 4 ($30k, $30k): Anna 3, Ben 3
          tied at 3 and removed: Anna, Ben
          $30k, $30k go under the pile
        Casino 5 ($90k): no dice
          $90k go under the pile
        Casino 6 ($40k, $10k): Anna 5
          1. Anna takes $40k
          $10k go under the pile
        """
    )
    assert state.winnings == ((40_000,), (40_000,))
    assert state.start_player == 1


def test_standings_show_zero_money_as_dollars():
    """A player without money shows $0 (a note value of 0 would be a Rainbow card)."""
    from dataclasses import replace

    from companion.render import render_standings
    from companion.state import Phase

    state = new_game(make_rules("classic"), ["Anna", "Ben"])
    state = replace(state, phase=Phase.OVER, winnings=((50_000,), ()))
    assert render_standings(state).splitlines()[1:3] == [
        "  Anna            $50,000  1 note",
        "  Ben                  $0  0 notes",
    ]
