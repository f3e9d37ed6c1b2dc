"""The camera's reading as a typed proposal: each die's kind or problem, and the Roll event only
when every die fits."""

from __future__ import annotations

import pytest
from table import started

from companion.dice import DIE_KINDS, DieKind, kind_colour
from companion.engine import apply
from companion.events import Place, Roll
from companion.proposal import (
    Problem,
    ReadDie,
    propose_roll,
    propose_throw,
    roll_colours,
    unique_place,
)

COLOURS = ("red", "blue")


def red(*values: int, big: bool = False, unsure: bool = False) -> list[ReadDie]:
    return [ReadDie(v, "red", big=big, unsure=unsure) for v in values]


def test_a_fitting_roll_is_proposed_as_the_roll_event():
    state = started(["Anna", "Ben"], neutral_dice=True)
    white = [ReadDie(2, "white")] * 4
    proposal = propose_roll(state, COLOURS, red(6, 1, 1, 2, 3, 4, 5, 6) + white)
    assert proposal.roll == Roll((1, 1, 2, 3, 4, 5, 6, 6), neutral=(2, 2, 2, 2))
    assert proposal.problems == () and proposal.problem_count() == 0
    assert [d.kind for d in proposal.dice] == [DieKind.REGULAR] * 8 + [DieKind.NEUTRAL] * 4


@pytest.mark.parametrize(
    ("dice", "key", "text"),
    [
        # Ben's colour on Anna's turn
        (red(1, 1, 1, 1, 1, 1, 1) + [ReadDie(3, "blue")], "other_colour", "blue is Ben's colour"),
        # a die read as unsure: its kind is known, the pips are not
        (red(1, 1, 1, 1, 1, 1, 1) + red(4, unsure=True), "unsure", "could not be read for sure"),
        # a Biggy in a game without Biggies
        (red(1, 1, 1, 1, 1, 1, 1) + red(4, big=True), "too_many", "Anna has only 0 Biggies"),
        # a die whose colour lay between two before calibration: a guess is not applied unseen
        (
            red(1, 1, 1, 1, 1, 1, 1) + [ReadDie(4, "red", colour_doubt=True)],
            "colour_doubt",
            "read as red",
        ),
    ],
)
def test_a_die_that_does_not_fit_carries_its_problem_and_no_roll_is_proposed(dice, key, text):
    proposal = propose_roll(started(["Anna", "Ben"]), COLOURS, dice)
    assert proposal.roll is None
    flagged = proposal.dice[-1].problem
    assert flagged is not None and flagged.key == key and text in flagged.text()
    assert all(d.problem is None for d in proposal.dice[:-1])


def test_dice_too_few_are_a_problem_of_the_whole_roll_worded_by_kind():
    proposal = propose_roll(started(["Anna", "Ben"]), COLOURS, red(1, 2, 3, 4, 5, 6))
    assert proposal.roll is None
    missing = Problem.of("missing", seen=6, player="Anna", count=8, kind=DieKind.REGULAR)
    assert proposal.problems == (missing,)
    assert missing.text() == "read 6 of Anna's 8 dice"


def test_a_throw_that_fits_without_the_dice_lying_there_before_leaves_them_out():
    state = started(["Anna", "Ben"])
    stray = ReadDie(5, "green")
    proposal = propose_throw(
        state, COLOURS, [stray, *red(1, 1, 2, 3, 4, 5, 6, 6)], [False] + [True] * 8
    )
    assert proposal.roll == Roll((1, 1, 2, 3, 4, 5, 6, 6))
    assert proposal.left_out == 1 and stray not in [d.die for d in proposal.dice]


def test_dice_taken_out_of_the_arena_name_the_placement_only_when_it_is_the_one():
    state = started(["Anna", "Ben"])
    rolled = propose_roll(state, COLOURS, red(1, 1, 2, 3, 4, 5, 6, 6)).roll
    assert rolled is not None
    choosing = apply(state, rolled)
    assert unique_place(choosing, 1, 2) == Place(1)
    assert unique_place(choosing, 1, 1) is None  # one of the two 1s: not a whole choice


def test_a_rolls_colours_are_the_players_own_with_white_and_purple_where_rolled():
    state = started(["Anna", "Ben"], neutral_dice=True)
    roll = Roll((1, 2, 3), neutral=(4, 4), biggy=(6,), kickers=(5,))
    assert roll_colours(state, COLOURS, roll) == {"red": 4, "white": 2, "purple": 1}
    after = apply(apply(state, Roll((1, 1, 2, 3, 4, 5, 6, 6), neutral=(2, 2, 2, 2))), Place(1))
    assert roll_colours(after, COLOURS, Roll((2, 3))) == {"blue": 2}  # Ben's turn, no white


def test_each_kind_of_die_has_one_colour_for_a_player():
    assert [kind_colour(kind, "red") for kind in DIE_KINDS] == ["red", "red", "white", "purple"]
    assert [kind_colour(kind, None) for kind in DIE_KINDS] == [None, None, "white", "purple"]
