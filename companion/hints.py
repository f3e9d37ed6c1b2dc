"""Hints: each legal choice's chance of winning the game and its expected money this round.

A hint is a determinised Monte Carlo estimate. Each playout takes the choice through the
checked engine, then plays on with the fast playout (`companion.playout`): the unseen notes
are shuffled, future throws rolled, and every player takes the greedy choice. A playout
stops at the end of the round under way; the rounds after it are drawn whole from a table
of greedy rounds played from the start of a game (round by round, so a later round keeps
its thinner pile), which is exact in distribution for a policy that ignores the score and
costs a lookup instead of a round. A shared win counts 1/k for each of k winners.

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

from companion.choices import legal_choices
from companion.engine import apply
from companion.events import Event, Place, Skip
from companion.money import money_label
from companion.playout import Outcome, playout, playout_supported
from companion.rules import Rules
from companion.state import GameState, Phase, new_game

POLICY = "greedy"
"""How the players in a hint's playouts choose."""

TABLE_GAMES = 400
"""Whole greedy games in each table of later rounds."""

FIRST_BATCH = 16
"""Playouts each choice gets before the hint picks where to look more."""


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


RoundRecord = tuple[tuple[int, ...], tuple[int, ...], int]
"""One round of a table game: money and notes won by offset from its start player, and the
offset of the next start player."""


@lru_cache(maxsize=16)
def later_rounds(rules: Rules, players: int) -> tuple[tuple[RoundRecord, ...], ...]:
    """Greedy games from the start, each as its rounds seen from each round's start player."""
    rng = random.Random(f"later rounds {players}")
    state = new_game(rules, [f"P{i}" for i in range(players)])
    games = []
    for _ in range(TABLE_GAMES):
        rounds = []
        for start, gained, notes, following in playout(state, rng, POLICY).rounds:
            rounds.append(
                (
                    tuple(gained[(start + k) % players] for k in range(players)),
                    tuple(notes[(start + k) % players] for k in range(players)),
                    (following - start) % players,
                )
            )
        games.append(tuple(rounds))
    return tuple(games)


def finish(state: GameState, rng: random.Random) -> Outcome:
    """One playout from `state` to the end of its round, with the later rounds drawn whole."""
    outcome = playout(state, rng, POLICY, rounds=1)
    if outcome.over:
        return outcome
    players = len(state.players)
    game = later_rounds(state.rules, players)[int(rng.random() * TABLE_GAMES)]
    start = outcome.start
    for gained, notes, following in game[state.round :]:
        for seat in range(players):
            offset = (seat - start) % players
            outcome.money[seat] += gained[offset]
            outcome.notes[seat] += notes[offset]
        start = (start + following) % players
    outcome.over = True
    return outcome


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
        """The standard error of the mean win share (at least that of one win in n+2)."""
        if self.n < 2:
            return 0.5
        mean = self.mean()
        variance = max(self.squares / self.n - mean * mean, 0.0)
        floor = (mean * self.n + 1) / (self.n + 2)  # keeps a 0/n or n/n tally from claiming 0
        variance = max(variance, floor * (1 - floor))
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
) -> Hint:
    """Estimate every legal choice of the player to move (or, before a throw, the position).

    Stops when the best choice's standard error is at most `target_error` and no other
    choice could still be better, or after `seconds` (None: no clock, for reproducible
    bots), or after `max_playouts`. The first hint for a game's rules and seats also builds
    its table of later rounds (about 0.3 s), before the clock starts.
    """
    if not hint_supported(state):
        raise ValueError("hints do not cover this game's variants yet")
    if state.phase not in (Phase.DEAL, Phase.ROLL, Phase.CHOOSE):
        raise ValueError(f"a hint is for a throw or a choice, not at {state.phase.value}")
    later_rounds(state.rules, len(state.players))  # built once a process, before the clock
    began = time.perf_counter()
    seat = state.current
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

    def sample(index: int) -> None:
        outcome = finish(starts[index], random.Random(base + tallies[index].n))
        tallies[index].add(win_share(outcome, seat), outcome.round_money[seat])

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
        for _ in range(8):
            sample(pick)
        total += 8
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
