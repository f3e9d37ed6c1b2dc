"""The face-down money pile: what can still be drawn, and in which order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.errors import IllegalMove
from companion.rules import RAINBOW, RAINBOW_DEAL_VALUE


def note_label(note: int) -> str:
    """A note as players say it: '$60,000' or 'Rainbow'."""
    return "Rainbow" if note == RAINBOW else f"${note:,}"


def money_label(amount: int) -> str:
    """An amount of money, '$380,000' or '-$50,000' (never read as a Rainbow card)."""
    return f"-${-amount:,}" if amount < 0 else f"${amount:,}"


def deal_value(note: int) -> int:
    """What a note counts for while casinos are filled to the minimum."""
    return RAINBOW_DEAL_VALUE if note == RAINBOW else note


@dataclass(frozen=True, slots=True)
class Pile:
    """The money pile as batches drawn first to last; a batch's own order is unknown.

    The first batch is the shuffled deck; notes put under the pile later form
    further batches, so none of them can be drawn while an earlier batch lasts.
    """

    batches: tuple[tuple[int, ...], ...]

    @classmethod
    def shuffled(cls, deck: Iterable[tuple[int, int]]) -> Pile:
        """A fresh pile holding every note of the deck, order unknown."""
        notes = tuple(sorted(value for value, count in deck for _ in range(count)))
        return cls((notes,))

    def __len__(self) -> int:
        return sum(len(batch) for batch in self.batches)

    def next_batch(self) -> tuple[int, ...]:
        """The notes one of which comes next (empty when the pile is used up)."""
        for batch in self.batches:
            if batch:
                return batch
        return ()

    def put_under(self, notes: Iterable[int]) -> Pile:
        """The pile with these notes put face down beneath it."""
        notes = tuple(sorted(notes))
        if not notes:
            return self
        return Pile(tuple(b for b in self.batches if b) + (notes,))

    def draw(self, note: int) -> Pile:
        """The pile after drawing this note from its top."""
        batches = [b for b in self.batches if b]
        if not batches:
            raise IllegalMove(
                "money pile",
                f"cannot draw {note_label(note)}: the pile is empty",
                why={"key": "pile_empty", "note": note},
            )
        first = batches[0]
        if note not in first:
            if any(note in b for b in batches[1:]):
                raise IllegalMove(
                    "money pile",
                    f"{note_label(note)} lies under the pile; {len(first)} "
                    "other notes must be drawn first",
                    why={"key": "pile_under", "note": note, "count": len(first)},
                )
            raise IllegalMove(
                "money pile",
                f"no {note_label(note)} is left in the pile",
                why={"key": "pile_none", "note": note},
            )
        index = first.index(note)
        batches[0] = first[:index] + first[index + 1 :]
        return Pile(tuple(batches))


def draw_notes(
    pile: Pile, discards: tuple[int, ...], notes: Iterable[int], reshuffle: bool
) -> tuple[Pile, tuple[int, ...]]:
    """Draw a group of notes whose order among themselves is unknown.

    When the pile runs out and `reshuffle` is set, the notes that left play are
    shuffled into a new pile first. Returns the pile and the notes out of play.
    """
    pending = list(notes)
    while pending:
        if not len(pile) and reshuffle and discards:
            pile, discards = Pile((tuple(sorted(discards)),)), ()
        batch = pile.next_batch()
        note = next((n for n in pending if n in batch), pending[0])
        pile = pile.draw(note)
        pending.remove(note)
    return pile, discards


def pile_exhausted(pile: Pile, discards: tuple[int, ...], reshuffle: bool) -> bool:
    """Whether no further note can be drawn, even after a reshuffle."""
    return not len(pile) and not (reshuffle and discards)
