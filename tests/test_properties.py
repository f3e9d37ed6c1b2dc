"""Random legal games in every option combination: conservation and payout invariants."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import apply
from companion.record import record_from_events, replay_record
from companion.rules import OPTION_NAMES, make_rules
from companion.simulate import chance_event, random_choice
from companion.state import NEUTRAL_SET, WHITE, GameState, Phase, new_game

CLASSIC_FLAGS = [n for n in OPTION_NAMES["classic"] if n not in ("leftovers", "reshuffle")]

classic_options = st.fixed_dictionaries(
    {name: st.booleans() for name in CLASSIC_FLAGS}
    | {"leftovers": st.sampled_from(["pile", "out"]), "reshuffle": st.booleans()}
)
custom_options = st.fixed_dictionaries(
    {"skip_rule": st.sampled_from(["none", "chips", "cards"]), "skip_limit": st.integers(0, 2)}
)
card_options = st.fixed_dictionaries({"sequential": st.booleans(), "chip_cards": st.booleans()})
games = st.one_of(
    st.tuples(
        st.just("royale"), st.fixed_dictionaries({"tiles": st.integers(0, 6)}), st.integers(2, 5)
    ),
    st.tuples(st.just("cards"), card_options, st.integers(2, 5)),
    st.tuples(st.just("classic"), classic_options, st.integers(2, 6)),
    st.tuples(st.just("custom"), custom_options, st.integers(2, 8)),
)


def check_money(state: GameState, deck: Counter) -> None:
    """Every note is in exactly one place: pile, casino, a player's winnings or out of play."""
    where = Counter(n for batch in state.pile.batches for n in batch)
    where.update(n for c in state.casinos for n in c.notes)
    where.update(n for w in state.winnings for n in w)
    where.update(state.discards)
    assert where == deck


def check_dice(state: GameState) -> None:
    """Each player's own dice are in hand or on casinos; white dice are never lost."""
    if state.phase not in (Phase.ROLL, Phase.CHOOSE, Phase.RAINBOW, Phase.PAYOUT):
        return
    rules = state.rules
    players = len(state.players)
    if rules.play == "cards":
        laid = Counter(d.owner for c in state.casinos for d in c.dice)
        # a player stops at 8 cards, so at most 7 + a full hand of 5 lie out
        assert all(n <= rules.stop_at_cards - 1 + 5 for n in laid.values())
        return
    own = rules.dice_per_player - rules.kickers_per_player(players)
    placed = Counter(d.owner for c in state.casinos for d in c.dice if not d.extra)
    placed.update(d.owner for tile in state.tiles for d in tile.dice)  # Double Down's dice
    for seat, supply in enumerate(state.supplies):
        assert placed[seat] + supply.regular + supply.biggy == own
        assert 0 <= supply.kickers <= rules.kickers_per_player(players)
    white = rules.neutral_per_player(players) * players + rules.neutral_at_round_start(players)
    if rules.edition == "royale":
        assert placed[NEUTRAL_SET] <= rules.neutral_at_round_start(players)
        return
    assert placed[WHITE] + sum(s.neutral for s in state.supplies) + state.white_out == white


def check_payouts(state: GameState) -> None:
    """Nobody with zero dice is paid, tied owners are never paid, notes go in rank order."""
    for round_payout in state.payouts:
        for casino in round_payout.casinos:
            counts = {o.owner: o.dice for o in casino.counts}
            tied = {o for g in casino.tied for o in g.owners}
            for award in casino.awards:
                assert counts.get(award.owner, 0) > 0
                assert award.owner not in tied
            notes = [a.note for a in casino.awards]
            if casino.casino != 7:
                assert notes == sorted(notes, reverse=True)
                paid = [counts[a.owner] for a in casino.awards]
                assert paid == sorted(paid, reverse=True) and len(set(paid)) == len(paid)


@settings(max_examples=200, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(game, seed):
    """Money and dice are conserved, games end after their rounds, ties never pay, replay is exact."""
    edition, options, players = game
    rules = make_rules(edition, options)
    rng = random.Random(seed)
    initial = new_game(rules, [f"P{i}" for i in range(players)], rng.randrange(players))
    deck = Counter(value for value, count in rules.deck for _ in range(count))
    state, events = initial, []
    for _ in range(5000):
        if state.phase is Phase.OVER:
            break
        event = chance_event(state, rng) or random_choice(state, rng)
        state = apply(state, event)
        events.append(event)
        check_money(state, deck)
        check_dice(state)
    assert state.phase is Phase.OVER
    assert len(state.payouts) == rules.rounds
    check_payouts(state)
    record = json.loads(json.dumps(record_from_events(initial, events)))
    replay = replay_record(record)
    assert replay.final == state
    assert list(replay.events) == events
