"""The fast playout follows the engine's rules exactly: its games replay through the engine."""

from __future__ import annotations

import random

import pytest

from companion.engine import apply
from companion.playout import (
    playout,
    playout_supported,
    random_playout,
    shuffle,
)
from companion.playout_rows import casino_pay, casino_pays
from companion.rules import every_variant, make_rules
from companion.simulate import chance_event, random_choice
from companion.standings import standings
from companion.state import Phase, new_game


@pytest.mark.parametrize(
    "edition, options, players",
    [
        ("classic", {}, 4),  # base game
        ("classic", {"neutral_dice": True}, 3),  # with the 3-player extra white pair
        ("classic", {"neutral_dice": True, "biggies": True}, 2),  # 4 white dice each
        ("classic", {"min_money_by_players": True, "big_notes": True}, 6),  # money variants
        ("classic", {"leftovers": "out"}, 5),  # leftovers leave the game
        ("classic", {"rainbow": True, "big_notes": True}, 3),  # Rainbow cards replaced
        ("classic", {"rainbow": True, "leftovers": "out"}, 6),  # ... until the pile runs out
        ("classic", {"chip_cards": True, "biggies": True}, 4),  # chip cards for 2+ dice
        ("classic", {"kickers": True, "biggies": True, "neutral_dice": True}, 3),  # kickers
        ("classic", {"kickers": True, "two_kickers": False}, 6),  # one kicker each
        ("classic", {"slot_machine": True, "biggies": True}, 3),  # the seventh casino
        ("classic", every_variant("classic"), 4),  # every 2012 variant at once
        ("classic", every_variant("classic"), 2),  # ... with 2 players and 4 white dice each
        ("classic", {"chip_cards": True, "neutral_dice": True}, 2),  # ... white dice count too
        ("custom", {}, 4),  # playing cards 3-10, start player from casino 6
        ("custom", {"skip_rule": "chips", "skip_limit": 1}, 3),  # skips, once a round
        ("custom", {"skip_rule": "cards"}, 5),  # four skip cards, no limit
        ("royale", {}, 4),  # Royale basic: pairs by total, Biggies, chips to pass
        ("royale", {}, 2),  # ... with the neutral set rolled onto the casinos
        ("royale", {"leftovers": "out", "money_cards": "30x6 40x6 90x6 100x18"}, 5),
    ],
)
@pytest.mark.parametrize("seed", range(15))
def test_playout_games_replay_through_the_engine(edition, options, players, seed):
    """Each event the playout takes is legal, and its final money equals the engine's."""
    state = new_game(
        make_rules(edition, options), [f"P{i}" for i in range(players)], seed % players
    )
    emitted = []
    money = random_playout(state, random.Random(seed), emitted.append)
    for event in emitted:
        state = apply(state, event)
    assert state.phase is Phase.OVER
    by_player = {row.player: row.money for row in standings(state)}
    assert money == [by_player[name] for name in state.players]


@pytest.mark.parametrize(
    "edition, options, players",
    [
        ("classic", {}, 3),  # base game
        ("classic", {"neutral_dice": True, "biggies": True}, 3),  # white dice and Biggies
        ("classic", {"rainbow": True}, 4),  # Rainbow cards
        ("classic", {"chip_cards": True}, 3),  # greedy takes the chip card adding most
        ("classic", {"kickers": True, "biggies": True, "neutral_dice": True}, 4),  # kicks
        ("classic", {"slot_machine": True, "neutral_dice": True}, 3),  # pips break ties
        ("classic", every_variant("classic"), 3),  # every 2012 variant at once
        ("custom", {}, 5),  # start player from casino 6
        ("custom", {"skip_rule": "chips", "skip_limit": 2}, 3),  # a skip wins nothing
        ("royale", {}, 3),  # Royale basic: chips to pass, start player from casino 6 down
        ("royale", {}, 2),  # ... with the neutral set
        ("royale", {"leftovers": "out"}, 5),
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_greedy_playouts_replay_and_take_greedy_choices(edition, options, players, seed):
    """A greedy playout's events are legal, each placement is one the engine-side greedy
    player would make, and the final money and notes match the engine's."""
    from companion.bots import greedy_choices

    state = new_game(
        make_rules(edition, options), [f"P{i}" for i in range(players)], seed % players
    )
    emitted = []
    outcome = playout(state, random.Random(seed), "greedy", emitted.append)
    for event in emitted:
        if state.phase is Phase.CHOOSE:
            assert event in greedy_choices(state)
        state = apply(state, event)
    assert state.phase is Phase.OVER and outcome.over
    by_player = {row.player: row for row in standings(state)}
    assert outcome.money == [by_player[name].money for name in state.players]
    assert outcome.notes == [by_player[name].notes for name in state.players]


@pytest.mark.parametrize(
    "edition, options, players",
    [
        ("classic", {}, 4),  # base game
        ("classic", {"neutral_dice": True, "biggies": True}, 3),  # white dice and Biggies
        ("classic", {"rainbow": True}, 4),  # Rainbow cards
        ("classic", {"chip_cards": True}, 3),  # the chip card adding most
        ("classic", {"kickers": True, "biggies": True, "neutral_dice": True}, 4),  # kicks
        ("classic", {"slot_machine": True, "neutral_dice": True}, 3),  # pips break ties
        ("classic", every_variant("classic"), 3),  # every 2012 variant at once
        ("custom", {"skip_rule": "chips", "skip_limit": 2}, 3),  # a skip scores nothing
        ("royale", {}, 3),  # Royale basic: chips to pass
        ("royale", {}, 2),  # ... with the neutral set
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_rules_policy_playouts_replay_and_take_the_rule_based_choices(
    edition, options, players, seed
):
    """With one seat playing by the rule-based terms and the others greedily, the events
    are legal, the rule-based seat's every choice is one the engine-side rules player
    scores best (the chip card aside, which the score does not see), the greedy seats'
    are greedy, and the final money and notes match the engine's."""
    from companion.bots import greedy_choices, rules_scores

    state = new_game(
        make_rules(edition, options), [f"P{i}" for i in range(players)], seed % players
    )
    seat = seed % players
    policies = ["greedy"] * players
    policies[seat] = "rules"
    emitted = []
    outcome = playout(state, random.Random(seed), policies, emitted.append)
    decisions = 0
    for event in emitted:
        if state.phase is Phase.CHOOSE and state.current == seat:
            scored = rules_scores(state)
            best = max(score for _, score in scored)
            mine = [score for choice, score in scored if choice == event]
            assert mine and mine[0] >= best - 1e-6, (event, scored)
            decisions += 1
        elif state.phase is Phase.CHOOSE:
            assert event in greedy_choices(state)
        state = apply(state, event)
    assert decisions > 0
    assert state.phase is Phase.OVER and outcome.over
    by_player = {row.player: row for row in standings(state)}
    assert outcome.money == [by_player[name].money for name in state.players]
    assert outcome.notes == [by_player[name].notes for name in state.players]


def test_casino_pays_gives_every_seat_what_casino_pay_gives_it():
    """On random rows of counted dice (ties, white dice, more ranks than notes) the one-pass
    payout of every seat equals the payout worked out seat by seat."""
    rng = random.Random(0)
    for _ in range(3000):
        seats = rng.randint(2, 6)
        row = [rng.choice([0, 0, 1, 2, 2, 3, 4, 5]) for _ in range(seats + 1)]
        offered = sorted(rng.randint(1, 9) * 10_000 for _ in range(rng.randint(1, 4)))[::-1]
        assert casino_pays(row, offered, seats) == [
            casino_pay(row, offered, seat) for seat in range(seats)
        ]


def test_playout_refuses_a_policy_it_does_not_know():
    """An unknown policy name, or a list of the wrong length, is a clear ValueError."""
    state = new_game(make_rules("classic"), ["A", "B", "C"])
    with pytest.raises(ValueError, match="policy must be one of"):
        playout(state, random.Random(0), "clever")
    with pytest.raises(ValueError, match="one of them per seat"):
        playout(state, random.Random(0), ["rules", "greedy"])


def test_playout_stops_at_the_round_end_when_asked():
    """`rounds=1` plays the round under way and says who starts the next."""
    state = new_game(make_rules("classic"), ["A", "B", "C"], 1)
    emitted = []
    outcome = playout(state, random.Random(3), "greedy", emitted.append, rounds=1)
    for event in emitted:
        state = apply(state, event)
    assert not outcome.over and state.phase is Phase.DEAL and state.round == 2
    assert outcome.start == state.start_player == 2
    assert outcome.round_money == [sum(w) for w in state.winnings]


def test_playout_from_the_middle_of_a_round():
    """A hint starts mid-round: the playout continues from the dice already placed."""
    rng = random.Random(9)
    state = new_game(make_rules("classic", {"neutral_dice": True}), ["A", "B", "C", "D"])
    while not (state.phase is Phase.ROLL and state.turn >= 7):
        state = apply(state, chance_event(state, rng) or random_choice(state, rng))
    emitted = []
    money = random_playout(state, random.Random(1), emitted.append)
    for event in emitted:
        state = apply(state, event)
    assert money == [sum(w) for w in state.winnings]


@pytest.mark.parametrize("players", [2, 4])
def test_royale_playout_from_the_middle_of_a_round(players):
    """A Royale playout continues from placed dice, the neutral set's Biggy and chips paid."""
    rng = random.Random(players)
    state = new_game(make_rules("royale"), [f"P{i}" for i in range(players)])
    while not (state.round == 2 and state.phase is Phase.ROLL and state.turn >= 5):
        state = apply(state, chance_event(state, rng) or random_choice(state, rng))
    emitted = []
    money = random_playout(state, random.Random(5), emitted.append)
    for event in emitted:
        state = apply(state, event)
    assert state.phase is Phase.OVER
    by_player = {row.player: row.money for row in standings(state)}
    assert money == [by_player[name] for name in state.players]


def test_royale_greedy_playouts_skip_and_count_chips():
    """Greedy Royale players pay chips to skip at times; left chips count as money and cards."""
    from companion.events import Skip

    skipped = 0
    for seed in range(20):
        state = new_game(make_rules("royale"), ["A", "B", "C", "D"])
        emitted = []
        outcome = playout(state, random.Random(seed), "greedy", emitted.append)
        skipped += sum(isinstance(e, Skip) for e in emitted)
        for event in emitted:
            state = apply(state, event)
        chips = state.skip_tokens
        assert outcome.notes == [len(w) + t for w, t in zip(state.winnings, chips, strict=True)]
        note_money = [sum(w) for w in state.winnings]
        assert outcome.money == [m + 10_000 * t for m, t in zip(note_money, chips, strict=True)]
    assert skipped > 0


@pytest.mark.parametrize(
    "edition, options",
    [("royale", {"tiles": 3}), ("cards", {})],
)
def test_playout_refuses_games_it_does_not_cover(edition, options):
    """Royale's casino tiles and the card game need the full engine."""
    state = new_game(make_rules(edition, options), ["A", "B"])
    assert not playout_supported(state)
    with pytest.raises(ValueError, match="does not cover"):
        random_playout(state, random.Random(0))


@pytest.mark.parametrize("seed", range(40))
def test_shuffle_draws_and_orders_as_the_generator_does(seed):
    """The playout's own shuffle leaves every list, and the generator, as `rng.shuffle`."""
    for length in range(70):
        mine, theirs = list(range(length)), list(range(length))
        own_rng, their_rng = random.Random(seed), random.Random(seed)
        shuffle(mine, own_rng)
        their_rng.shuffle(theirs)
        assert mine == theirs
        assert own_rng.getstate() == their_rng.getstate()
