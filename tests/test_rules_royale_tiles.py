"""Las Vegas Royale main game: the casino tiles the engine plays, each with a scripted test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.choices import legal_choices
from companion.engine import apply
from companion.errors import IllegalMove
from companion.events import DealRound, Place, ResolvePayout, Roll, TileDecision
from companion.rules import make_rules
from companion.standings import standings
from companion.state import Phase, new_game
from companion.tiles import JACKPOT_MAX
from tests.table import ROYALE_PAIRS as PAIRS
from tests.table import royale_main_game as main_game

ANNA, BEN, CARLA = 0, 1, 2


def place(state, number, regular=1, biggy=False):
    """The player to move rolls and places `regular` dice (and maybe the Biggy) showing `number`."""
    held = state.supplies[state.current]
    other = 6 if number != 6 else 5
    values = (number,) * regular + (other,) * (held.regular - regular)
    big = ((number if biggy else other),) * held.biggy
    state = apply(state, Roll(values, biggy=big))
    return apply(state, Place(number))


def decide(state, tile_casino, **choice):
    """Answer the pending tile decision."""
    items = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in choice.items()))
    return apply(state, TileDecision(tile_casino, items))


def test_deal_checks_the_tiles():
    """Three tiles a round, known codes, not both faces of one tile, only supported ones."""
    rules = make_rules("royale", {"tiles": 3})
    state = new_game(rules, ["Anna", "Ben", "Carla"])
    for tiles, message in [
        (("A2", "C1"), "3 tiles lie out each round, got 2"),
        (("A1", "A2", "C1"), "two faces of one tile"),
        (("Z9", "A2", "C1"), "there is no tile 'Z9'"),
    ]:
        with pytest.raises(IllegalMove, match=message):
            apply(state, DealRound(PAIRS, tiles=tiles))
    with pytest.raises(IllegalMove, match="tiles must be 0-6"):
        make_rules("royale", {"tiles": 7})


def test_jackpot_grows_by_10k_to_80k_and_pays_on_a_seven_or_a_double():
    """A miss moves the counter up $10,000 (at most $80,000); a 7 or a double takes it."""
    state = main_game(["A2", "C1", "D1"])
    state = place(state, 1)  # Anna activates the Jackpot
    # every throw of the two extra dice can be entered as it fell (21, order aside)
    assert state.phase is Phase.TILE and len(legal_choices(state)) == 21
    with pytest.raises(IllegalMove, match="two extra dice"):
        decide(state, 1, dice=[7, 1])
    state = decide(state, 1, dice=[1, 2])
    assert state.tile_at(1).level == 40_000 and state.to_move() == "Ben"
    for _ in range(5):
        state = decide(place(state, 1), 1, dice=[1, 3])
    assert state.tile_at(1).level == JACKPOT_MAX
    seat = state.current
    state = decide(place(state, 1), 1, dice=[4, 4])  # a double
    assert state.bank[seat] == 80_000 and state.tile_at(1).level == 30_000
    state = decide(place(state, 1), 1, dice=[2, 5])  # a 7
    assert state.bank[(seat + 1) % 3] == 30_000


def test_lucky_punch_pays_when_the_guess_is_wrong():
    """A right guess gives nothing; a wrong one gives 2 chips, $30,000 or $40,000."""
    state = place(main_game(["A1", "C1", "D1"]), 1)
    assert len(legal_choices(state)) == 4
    state = decide(state, 1, guessed=True)
    assert state.bank[ANNA] == 0 and state.skip_tokens[ANNA] == 2
    state = decide(place(state, 1), 1, guessed=False, reward="chips")
    assert state.skip_tokens[BEN] == 4
    state = decide(place(state, 1), 1, guessed=False, reward=40_000)
    assert state.bank[CARLA] == 40_000
    with pytest.raises(IllegalMove, match="the reward is 'chips', 30000 or 40000"):
        decide(place(state, 1), 1, guessed=False, reward=50_000)


def test_high_five_token_for_the_fifth_die_pays_100k():
    """Four dice and the Biggy (= 5) at the casino take the token, worth $100,000 at payout."""
    state = main_game(["C1", "A2", "D1"])
    state = place(state, 1, regular=3, biggy=True)  # Anna: 3 + Biggy = 5
    assert state.tile_at(1).holder == ANNA
    state = _finish(state)
    assert state.bank[ANNA] == 100_000
    effects = state.payouts[0].tile_effects
    assert [(e.code, e.owner, e.money) for e in effects] == [("C1", ANNA, 100_000)]


def test_pay_day_counts_casinos_with_your_dice():
    """1-2 casinos give 1-2 chips; 3 or more give $10,000 each from the bank."""
    state = main_game(["D1", "A2", "C1"])
    state = place(state, 4)  # Anna: casino 4
    state = place(state, 5)  # Ben
    state = place(state, 5)  # Carla
    state = place(state, 1)  # Anna activates Pay Day: casinos 1 and 4 -> 2 chips
    assert state.skip_tokens[ANNA] == 4 and state.bank[ANNA] == 0
    state = place(state, 5)  # Ben
    state = place(state, 5)  # Carla
    state = place(state, 3)  # Anna
    state = place(state, 5)  # Ben
    state = place(state, 5)  # Carla
    state = place(state, 1)  # Anna: casinos 1, 3, 4 -> $30,000
    assert state.bank[ANNA] == 30_000


def test_bad_luck_fines_the_fewest_dice_including_zero():
    """Carla, with no die at the Bad Luck casino, pays $50,000 (or all she has) at round end."""
    state = main_game(["C2", "A1", "D1"])
    state = place(state, 1, regular=2)  # Anna 2 at casino 1
    state = place(state, 1, regular=1)  # Ben 1
    state = _finish(state)  # Carla never places at casino 1
    fines = [(e.owner, e.money) for e in state.payouts[0].tile_effects if e.code == "C2"]
    won = sum(state.winnings[CARLA])
    assert fines == [(CARLA, -min(50_000, won))]


def test_bad_luck_takes_everything_and_the_chips_when_money_is_short():
    """With $20,000 and 2 chips, Carla pays the $20,000 and her chips."""
    state = main_game(["C2", "A1", "D1"])
    state = place(state, 1, regular=2)
    state = replace(state, phase=Phase.PAYOUT, winnings=((), (), (20_000,)))
    state = apply(state, ResolvePayout())
    effect = next(e for e in state.payouts[0].tile_effects if e.owner == CARLA)
    assert (effect.money, effect.chips) == (-20_000, -2)
    carla = next(r for r in standings(state) if r.player == "Carla")
    assert carla.money == 0


def test_double_down_moves_dice_to_the_tile_and_pays_like_a_casino():
    """Dice moved onto the tile leave the casino; the tile pays $60,000 and $30,000."""
    state = main_game(["G2", "A1", "D1"])
    state = place(state, 1, regular=3)  # Anna
    assert state.phase is Phase.TILE
    with pytest.raises(IllegalMove, match="has 3 dice"):
        decide(state, 1, regular=4, biggy=False)
    state = decide(state, 1, regular=2, biggy=False)
    assert state.casino(1).counted() == {ANNA: 1} and len(state.tile_at(1).dice) == 2
    state = decide(place(state, 1, regular=1), 1, regular=1, biggy=False)  # Ben moves 1
    state = _finish(state)
    tile_pay = [(e.owner, e.money) for e in state.payouts[0].tile_effects if e.code == "G2"]
    assert tile_pay == [(ANNA, 60_000), (BEN, 30_000)]


def _finish(state, skip=None):
    """Everyone places the rest of their dice on casino 6 (tile-free); then the payout."""
    while state.phase is not Phase.PAYOUT:
        if state.phase is Phase.TILE:
            state = apply(state, legal_choices(state)[0])
            continue
        held = state.supplies[state.current]
        number = 5 if state.current == skip else 6
        state = apply(state, Roll((number,) * held.regular, biggy=(number,) * held.biggy))
        state = apply(state, Place(number))
    return apply(state, ResolvePayout())


def test_knockout_puts_a_die_of_each_opponent_in_the_bar_at_most_two():
    """Each opponent puts a die from hand in the bar (a Biggy counts as one die there)."""
    state = main_game(["E2", "A1", "D1"])
    state = place(state, 1)  # Anna activates: Ben and Carla may choose regular or Biggy
    assert state.phase is Phase.TILE and len(legal_choices(state)) == 4
    with pytest.raises(IllegalMove, match="biggy_from lists the seats"):
        decide(state, 1, biggy_from=[ANNA])
    state = decide(state, 1, biggy_from=[CARLA])
    bar = sorted((d.owner, d.big) for d in state.tile_at(1).dice)
    assert bar == [(BEN, False), (CARLA, True)]
    assert state.supplies[BEN].regular == 6 and state.supplies[CARLA].biggy == 0
    state = place(state, 1)  # Ben activates: his bar die comes back; Anna may choose
    state = decide(state, 1, biggy_from=[])  # Carla, with no Biggy left, puts a regular die
    bar = sorted((d.owner, d.big) for d in state.tile_at(1).dice)
    assert bar == [(ANNA, False), (CARLA, False), (CARLA, True)]
    assert state.supplies[BEN].regular == 6
    state = place(state, 1)  # Carla activates: her two bar dice come back
    state = decide(state, 1, biggy_from=[ANNA])
    bar = sorted((d.owner, d.big) for d in state.tile_at(1).dice)
    assert bar == [(ANNA, False), (ANNA, True), (BEN, False)]
    assert state.supplies[CARLA] == (6, 1, 0, 0)
    state = place(state, 1)  # Anna activates: Anna's dice return; Carla and Ben add one each
    state = decide(state, 1, biggy_from=[])
    bar = sorted((d.owner, d.big) for d in state.tile_at(1).dice)
    assert bar == [(BEN, False), (BEN, False), (CARLA, False)]
    state = place(state, 1)  # Ben activates: his two come back; Anna and Carla add one each
    state = decide(state, 1, biggy_from=[])
    state = place(state, 1)  # Carla activates: hers come back; Anna and Ben add one each
    state = decide(state, 1, biggy_from=[])
    bar = sorted((d.owner, d.big) for d in state.tile_at(1).dice)
    assert bar == [(ANNA, False), (ANNA, False), (BEN, False)]
    state = place(state, 6)  # Anna places elsewhere
    state = place(state, 1)  # Ben activates: Anna already has 2 in the bar and adds none
    state = decide(state, 1, biggy_from=[]) if state.phase is Phase.TILE else state
    bar = sorted((d.owner, d.big) for d in state.tile_at(1).dice)
    assert bar == [(ANNA, False), (ANNA, False), (CARLA, False)]


def test_block_it_grey_dice_rank_and_tie_like_an_imaginary_player():
    """Two grey dice put on casino 2 tie with red's two dice there, so nobody is paid."""
    from companion.state import GREY

    state = main_game(["F1", "A1", "D1"])
    state = place(state, 2, regular=2)  # Anna: 2 dice at casino 2 (Lucky Punch casino)
    state = decide(state, 2, guessed=True)
    state = place(state, 1)  # Ben activates Block It
    with pytest.raises(IllegalMove, match="clusters left hold"):
        decide(state, 1, cluster=4, casino=2)
    state = decide(state, 1, cluster=2, casino=2)
    assert state.casino(2).counted() == {ANNA: 2, GREY: 2}
    assert state.tile_at(1).spaces == (1, 1, 2, 3)
    state = _finish(state)
    casino2 = state.payouts[0].casinos[1]
    assert [g.owners for g in casino2.tied] == [(ANNA, GREY)] and casino2.awards == ()


def test_prime_time_winner_adds_extra_dice_before_payout():
    """The casino's winner throws two extra dice and may place 0-2 of them; they count as theirs."""
    state = main_game(["B1", "A1", "D1"])
    state = place(state, 1, regular=3)  # Anna leads casino 1
    state = place(state, 4, regular=2)  # Ben: 2 at casino 4
    state = place(state, 4, regular=1)  # Carla: 1 at casino 4
    while state.phase is not Phase.TILE:  # everyone places the rest on casino 6
        held = state.supplies[state.current]
        state = apply(state, Roll((6,) * held.regular, biggy=(6,) * held.biggy))
        state = apply(state, Place(6))
    assert state.pending.code == "B1" and state.pending.seat == ANNA
    with pytest.raises(IllegalMove, match="'place' lists dice from the throw"):
        decide(state, 1, dice=[4, 4], place=[5])
    state = decide(state, 1, dice=[4, 4], place=[4, 4])  # a double: both go to casino 4
    assert state.phase is Phase.PAYOUT
    assert state.casino(4).counted() == {BEN: 2, CARLA: 1, ANNA: 2}
    state = apply(state, ResolvePayout())
    casino4 = state.payouts[0].casinos[3]
    assert [g.owners for g in casino4.tied] == [(BEN, ANNA)]
    assert [(a.owner, a.note) for a in casino4.awards] == [(CARLA, 70_000)]


def test_handicap_grey_dice_setup_and_rewards():
    """Grey dice lie 1-1-1-2-2-2 in casinos 1-6; taking one gives a chip, $30k or a die move."""
    from companion.state import GREY

    state = main_game(["F2", "A2", "D1"])
    assert [state.casino(n).counted().get(GREY, 0) for n in range(1, 7)] == [1, 1, 1, 2, 2, 2]
    state = place(state, 1)  # Anna activates Handicap
    state = decide(state, 1, take=False)  # she may take nothing (and gets nothing)
    assert state.skip_tokens[ANNA] == 2 and state.to_move() == "Ben"
    state = decide(place(state, 1), 1, take=4, reward="money")  # Ben: $30,000
    assert state.bank[BEN] == 30_000 and state.casino(4).counted()[GREY] == 1
    state = decide(place(state, 1), 1, take=5, reward="rotate", number=3, big=True)  # Carla
    assert state.casino(3).counted() == {GREY: 1, CARLA: 2} and state.supplies[CARLA].biggy == 0
    state = place(state, 1)  # Anna again: takes her die on casino 1 back
    with pytest.raises(IllegalMove, match="casino 2 has no such die"):
        decide(state, 1, take=6, reward="return", **{"from": 2})
    state = decide(state, 1, take=6, reward="return", **{"from": 1})
    assert state.casino(1).counted().get(ANNA, 0) == 1 and state.supplies[ANNA].regular == 6
    assert state.tile_at(1).spaces == (2, 2, 2)
    assert len(state.tile_at(1).dice) == 3


def test_black_box_winner_gets_the_chosen_pile():
    """The casino's winner takes the tokens of the pile chosen ($60k, $20k, $20k, three empty)."""
    state = main_game(["G1", "A2", "D1"])
    state = place(state, 1, regular=3)  # Anna wins casino 1
    while state.phase is not Phase.TILE:
        held = state.supplies[state.current]
        state = apply(state, Roll((6,) * held.regular, biggy=(6,) * held.biggy))
        state = apply(state, Place(6))
    assert state.pending.code == "G1" and state.pending.seat == ANNA
    # the piles are face down: every pile the winner may turn up is offered for hand entry
    piles = [c.get("pile") for c in legal_choices(state)]
    assert (60_000, 20_000, 20_000) in piles and (0,) in piles and len(piles) == len(set(piles))
    with pytest.raises(IllegalMove, match="is not among them"):
        decide(state, 1, pile=[60_000, 60_000])
    with pytest.raises(IllegalMove, match="holds 1-5 of the 6 tokens"):
        decide(state, 1, pile=[60_000, 20_000, 20_000, 0, 0, 0])
    state = decide(state, 1, pile=[60_000, 20_000, 0])
    assert state.phase is Phase.PAYOUT and state.bank[ANNA] == 0  # paid during payout
    state = apply(state, ResolvePayout())
    assert state.bank[ANNA] == 80_000
    effects = [(e.owner, e.money, e.chips) for e in state.payouts[0].tile_effects if e.code == "G1"]
    assert effects == [(ANNA, 80_000, 0)]  # the payout explanation names the Black Box


def test_power_play_token_for_a_clear_majority_used_instead_of_rolling():
    """Alone with the most dice, Anna takes the token; next turn she turns a die and places it."""
    from companion.events import PowerPlay

    state = main_game(["D2", "A2", "C1"])
    state = place(state, 1, regular=2)  # Anna: 2 dice at casino 1, a clear majority
    assert state.tile_at(1).holder == ANNA
    assert legal_choices(state) == ()  # Ben holds no token: he can only roll
    with pytest.raises(IllegalMove, match="does not hold the Power Play token"):
        apply(state, PowerPlay(3))
    state = place(state, 5)  # Ben
    state = place(state, 5)  # Carla
    assert len(legal_choices(state)) == 12  # six numbers, a regular die or the Biggy
    state = apply(state, PowerPlay(4, big=True))  # Anna turns her Biggy to 4
    assert state.casino(4).counted() == {ANNA: 2} and state.supplies[ANNA].biggy == 0
    assert state.tile_at(1).holder is None and state.to_move() == "Ben"


def test_power_play_token_returns_when_nobody_leads():
    """Ben draws level with Anna at the Power Play casino: the token goes back to the tile."""
    state = main_game(["D2", "A2", "C1"])
    state = place(state, 1, regular=2)  # Anna takes the token
    state = place(state, 1, regular=2)  # Ben: 2 as well, a tie for the most
    assert state.tile_at(1).holder is None


def test_nice_dice_spaces_bump_and_pay_at_round_end():
    """A die goes on the space of its number; a die already there moves to its casino."""
    state = main_game(["H1", "A1", "D1"])
    state = apply(state, Roll((1, 1, 4, 5, 6, 6, 6), biggy=(4,)))  # Anna
    state = apply(state, Place(1))
    with pytest.raises(IllegalMove, match="no die showing 2 stayed in hand"):
        decide(state, 1, **{"from": "roll", "value": 2, "big": False})
    state = decide(state, 1, **{"from": "roll", "value": 4, "big": True})  # her Biggy on space 4
    assert [(d.owner, d.value, d.big) for d in state.tile_at(1).dice] == [(ANNA, 4, True)]
    assert state.supplies[ANNA].biggy == 0
    state = apply(state, Roll((1, 4, 2, 2, 2, 2, 2), biggy=(2,)))  # Ben
    state = apply(state, Place(1))
    state = decide(state, 1, **{"from": "roll", "value": 4, "big": False})  # bumps Anna's Biggy
    assert state.casino(4).counted() == {ANNA: 2}  # moved to casino 4, without activating it
    assert [(d.owner, d.value) for d in state.tile_at(1).dice] == [(BEN, 4)]
    state = decide(place(state, 1), 1, **{"from": "casino", "big": False})  # Carla: space 1
    state = _finish(state)
    rewards = sorted(
        (e.owner, e.money, e.chips) for e in state.payouts[0].tile_effects if e.code == "H1"
    )
    assert rewards == [(BEN, 40_000, 0), (CARLA, 0, 1)]


def test_my_choice_uses_one_of_two_extra_dice():
    """Two extra dice are thrown; the player carries out one face's action."""
    state = place(main_game(["H2", "A2", "D1"]), 1)  # Anna activates My Choice
    assert state.pending.ask == "extra dice" and len(legal_choices(state)) == 21
    state = decide(state, 1, dice=[3, 6])
    assert state.phase is Phase.TILE and state.pending.context == (3, 6)
    with pytest.raises(IllegalMove, match="use one of the thrown faces"):
        decide(state, 1, use=1)
    state = decide(state, 1, use=6, big=True)  # her Biggy goes on the gold space
    assert state.supplies[ANNA].biggy == 0 and state.to_move() == "Ben"
    state = decide(decide(place(state, 1), 1, dice=[4, 4]), 1, use=4, tile=2)  # Ben: Jackpot
    assert state.pending.code == "A2" and state.pending.seat == BEN
    state = decide(state, 2, dice=[3, 4])  # a 7: Ben takes the $30,000 jackpot
    assert state.bank[BEN] == 30_000 and state.to_move() == "Carla"
    state = decide(decide(place(state, 1), 1, dice=[6, 2]), 1, use=6, big=False)  # Carla bumps Anna
    assert state.supplies[ANNA].biggy == 1
    state = _finish(state)
    gold = [(e.owner, e.money) for e in state.payouts[0].tile_effects if e.code == "H2"]
    assert gold == [(CARLA, 60_000)]


def test_fifty_fifty_take_or_bet_higher_lower():
    """After a throw: take the reward under the counter, or bet; a wrong bet or a repeat loses all."""
    state = place(main_game(["B2", "A2", "D1"]), 1)  # Anna
    state = decide(state, 1, dice=[2, 3])  # 5, the counter moves to the first space
    assert state.pending.ask == "take or bet" and len(legal_choices(state)) == 3
    state = decide(state, 1, bet="higher")
    state = decide(state, 1, dice=[4, 4])  # 8 > 5: won, counter on the second space
    state = decide(state, 1, take=True)
    assert state.bank[ANNA] == 10_000 and state.to_move() == "Ben"
    state = decide(decide(place(state, 1), 1, dice=[3, 3]), 1, bet="lower")  # Ben
    state = decide(state, 1, dice=[1, 5])  # 6 again: a repeat loses the bet
    assert state.bank[BEN] == 0 and state.to_move() == "Carla" and state.phase is Phase.ROLL
    with pytest.raises(IllegalMove, match="bet 'higher' or 'lower'"):
        decide(decide(place(state, 1), 1, dice=[1, 1]), 1, bet="same")


def test_no_entry_closes_a_casino_to_dice_and_to_tile_activations():
    """The closed casino takes no dice, from a roll or from any tile; its own tile stays quiet."""
    from companion.events import Skip

    state = main_game(["E1", "F1", "H2"])
    state = place(state, 1)  # Anna activates No Entry
    with pytest.raises(IllegalMove, match="first activation must close a casino"):
        decide(state, 1, close=False)
    with pytest.raises(IllegalMove, match="but the tile's own"):
        decide(state, 1, close=1)
    with pytest.raises(IllegalMove, match="next space shows money 0, chips 0"):
        decide(state, 1, close=2, chips=1)  # the first space of the default track is empty
    state = decide(state, 1, close=2)  # closes casino 2 (Block It's)
    assert state.skip_tokens[ANNA] == 2 and state.tile_at(1).level == 1
    state = apply(state, Roll((2, 2, 5, 5, 5, 5, 5), biggy=(5,)))  # Ben
    with pytest.raises(IllegalMove, match="casino 2 is closed by No Entry"):
        apply(state, Place(2))
    assert {c.number for c in legal_choices(state) if isinstance(c, Place)} == {5}
    state = apply(state, Place(5))
    state = apply(state, Roll((2,) * 7, biggy=(2,)))  # Carla rolled only 2s: she passes for free
    assert legal_choices(state) == (Skip(),)
    state = apply(state, Skip())
    assert state.skip_tokens[CARLA] == 2 and state.supplies[CARLA].total() == 8
    state = place(state, 3)  # Anna activates My Choice
    state = decide(state, 3, dice=[4, 1])
    with pytest.raises(IllegalMove, match="casino 2 is closed"):
        decide(state, 3, use=4, tile=2)  # Block It's casino is closed to activations
    state = decide(state, 3, use=1)
    state = place(state, 1)  # Ben moves nothing: the token stays, no reward
    state = decide(state, 1, close=False)
    assert state.tile_at(1).holder == 2 and state.tile_at(1).level == 1


def test_block_it_grey_dice_take_the_power_play_token_away():
    """Power Play casino: 1 blue, 1 yellow, 2 red; 2 blank dice added: red returns the token."""
    from companion.state import GREY

    state = main_game(["F1", "D2", "A2"], players=("Red", "Blue", "Yellow"))
    red, blue, yellow = 0, 1, 2
    state = place(state, 2, regular=2)  # Red: 2 dice at the Power Play casino, a clear majority
    assert state.tile_at(2).holder == red
    state = place(state, 2, regular=1)  # Blue: 1
    state = place(state, 2, regular=1)  # Yellow: 1
    assert state.tile_at(2).holder == red
    state = place(state, 1)  # Red activates Block It...
    state = decide(state, 1, cluster=2, casino=2)  # ... and 2 blank dice land on casino 2
    assert state.casino(2).counted() == {red: 2, blue: 1, yellow: 1, GREY: 2}
    assert state.tile_at(2).holder is None
