"""What a casino and the slot machine pay on plain counters, and the dice kickers may knock
off: the arithmetic the fast playout (`companion.playout`) does thousands of times a hint.

A casino's row holds each owner's counted dice (a Biggy counts two), the white owner last;
notes are offered highest first.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from companion.events import Kick
from companion.state import WHITE


def casino_pay(row: list[int], offered: list[int], who: int) -> int:
    """The note `who` takes at a casino with counted dice `row` (per owner) and notes
    `offered` (highest first), if it paid out now: equal counts cancel."""
    mine = row[who]
    if not mine or row.count(mine) > 1:
        return 0  # no dice, or tied: both take their dice back unpaid
    rank = 0
    for n in row:
        if n > mine and row.count(n) == 1:
            rank += 1
    return offered[rank] if rank < len(offered) else 0


def casino_ranking(row: list[int]) -> list[int]:
    """The owners a casino with counted dice `row` pays, best first: equal counts cancel."""
    return [row.index(n) for n in sorted(set(row), reverse=True) if n and row.count(n) == 1]


def casino_pays(row: list[int], offered: list[int], seats: int) -> list[int]:
    """The note each of the first `seats` owners takes at a casino if it paid out now, as
    `casino_pay` gives it for one owner, in one pass (the white owner ranks but takes no
    seat's note)."""
    paid = [0] * seats
    rank = 0
    places = len(offered)
    for n in sorted(set(row), reverse=True):
        if not n or rank >= places:
            break
        if row.count(n) == 1:
            owner = row.index(n)
            if owner < seats:
                paid[owner] = offered[rank]
            rank += 1
    return paid


KickTarget = tuple[int, bool]
"""A die to kick: its owner's index in the count rows (the white owner last) and size."""


def kick_targets(row: list[int], bigs: list[int], white: int) -> list[KickTarget]:
    """Every die lying at a casino, as a sorted multiset of kick targets."""
    targets: list[KickTarget] = []
    for owner in range(white):
        targets += [(owner, True)] * bigs[owner]
        targets += [(owner, False)] * (row[owner] - 2 * bigs[owner])
    targets += [(white, False)] * row[white]
    return sorted(targets)


def turn_targets(seat: int, white: int, own: int, big: int, wht: int) -> list[KickTarget]:
    """The dice placed this turn, the only ones a kicker may knock off the slot machine."""
    return sorted([(seat, True)] * big + [(seat, False)] * own + [(white, False)] * wht)


def kick_combinations(targets: list[KickTarget], kickers: int) -> list[tuple[KickTarget, ...]]:
    """Every distinct set of `kickers` dice among `targets` (all of them if fewer)."""
    if not kickers:
        return [()]
    return sorted(set(itertools.combinations(targets, min(kickers, len(targets)))))


def slot_after(
    values: list[list[int]], number: int, seat: int, own: int, big: int, wht: int
) -> list[list[int]]:
    """The pips on the slot machine by owner after placing (a Biggy's pips count twice)."""
    after = [list(v) for v in values]
    after[seat] += [number] * (own + 2 * big)
    after[-1] += [number] * wht
    return after


def unplace(values: list[list[int]], number: int, kicks: tuple[KickTarget, ...]) -> None:
    """Take kicked dice's pips off the slot machine's tally."""
    for owner, is_big in kicks:
        for _ in range(2 if is_big else 1):
            values[owner].remove(number)


def slot_ranking(row: list[int], values: list[list[int]]) -> list[int]:
    """Owners paid at the slot machine, best first: equal dice cancel, except that a tie for
    the most dice is broken by the higher pip sum, then the higher dice."""
    most = max(row)
    groups: dict[tuple, list[int]] = {}
    for owner, n in enumerate(row):
        if n:
            pips = sorted(values[owner], reverse=True)
            key = (n, sum(pips), tuple(pips)) if n == most else (n,)
            groups.setdefault(key, []).append(owner)
    return [owners[0] for key, owners in sorted(groups.items(), reverse=True) if len(owners) == 1]


def slot_pay(row: list[int], values: list[list[int]], offered: list[int], who: int) -> int:
    """The note `who` takes at the slot machine if it paid out now (the best note left for
    each rank, as the engine hands them out by default)."""
    if not row[who]:
        return 0
    ranked = slot_ranking(row, values)
    rank = ranked.index(who) if who in ranked else len(offered)
    return offered[rank] if rank < len(offered) else 0


def kick_options(
    row: list[int], bigs: list[int], white: int, kickers: int
) -> list[tuple[KickTarget, ...]]:
    """Every distinct set of dice `kickers` kickers can knock off (each must, while any lie)."""
    if not kickers:
        return [()]
    return kick_combinations(kick_targets(row, bigs, white), kickers)


def kicked(row: list[int], kicks: tuple[KickTarget, ...], white: int) -> list[int]:
    """The counted dice after the kicks."""
    if not kicks:
        return row
    after = list(row)
    for owner, is_big in kicks:
        after[owner] -= 2 if is_big else 1
    return after


def random_kicks(
    targets: list[KickTarget], kickers: int, rnd: Callable[[], float]
) -> tuple[KickTarget, ...]:
    """Random dice among `targets` for the kickers to knock off, one die at a time."""
    targets = list(targets)
    chosen = []
    for _ in range(min(kickers, len(targets))):
        chosen.append(targets.pop(int(rnd() * len(targets))))
    return tuple(sorted(chosen))


def kick_events(kicks: tuple[KickTarget, ...], white: int) -> tuple[Kick, ...]:
    """The engine's kicks: the white owner is WHITE there."""
    targets = sorted((WHITE if owner == white else owner, is_big) for owner, is_big in kicks)
    return tuple(Kick(owner, is_big) for owner, is_big in targets)
