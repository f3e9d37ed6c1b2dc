"""Computer players: each takes a state waiting for a decision and returns the event to apply.

* random: a uniformly random legal choice.
* greedy: the choice that wins the most money this round if the round ended now.
* rules: greedy's money, plus half the money it takes from the others (ties caused or
  broken, players pushed down a rank), less a price for each die spent that grows as the
  table's dice run out, with a won casino discounted while rivals could still catch up.
* search: the hint's Monte Carlo estimate (`companion.hints`), best chance to win first.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.choices import legal_choices
from companion.engine import apply
from companion.events import SLOT_MACHINE, Event, Place
from companion.hints import hint, hint_supported
from companion.payout import pay_casino
from companion.state import GameState

Player = Callable[[GameState, random.Random], Event]
"""A computer player: the state (waiting for its decision) and a seeded RNG to an event."""


def money_now(state: GameState) -> list[int]:
    """What each seat would take if the round ended now (ties cancel as at payout)."""
    won = [0] * len(state.players)
    for casino in state.casinos:
        if casino.notes and casino.dice:
            for award in pay_casino(casino, state.rules.leftovers).awards:
                if award.owner >= 0:
                    won[award.owner] += award.note
    return won


def _best(choices: list[Event], scores: list[float], rng: random.Random) -> Event:
    top = max(scores)
    best = [c for c, s in zip(choices, scores, strict=True) if s == top]
    return best[rng.randrange(len(best))]


def random_player(state: GameState, rng: random.Random) -> Event:
    """A uniformly random legal choice."""
    choices = legal_choices(state)
    return choices[rng.randrange(len(choices))]


def greedy_choices(state: GameState) -> list[Event]:
    """The choices that win the most money this round if it ended now."""
    choices = list(legal_choices(state))
    seat = state.current
    scores = [money_now(apply(state, c))[seat] for c in choices]
    return [c for c, s in zip(choices, scores, strict=True) if s == max(scores)]


def greedy_player(state: GameState, rng: random.Random) -> Event:
    """The choice that wins the most money this round if it ended now (ties at random)."""
    best = greedy_choices(state)
    return best[rng.randrange(len(best))]


def _dice_placed(state: GameState, choice: Event) -> int:
    roll = state.pending_roll
    if roll is None or not isinstance(choice, Place):
        return 0
    return roll.values().count(choice.number)


def rules_scores(state: GameState) -> list[tuple[Event, float]]:
    """Each legal choice with the rule-based score: greedy money (discounted when the lead
    is thin and others still hold dice), plus half the money taken from others, less a price
    per die spent."""
    choices = list(legal_choices(state))
    seat = state.current
    before = money_now(state)
    dice_left = sum(s.total() for s in state.supplies)
    rivals_left = sum(s.total() for i, s in enumerate(state.supplies) if i != seat)
    on_table = sum(sum(c.notes) for c in state.casinos)
    die_price = 0.3 * on_table / max(dice_left, 1)
    scores = []
    for choice in choices:
        after_state = apply(state, choice)
        after = money_now(after_state)
        gain = float(after[seat] - before[seat])
        if gain > 0 and rivals_left and isinstance(choice, Place):
            counted = after_state.casino(SLOT_MACHINE if choice.slot else choice.number).counted()
            mine = counted.get(seat, 0)
            others = max((n for o, n in counted.items() if o != seat), default=0)
            gain *= min(1.0, 0.5 + 0.25 * (mine - others))  # a thin lead may not last
        taken = sum(before[o] - after[o] for o in range(len(after)) if o != seat)
        scores.append((choice, gain + 0.5 * taken - die_price * _dice_placed(state, choice)))
    return scores


def rules_player(state: GameState, rng: random.Random) -> Event:
    """Greedy money, plus half the money taken from others, less a price per die spent."""
    scored = rules_scores(state)
    return _best([c for c, _ in scored], [s for _, s in scored], rng)


SEARCH_OWN_POLICY = "rules"
"""How the search player plays its own later turns of the round in its playouts: by the rules
player's terms (`companion.playout` policy "rules"); the others play greedily. Against three
greedy players it won 45.4 % ± 2.2 of 2,000 four-player games so, against 44.8 % ± 2.2 of
2,006 with its own turns greedy (docs/hints.md)."""


def search_player(
    playouts: int = 2000,
    target_error: float = 0.005,
    seconds: float | None = None,
    own_policy: str = SEARCH_OWN_POLICY,
) -> Player:
    """A Monte Carlo player with at most `playouts` playouts a decision; with no clock
    (`seconds` None, the default) a seeded game replays the same, with one it stops there.
    In its playouts the others play greedily and it plays its own later turns of the round
    by `own_policy` (SEARCH_OWN_POLICY by default)."""

    def choose(state: GameState, rng: random.Random) -> Event:
        choices = legal_choices(state)
        if len(choices) == 1:
            return choices[0]
        if not hint_supported(state):
            return greedy_player(state, rng)
        result = hint(
            state,
            rng,
            seconds=seconds,
            target_error=target_error,
            max_playouts=playouts,
            own_policy=own_policy,
        )
        best = result.choices[0].choice
        assert best is not None
        return best

    return choose


PLAYERS: dict[str, Callable[[], Player]] = {
    "random": lambda: random_player,
    "greedy": lambda: greedy_player,
    "rules": lambda: rules_player,
    "search": search_player,
}
"""Every computer player by name."""
