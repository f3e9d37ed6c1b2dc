"""Round-end payout: tie cancellation, ranking and notes, with a full explanation."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalMove
from companion.events import SLOT_MACHINE
from companion.money import note_label
from companion.state import Casino


@dataclass(frozen=True, slots=True)
class OwnerDice:
    """An owner's counted dice at a casino; on the slot machine also their sum and values."""

    owner: int
    dice: int
    pip_sum: int = 0
    values: tuple[int, ...] = ()
    biggies: int = 0
    """Biggies among the counted dice (each counts two)."""


@dataclass(frozen=True, slots=True)
class TiedGroup:
    """Owners with equal counted dice who all take their dice back unpaid."""

    owners: tuple[int, ...]
    dice: int


@dataclass(frozen=True, slots=True)
class Award:
    """A note handed to the owner at a rank (1 = most dice)."""

    rank: int
    owner: int
    note: int


@dataclass(frozen=True, slots=True)
class CasinoPayout:
    """How one casino paid out, step by step."""

    casino: int
    notes: tuple[int, ...]
    counts: tuple[OwnerDice, ...]
    tied: tuple[TiedGroup, ...]
    ranking: tuple[int, ...]
    awards: tuple[Award, ...]
    empty_handed: tuple[int, ...]
    leftover: tuple[int, ...]
    leftover_to: str


@dataclass(frozen=True, slots=True)
class RoundPayout:
    """The payout of every casino at the end of one round."""

    round: int
    casinos: tuple[CasinoPayout, ...]
    tile_effects: tuple[Any, ...] = ()


def _slot_values(casino: Casino, owner: int) -> tuple[int, ...]:
    values: list[int] = []
    for die in casino.dice:
        if die.owner == owner:
            values.extend((die.value, die.value) if die.big else (die.value,))
    return tuple(sorted(values, reverse=True))


def owner_counts(casino: Casino) -> tuple[OwnerDice, ...]:
    """Every owner with dice at the casino, most counted dice first."""
    counted = casino.counted()
    big: dict[int, int] = {}
    for die in casino.dice:
        big[die.owner] = big.get(die.owner, 0) + die.big
    if casino.number != SLOT_MACHINE:
        items = [OwnerDice(owner, n, biggies=big[owner]) for owner, n in counted.items()]
    else:
        items = []
        for owner, n in counted.items():
            values = _slot_values(casino, owner)
            items.append(OwnerDice(owner, n, sum(values), values, big[owner]))
    return tuple(sorted(items, key=lambda o: (-o.dice, -o.pip_sum, tuple(-v for v in o.values))))


def _rank_key(item: OwnerDice, most: int, slot: bool) -> tuple:
    # On the slot machine only a tie for the most dice is broken, by sum and then by dice.
    if slot and item.dice == most:
        return (item.dice, item.pip_sum, item.values)
    return (item.dice,)


def rank_casino(
    casino: Casino,
) -> tuple[tuple[OwnerDice, ...], tuple[TiedGroup, ...], tuple[int, ...]]:
    """Counted dice, the tied groups that cancel, and the remaining owners in rank order."""
    counts = owner_counts(casino)
    slot = casino.number == SLOT_MACHINE
    most = counts[0].dice if counts else 0
    scored = [(item.owner, _rank_key(item, most, slot)) for item in counts if item.dice > 0]
    groups, ranking = strike_ties(scored)
    tied = tuple(TiedGroup(owners, key[0]) for key, owners in groups)
    return counts, tied, ranking


def strike_ties(
    scored: Iterable[tuple[int, tuple[Any, ...]]],
) -> tuple[tuple[tuple[tuple[Any, ...], tuple[int, ...]], ...], tuple[int, ...]]:
    """Rank owners by score, highest first, striking out every group with an equal score.

    `scored` lists (owner, score); returns the tied groups as (score, owners) in the order
    first seen, and the owners left in rank order. Casinos and Double Down rank this way.
    """
    groups: dict[tuple[Any, ...], list[int]] = {}
    for owner, score in scored:
        groups.setdefault(score, []).append(owner)
    tied = tuple((score, tuple(owners)) for score, owners in groups.items() if len(owners) > 1)
    ranking = tuple(
        owners[0] for score, owners in sorted(groups.items(), reverse=True) if len(owners) == 1
    )
    return tied, ranking


def pay_casino(casino: Casino, leftover_to: str, slot_choices: Sequence[int] = ()) -> CasinoPayout:
    """Hand out a casino's notes in rank order; slot machine winners pick their note."""
    counts, tied, ranking = rank_casino(casino)
    remaining = sorted(casino.notes, reverse=True)
    awards: list[Award] = []
    for rank, owner in enumerate(ranking[: len(remaining)], start=1):
        if casino.number == SLOT_MACHINE and rank <= len(slot_choices):
            note = slot_choices[rank - 1]
            if note not in remaining:
                offered = ", ".join(note_label(n) for n in remaining)
                raise IllegalMove(
                    "slot machine choice",
                    f"rank {rank} chose {note_label(note)}, but only {offered} remain",
                    why={"key": "slot_taken", "rank": rank, "note": note, "notes": remaining},
                )
        else:
            note = remaining[0]
        remaining.remove(note)
        awards.append(Award(rank, owner, note))
    if casino.number == SLOT_MACHINE and len(slot_choices) > len(awards):
        raise IllegalMove(
            "slot machine choice",
            f"{len(slot_choices)} choices given but only {len(awards)} owners are paid",
        )
    return CasinoPayout(
        casino=casino.number,
        notes=tuple(sorted(casino.notes, reverse=True)),
        counts=counts,
        tied=tied,
        ranking=ranking,
        awards=tuple(awards),
        empty_handed=ranking[len(awards) :],
        leftover=tuple(remaining),
        leftover_to=leftover_to,
    )


def payout_to_dict(payout: RoundPayout, name: Callable[[int], str]) -> dict[str, Any]:
    """A JSON-ready explanation of a round's payout, with owners named."""
    tiles = [
        {
            "casino": e.casino,
            "tile": e.code,
            "owner": name(e.owner),
            "money": e.money,
            "chips": e.chips,
            "reason": e.reason,
        }
        for e in payout.tile_effects
    ]
    return ({"tiles": tiles} if tiles else {}) | {
        "round": payout.round,
        "casinos": [
            {
                "casino": "slot" if c.casino == SLOT_MACHINE else c.casino,
                "notes": list(c.notes),
                "counts": [
                    {"owner": name(o.owner), "dice": o.dice}
                    | ({"sum": o.pip_sum, "values": list(o.values)} if o.values else {})
                    for o in c.counts
                ],
                "tied": [{"owners": [name(o) for o in g.owners], "dice": g.dice} for g in c.tied],
                "ranking": [name(o) for o in c.ranking],
                "awards": [
                    {"rank": a.rank, "owner": name(a.owner), "note": a.note} for a in c.awards
                ],
                "empty_handed": [name(o) for o in c.empty_handed],
                "leftover": list(c.leftover),
                "leftover_to": c.leftover_to,
            }
            for c in payout.casinos
        ],
    }
