"""Fast playouts for hints and bots: the same rules on plain counters.

The engine checks and records every event; a hint needs thousands of continuations a
second, so this module replays the rules of the base game (with neutral dice, Biggies, the
money variants, kickers, the slot machine, Rainbow cards and chip cards), of the Custom
edition (with or without skips) and of the Las Vegas Royale basic game (money-card pairs,
chips to pass a turn, the 2-player neutral set; no casino tiles) on mutable lists and no
checks. The players in a playout follow a simple policy: uniformly random, greedy (the
number that would win the most money if the round ended now, ties broken at random; a
paid skip counts as winning nothing), or the rule-based player's terms (greedy's money,
discounted for a thin lead, plus half the money taken from the others, less a price per
die spent); each seat may have its own. `tests/test_playout.py` replays its games through
the engine to show both agree exactly.

A hint starts thousands of playouts from each of a few states, so `playout_start` reads a
state into counters once, and what a casino would pay (and whom it ranks) is worked out
once per row of counts and kept, for the round or for every playout from the same start.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from companion.deal import arrange_pairs
from companion.events import (
    SLOT_MACHINE,
    DealRound,
    Event,
    Place,
    ReplaceRainbows,
    ResolvePayout,
    Roll,
    Skip,
)
from companion.money import deal_value
from companion.playout_rows import (
    KickTarget,
    casino_pays,
    casino_ranking,
    kick_combinations,
    kick_events,
    kick_options,
    kick_targets,
    kicked,
    random_kicks,
    slot_after,
    slot_pay,
    slot_ranking,
    turn_targets,
    unplace,
)
from companion.rules import RAINBOW, Rules
from companion.standings import chip_bonus
from companion.state import GameState, Phase

POLICIES = ("random", "greedy", "rules")
"""How the players in a playout choose: at random, greedily, or by the rule-based terms."""


@dataclass(slots=True)
class Outcome:
    """Where one playout ended: money and notes held, per seat, and what the first round paid."""

    money: list[int]
    notes: list[int]
    round_money: list[int]
    """Money the casinos paid each seat in the first round played (skip chips aside)."""
    over: bool
    """Whether the game ended (else the playout stopped at a round's end)."""
    start: int = 0
    """The start player of the next round, when the playout stopped before the end."""
    rounds: list[tuple[int, list[int], list[int], int]] = field(default_factory=list)
    """Each round played: (start player, money won, notes won, next start player)."""


def playout_supported(state: GameState) -> bool:
    """Whether the fast playout knows every rule this game uses: Las Vegas 2012 with any of
    its variants, the Custom edition, and the Royale basic game (no casino tiles)."""
    rules = state.rules
    if rules.edition == "royale":
        return not rules.tiles
    return rules.edition in ("classic", "custom")


def _take_chip(
    offered: list[str], held: list[str], greedy: bool, rnd: Callable[[], float]
) -> str | None:
    """The chip card taken from a casino (moved from `offered` to `held`), or None: greedy
    takes the colour that adds most to its set bonus, random any card or none."""
    colours = sorted(set(offered))
    choice: str | None
    if greedy:
        gains = [chip_bonus((*held, c)) for c in colours]
        best = [c for c, g in zip(colours, gains, strict=True) if g == max(gains)]
        choice = best[int(rnd() * len(best))]
    else:
        options: list[str | None] = [*colours, None]
        choice = options[int(rnd() * len(options))]
    if choice is not None:
        offered.remove(choice)
        held.append(choice)
    return choice


def _replace_rainbows(
    notes: list[list[int]],
    stack: list[int],
    discards: list[int],
    reshuffle: bool,
    rng: random.Random,
    emit: Callable[[Event], None] | None,
) -> tuple[list[int], list[int]]:
    """Replace each casino's Rainbow cards from the pile before payout, in casino order: a
    Rainbow drawn goes out too. Changes `notes`; returns the pile and the notes out."""
    draws: list[tuple[int, ...]] = []
    for index, dealt in enumerate(notes):
        needed = dealt.count(RAINBOW)
        kept = [n for n in dealt if n != RAINBOW]
        discards.extend([RAINBOW] * needed)
        drawn: list[int] = []
        while needed:
            if not stack:
                if not (reshuffle and discards):
                    break
                stack, discards = discards, []
                rng.shuffle(stack)
            note = stack.pop()
            drawn.append(note)
            if note == RAINBOW:
                discards.append(RAINBOW)
            else:
                kept.append(note)
                needed -= 1
        notes[index] = kept
        draws.append(tuple(drawn))
    if emit:
        emit(ReplaceRainbows(tuple(draws)))
    return stack, discards


def random_playout(
    state: GameState, rng: random.Random, emit: Callable[[Event], None] | None = None
) -> list[int]:
    """Play from a dealt-or-deal state to the end at random; money per player at the end.

    `emit`, when given, receives the equivalent engine events (for checking).
    """
    return playout(state, rng, "random", emit).money


@dataclass(slots=True)
class _Game:
    """What lasts across a playout's rounds: money and notes won, the pile, the chip cards."""

    money: list[int]
    held: list[int]
    stack: list[int]
    """The pile: the end of the list is the top."""
    discards: list[int]
    chips_at: list[list[str]]
    chip_pile: list[str]
    chips_held: list[list[str]]
    start: int
    tokens: list[int]
    """Skip chips or cards held (Royale's chips, worth money at the end)."""


@dataclass(slots=True)
class _Round:
    """One round on plain counters: notes, counted dice per casino and owner, dice in hand.

    Owners are seats, with the white owner last (index `players`).
    """

    notes: list[list[int]]
    counts: list[list[int]]
    slot_values: list[list[int]]
    regular: list[int]
    biggy: list[int]
    neutral: list[int]
    kicker: list[int]
    bigs: list[list[int]]
    current: int
    skips_used: list[int]
    offered_by: list[list[int]] = field(default_factory=list)
    """Each casino's notes, highest first (set when the turns begin; read, never changed)."""
    paid_at: list[dict[tuple[int, ...], list[int]]] = field(default_factory=list)
    """What each seat would take at each casino if it paid out now, by row of counts: a
    record of those worked out (`_pays`), kept for the round or, resumed, for the start."""
    on_table: int = 0
    """The money on the table this round."""
    ranked_at: dict[tuple[int, ...], list[int]] = field(default_factory=dict)
    """The owners a casino pays, best first, by row of counts (`casino_ranking`): a record
    of those worked out, like `paid_at` (the ranking does not depend on the notes)."""


def _read_game(state: GameState) -> _Game:
    """The lasting counters of a state, the pile left out (each playout shuffles its own)."""
    return _Game(
        money=[sum(w) for w in state.winnings],
        held=[len(w) for w in state.winnings],
        stack=[],
        discards=list(state.discards),
        chips_at=[list(c.chip_cards) for c in state.casinos],
        chip_pile=list(state.chip_pile),
        chips_held=[list(c) for c in state.chip_cards],
        start=state.start_player,
        tokens=list(state.skip_tokens),
    )


def _read_round(state: GameState) -> _Round:
    """The round a state is in, as counters (a playout started after the deal), with what
    its casinos offer, for all the playouts from it (their notes are the same)."""
    players = len(state.players)
    white = players
    casinos = state.rules.casino_count()
    counts = [[0] * (players + 1) for _ in range(casinos)]
    slot_values: list[list[int]] = [[] for _ in range(players + 1)]
    bigs = [[0] * players for _ in range(casinos)]
    for c in state.casinos:
        row = counts[c.number - 1]
        for die in c.dice:
            owner = white if die.owner < 0 else die.owner
            row[owner] += 2 if die.big else 1
            if c.number == SLOT_MACHINE:
                slot_values[owner] += [die.value] * (2 if die.big else 1)
    for c in state.casinos:
        for die in c.dice:
            if die.big and die.owner >= 0:  # the imaginary owners' Biggies are never kicked
                bigs[c.number - 1][die.owner] += 1
    resumed = _Round(
        notes=[list(c.notes) for c in state.casinos],
        counts=counts,
        slot_values=slot_values,
        regular=[s.regular for s in state.supplies],
        biggy=[s.biggy for s in state.supplies],
        neutral=[s.neutral for s in state.supplies],
        kicker=[s.kickers for s in state.supplies],
        bigs=bigs,
        current=state.current,
        skips_used=list(state.skips_used),
    )
    _set_offers(resumed)
    return resumed


@dataclass(frozen=True, slots=True)
class PlayoutStart:
    """A state read into counters once, for the many playouts a hint starts from it."""

    state: GameState
    game: _Game
    """The lasting counters, the pile left out; each playout takes a copy."""
    batches: tuple[tuple[int, ...], ...]
    """The pile's batches, from the bottom up: each is shuffled on its own."""
    round: _Round | None
    """The round under way, when the state is past its deal; each playout takes a copy."""


def playout_start(state: GameState) -> PlayoutStart:
    """Read a state for playouts, once: before a deal, a roll or a payout, in a game the
    fast playout covers."""
    if not playout_supported(state):
        raise ValueError("this game uses variants the fast playout does not cover")
    if state.phase not in (Phase.DEAL, Phase.ROLL, Phase.RAINBOW, Phase.PAYOUT):
        raise ValueError(
            f"a playout starts before a deal, a roll or a payout, not at {state.phase.value}"
        )
    return PlayoutStart(
        state=state,
        game=_read_game(state),
        batches=tuple(tuple(b) for b in reversed(state.pile.batches) if b),
        round=None if state.phase is Phase.DEAL else _read_round(state),
    )


def shuffle(items: list[int], rng: random.Random) -> None:
    """Shuffle `items` in place exactly as `rng.shuffle(items)` does (the same numbers drawn
    from `rng`, the same order), drawing the bits straight from the generator: a playout
    shuffles the pile every time, and the method calls cost more than the swaps."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:  # a number outside 0..i: draw again
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _game_from(start: PlayoutStart, rng: random.Random) -> _Game:
    """A playout's own copy of the lasting counters; the pile's batches are shuffled,
    keeping their order."""
    stack: list[int] = []
    for batch in start.batches:
        part = list(batch)
        shuffle(part, rng)
        stack += part
    kept = start.game
    return _Game(
        money=kept.money[:],
        held=kept.held[:],
        stack=stack,
        discards=kept.discards[:],
        chips_at=[c[:] for c in kept.chips_at],
        chip_pile=kept.chip_pile[:],
        chips_held=[c[:] for c in kept.chips_held],
        start=kept.start,
        tokens=kept.tokens[:],
    )


def _resume_round(start: PlayoutStart) -> _Round:
    """A playout's own copy of the round under way (a playout started after the deal)."""
    kept = start.round
    assert kept is not None
    return _Round(
        notes=[n[:] for n in kept.notes],
        counts=[r[:] for r in kept.counts],
        slot_values=[v[:] for v in kept.slot_values],
        regular=kept.regular[:],
        biggy=kept.biggy[:],
        neutral=kept.neutral[:],
        kicker=kept.kicker[:],
        bigs=[b[:] for b in kept.bigs],
        current=kept.current,
        skips_used=kept.skips_used[:],
        offered_by=kept.offered_by,
        paid_at=kept.paid_at,
        on_table=kept.on_table,
        ranked_at=kept.ranked_at,
    )


def _deal_notes(game: _Game, rules: Rules, players: int, rng: random.Random) -> list[list[int]]:
    """Each casino's notes drawn from the pile: a count of cards, or up to the minimum."""
    minimum = rules.minimum_money(players)
    per_casino = rules.notes_per_casino
    notes = []
    for _ in range(rules.casino_count()):
        dealt: list[int] = []
        total = 0
        while (len(dealt) < per_casino) if per_casino else (total < minimum):
            if not game.stack:
                if not (rules.reshuffle and game.discards):
                    break
                game.stack = game.discards
                rng.shuffle(game.stack)
                game.discards = []
            note = game.stack.pop()
            dealt.append(note)
            total += deal_value(note)
        notes.append(dealt)
    if rules.pairs_by_total and all(
        len(n) == 2 for n in notes
    ):  # Royale: the lowest pair to casino 1 ... the highest to casino 6
        notes = [list(pair) for pair in arrange_pairs([(n[0], n[1]) for n in notes])]
    return notes


def _deal_round(
    game: _Game,
    rules: Rules,
    players: int,
    rng: random.Random,
    emit: Callable[[Event], None] | None,
) -> _Round:
    """Deal a new round: notes, chip cards, the white start dice; every player's dice."""
    casinos = rules.casino_count()
    notes = _deal_notes(game, rules, players, rng)
    counts = [[0] * (players + 1) for _ in range(casinos)]
    dealt_chips: list[str] = []
    if rules.chip_cards:
        dealt_chips = rng.sample(game.chip_pile, min(6, len(game.chip_pile)))
        for index, colour in enumerate(dealt_chips):
            game.chip_pile.remove(colour)
            game.chips_at[index].append(colour)
    start_white = [int(rng.random() * 6) + 1 for _ in range(rules.neutral_at_round_start(players))]
    for value in start_white:
        counts[value - 1][players] += 1
    if start_white and rules.edition == "royale":  # the neutral set's last die is its Biggy
        counts[start_white[-1] - 1][players] += 1
    for seat in range(players):
        game.tokens[seat] += rules.tokens_per_round
    if emit:
        emit(DealRound(tuple(tuple(n) for n in notes), tuple(dealt_chips), tuple(start_white)))
    kicker_each = rules.kickers_per_player(players)
    biggy_each = 1 if rules.biggies else 0
    return _Round(
        notes=notes,
        counts=counts,
        slot_values=[[] for _ in range(players + 1)],
        regular=[rules.dice_per_player - biggy_each - kicker_each] * players,
        biggy=[biggy_each] * players,
        neutral=[rules.neutral_per_player(players)] * players,
        kicker=[kicker_each] * players,
        bigs=[[0] * players for _ in range(casinos)],
        current=game.start,
        skips_used=[0] * players,
    )


SKIP = 0
"""The number a turn 'places' when its player pays a chip or card to skip."""

Rolled = tuple[list[int], list[int], list[int], list[int]]
"""A throw: the player's own dice, Biggies, white dice and kickers, by pips."""

Candidate = tuple[int, bool, tuple[KickTarget, ...], list[int], list[list[int]]]
"""One way of placing and kicking: the number, whether on the slot machine, the kicks, the
casino's row of counts after it and the slot machine's pips after it (as they were, off it)."""


def _candidates(
    rd: _Round, shown: list[int], slot_free: list[int], rolled: Rolled
) -> Iterator[Candidate]:
    """Every placement open after a throw with each way of kicking, in the order the choices
    break ties: the numbers shown at their casinos, then those free on the slot machine."""
    own, big, wht, kck = rolled
    current, white = rd.current, len(rd.regular)
    counts, values = rd.counts, rd.slot_values
    for value in shown:
        index = value - 1
        after = counts[index][:]
        n_big = big.count(value) if big else 0
        after[current] += own.count(value) + 2 * n_big
        if wht:
            after[white] += wht.count(value)
        if kck and value in kck:
            placed_bigs = rd.bigs[index][:]
            placed_bigs[current] += n_big
            for option in kick_options(after, placed_bigs, white, kck.count(value)):
                yield value, False, option, kicked(after, option, white), values
        else:
            yield value, False, (), after, values
    for value in slot_free:
        yield from _slot_candidates(rd, value, rolled)


def _slot_candidates(rd: _Round, value: int, rolled: Rolled) -> Iterator[Candidate]:
    """Each way of placing the dice showing `value` on the slot machine (and kicking)."""
    own, big, wht, kck = rolled
    current, white = rd.current, len(rd.regular)
    n_own, n_big, n_wht = own.count(value), big.count(value), wht.count(value)
    after = list(rd.counts[SLOT_MACHINE - 1])
    after[current] += n_own + 2 * n_big
    after[white] += n_wht
    options = kick_combinations(turn_targets(current, white, n_own, n_big, n_wht), kck.count(value))
    for option in options:
        values = slot_after(rd.slot_values, value, current, n_own, n_big, n_wht)
        unplace(values, value, option)
        yield value, True, option, kicked(after, option, white), values


def _pays(rd: _Round, index: int, row: list[int]) -> list[int]:
    """What each seat would take at a casino (not the slot machine) with counted dice `row`
    if it paid out now, as `casino_pays` gives it; worked out once per row (the list is
    shared: read it, never change it)."""
    known = rd.paid_at[index]
    key = tuple(row)
    pays = known.get(key)
    if pays is None:
        pays = known[key] = casino_pays(row, rd.offered_by[index], len(rd.regular))
    return pays


def _showing(rolled: Rolled, value: int) -> int:
    """How many dice of a throw show `value`."""
    own, big, wht, kck = rolled
    shown = own.count(value)
    if big:
        shown += big.count(value)
    if wht:
        shown += wht.count(value)
    if kck:
        shown += kck.count(value)
    return shown


def _greedy_choice(
    rd: _Round,
    shown: list[int],
    slot_free: list[int],
    rolled: Rolled,
    rnd: Callable[[], float],
    can_skip: bool,
) -> tuple[int, bool, tuple[KickTarget, ...]]:
    """The placement (and kicks) that would win the most money if the round ended now,
    ties broken at random; a skip (number SKIP), when allowed, wins nothing."""
    current = rd.current
    counts, offered_by = rd.counts, rd.offered_by
    slot_before: int | None = None
    best = 0 if can_skip else -(1 << 60)
    ties: list[tuple[int, bool, tuple[KickTarget, ...]]] = [(SKIP, False, ())] if can_skip else []
    for value, on_slot, option, after, values in _candidates(rd, shown, slot_free, rolled):
        if on_slot:
            offered = offered_by[SLOT_MACHINE - 1]
            if slot_before is None:
                row = rd.counts[SLOT_MACHINE - 1]
                slot_before = slot_pay(row, rd.slot_values, offered, current)
            gain = slot_pay(after, values, offered, current) - slot_before
        else:
            index = value - 1
            gain = _pays(rd, index, after)[current] - _pays(rd, index, counts[index])[current]
        if gain > best:
            best, ties = gain, [(value, on_slot, option)]
        elif gain == best:
            ties.append((value, on_slot, option))
    return ties[int(rnd() * len(ties))]


def _rules_choice(
    rd: _Round,
    shown: list[int],
    slot_free: list[int],
    rolled: Rolled,
    rnd: Callable[[], float],
    can_skip: bool,
) -> tuple[int, bool, tuple[KickTarget, ...]]:
    """The placement (and kicks) with the best rule-based score, ties broken at random:
    the money it wins now (discounted when the lead at that casino is thin and others still
    hold dice), plus half the money it takes from the others there, less 0.3 x the money on
    the table / dice left for each die it spends. A skip, when allowed, scores 0.
    `companion.bots.rules_scores` is the same score through the checked engine."""
    current, white = rd.current, len(rd.regular)
    mine_left = rd.regular[current] + rd.biggy[current] + rd.neutral[current]
    mine_left += rd.kicker[current]
    dice_left = sum(rd.regular) + sum(rd.biggy) + sum(rd.neutral) + sum(rd.kicker)
    rivals_left = dice_left - mine_left
    die_price = 0.3 * rd.on_table / max(dice_left, 1)
    offered_by = rd.offered_by
    slot_before: list[int] | None = None
    priced, price = 0, 0.0
    best = 0.0 if can_skip else -math.inf
    ties: list[tuple[int, bool, tuple[KickTarget, ...]]] = [(SKIP, False, ())] if can_skip else []
    for value, on_slot, option, after, values in _candidates(rd, shown, slot_free, rolled):
        if value != priced:
            priced, price = value, die_price * _showing(rolled, value)
        if on_slot:
            offered = offered_by[SLOT_MACHINE - 1]
            if slot_before is None:
                row = rd.counts[SLOT_MACHINE - 1]
                slot_before = [slot_pay(row, rd.slot_values, offered, s) for s in range(white)]
            before = slot_before
            paid = [slot_pay(after, values, offered, s) for s in range(white)]
        else:
            before = _pays(rd, value - 1, rd.counts[value - 1])
            paid = _pays(rd, value - 1, after)
        won = paid[current] - before[current]
        gain = float(won)
        if won > 0 and rivals_left:
            others = max(after[:current] + after[current + 1 :])
            gain *= min(1.0, 0.5 + 0.25 * (after[current] - others))
        taken = sum(before) - sum(paid) + won
        score = gain + 0.5 * taken - price
        if score > best:
            best, ties = score, [(value, on_slot, option)]
        elif score == best:
            ties.append((value, on_slot, option))
    return ties[int(rnd() * len(ties))]


def _random_kick_choice(
    rd: _Round,
    index: int,
    on_slot: bool,
    counts: tuple[int, int, int, int],
    rnd: Callable[[], float],
) -> tuple[KickTarget, ...]:
    """Random dice for a random player's kickers to knock off."""
    n_own, n_big, n_wht, n_kck = counts
    current, white = rd.current, len(rd.regular)
    if on_slot:
        found = turn_targets(current, white, n_own, n_big, n_wht)
    else:
        placed_bigs = list(rd.bigs[index])
        placed_bigs[current] += n_big
        after = list(rd.counts[index])
        after[current] += n_own + 2 * n_big
        after[white] += n_wht
        found = kick_targets(after, placed_bigs, white)
    return random_kicks(found, n_kck, rnd)


def _play_turn(
    game: _Game,
    rd: _Round,
    rules: Rules,
    policy: str,
    rnd: Callable[[], float],
    emit: Callable[[Event], None] | None,
) -> int:
    """Roll and place for the player to move; returns how many dice left the players' hands."""
    current, white = rd.current, len(rd.regular)
    n_biggy, n_neutral, n_kicker = rd.biggy[current], rd.neutral[current], rd.kicker[current]
    own = [int(rnd() * 6) + 1 for _ in range(rd.regular[current])]
    big = [int(rnd() * 6) + 1 for _ in range(n_biggy)] if n_biggy else []
    wht = [int(rnd() * 6) + 1 for _ in range(n_neutral)] if n_neutral else []
    kck = [int(rnd() * 6) + 1 for _ in range(n_kicker)] if n_kicker else []
    shown = sorted(set(own + big + wht + kck) if big or wht or kck else set(own))
    kicks: tuple[KickTarget, ...] = ()
    slot_free: list[int] = []
    if rules.slot_machine:
        taken = {v for values in rd.slot_values for v in values}
        slot_free = [v for v in shown if v not in taken]
    can_skip = (
        rules.skip_rule != "none"
        and game.tokens[current] > 0
        and not (rules.skip_limit and rd.skips_used[current] >= rules.skip_limit)
    )
    greedy = policy != "random"
    if greedy and (len(shown) + len(slot_free) > 1 or kck or can_skip):
        choose = _rules_choice if policy == "rules" else _greedy_choice
        number, on_slot, kicks = choose(rd, shown, slot_free, (own, big, wht, kck), rnd, can_skip)
    elif can_skip:
        targets = [(v, False) for v in shown] + [(v, True) for v in slot_free]
        number, on_slot = [*targets, (SKIP, False)][int(rnd() * (len(targets) + 1))]
    elif rules.slot_machine:
        targets = [(v, False) for v in shown] + [(v, True) for v in slot_free]
        number, on_slot = targets[int(rnd() * len(targets))]
    else:
        number, on_slot = shown[int(rnd() * len(shown))], False
    if number == SKIP:  # pay a chip or card, keep the dice, and pass the turn
        game.tokens[current] -= 1
        rd.skips_used[current] += 1
        if emit:
            emit(Roll(tuple(own), tuple(wht), tuple(big), tuple(kck)))
            emit(Skip())
        return 0
    index = SLOT_MACHINE - 1 if on_slot else number - 1
    row = rd.counts[index]
    n_own = own.count(number)
    n_big = big.count(number) if big else 0
    n_wht = wht.count(number) if wht else 0
    n_kck = kck.count(number) if kck else 0
    chip = None
    if rules.chip_cards and not on_slot and game.chips_at[index] and n_own + 2 * n_big + n_wht >= 2:
        chip = _take_chip(game.chips_at[index], game.chips_held[current], greedy, rnd)
    if n_kck and not greedy:
        kicks = _random_kick_choice(rd, index, on_slot, (n_own, n_big, n_wht, n_kck), rnd)
    row[current] += n_own + 2 * n_big
    rd.regular[current] -= n_own
    gone = n_own
    if n_big or n_wht or n_kck:  # the other kinds of dice, where the game has them
        row[white] += n_wht
        rd.bigs[index][current] += n_big
        rd.biggy[current] -= n_big
        rd.neutral[current] -= n_wht
        rd.kicker[current] -= n_kck
        gone += n_big + n_wht + n_kck
    if on_slot:
        rd.slot_values = slot_after(rd.slot_values, number, current, n_own, n_big, n_wht)
        unplace(rd.slot_values, number, kicks)
    for owner, is_big in kicks:  # each kicked die goes back to its owner's hand
        row[owner] -= 2 if is_big else 1
        if owner != white:
            gone -= 1
            if is_big:
                rd.bigs[index][owner] -= 1
                rd.biggy[owner] += 1
            else:
                rd.regular[owner] += 1
    if emit:
        emit(Roll(tuple(own), tuple(wht), tuple(big), tuple(kck)))
        emit(Place(number, on_slot, kick_events(kicks, white), chip))
    return gone


def _ranking(rd: _Round, row: list[int]) -> list[int]:
    """The owners a casino with counted dice `row` pays, best first, as `casino_ranking`
    gives them; worked out once per row (the list is shared: read it, never change it)."""
    key = tuple(row)
    ranked = rd.ranked_at.get(key)
    if ranked is None:
        ranked = rd.ranked_at[key] = casino_ranking(row)
    return ranked


def _pay_round(game: _Game, rd: _Round, rules: Rules, rng: random.Random) -> list[int]:
    """Pay every casino out (equal counts cancel); returns the seat that took each
    casino's highest note (-1 where no player did)."""
    players = len(rd.regular)
    white = players
    firsts = [-1] * rules.casino_count()
    for index in range(rules.casino_count()):
        row = rd.counts[index]
        if index == SLOT_MACHINE - 1:
            ranked = slot_ranking(row, rd.slot_values)
        else:
            ranked = _ranking(rd, row)
        offered = rd.offered_by[index]
        under: list[int] = []
        for rank, owner in enumerate(ranked[: len(offered)]):
            note = offered[rank]
            if owner == white:
                under.append(note)
            else:
                game.money[owner] += note
                game.held[owner] += 1
                if rank == 0:
                    firsts[index] = owner
        rest = offered[len(ranked) :]
        if rules.leftovers == "pile":
            under.extend(rest)
        else:
            game.discards.extend(rest)
        if under:
            shuffle(under, rng)
            game.stack[0:0] = under
    return firsts


def _next_start(rules: Rules, firsts: list[int], start: int, players: int) -> int:
    """The next round's start player, by the edition's rule, from each casino's top winner."""
    if rules.start_player_rule == "royale":  # casino 6's winner, else 5's ... else the left
        return next((f for f in reversed(firsts[:6]) if f >= 0), (start + 1) % players)
    if rules.start_player_rule == "casino6_winner":
        return firsts[5] if firsts[5] >= 0 else start
    return (start + 1) % players


def _set_offers(rd: _Round) -> None:
    """Set what a round's casinos offer, for its turns: the notes highest first, the money
    on the table, and an empty record of pay-outs."""
    rd.offered_by = [sorted(n, reverse=True) for n in rd.notes]
    rd.on_table = sum(sum(n) for n in rd.notes)
    rd.paid_at = [{} for _ in rd.counts]


def _play_round(
    game: _Game,
    rd: _Round,
    rules: Rules,
    policies: list[str],
    rng: random.Random,
    emit: Callable[[Event], None] | None,
) -> None:
    """Play a round's turns until every die is placed, replace Rainbows and pay out."""
    players = len(rd.regular)
    if not rd.offered_by:  # a dealt round (a resumed one comes with its own)
        _set_offers(rd)
    left = sum(rd.regular) + sum(rd.biggy) + sum(rd.neutral) + sum(rd.kicker)
    while left:
        current = rd.current
        if not (
            rd.regular[current] or rd.biggy[current] or rd.neutral[current] or rd.kicker[current]
        ):
            rd.current = (current + 1) % players
            continue
        left -= _play_turn(game, rd, rules, policies[current], rng.random, emit)
        rd.current = (current + 1) % players
    if rules.rainbow and any(RAINBOW in n for n in rd.notes):
        game.stack, game.discards = _replace_rainbows(
            rd.notes, game.stack, game.discards, rules.reshuffle, rng, emit
        )
        rd.offered_by = [sorted(n, reverse=True) for n in rd.notes]
    firsts = _pay_round(game, rd, rules, rng)
    if emit:
        emit(ResolvePayout())
    game.start = _next_start(rules, firsts, game.start, players)


def _standing(game: _Game, rules: Rules) -> tuple[list[int], list[int]]:
    """Each seat's money with its skip chips or cards at their value, and the cards that
    break a tie (Royale counts its chips among them)."""
    value = rules.token_value
    money = [m + t * value for m, t in zip(game.money, game.tokens, strict=True)]
    if not rules.tokens_break_ties:
        return money, list(game.held)
    return money, [h + t for h, t in zip(game.held, game.tokens, strict=True)]


def playout(
    state: GameState | PlayoutStart,
    rng: random.Random,
    policy: str | Sequence[str] = "random",
    emit: Callable[[Event], None] | None = None,
    rounds: int = 0,
) -> Outcome:
    """Play on from a state before a deal, a roll or a payout (or one read once by
    `playout_start`, for many playouts), with every player following `policy` (one name
    for all, or one per seat); stop at the end, or after `rounds` round ends when that is
    not 0."""
    start = state if isinstance(state, PlayoutStart) else playout_start(state)
    state = start.state
    rules = state.rules
    players = len(state.players)
    policies = [policy] * players if isinstance(policy, str) else list(policy)
    if len(policies) != players or any(p not in POLICIES for p in policies):
        raise ValueError(
            f"policy must be one of {', '.join(POLICIES)}, or one of them per seat ({players}),"
            f" got {policy!r}"
        )
    game = _game_from(start, rng)
    first_round = state.round
    last_round = rules.rounds if not rounds else min(rules.rounds, first_round + rounds - 1)
    played: list[tuple[int, list[int], list[int], int]] = []
    round_money = [0] * players
    standing = _standing(game, rules)
    for round_no in range(first_round, last_round + 1):
        paid_before = list(game.money)
        money_before, held_before = standing
        resumed = round_no == first_round and state.phase is not Phase.DEAL
        rd = _resume_round(start) if resumed else _deal_round(game, rules, players, rng, emit)
        round_start = -1 if resumed else game.start
        _play_round(game, rd, rules, policies, rng, emit)
        standing = _standing(game, rules)
        money_after, held_after = standing
        if round_no == first_round:
            round_money = [a - b for a, b in zip(game.money, paid_before, strict=True)]
        played.append(
            (
                round_start,
                [a - b for a, b in zip(money_after, money_before, strict=True)],
                [a - b for a, b in zip(held_after, held_before, strict=True)],
                game.start,
            )
        )
    money, held = standing
    if rules.chip_cards:
        money = [m + chip_bonus(tuple(c)) for m, c in zip(money, game.chips_held, strict=True)]
    return Outcome(
        money=money,
        notes=held,
        round_money=round_money,
        over=last_round == rules.rounds,
        start=game.start,
        rounds=played,
    )
