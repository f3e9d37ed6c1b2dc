"""Events: every change to a game is one of these, applied by `engine.apply`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

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

    def values(self) -> tuple[int, ...]:
        """Every value shown, whatever the kind of die."""
        return self.regular + self.neutral + self.biggy + self.kickers


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
    )
}


def event_to_dict(event: Event) -> dict[str, Any]:
    """A plain JSON-ready dict for storage in the session log."""
    data: dict[str, Any] = {"type": event.kind}
    for name in event.__slots__:  # type: ignore[union-attr]
        value = getattr(event, name)
        if name == "kicks":
            value = [{"owner": k.owner, "big": k.big} for k in value]
        elif name == "choice":
            value = {k: list(v) if isinstance(v, tuple) else v for k, v in value}
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        data[name] = value
    return data


def _ints(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise IllegalMove(
            "malformed event", f"{name} must be a list of whole numbers, got {value!r}"
        )
    return tuple(value)


def tile_decision(casino: Any, choice: Any) -> TileDecision:
    """A TileDecision from JSON-like values, lists frozen into tuples."""
    if not isinstance(casino, int) or not isinstance(choice, dict):
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
    """Rebuild an event from `event_to_dict` output, checking its shape."""
    if not isinstance(data, dict) or data.get("type") not in EVENT_TYPES:
        raise IllegalMove("malformed event", f"unknown event {data!r}")
    kind = data["type"]
    try:
        if kind == "deal":
            return DealRound(
                casinos=tuple(_ints(c, "casinos") for c in data["casinos"]),
                chip_cards=tuple(str(c) for c in data.get("chip_cards", ())),
                neutral_start=_ints(data.get("neutral_start", []), "neutral_start"),
                tiles=tuple(str(t) for t in data.get("tiles", ())),
            )
        if kind == "roll":
            return Roll(
                regular=_ints(data["regular"], "regular"),
                neutral=_ints(data.get("neutral", []), "neutral"),
                biggy=_ints(data.get("biggy", []), "biggy"),
                kickers=_ints(data.get("kickers", []), "kickers"),
            )
        if kind == "place":
            number = data["number"]
            if not isinstance(number, int) or isinstance(number, bool):
                raise IllegalMove("malformed event", f"number must be 1-6, got {number!r}")
            chip = data.get("chip")
            return Place(
                number=number,
                slot=bool(data.get("slot", False)),
                kicks=tuple(
                    Kick(int(k["owner"]), bool(k.get("big", False))) for k in data.get("kicks", ())
                ),
                chip=None if chip is None else str(chip),
            )
        if kind == "skip":
            return Skip()
        if kind == "power_play":
            number = data["number"]
            if not isinstance(number, int) or isinstance(number, bool):
                raise IllegalMove("malformed event", f"number must be 1-6, got {number!r}")
            return PowerPlay(number, bool(data.get("big", False)))
        if kind == "tile":
            return tile_decision(data["casino"], data["choice"])
        if kind == "cards":
            return PlayCards(
                cards=tuple(_pair(c, "cards") for c in data["cards"]),
                chips=tuple((int(c[0]), str(c[1])) for c in data.get("chips", ())),
            )
        if kind == "rainbow":
            return ReplaceRainbows(draws=tuple(_ints(d, "draws") for d in data["draws"]))
        return ResolvePayout(slot_choices=_ints(data.get("slot_choices", []), "slot_choices"))
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, IllegalMove):
            raise
        raise IllegalMove("malformed event", f"{kind} event {data!r}: {error}") from None
