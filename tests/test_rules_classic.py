"""The Las Vegas 2012 rules, each worked example of the rule text as a test."""

from __future__ import annotations

import pytest

from companion.choices import legal_choices
from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import SLOT_MACHINE, DealRound, Kick, Place, ResolvePayout, Roll
from companion.payout import pay_casino
from companion.render import render_table
from companion.rules import RAINBOW, make_rules
from companion.standings import standings, winners
from companion.state import WHITE, Casino, Phase, PlacedDie, new_game
from tests.table import PLAIN_DEAL, casino, started, turn, with_casinos

ANNA, BENNO, CARLA, DENNY = 0, 1, 2, 3
FOUR = ["Anna", "Benno", "Carla", "Denny"]


# --- payout examples from the rule text --------------------------------------


def test_tie_example_1_anna_5_benno_3_carla_3_denny_1():
    """Benno and Carla tie at 3 and take their dice back; Anna gets $80k, Denny $30k, $10k goes under."""
    table = casino(4, (80_000, 30_000, 10_000), p0=5, p1=3, p2=3, p3=1)
    result = pay_casino(table, "pile")
    assert [(g.owners, g.dice) for g in result.tied] == [((BENNO, CARLA), 3)]
    assert [(a.owner, a.note) for a in result.awards] == [(ANNA, 80_000), (DENNY, 30_000)]
    assert result.leftover == (10_000,)


def test_tie_example_2_everyone_tied():
    """Anna and Carla at 2, Benno and Denny at 1: all take their dice back, nobody is paid."""
    table = casino(5, (40_000, 40_000), p0=2, p2=2, p1=1, p3=1)
    result = pay_casino(table, "pile")
    assert {g.owners for g in result.tied} == {(ANNA, CARLA), (BENNO, DENNY)}
    assert result.awards == ()
    assert result.leftover == (40_000, 40_000)


def test_payout_example_2_one_note_of_two_back_under_the_pile():
    """Benno is the only untied owner and gets one $40k; the other $40k goes under the pile."""
    table = casino(2, (40_000, 40_000), p0=2, p2=2, p1=1)
    result = pay_casino(table, "pile")
    assert [(a.owner, a.note) for a in result.awards] == [(BENNO, 40_000)]
    assert result.leftover == (40_000,)


def test_payout_example_3_not_enough_notes():
    """Carla gets $70k, Benno $20k, Denny with the fewest dice gets nothing."""
    table = casino(3, (70_000, 20_000), p2=4, p1=2, p3=1)
    result = pay_casino(table, "pile")
    assert [(a.owner, a.note) for a in result.awards] == [(CARLA, 70_000), (BENNO, 20_000)]
    assert result.empty_handed == (DENNY,)
    assert result.leftover == ()


def test_leftovers_out_of_the_game_setting():
    """With the setting 'out', unclaimed notes leave the game instead of going under the pile."""
    state = started(FOUR, leftovers="out")
    state = with_casinos(state, casino(1, (60_000, 10_000), p0=1))
    state = _finish_round(state)
    assert 10_000 in state.discards
    assert state.payouts[0].casinos[0].leftover_to == "out"


# --- turns -------------------------------------------------------------------


def test_benno_must_place_all_four_threes():
    """Rolling four 3s and a 5, choosing 3 puts all four 3s on casino 3."""
    state = started(["Anna", "Benno"])
    state = turn(state, (1, 1, 1, 1, 1, 1, 1, 1), 1)  # Anna
    state = apply(state, Roll((3, 3, 3, 3, 5, 6, 6, 6)))
    state = apply(state, Place(3))
    assert state.casino(3).counted() == {BENNO: 4}
    assert state.supplies[BENNO].total() == 4


def test_choosing_a_number_not_rolled_is_refused_with_the_values():
    """The error names the rule and what was rolled."""
    state = apply(started(["Anna", "Benno"]), Roll((2, 2, 3, 3, 4, 4, 5, 5)))
    with pytest.raises(
        IllegalMove, match=r"place a rolled number: Anna rolled 2, 2, 3, 3, 4, 4, 5, 5, not a 6"
    ):
        apply(state, Place(6))


@pytest.mark.parametrize(
    "values, message",
    [
        ((1, 2, 3), "holds 8 regular dice but the roll shows 3"),  # too few dice
        ((1, 2, 3, 4, 5, 6, 1, 7), "a die shows 1-6, got 7"),  # impossible value
    ],
)
def test_bad_rolls_are_refused(values, message):
    """A roll must show every die the player holds, each 1-6."""
    state = started(["Anna", "Benno"])
    with pytest.raises(IllegalMove, match=message):
        apply(state, Roll(values))


def test_state_is_immutable():
    """Applying an event leaves the old state as it was."""
    state = started(["Anna", "Benno"])
    before = render_table(state)
    apply(state, Roll((1,) * 8))
    assert render_table(state) == before


def test_players_without_dice_pass_and_the_last_player_rolls_again():
    """Once Anna has placed all her dice, Benno takes every remaining turn."""
    state = started(["Anna", "Benno"])
    state = turn(state, (4,) * 8, 4)  # Anna places all 8
    state = turn(state, (1, 1, 2, 2, 3, 3, 5, 5), 1)
    assert state.phase is Phase.ROLL and state.to_move() == "Benno"
    state = turn(state, (2, 2, 3, 3, 5, 5), 2)
    assert state.to_move() == "Benno"


def test_round_ends_when_all_dice_are_placed_then_start_player_moves_left():
    """After payout the next round starts with the player to the left of the start player."""
    state = started(FOUR)
    for _ in range(4):
        state = turn(state, (6,) * 8, 6)
    assert state.phase is Phase.PAYOUT
    state = apply(state, ResolvePayout())
    assert state.phase is Phase.DEAL and state.round == 2
    assert state.start_player == BENNO and state.to_move() == "Benno"


def _finish_round(state):
    """Everyone places everything on casino 6, in turn, then the payout."""
    while state.phase is Phase.ROLL:
        held = state.supplies[state.current]
        state = apply(
            state,
            Roll(
                (6,) * held.regular,
                biggy=(6,) * held.biggy,
                kickers=(),
                neutral=(6,) * held.neutral,
            ),
        )
        state = apply(state, Place(6))
    return apply(state, ResolvePayout())


# --- deal -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "casinos, message",
    [
        # casino 1 under $50,000
        (
            ((40_000,), (50_000,), (60_000,), (70_000,), (80_000,), (90_000,)),
            "casino 1 must reach \\$50,000",
        ),
        # casino 2 had reached $50,000 before its last note
        (
            (
                (50_000,),
                (40_000, 30_000, 20_000),
                (60_000,),
                (70_000,),
                (80_000,),
                (10_000, 40_000),
            ),
            "one too many",
        ),
        # only five casinos
        (((50_000,),) * 5, "notes for 6 casinos expected, got 5"),
        # a note that does not exist in the base game
        (
            ((100_000,), (50_000,), (60_000,), (70_000,), (80_000,), (90_000,)),
            "100000 is not a note of this edition",
        ),
    ],
)
def test_deal_checks_minimum_and_deck(casinos, message):
    """Notes are added until each casino reaches the minimum, and only from the deck."""
    state = new_game(make_rules("classic"), FOUR)
    with pytest.raises(IllegalMove, match=message):
        apply(state, DealRound(casinos))


def test_deal_cannot_use_more_notes_than_the_deck_has():
    """There are only five $90,000 notes."""
    state = new_game(make_rules("classic"), FOUR)
    with pytest.raises(IllegalMove, match="no \\$90,000 is left"):
        apply(state, DealRound(((90_000,),) * 6))


@pytest.mark.parametrize(
    "players, minimum",
    [(2, 30_000), (3, 40_000), (4, 50_000), (5, 60_000), (6, 70_000)],  # the rule text's table
)
def test_minimum_money_by_player_count(players, minimum):
    """With the variant, the minimum per casino depends on the number of players."""
    rules = make_rules("classic", {"min_money_by_players": True})
    assert rules.minimum_money(players) == minimum
    state = new_game(rules, [f"P{i}" for i in range(players)])
    below = minimum - 10_000
    with pytest.raises(IllegalMove, match=f"must reach \\${minimum:,}"):
        apply(state, DealRound(((below,),) + ((50_000,),) * 5))


def test_big_notes_join_the_deck():
    """The $100,000 variant adds five $100,000 notes."""
    rules = make_rules("classic", {"big_notes": True})
    assert (100_000, 5) in rules.deck
    state = apply(new_game(rules, FOUR), DealRound(((100_000,),) * 5 + ((50_000,),)))
    assert state.casino(1).notes == (100_000,)


def test_notes_put_under_the_pile_come_only_after_the_rest():
    """Leftover notes go under the pile and cannot be drawn while unseen notes remain."""
    deal = DealRound(((90_000,),) * 5 + ((50_000,),))
    state = _finish_round(started(["Anna", "Benno"], deal=deal))  # both tie on casino 6
    assert state.pile.batches[1:] == ((90_000,),) * 5 + ((50_000,),)
    with pytest.raises(IllegalMove, match="lies under the pile; 48 other notes"):
        apply(state, DealRound(((90_000,),) + ((50_000,),) * 5))


# --- end of game ---------------------------------------------------------------


def test_game_ends_after_four_rounds_with_tie_break_on_notes():
    """Equal money: the player with more notes wins; still equal: a shared win."""
    state = new_game(make_rules("classic"), ["Anna", "Benno", "Carla"])
    from dataclasses import replace

    state = replace(
        state,
        phase=Phase.OVER,
        winnings=((90_000, 10_000), (50_000, 30_000, 20_000), (50_000, 30_000, 20_000)),
    )
    assert [s.player for s in standings(state)][0] in ("Benno", "Carla")
    assert winners(state) == ("Benno", "Carla")
    state = replace(state, winnings=((90_000, 10_000), (50_000, 30_000, 20_000), (60_000, 40_000)))
    assert winners(state) == ("Benno",)


def test_four_rounds_then_no_more_events():
    """After the fourth payout the game is over and refuses further events."""
    import random

    from companion.simulate import random_deal

    rng = random.Random(4)
    state = new_game(make_rules("classic"), ["Anna", "Benno"])
    for _ in range(4):
        state = _finish_round(apply(state, random_deal(state, rng)))
    assert state.phase is Phase.OVER and len(state.payouts) == 4
    with pytest.raises(IllegalMove, match="game over"):
        apply(state, PLAIN_DEAL)


# --- neutral dice -----------------------------------------------------------------


@pytest.mark.parametrize("players, white_each", [(2, 4), (3, 2), (4, 2), (6, 2)])
def test_neutral_dice_per_player(players, white_each):
    """2 players get 4 white dice each, 3-6 players 2 each."""
    names = [f"P{i}" for i in range(players)]
    rules = make_rules("classic", {"neutral_dice": True})
    deal = PLAIN_DEAL if players != 3 else DealRound(PLAIN_DEAL.casinos, neutral_start=(1, 2))
    state = apply(new_game(rules, names), deal)
    assert all(s.neutral == white_each and s.regular == 8 for s in state.supplies)


def test_three_players_start_player_places_two_extra_white_dice():
    """With 3 players, two white dice are rolled at round start and lie on their casinos."""
    rules = make_rules("classic", {"neutral_dice": True})
    state = new_game(rules, ["Anna", "Benno", "Carla"])
    with pytest.raises(IllegalMove, match="2 neutral dice are rolled at the start"):
        apply(state, PLAIN_DEAL)
    state = apply(state, DealRound(PLAIN_DEAL.casinos, neutral_start=(3, 6)))
    assert state.casino(3).counted() == {WHITE: 1}
    assert state.casino(6).counted() == {WHITE: 1}


def test_carla_may_place_three_ones_her_five_or_the_white_six():
    """Carla's own 1,1,5 and white 1,6: her choices are the three 1s, her 5 or the white 6."""
    state = started(["Anna", "Benno", "Carla", "Denny"], neutral_dice=True)
    state = turn(state, (2,) * 8, 2, neutral=(2, 2))
    state = turn(state, (2,) * 8, 2, neutral=(2, 2))
    state = apply(state, Roll((1, 1, 5, 2, 2, 2, 3, 3), neutral=(1, 6)))
    numbers = {c.number for c in legal_choices(state)}
    assert {1, 5, 6} <= numbers
    after = apply(state, Place(1))
    assert after.casino(1).counted() == {CARLA: 2, WHITE: 1}
    after = apply(state, Place(6))
    assert after.casino(6).counted() == {WHITE: 1}
    assert after.supplies[CARLA].neutral == 1 and after.supplies[CARLA].regular == 8


def test_neutral_example_1_white_wins_and_its_note_goes_under_the_pile():
    """White gets $80k (under the pile), Benno gets $30k."""
    state = started(FOUR, neutral_dice=True)
    state = with_casinos(state, casino(1, (80_000, 30_000), white=3, p1=2))
    state = _finish_round(state)
    awards = [(a.owner, a.note) for a in state.payouts[0].casinos[0].awards]
    assert awards == [(WHITE, 80_000), (BENNO, 30_000)]
    assert 80_000 in state.pile.batches[-1] or any(80_000 in b for b in state.pile.batches[1:])
    assert 80_000 not in state.winnings[BENNO]


def test_neutral_example_2_white_second_anna_nothing():
    """Carla $70k, white $40k under the pile, Anna nothing."""
    table = casino(2, (70_000, 40_000), p2=3, white=2, p0=1)
    result = pay_casino(table, "pile")
    assert [(a.owner, a.note) for a in result.awards] == [(CARLA, 70_000), (WHITE, 40_000)]
    assert result.empty_handed == (ANNA,)


# --- Biggies --------------------------------------------------------------------------


def test_biggy_replaces_a_regular_die_and_counts_two():
    """Each player has 7 regular dice and a Biggy; at payout the Biggy counts 2."""
    state = started(FOUR, biggies=True)
    assert state.supplies[ANNA] == (7, 1, 0, 0)
    state = apply(state, Roll((4, 1, 1, 1, 1, 1, 1), biggy=(4,)))
    state = apply(state, Place(4))
    assert state.casino(4).counted() == {ANNA: 3}


def test_biggy_tie_example_anna_5_ben_3_carla_one_plus_biggy_denny_1():
    """Carla's die plus Biggy make 3 and tie with Ben's 3; both are removed."""
    dice = (
        [PlacedDie(ANNA, 4, False, 1)] * 5
        + [PlacedDie(BENNO, 4, False, 1)] * 3
        + [PlacedDie(CARLA, 4, False, 1), PlacedDie(CARLA, 4, True, 1)]
        + [PlacedDie(DENNY, 4, False, 1)]
    )
    result = pay_casino(Casino(4, (80_000, 30_000), tuple(dice)), "pile")
    assert [(g.owners, g.dice) for g in result.tied] == [((BENNO, CARLA), 3)]
    assert [a.owner for a in result.awards] == [ANNA, DENNY]


# --- Kickers ----------------------------------------------------------------------------


@pytest.mark.parametrize("players, kickers", [(2, 2), (5, 2), (6, 1)])
def test_kickers_per_player(players, kickers):
    """One kicker each with 6 players, two each with fewer; still 8 dice a player."""
    state = started([f"P{i}" for i in range(players)], kickers=True)
    assert state.supplies[0].kickers == kickers and state.supplies[0].total() == 8


def test_kicker_knocks_an_opponents_die_back_to_their_supply():
    """Benno's kicker on casino 3 removes one of Anna's dice, which she can roll again."""
    state = started(["Anna", "Benno"], kickers=True)
    state = turn(state, (3, 3, 3, 1, 1, 1), 3, kickers=(2, 2))  # Anna: three 3s
    state = apply(state, Roll((3, 4, 4, 4, 4, 4), kickers=(3, 5)))
    with pytest.raises(IllegalMove, match="each kicker must knock off a die"):
        apply(state, Place(3))
    state = apply(state, Place(3, kicks=(Kick(ANNA),)))
    assert state.casino(3).counted() == {ANNA: 2, BENNO: 1}
    assert state.supplies[ANNA].regular == 4  # 3 left in hand + 1 kicked back
    assert state.supplies[BENNO].kickers == 1  # the used kicker is out for the round


def test_kicker_may_kick_the_players_own_die():
    """'Could include your own': Anna kicks one of the 3s she just placed."""
    state = started(["Anna", "Benno"], kickers=True)
    state = apply(state, Roll((3, 3, 1, 1, 1, 1), kickers=(3, 2)))
    state = apply(state, Place(3, kicks=(Kick(ANNA),)))
    assert state.casino(3).counted() == {ANNA: 1}
    assert state.supplies[ANNA].regular == 5


def test_kicker_alone_on_an_empty_casino_has_no_effect():
    """A kicker placed where no die lies is simply put aside."""
    state = started(["Anna", "Benno"], kickers=True)
    state = apply(state, Roll((1, 1, 1, 1, 1, 1), kickers=(5, 2)))
    state = apply(state, Place(5))
    assert state.casino(5).dice == ()
    assert state.supplies[ANNA] == (6, 0, 1, 0)


def test_kicked_white_die_leaves_the_round():
    """A kicked neutral die is out for the rest of the round (online clarification)."""
    state = started(["Anna", "Benno"], kickers=True, neutral_dice=True)
    state = turn(
        state, (2, 2, 2, 2, 2, 2), 2, kickers=(1, 1), neutral=(4, 1, 1, 1)
    )  # white 4 stays with Anna
    state = apply(state, Roll((6, 6, 6, 6, 6, 6), kickers=(1, 1), neutral=(4, 6, 6, 6)))
    state = apply(state, Place(4))  # Benno's white 4: casino 4 now has one white die
    state = apply(state, Roll((), kickers=(4, 1), neutral=(4, 1, 1, 1)))  # Anna: white 4 + kicker 4
    state = apply(state, Place(4, kicks=(Kick(WHITE),)))
    assert state.casino(4).counted() == {WHITE: 1}
    assert state.white_out == 1


def test_player_out_of_dice_who_gets_one_back_plays_again():
    """Anna has placed everything; Benno's kicker returns one of her dice and she rolls again."""
    state = started(["Anna", "Benno"], kickers=True)
    state = turn(state, (3,) * 6, 3, kickers=(4, 4))  # Anna: six 3s
    state = turn(state, (1,) * 6, 1, kickers=(5, 5))  # Benno: six 1s
    state = turn(state, (), 4, kickers=(4, 4))  # Anna: two kickers on empty casino 4
    assert state.supplies[ANNA].total() == 0
    state = apply(state, Roll((), kickers=(3, 2)))
    state = apply(state, Place(3, kicks=(Kick(ANNA),)))
    assert state.supplies[ANNA] == (1, 0, 0, 0)
    assert state.to_move() == "Anna" and state.phase is Phase.ROLL


def test_kicker_on_the_slot_machine_only_hits_dice_placed_this_turn():
    """On the slot machine a kicker may only kick a die put there in the same turn."""
    state = started(
        ["Anna", "Benno"],
        kickers=True,
        slot_machine=True,
        deal=DealRound(PLAIN_DEAL.casinos + ((50_000,),)),
    )
    state = apply(state, Roll((2, 2, 1, 1, 1, 1), kickers=(3, 3)))
    state = apply(state, Place(2, slot=True))  # Anna's 2s on the slot
    state = apply(state, Roll((4, 1, 1, 1, 1, 1), kickers=(4, 6)))
    with pytest.raises(IllegalMove, match="placed this turn on the slot machine"):
        apply(state, Place(4, slot=True, kicks=(Kick(ANNA),)))
    state = apply(state, Place(4, slot=True, kicks=(Kick(BENNO),)))
    assert state.casino(SLOT_MACHINE).counted() == {ANNA: 2}


# --- Rainbow cards ----------------------------------------------------------------------


def test_rainbow_counts_40k_in_the_deal_and_is_replaced_before_payout():
    """A Rainbow card dealt with a $10k makes $50k; before payout it becomes the next note."""
    rules = make_rules("classic", {"rainbow": True})
    state = new_game(rules, ["Anna", "Benno"])
    deal = ((RAINBOW, 10_000), (50_000,), (60_000,), (70_000,), (80_000,), (90_000,))
    state = apply(state, DealRound(deal))
    state = turn(state, (1,) * 8, 1)
    state = turn(state, (2,) * 8, 2)
    assert state.phase is Phase.RAINBOW
    from companion.events import ReplaceRainbows

    # a second Rainbow turned up during the replacement is discarded and replaced too
    draws = ((RAINBOW, 30_000), (), (), (), (), ())
    state = apply(state, ReplaceRainbows(draws))
    assert sorted(state.casino(1).notes) == [10_000, 30_000]
    assert state.discards.count(RAINBOW) == 2
    state = apply(state, ResolvePayout())
    assert state.winnings[ANNA] == (30_000,)


def test_rainbow_replacement_must_end_on_a_money_note():
    """Drawing only a Rainbow card leaves the casino short: refused while the pile has notes."""
    from companion.events import ReplaceRainbows

    rules = make_rules("classic", {"rainbow": True})
    state = apply(
        new_game(rules, ["Anna", "Benno"]), DealRound(((RAINBOW, 10_000),) + PLAIN_DEAL.casinos[1:])
    )
    state = turn(turn(state, (1,) * 8, 1), (2,) * 8, 2)
    with pytest.raises(IllegalMove, match="only 0 were replaced"):
        apply(state, ReplaceRainbows(((RAINBOW,), (), (), (), (), ())))


# --- Slot machine ------------------------------------------------------------------------


def test_slot_machine_takes_any_number_but_each_only_once():
    """Anna placed 4s on the slot machine; nobody, Anna included, may place 4s there again."""
    deal = DealRound(PLAIN_DEAL.casinos + ((50_000,),))
    state = started(["Anna", "Benno"], slot_machine=True, deal=deal)
    state = apply(state, Roll((4, 4, 1, 1, 1, 1, 1, 1)))
    state = apply(state, Place(4, slot=True))
    state = apply(state, Roll((4, 4, 4, 2, 2, 2, 2, 2)))
    with pytest.raises(IllegalMove, match="4s already lie on the slot machine"):
        apply(state, Place(4, slot=True))
    assert not any(c.number == 4 and c.slot for c in legal_choices(state))
    state = apply(state, Place(4))  # the regular casino 4 is still open


def test_slot_machine_example_carla_beats_denny_on_the_higher_die():
    """Denny three 3s, Ben two 6s, Carla two 4s and a 1: Carla, then Denny, then Ben choose."""
    dice = (
        [PlacedDie(DENNY, 3, False, 1)] * 3
        + [PlacedDie(BENNO, 6, False, 2)] * 2
        + [PlacedDie(CARLA, 4, False, 3)] * 2
        + [PlacedDie(CARLA, 1, False, 7)]
    )
    table = Casino(SLOT_MACHINE, (90_000, 50_000, 20_000), tuple(dice))
    result = pay_casino(table, "pile")
    assert result.tied == ()
    assert result.ranking == (CARLA, DENNY, BENNO)
    assert [(a.owner, a.note) for a in result.awards] == [
        (CARLA, 90_000),
        (DENNY, 50_000),
        (BENNO, 20_000),
    ]
    chosen = pay_casino(table, "pile", slot_choices=(50_000,))
    assert [(a.owner, a.note) for a in chosen.awards][:2] == [(CARLA, 50_000), (DENNY, 90_000)]


def test_slot_machine_neutral_tie_still_cancels():
    """White and Anna with the same dice (placed together) tie despite the tie-breakers."""
    dice = (
        [PlacedDie(ANNA, 5, False, 1)] * 2
        + [PlacedDie(WHITE, 5, False, 1)] * 2
        + [PlacedDie(BENNO, 2, False, 2)]
    )
    result = pay_casino(Casino(SLOT_MACHINE, (70_000,), tuple(dice)), "pile")
    assert [g.owners for g in result.tied] == [(ANNA, WHITE)]
    assert [(a.owner, a.note) for a in result.awards] == [(BENNO, 70_000)]


def test_slot_machine_choice_must_be_on_offer():
    """A winner cannot choose a note that is not at the slot machine."""
    table = Casino(SLOT_MACHINE, (50_000,), (PlacedDie(ANNA, 2, False, 1),))
    with pytest.raises(IllegalMove, match="slot machine choice"):
        pay_casino(table, "pile", slot_choices=(90_000,))


# --- chip cards (from the card game's box) ------------------------------------------------


def test_chip_card_taken_with_two_dice_and_set_bonus():
    """Two dice placed at once take a chip card; Leo's 2 pink + 4 gold make $130,000."""
    from companion.standings import chip_bonus

    deal = DealRound(
        PLAIN_DEAL.casinos, chip_cards=("pink", "gold", "green", "blue", "silver", "pink")
    )
    state = started(["Anna", "Benno"], chip_cards=True, deal=deal)
    state = apply(state, Roll((1, 1, 2, 3, 3, 3, 4, 5)))
    with pytest.raises(IllegalMove, match="at least 2 dice"):
        apply(state, Place(2, chip="gold"))
    state = apply(state, Place(1, chip="pink"))
    assert state.chip_cards[ANNA] == ("pink",)
    assert state.casino(1).chip_cards == ()
    assert chip_bonus(("pink",) * 2 + ("gold",) * 4) == 130_000


def test_chip_cards_stay_at_casinos_between_rounds():
    """Chip cards not taken remain and a new one is added each round."""
    deal = DealRound(
        PLAIN_DEAL.casinos, chip_cards=("pink", "gold", "green", "blue", "silver", "pink")
    )
    state = started(["Anna", "Benno"], chip_cards=True, deal=deal)
    state = _finish_round(state)
    state = apply(
        state, DealRound(PLAIN_DEAL.casinos, chip_cards=("gold",) * 4 + ("green", "green"))
    )
    assert state.casino(1).chip_cards == ("gold", "pink")
