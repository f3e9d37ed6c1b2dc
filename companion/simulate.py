"""Chance from a seeded RNG, and random play, for the terminal game, tests and benchmarks."""

from __future__ import annotations

import random

from companion.choices import legal_choices
from companion.deal import arrange_pairs
from companion.engine import apply
from companion.events import ROLL_KINDS, DealRound, Event, ReplaceRainbows, Roll, TileDecision
from companion.money import Pile, deal_value, pile_exhausted
from companion.rules import RAINBOW
from companion.state import GameState, Phase
from companion.tile_codes import TileCode
from companion.tiles import TILE_NAMES, closed_casino


def _draw_random(state: GameState, pile: Pile, discards: tuple[int, ...], rng: random.Random):
    if not len(pile) and state.rules.reshuffle and discards:
        pile, discards = Pile((tuple(sorted(discards)),)), ()
    batch = pile.next_batch()
    note = batch[rng.randrange(len(batch))]
    return note, pile.draw(note), discards


def random_deal(state: GameState, rng: random.Random) -> DealRound:
    """Shuffle-and-deal as players would: notes until each casino reaches its minimum."""
    rules = state.rules
    pile, discards = state.pile, state.discards
    minimum = rules.minimum_money(len(state.players))
    casinos: list[tuple[int, ...]] = []
    if rules.pairs_by_total:
        drawn = []
        for _ in range(2 * rules.casino_count()):
            note, pile, discards = _draw_random(state, pile, discards, rng)
            drawn.append(note)
        casinos = list(arrange_pairs([(drawn[i], drawn[i + 1]) for i in range(0, len(drawn), 2)]))
    for _ in range(rules.casino_count() - len(casinos)):
        notes: list[int] = []
        while not pile_exhausted(pile, discards, rules.reshuffle):
            if rules.notes_per_casino:
                if len(notes) == rules.notes_per_casino:
                    break
            elif sum(deal_value(n) for n in notes) >= minimum:
                break
            note, pile, discards = _draw_random(state, pile, discards, rng)
            notes.append(note)
        casinos.append(tuple(notes))
    chips: tuple[str, ...] = ()
    if rules.chip_cards:
        chips = tuple(rng.sample(state.chip_pile, min(6, len(state.chip_pile))))
    extra = rules.neutral_at_round_start(len(state.players))
    neutral = tuple(rng.randint(1, 6) for _ in range(extra))
    tiles: tuple[str, ...] = ()
    if rules.tiles:
        faces = {code[0]: code for code in rng.sample(list(TILE_NAMES), len(TILE_NAMES))}
        tiles = tuple(rng.sample(sorted(faces.values()), rules.tiles))
    return DealRound(tuple(casinos), chips, neutral, tiles)


def random_roll(state: GameState, rng: random.Random) -> Roll:
    """Roll every die the player to move holds."""
    supply = state.supplies[state.current]

    def dice(count: int) -> tuple[int, ...]:
        return tuple(rng.randint(1, 6) for _ in range(count))

    return Roll(*[dice(getattr(supply, kind)) for kind in ROLL_KINDS])  # in the roll's field order


def random_rainbow_replacement(state: GameState, rng: random.Random) -> ReplaceRainbows:
    """Draw from the pile for each Rainbow card until a money note turns up."""
    pile, discards = state.pile, state.discards
    draws = []
    for casino in state.casinos:
        drawn: list[int] = []
        needed = casino.notes.count(RAINBOW)
        discards = discards + (RAINBOW,) * needed
        while needed and not pile_exhausted(pile, discards, state.rules.reshuffle):
            note, pile, discards = _draw_random(state, pile, discards, rng)
            drawn.append(note)
            if note == RAINBOW:
                discards = discards + (RAINBOW,)
            else:
                needed -= 1
        draws.append(tuple(drawn))
    return ReplaceRainbows(tuple(draws))


def chance_event(state: GameState, rng: random.Random) -> Event | None:
    """The random event the game waits for, or None when a player must decide."""
    if state.phase is Phase.DEAL:
        return random_deal(state, rng)
    if state.phase is Phase.ROLL:
        if state.tiles and legal_choices(state) and rng.random() < 0.5:
            return None  # the Power Play holder decides to use the token instead
        return random_roll(state, rng)
    if state.phase is Phase.RAINBOW:
        return random_rainbow_replacement(state, rng)
    pending = state.pending
    if state.phase is not Phase.TILE or pending is None:
        return None
    if pending.ask == "extra dice":  # Jackpot, Prime Time, Fifty Fifty, My Choice
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if pending.code is not TileCode.PRIME_TIME:
            return TileDecision(pending.casino, (("dice", dice),))
        closed = closed_casino(state)  # Prime Time's winner places some of them, at random
        chosen = tuple(d for d in dice if d != closed and rng.random() < 0.5)
        return TileDecision(pending.casino, (("dice", dice), ("place", chosen)))
    if pending.code is TileCode.BLACK_BOX:
        tokens = list(state.rules.black_box_tokens)
        rng.shuffle(tokens)
        pile = tuple(tokens[: rng.randint(1, 5)])
        return TileDecision(pending.casino, (("pile", pile),))
    return None


def random_choice(state: GameState, rng: random.Random) -> Event:
    """A uniformly random legal decision."""
    choices = legal_choices(state)
    return choices[rng.randrange(len(choices))]


def play_random_game(state: GameState, rng: random.Random) -> tuple[GameState, list[Event]]:
    """Play from `state` to the end with random chance and random decisions."""
    events: list[Event] = []
    while state.phase is not Phase.OVER:
        event = chance_event(state, rng) or random_choice(state, rng)
        state = apply(state, event)
        events.append(event)
    return state, events
