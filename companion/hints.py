"""Hints: each legal choice's chance of winning the game and its expected money this round.

A hint is a determinised Monte Carlo estimate. Each playout takes the choice through the
checked engine, then plays on with the fast playout (`companion.playout`): the unseen notes
are shuffled, future throws rolled, and every player takes the greedy choice. A playout
stops at the end of the round under way. For the rounds after it the hint takes the
expected share of the win over every game of a table of whole greedy games, each added
round by round from the next start player (a later round keeps its thinner pile): for a
policy that ignores the score this is the right distribution, and it costs one NumPy sum
instead of the rounds themselves. A shared win counts 1/k for each of k winners.

Playouts go where they decide most: every choice gets a first batch, then the best choice
until its error is small enough, and any choice whose upper bound still reaches the best.
Every choice's k-th playout uses the same seed (common random numbers).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from companion.choices import legal_choices
from companion.engine import apply
from companion.events import Event, Place, Skip
from companion.money import money_label
from companion.playout import Outcome, playout, playout_start, playout_supported
from companion.rules import Rules
from companion.state import GameState, Phase, new_game

POLICY = "greedy"
"""How the players in a hint's playouts choose (and the player to move, unless told)."""

TABLE_GAMES = 400
"""Whole greedy games in each table of later rounds."""

FIRST_BATCH = 16
"""Playouts each choice gets before the hint picks where to look more."""

BATCH = 8
"""Playouts taken together, for one look at the table of later rounds."""


@dataclass(frozen=True, slots=True)
class ChoiceHint:
    """One choice's estimate: chance to win the game (with its standard error), money now."""

    choice: Event | None
    win: float
    win_error: float
    money: float
    playouts: int


@dataclass(frozen=True, slots=True)
class Hint:
    """The hint for the player to move: best choice first."""

    seat: int
    choices: tuple[ChoiceHint, ...]
    seconds: float
    playouts: int


@dataclass(frozen=True, slots=True)
class LaterRounds:
    """What the rounds after each round added in a table of whole greedy games.

    `money[r]` and `notes[r]` have shape (games, players): money and notes won in rounds
    r+1 to the last, by offset from the start player of round r+1. After the last round
    they are one row of zeros.
    """

    money: tuple[np.ndarray, ...]
    notes: tuple[np.ndarray, ...]
    keys: tuple[np.ndarray, ...]
    """`keys[r]` has shape (players, games): money x 1024 + notes won after round r, by
    offset from the start player (each offset's games one contiguous row)."""


@lru_cache(maxsize=16)
def later_rounds(rules: Rules, players: int) -> LaterRounds:
    """The table of later rounds for a game's rules and seats (seeded: always the same)."""
    rng = random.Random(f"later rounds {players}")
    state = new_game(rules, [f"P{i}" for i in range(players)])
    count = rules.rounds
    money = np.zeros((count + 1, TABLE_GAMES, players), dtype=np.int64)
    notes = np.zeros_like(money)
    for game in range(TABLE_GAMES):
        played = playout(state, rng, POLICY).rounds
        for after in range(1, count):
            start = played[after][0]
            order = [(start + k) % players for k in range(players)]
            for _, gained, held, _ in played[after:]:
                money[after, game] += np.array(gained)[order]
                notes[after, game] += np.array(held)[order]
    zeros = np.zeros((1, players), dtype=np.int64)
    money_by_round = tuple(money[:count]) + (zeros,)
    notes_by_round = tuple(notes[:count]) + (zeros,)
    keys = tuple(
        np.ascontiguousarray((m * 1024 + n).T)
        for m, n in zip(money_by_round, notes_by_round, strict=True)
    )
    return LaterRounds(money_by_round, notes_by_round, keys)


def expected_shares(state: GameState, outcomes: list[Outcome], seat: int) -> np.ndarray:
    """Each round-end outcome's expected share of the win for `seat`, over every game in
    the table of later rounds (exact when the outcome ends the game)."""
    table = later_rounds(state.rules, len(state.players))
    players = len(state.players)
    after = min(state.round, state.rules.rounds) if not outcomes[0].over else state.rules.rounds
    starts = np.array([o.start for o in outcomes])
    order = (starts[:, None] + np.arange(players)[None, :]) % players
    # Money first, then notes: notes never reach 1024, so one number orders both.
    keys = np.array([o.money for o in outcomes]) * 1024 + np.array([o.notes for o in outcomes])
    by_offset = keys[np.arange(len(outcomes))[:, None], order]
    later = table.keys[after]
    # One (outcome, game) array per player, by offset from the start player: a few
    # operations on whole arrays instead of reductions over an axis of 2-6 players.
    totals = [by_offset[:, k, None] + later[k] for k in range(players)]
    best = totals[0]
    for total in totals[1:]:
        best = np.maximum(best, total)
    winners = (totals[0] == best).astype(np.int64)
    for total in totals[1:]:
        winners += total == best
    mine = keys[:, seat, None] + later[(seat - starts) % players]
    return np.where(mine == best, 1.0 / winners, 0.0).mean(axis=1)


def win_share(outcome: Outcome, seat: int) -> float:
    """The seat's share of the win: 1/k when k players tie on money and then notes."""
    keys = list(zip(outcome.money, outcome.notes, strict=True))
    best = max(keys)
    if keys[seat] != best:
        return 0.0
    return 1.0 / keys.count(best)


class _Tally:
    """Running sums for one choice."""

    __slots__ = ("n", "wins", "squares", "money")

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0.0
        self.squares = 0.0
        self.money = 0

    def add(self, share: float, money: int) -> None:
        self.n += 1
        self.wins += share
        self.squares += share * share
        self.money += money

    def mean(self) -> float:
        return self.wins / self.n if self.n else 0.0

    def error(self) -> float:
        """The standard error of the mean win share; a tally whose shares all agree still
        claims at least about half a share in n+2 (a prior of one win and one loss)."""
        if self.n < 2:
            return 0.5
        mean = self.mean()
        variance = max(self.squares / self.n - mean * mean, 0.25 / (self.n + 2))
        return math.sqrt(variance / (self.n - 1))


def hint_supported(state: GameState) -> bool:
    """Whether hints cover this game's rules."""
    return playout_supported(state)


def hint(
    state: GameState,
    rng: random.Random,
    *,
    seconds: float | None = 0.2,
    target_error: float = 0.03,
    max_playouts: int = 20_000,
    own_policy: str = POLICY,
) -> Hint:
    """Estimate every legal choice of the player to move (or, before a throw, the position).

    Stops when the best choice's standard error is at most `target_error` and no other
    choice could still be better, or after `seconds` (None: no clock, for reproducible
    bots), or after `max_playouts`. In the playouts the others play greedily and the player
    to move plays its later turns of the round by `own_policy` (a `companion.playout`
    policy). The first hint for a game's rules and seats also builds
    its table of later rounds (about 0.3 s), before the clock starts.
    """
    if not hint_supported(state):
        raise ValueError("hints do not cover this game's variants yet")
    if state.phase not in (Phase.DEAL, Phase.ROLL, Phase.CHOOSE):
        raise ValueError(f"a hint is for a throw or a choice, not at {state.phase.value}")
    later_rounds(state.rules, len(state.players))  # built once a process, before the clock
    began = time.perf_counter()
    seat = state.current
    policies = [POLICY] * len(state.players)
    policies[seat] = own_policy
    options: list[Event | None]
    starts: list[GameState]
    if state.phase is Phase.CHOOSE:
        choices = legal_choices(state)
        options = list(choices)
        starts = [apply(state, choice) for choice in choices]
    else:
        options, starts = [None], [state]
    tallies = [_Tally() for _ in options]
    total = 0
    # Common random numbers: every choice's k-th playout draws from the same seed, so the
    # choices meet the same deals and throws as far as they can, and their differences show
    # with far fewer playouts than their levels.
    base = rng.getrandbits(48)

    read = [playout_start(start) for start in starts]  # read once, played out many times

    def sample(index: int) -> None:
        tally = tallies[index]
        outcomes = [
            playout(read[index], random.Random(base + tally.n + k), policies, rounds=1)
            for k in range(BATCH)
        ]
        shares = expected_shares(starts[index], outcomes, seat)
        for share, outcome in zip(shares, outcomes, strict=True):
            tally.add(float(share), outcome.round_money[seat])

    while total < max_playouts:
        if seconds is not None and time.perf_counter() - began > seconds:
            break
        unseen = [i for i, t in enumerate(tallies) if t.n < FIRST_BATCH]
        if unseen:
            pick = unseen[0]
        else:
            best = max(range(len(tallies)), key=lambda i: tallies[i].mean())
            floor = tallies[best].mean() - 2 * tallies[best].error()
            rivals = [
                i
                for i, t in enumerate(tallies)
                if i != best and t.mean() + 2 * t.error() > floor and t.error() > target_error
            ]
            if tallies[best].error() > target_error:
                pick = best
            elif rivals:
                pick = max(rivals, key=lambda i: tallies[i].error())
            else:
                break
        sample(pick)
        total += BATCH
    ranked = sorted(
        (
            ChoiceHint(option, t.mean(), t.error(), t.money / max(t.n, 1), t.n)
            for option, t in zip(options, tallies, strict=True)
        ),
        key=lambda h: (-h.win, -h.money),
    )
    return Hint(seat, tuple(ranked), time.perf_counter() - began, total)


def choice_keys(state: GameState, choice: Event | None) -> dict[str, Any]:
    """The keys a record's turn uses for this decision: place, slot, kick, chip or skip."""
    if isinstance(choice, Skip):
        return {"skip": True}
    if not isinstance(choice, Place):
        return {}
    keys: dict[str, Any] = {"place": choice.number}
    if choice.slot:
        keys["slot"] = True
    if choice.kicks:
        keys["kick"] = [{"owner": state.owner_name(k.owner), "big": k.big} for k in choice.kicks]
    if choice.chip is not None:
        keys["chip"] = choice.chip
    return keys


def hint_to_dict(state: GameState, result: Hint) -> dict[str, Any]:
    """The hint as JSON: each choice's record keys, win chance with its error, money now."""
    return {
        "player": state.players[result.seat],
        "choices": [
            choice_keys(state, c.choice)
            | {
                "win": round(c.win, 3),
                "win_error": round(c.win_error, 3),
                "money": round(c.money / 1000) * 1000,
                "playouts": c.playouts,
            }
            for c in result.choices
        ],
        "seconds": round(result.seconds, 3),
    }


def hint_lines(state: GameState, result: Hint) -> list[str]:
    """The hint as lines for the terminal, best choice first."""
    name = state.players[result.seat]
    lines = [f"Hint for {name} ({result.playouts} playouts, {result.seconds:.2f} s):"]
    for c in result.choices:
        if c.choice is None:
            what = "this position"
        elif isinstance(c.choice, Skip):
            what = "skip"
        else:
            what = describe_choice(state, c.choice)
        lines.append(
            f"  {what}: wins {100 * c.win:.0f} % ± {100 * c.win_error:.0f}, "
            f"{money_label(round(c.money / 1000) * 1000)} expected this round"
        )
    return lines


def describe_choice(state: GameState, choice: Event) -> str:
    """'the 5s', 'the 3s on the slot machine, kicking a die of Ben' for a hint line."""
    if not isinstance(choice, Place):
        return choice.kind
    text = f"the {choice.number}s" + (" on the slot machine" if choice.slot else "")
    for kick in choice.kicks:
        text += f", kicking a {'Biggy' if kick.big else 'die'} of {state.owner_name(kick.owner)}"
    if choice.chip:
        text += f", taking the {choice.chip} chip card"
    return text
