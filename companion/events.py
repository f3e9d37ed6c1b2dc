"""Events: every change to a game is one of these, applied by `engine.apply`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from companion.dice import DieKind
from companion.errors import IllegalMove

SLOT_MACHINE = 7
"""Casino number of the slot machine (the seventh casino)."""


@dataclass(frozen=True, slots=True)
class DealRound:
    """The notes (and chip cards) laid out at each casino, and the 3-player white pair."""

    kind: ClassVar[str] = "deal"
    casinos: tuple[tuple[int, ...], ...]
    chip_cards: tuple[str, ...] = ()
    neutral_start: tuple[int, ...] = ()
    tiles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Roll:
    """The values the player to move rolled, by kind of die."""

    kind: ClassVar[str] = "roll"
    regular: tuple[int, ...]
    neutral: tuple[int, ...] = ()
    biggy: tuple[int, ...] = ()
    kickers: tuple[int, ...] = ()

    def of(self, kind: DieKind) -> tuple[int, ...]:
        """The values shown by the dice of one kind."""
        values: tuple[int, ...] = getattr(self, kind)
        return values

    def counted(self, number: int) -> int:
        """The dice showing `number` that stay on a casino, counted: a Biggy counts two, and a
        kicker leaves once it has kicked."""
        biggy = DieKind.BIGGY.counts_as * self.biggy.count(number)
        return self.regular.count(number) + self.neutral.count(number) + biggy

    def values(self) -> tuple[int, ...]:
        """Every value shown, whatever the kind of die."""
        return self.regular + self.neutral + self.biggy + self.kickers  # ROLL_KINDS, unrolled: hot


ROLL_KINDS: tuple[DieKind, ...] = tuple(DieKind(field.name) for field in fields(Roll))
"""The kinds of die in the order a roll lists them (and a game record writes them)."""

SPECIAL_KINDS = ROLL_KINDS[1:]
"""The kinds besides the regular dice: a record and a line of text name them only when rolled."""


@dataclass(frozen=True, slots=True)
class Kick:
    """The die a kicker knocks off: its owner (seat, or an imaginary owner) and size."""

    owner: int
    big: bool = False


@dataclass(frozen=True, slots=True)
class Place:
    """Place every rolled die showing `number` on its casino (or on the slot machine)."""

    kind: ClassVar[str] = "place"
    number: int
    slot: bool = False
    kicks: tuple[Kick, ...] = ()
    chip: str | None = None


@dataclass(frozen=True, slots=True)
class Skip:
    """Pay a chip or discard a skip card and place nothing this turn."""

    kind: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class PlayCards:
    """Card game: the dice cards a player lays out, as (casino number, dice on the card)."""

    kind: ClassVar[str] = "cards"
    cards: tuple[tuple[int, int], ...]
    chips: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PowerPlay:
    """Royale Power Play: instead of rolling, turn one die in hand to `number` and place it."""

    kind: ClassVar[str] = "power_play"
    number: int
    big: bool = False


@dataclass(frozen=True, slots=True)
class TileDecision:
    """Royale: the outcome of a tile the companion cannot see or decide (dice, guesses, choices)."""

    kind: ClassVar[str] = "tile"
    casino: int
    choice: tuple[tuple[str, Any], ...]

    def get(self, key: str, default: Any = None) -> Any:
        """One value of the choice."""
        return dict(self.choice).get(key, default)


@dataclass(frozen=True, slots=True)
class ReplaceRainbows:
    """Cards drawn, casino by casino, to replace the Rainbow cards before payout."""

    kind: ClassVar[str] = "rainbow"
    draws: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class ResolvePayout:
    """Pay out every casino; `slot_choices` are the notes the slot machine's winners chose."""

    kind: ClassVar[str] = "payout"
    slot_choices: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TableDie:
    """A die as it lies on a casino: its owner (seat, or an imaginary owner), whether it is a
    Biggy, and its value (None on casinos 1-6, where a die shows the casino's number)."""

    owner: int
    big: bool = False
    value: int | None = None


@dataclass(frozen=True, slots=True)
class CorrectCasino:
    """Set what lies on a casino (or the slot machine) to what the table shows: every die there,
    by owner and size. It puts right a die on the wrong casino, one knocked off or one added."""

    kind: ClassVar[str] = "correct"
    casino: int
    dice: tuple[TableDie, ...]


Event = (
    DealRound
    | Roll
    | Place
    | Skip
    | PlayCards
    | PowerPlay
    | TileDecision
    | ReplaceRainbows
    | ResolvePayout
    | CorrectCasino
)

EVENT_TYPES: dict[str, type] = {
    cls.kind: cls
    for cls in (
        DealRound,
        Roll,
        Place,
        Skip,
        PlayCards,
        PowerPlay,
        TileDecision,
        ReplaceRainbows,
        ResolvePayout,
        CorrectCasino,
    )
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """A plain JSON-ready dict for storage in the session log."""
    data: dict[str, Any] = {"type": event.kind}
    for name in event.__slots__:  # type: ignore[union-attr]
        value = getattr(event, name)
        if name == "kicks":
            value = [{"owner": k.owner, "big": k.big} for k in value]
        elif name == "dice":
            value = [table_die_to_dict(d) for d in value]
        elif name == "choice":
            value = {k: list(v) if isinstance(v, tuple) else v for k, v in value}
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        data[name] = value
    return data


def _malformed(name: str, should: str, value: Any) -> IllegalMove:
    """The refusal of an event field of the wrong type: it names the field and the value."""
    return IllegalMove("malformed event", f"{name} must be {should}, got {value!r:.80}")


def _ints(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise _malformed(name, "a list of whole numbers", value)
    return tuple(value)


def _int(value: Any, name: str, should: str = "a whole number") -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _malformed(name, should, value)
    return value


def _flag(data: dict[str, Any], name: str) -> bool:
    """A true/false field; anything but a JSON boolean (such as "no", which is truthy) is refused."""
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise _malformed(name, "true or false", value)
    return value


def _texts(value: Any, name: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _malformed(name, "a list of texts", value)
    return tuple(value)


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _malformed(name, "a list", value)
    return list(value)


def _kick(value: Any) -> Kick:
    if not isinstance(value, dict):
        raise _malformed("kicks", 'a list of objects like {"owner": 1, "big": false}', value)
    return Kick(_int(value.get("owner"), "kick owner", "a seat number"), _flag(value, "big"))


def table_die_to_dict(die: TableDie) -> dict[str, Any]:
    """A die on a casino as JSON: owner and size, and its value where one is given."""
    data: dict[str, Any] = {"owner": die.owner, "big": die.big}
    return data if die.value is None else data | {"value": die.value}


def _table_die(value: Any) -> TableDie:
    if not isinstance(value, dict):
        raise _malformed(
            "dice", 'a list of objects like {"owner": 1, "big": false, "value": 5}', value
        )
    number = value.get("value")
    return TableDie(
        _int(value.get("owner"), "die owner", "a seat number"),
        _flag(value, "big"),
        None if number is None else _int(number, "die value", "1-6 or absent"),
    )


def _correct(data: dict[str, Any]) -> CorrectCasino:
    return CorrectCasino(
        casino=_int(data["casino"], "casino", "a casino number (7: the slot machine)"),
        dice=tuple(_table_die(d) for d in _list(data["dice"], "dice")),
    )


def _chip(value: Any) -> tuple[int, str]:
    if not isinstance(value, list | tuple) or len(value) != 2 or not isinstance(value[1], str):
        raise _malformed("chips", "a list of [casino, colour] pairs", value)
    return _int(value[0], "chips", "a list of [casino, colour] pairs"), value[1]


def tile_decision(casino: Any, choice: Any) -> TileDecision:
    """A TileDecision from JSON-like values, lists frozen into tuples."""
    if not isinstance(casino, int) or isinstance(casino, bool) or not isinstance(choice, dict):
        raise IllegalMove(
            "malformed event", f"tile decision needs a casino and a choice object, got {choice!r}"
        )
    items = tuple(
        sorted((str(k), tuple(v) if isinstance(v, list) else v) for k, v in choice.items())
    )
    return TileDecision(casino, items)


def _pair(value: Any, name: str) -> tuple[int, int]:
    pair = _ints(value, name)
    if len(pair) != 2:
        raise IllegalMove("malformed event", f"{name}: a card is [number, dice], got {value!r}")
    return pair[0], pair[1]


def event_from_dict(data: Any) -> Event:
    """Rebuild an event from `event_to_dict` output, checking its shape.

    A field of the wrong type is refused with IllegalMove (a ValueError) naming it: the page's
    events and the game file's log both come through here.
    """
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise IllegalMove("malformed event", f"unknown event {data!r:.80}")
    try:
        return _EVENT_READERS[kind](data)
    except KeyError as error:
        raise IllegalMove("malformed event", f"{kind} event lacks {error}") from None


def _deal(data: dict[str, Any]) -> DealRound:
    return DealRound(
        casinos=tuple(_ints(c, "casinos") for c in _list(data["casinos"], "casinos")),
        chip_cards=_texts(data.get("chip_cards", []), "chip_cards"),
        neutral_start=_ints(data.get("neutral_start", []), "neutral_start"),
        tiles=_texts(data.get("tiles", []), "tiles"),
    )


def _roll(data: dict[str, Any]) -> Roll:
    given = {kind.value: data.get(kind.value, []) for kind in ROLL_KINDS}
    given[DieKind.REGULAR.value] = data[DieKind.REGULAR.value]  # always listed, even when empty
    return Roll(**{name: _ints(values, name) for name, values in given.items()})


def _place(data: dict[str, Any]) -> Place:
    chip = data.get("chip")
    if chip is not None and not isinstance(chip, str):
        raise _malformed("chip", "a chip colour or null", chip)
    return Place(
        number=_int(data["number"], "number", "1-6"),
        slot=_flag(data, "slot"),
        kicks=tuple(_kick(k) for k in _list(data.get("kicks", []), "kicks")),
        chip=chip,
    )


def _cards(data: dict[str, Any]) -> PlayCards:
    return PlayCards(
        cards=tuple(_pair(c, "cards") for c in _list(data["cards"], "cards")),
        chips=tuple(_chip(c) for c in _list(data.get("chips", []), "chips")),
    )


_EVENT_READERS: dict[str, Callable[[dict[str, Any]], Event]] = {
    "deal": _deal,
    "roll": _roll,
    "place": _place,
    "skip": lambda data: Skip(),
    "power_play": lambda data: PowerPlay(_int(data["number"], "number", "1-6"), _flag(data, "big")),
    "tile": lambda data: tile_decision(data["casino"], data["choice"]),
    "cards": _cards,
    "rainbow": lambda data: ReplaceRainbows(
        draws=tuple(_ints(d, "draws") for d in _list(data["draws"], "draws"))
    ),
    "payout": lambda data: ResolvePayout(
        slot_choices=_ints(data.get("slot_choices", []), "slot_choices")
    ),
    "correct": _correct,
}
"""How each kind of event is read from its JSON."""
