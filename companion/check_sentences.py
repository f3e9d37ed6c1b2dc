"""The sentences of the table check as keys with values: a difference between the table and the
game, or what a difference changes at the payout. The English words come from `CHECK_TEXTS`;
a page words the same key and values in its own language."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.events import SLOT_MACHINE
from companion.money import note_label

CHECK_TEXTS = {
    "differs": "the table shows {shown} on {where}{table_size}, the game has {game}{game_size}",
    "stranger": "the table shows {count} {colour} {dice} on {where} "
    "of a colour no one plays in this game",
    "not_seen": "the camera does not see {where}",
    "tie_made": "with {dice}, {first} ties with {second} and both are cancelled",
    "tie_made_all": "with {dice}, {owners} tie and all are cancelled",
    "tie_broken": "{owners} no longer tie",
    "gets": "{owner} gets {now} instead of {before}",
    "no_change": "no change at payout",
    "unsure": "not known while {count} {dice} not read for sure",
    "unseen": "unknown: the dice there are not seen",
    "if_reading": "if it is {dice}: {effect}",
}
"""English text of each sentence of the check; the page words them in its own language."""


@dataclass(frozen=True, slots=True)
class Owner:
    """An owner of dice as a sentence names it: its key (the player's name, "neutral" or
    "grey"), its dice colour where known, and whether it is a player."""

    key: str
    colour: str | None
    player: bool

    def words(self) -> str:
        """'red (Anna)', 'white' for neutral dice; 'Anna' or 'neutral dice' with no colour."""
        if self.colour is None:
            return self.key if self.player else f"{self.key} dice"
        return f"{self.colour} ({self.key})" if self.player else self.colour

    def count_words(self, count: int) -> str:
        """'3 red (Anna)', or '3 for Anna' where the colour is not known."""
        return f"{count} for {self.key}" if self.colour is None else f"{count} {self.words()}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.key, "colour": self.colour, "player": self.player}


Size = tuple[int, int]
"""An owner's dice on a casino by size where a Biggy is among them: (Biggies, regular dice)."""

SentenceValue = (
    int | str | Owner | tuple[Owner, ...] | tuple[int, ...] | tuple["Sentence", ...] | None
)
"""A value a sentence needs: a count, a casino (7: the slot machine), a colour, an owner, the
owners of a tie, notes (an empty tuple: nothing), a size, dice values on the slot machine
(None where the sentence has no size or values on that side), or the sentences of an effect
at payout (`effect`, where a die not read for sure is read one way)."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of the check: a key of `CHECK_TEXTS` and its values by name.

    `where` is a casino's number; `table_size`/`game_size` a `Size` or None;
    `table_values`/`game_values` dice values (slot machine) or None; `now`/`before` notes; on
    an `if_reading`, `values` (where given) the values of a slot machine die in doubt for its
    pips alone that give its `effect`."""

    key: str
    values: tuple[tuple[str, SentenceValue], ...] = ()

    @classmethod
    def of(cls, key: str, **values: SentenceValue) -> Sentence:
        """A sentence from its key and named values."""
        return cls(key, tuple(values.items()))

    def text(self) -> str:
        """The sentence in English."""
        values = dict(self.values)
        words: dict[str, object] = dict(values)
        if "where" in values:
            where = values["where"]
            words["where"] = "the slot machine" if where == SLOT_MACHINE else f"casino {where}"
        owner = values.get("owner")
        if self.key == "differs" and isinstance(owner, Owner):
            words["shown"] = owner.count_words(_int(values["table"]))
            for side in ("table", "game"):
                words[f"{side}_size"] = _size_words(
                    values.get(f"{side}_size"), values.get(f"{side}_values")
                )
        elif isinstance(owner, Owner):
            words["owner"] = owner.words()
        for side in ("now", "before"):
            if side in values:
                words[side] = _money(values[side])
        owners = values.get("owners")
        if isinstance(owners, tuple):
            names = [o.words() for o in owners if isinstance(o, Owner)]
            words["owners"] = _joined(names)
            words["first"], words["second"] = (names + ["", ""])[:2]
        effect = values.get("effect")
        if isinstance(effect, tuple):
            words["effect"] = ", ".join(e.text() for e in effect if isinstance(e, Sentence))
        if self.key == "if_reading":
            words["dice"] = _reading_words(
                values.get("no_die"), values.get("regular"), values.get("biggy")
            ) + _showing_any(values.get("values"))
        if self.key in ("stranger", "unsure"):
            one = _int(values["count"]) == 1
            if self.key == "stranger":
                words["dice"] = "die" if one else "dice"
            else:
                words["dice"] = "die is" if one else "dice are"
        return CHECK_TEXTS[self.key].format(**words)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: `{"key": ..., **values}`, an owner as `{"name", "colour", "player"}`."""
        return {"key": self.key} | {name: _json(value) for name, value in self.values}


def _int(value: SentenceValue) -> int:
    return value if isinstance(value, int) else 0


def _json(value: SentenceValue | Sentence) -> Any:
    if isinstance(value, Owner | Sentence):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def _reading_words(no_die: SentenceValue, regular: SentenceValue, biggy: SentenceValue) -> str:
    """'no die or a die of red (Anna) or a Biggy of blue (Ben)': readings of a die not read
    for sure."""
    parts = ["no die"] if no_die else []
    parts.extend(
        f"a {kind} of {owner.words()}"
        for kind, owners in (("die", regular), ("Biggy", biggy))
        if isinstance(owners, tuple)
        for owner in owners
        if isinstance(owner, Owner)
    )
    return " or ".join(parts)


def _showing_any(values: SentenceValue) -> str:
    """' showing 4 or 5': the values a die in doubt for its pips alone may show, else ''."""
    if not isinstance(values, tuple) or not values:
        return ""
    return " showing " + " or ".join(str(v) for v in values)


def _dice_count(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _size_words(size: SentenceValue, values: SentenceValue) -> str:
    """' (a Biggy and 1 die)' for a size, ' showing 5 5 3' for slot values, else ''."""
    if isinstance(values, tuple):
        return " showing " + " ".join(str(v) for v in values)
    if not isinstance(size, tuple) or len(size) != 2:
        return ""
    biggies, regular = (v if isinstance(v, int) else 0 for v in size)
    parts = []
    if biggies:
        parts.append("a Biggy" if biggies == 1 else f"{biggies} Biggies")
    if regular:
        parts.append(_dice_count(regular))
    return f" ({' and '.join(parts)})"


def _money(notes: SentenceValue) -> str:
    if not isinstance(notes, tuple) or not notes:
        return "nothing"
    return " and ".join(note_label(n) for n in notes if isinstance(n, int))


def _joined(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def joined_text(sentences: Sequence[Sentence]) -> str:
    """Sentences in English, joined by '; ' (the payout's changes as one line)."""
    return "; ".join(s.text() for s in sentences)
