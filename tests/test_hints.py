"""Hints and bots: a hand-set position against an exact computation, later rounds against
long playouts, and every bot's choices legal."""

from __future__ import annotations

import itertools
import math
import random
import statistics
from dataclasses import replace
from fractions import Fraction

import pytest

from companion.bots import PLAYERS, greedy_choices, rules_scores, search_player
from companion.choices import legal_choices
from companion.engine import apply
from companion.events import Event, Place, Roll, Skip
from companion.hints import choice_keys, hint, hint_to_dict, win_share
from companion.playout import playout
from companion.rules import make_rules
from companion.simulate import chance_event
from companion.standings import winners
from companion.state import Casino, GameState, Phase, PlacedDie, Supply, new_game

ANNA, BEN, CARLA = 0, 1, 2


def dice(owner: int, value: int, count: int) -> tuple[PlacedDie, ...]:
    return (PlacedDie(owner, value, False, 0),) * count


def last_round_position() -> GameState:
    """Round 4 of 4. Anna has thrown 2 5 5 and chooses; Ben and Carla hold a die each.
    So far Anna holds $180k, Ben $120k, Carla $140k, two notes each.

        casino  notes      dice
          1     50k        -
          2     60k 20k    Ben 2
          3     50k        -
          4     90k        Anna 2, Carla 2
          5     70k 30k    Ben 2
          6     50k        Carla 1

    The 2 wins Anna $20k now; the 5s tie Ben at casino 5 and cost him $70k.
    """
    start = new_game(make_rules("classic"), ["Anna", "Ben", "Carla"])
    notes = ((50_000,), (60_000, 20_000), (50_000,), (90_000,), (70_000, 30_000), (50_000,))
    placed = ((), dice(BEN, 2, 2), (), dice(ANNA, 4, 2) + dice(CARLA, 4, 2), dice(BEN, 5, 2))
    placed += (dice(CARLA, 6, 1),)
    return replace(
        start,
        phase=Phase.CHOOSE,
        round=4,
        turn=20,
        current=ANNA,
        supplies=(Supply(regular=3), Supply(regular=1), Supply(regular=1)),
        casinos=tuple(Casino(n, notes[n - 1], placed[n - 1]) for n in range(1, 7)),
        winnings=((90_000, 90_000), (90_000, 30_000), (70_000, 70_000)),
        pending_roll=Roll((2, 5, 5)),
    )


def _throws(count: int) -> list[tuple[tuple[int, ...], int]]:
    """Every throw of `count` dice as sorted values, with the number of ways to throw it."""
    throws = []
    for values in itertools.combinations_with_replacement(range(1, 7), count):
        ways = math.factorial(count)
        for value in set(values):
            ways //= math.factorial(values.count(value))
        throws.append((values, ways))
    return throws


def rules_best(state: GameState) -> list[Event]:
    """The choices the rules player scores best (the chip card aside, it scores them alike)."""
    scored = rules_scores(state)
    top = max(score for _, score in scored)
    return [choice for choice, score in scored if score >= top - 1e-6]


def exact(state: GameState, seat: int, own_rules: bool = False) -> tuple[Fraction, Fraction]:
    """`seat`'s exact share of the win, and money at the end, when all play greedily
    from here (greedy's tied best choices taken evenly), or `seat` by the rules player's
    score when `own_rules`, over every throw, through the checked engine."""
    if state.phase is Phase.OVER:
        won = winners(state)
        share = Fraction(1, len(won)) if state.players[seat] in won else Fraction(0)
        return share, Fraction(sum(state.winnings[seat]))
    if state.phase is Phase.PAYOUT:
        return exact(apply(state, legal_choices(state)[0]), seat, own_rules)
    if state.phase is Phase.CHOOSE:
        by_rules = own_rules and state.current == seat
        best = rules_best(state) if by_rules else greedy_choices(state)
        results = [exact(apply(state, c), seat, own_rules) for c in best]
        return (
            sum((r[0] for r in results), Fraction(0)) / len(best),
            sum((r[1] for r in results), Fraction(0)) / len(best),
        )
    held = state.supplies[state.current].regular
    share, money = Fraction(0), Fraction(0)
    for values, ways in _throws(held):
        s, m = exact(apply(state, Roll(values)), seat, own_rules)
        share, money = share + ways * s, money + ways * m
    return share / 6**held, money / 6**held


def _agrees_with(result, truth: dict[int, tuple[Fraction, Fraction]]) -> None:
    """The best choice's standard error is at most 0.01, each choice's win chance lies within
    4 of its standard errors of the exact value `truth` holds for its number, and its money
    this round within $15,000 of the exact (Anna's $180,000 so far taken off)."""
    assert result.choices[0].win_error <= 0.01
    for choice in result.choices:
        assert isinstance(choice.choice, Place)
        share, money = truth[choice.choice.number]
        assert abs(choice.win - float(share)) <= 4 * choice.win_error
        assert abs(choice.money - float(money - 180_000)) <= 15_000


def test_hint_of_a_hand_set_position_matches_the_exact_chances():
    """The best choice's win chance lies within 4 of its stated standard errors of the
    exact value, and so does each other choice's; the exact values differ enough that a
    wrong playout would show. Money this round is checked the same way, loosely."""
    state = last_round_position()
    truth = {c.number: exact(apply(state, c), ANNA) for c in legal_choices(state)}
    assert set(truth) == {2, 5}
    assert abs(truth[2][0] - truth[5][0]) > Fraction(1, 20)  # the choices differ
    result = hint(state, random.Random(1), seconds=None, target_error=0.01)
    _agrees_with(result, truth)


def test_hint_with_its_own_turns_by_the_rules_terms_matches_the_exact_chances():
    """With `own_policy="rules"` (the search player's model: its own later turns by the
    rules player's score, the others greedy) each choice's win chance lies within 4 of its
    standard errors of the exact value under that model (here only a little above the
    all-greedy value: with two dice left Anna's later choices rarely differ)."""
    state = last_round_position()
    truth = {c.number: exact(apply(state, c), ANNA, True) for c in legal_choices(state)}
    greedy_truth = {c.number: exact(apply(state, c), ANNA) for c in legal_choices(state)}
    assert truth[2] != greedy_truth[2]  # the model changes the answer
    result = hint(state, random.Random(2), seconds=None, target_error=0.01, own_policy="rules")
    _agrees_with(result, truth)


def royale_last_round_position() -> GameState:
    """Royale basic, round 3 of 3. Anna has thrown 2 5 and chooses: a casino or a chip to
    pass. Ben and Carla hold a die each; Anna has a chip left, Ben and Carla none.
    So far Anna holds $180k, Ben $140k, Carla $160k, two cards each.

        casino  cards        dice
          1     30k 30k      -
          2     40k 30k      Ben 2
          3     50k 30k      -
          4     60k 40k      Anna's Biggy, Carla 2
          5     70k 50k      Ben 2
          6     100k 60k     Carla 1

    The 2 wins Anna $30k now, the 5 $50k behind Ben; a chip keeps her two dice for a later
    throw.
    """
    start = new_game(make_rules("royale"), ["Anna", "Ben", "Carla"])
    notes = ((30_000, 30_000), (40_000, 30_000), (50_000, 30_000), (60_000, 40_000))
    notes += ((70_000, 50_000), (100_000, 60_000))
    anna_biggy = (PlacedDie(ANNA, 4, True, 0),)
    placed = ((), dice(BEN, 2, 2), (), anna_biggy + dice(CARLA, 4, 2), dice(BEN, 5, 2))
    placed += (dice(CARLA, 6, 1),)
    return replace(
        start,
        phase=Phase.CHOOSE,
        round=3,
        turn=20,
        current=ANNA,
        supplies=(Supply(regular=2), Supply(regular=1), Supply(regular=1)),
        casinos=tuple(Casino(n, notes[n - 1], placed[n - 1]) for n in range(1, 7)),
        winnings=((100_000, 80_000), (100_000, 40_000), (100_000, 60_000)),
        skip_tokens=(1, 0, 0),
        pending_roll=Roll((2, 5)),
    )


def test_royale_basic_hint_matches_the_exact_chances():
    """Royale basic: chips count $10,000 and break ties, and a chip buys a skip. Each
    choice's win chance, the skip's included, lies within 4 standard errors of the exact
    value; the JSON names the skip as a record's turn does."""
    state = royale_last_round_position()
    choices = legal_choices(state)
    assert Skip() in choices
    truth = {c: exact(apply(state, c), ANNA) for c in choices}
    wins = sorted(float(share) for share, _ in truth.values())
    assert wins[-1] - wins[0] > 0.05  # the choices differ
    result = hint(state, random.Random(1), seconds=None, target_error=0.01)
    assert result.choices[0].win_error <= 0.01
    assert {c.choice for c in result.choices} == set(choices)
    for choice in result.choices:
        assert choice.choice is not None
        share, money = truth[choice.choice]
        assert abs(choice.win - float(share)) <= 4 * choice.win_error
        assert abs(choice.money - float(money - 180_000)) <= 15_000
    keys = [c for c in hint_to_dict(state, result)["choices"] if "skip" in c]
    assert len(keys) == 1 and keys[0]["skip"] is True


def test_later_rounds_from_the_table_match_long_playouts():
    """From round 2, the hint (its round played out, later rounds drawn from the table)
    agrees with whole greedy playouts to the end."""
    rng = random.Random(4)
    state = new_game(make_rules("classic"), ["A", "B", "C"])
    while not (state.phase is Phase.CHOOSE and state.round == 2):
        state = apply(state, chance_event(state, rng) or greedy_choices(state)[0])
    result = hint(state, random.Random(2), seconds=None, target_error=0.01)
    best = result.choices[0]
    assert best.choice is not None
    after = apply(state, best.choice)
    long_rng = random.Random(3)
    shares = [win_share(playout(after, long_rng, "greedy"), state.current) for _ in range(6000)]
    error = (statistics.pvariance(shares) / len(shares)) ** 0.5
    assert abs(best.win - statistics.fmean(shares)) <= 4 * (best.win_error**2 + error**2) ** 0.5


def test_hint_json_gives_record_keys_win_and_money():
    state = last_round_position()
    data = hint_to_dict(state, hint(state, random.Random(0), seconds=None))
    assert data["player"] == "Anna"
    assert sorted(c["place"] for c in data["choices"]) == [2, 5]
    for choice in data["choices"]:
        assert set(choice) == {"place", "win", "win_error", "money", "playouts"}
        assert 0 <= choice["win"] <= 1 and choice["win_error"] > 0
    assert data["choices"][0]["win"] >= data["choices"][1]["win"]  # best first


def test_choice_keys_follow_the_record_format():
    state = new_game(make_rules("classic"), ["A", "B"])
    assert choice_keys(state, Place(3, slot=True, chip="pink")) == {
        "place": 3,
        "slot": True,
        "chip": "pink",
    }


@pytest.mark.parametrize(
    "edition, options, players",
    [
        ("classic", {}, 3),  # base game
        ("classic", {"neutral_dice": True, "biggies": True}, 4),  # covered by the playout
        ("classic", {"kickers": True, "slot_machine": True}, 3),  # kicks, the seventh casino
        ("custom", {"skip_rule": "chips"}, 3),  # skips, searched
        ("custom", {}, 5),  # playing cards, start player from casino 6
        ("royale", {}, 2),  # Royale basic with the neutral set
        ("royale", {"tiles": 2}, 3),  # casino tiles are not covered: search plays greedy
    ],
)
def test_every_bot_makes_only_legal_choices(edition, options, players):
    """A whole game with each bot in turn at every seat: each decision is a legal choice."""
    rng = random.Random(7)
    bots = [search_player(64) if name == "search" else PLAYERS[name]() for name in PLAYERS]
    state = new_game(make_rules(edition, options), [f"P{i}" for i in range(players)])
    decisions = 0
    while state.phase is not Phase.OVER:
        event = chance_event(state, rng)
        if event is None:
            event = bots[(state.current + state.round) % len(bots)](state, rng)
            assert event in legal_choices(state)
            decisions += 1
        state = apply(state, event)
    assert decisions > 10


def test_search_player_takes_the_choice_the_hint_ranks_first():
    state = last_round_position()
    for model in ("greedy", "rules"):
        chosen = search_player(2000, target_error=0.01, own_policy=model)(state, random.Random(5))
        ranked = hint(
            state,
            random.Random(5),
            seconds=None,
            target_error=0.01,
            max_playouts=2000,
            own_policy=model,
        )
        assert chosen == ranked.choices[0].choice
