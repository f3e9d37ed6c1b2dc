"""The immutable game state and the small value types it is built from."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from companion.dice import DieKind
from companion.errors import IllegalMove
from companion.events import Roll
from companion.money import Pile
from companion.rules import CHIP_CARD_COLOURS, CHIP_CARDS_PER_COLOUR, Rules
from companion.tile_codes import TileCode

if TYPE_CHECKING:
    from companion.payout import RoundPayout

WHITE = -1
"""The imaginary owner of the neutral white dice (Las Vegas 2012)."""

NEUTRAL_SET = -3
"""The imaginary owner of the non-player colour in 2-player Las Vegas Royale."""

GREY = -2
"""The imaginary owner of Royale's blank grey dice (Block It, Handicap)."""

IMAGINARY_OWNERS = {WHITE: "white", GREY: "grey", NEUTRAL_SET: "neutral"}

MAX_NAME = 24
"""The longest player name: it fits a seat on the page, and every push to a page carries it."""


class Phase(StrEnum):
    """What the game waits for next."""

    DEAL = "deal"
    ROLL = "roll"
    CHOOSE = "choose"
    CARDS = "cards"
    TILE = "tile"
    RAINBOW = "rainbow"
    PAYOUT = "payout"
    OVER = "over"


class Supply(NamedTuple):
    """The dice a player still holds this round, by kind."""

    regular: int = 0
    biggy: int = 0
    kickers: int = 0
    neutral: int = 0

    def total(self) -> int:
        """All dice the player would roll now."""
        return sum(self)

    def of(self, kind: DieKind) -> int:
        """How many dice of one kind are held."""
        count: int = getattr(self, kind)
        return count

    def moved(self, big: bool, count: int) -> Supply:
        """The supply with `count` regular dice (or Biggies) added, or taken when negative."""
        if big:
            return self._replace(biggy=self.biggy + count)
        return self._replace(regular=self.regular + count)

    def holds(self, big: bool) -> bool:
        """Whether a regular die (or the Biggy) is in hand."""
        return (self.biggy if big else self.regular) > 0


SUPPLY_KINDS: tuple[DieKind, ...] = tuple(DieKind(name) for name in Supply._fields)
"""The kinds of die in the order a supply lists them."""


class PlacedDie(NamedTuple):
    """A die lying on a casino: whose it is, its value, whether it is a Biggy, when placed."""

    owner: int
    value: int
    big: bool
    turn: int
    extra: bool = False


@dataclass(frozen=True, slots=True)
class Casino:
    """One casino (1-6) or the slot machine (7): its notes, dice and chip cards."""

    number: int
    notes: tuple[int, ...] = ()
    dice: tuple[PlacedDie, ...] = ()
    chip_cards: tuple[str, ...] = ()

    def counted(self) -> dict[int, int]:
        """Counted dice per owner (a Biggy counts two)."""
        counts: dict[int, int] = {}
        for die in self.dice:
            counts[die.owner] = counts.get(die.owner, 0) + (2 if die.big else 1)
        return counts


@dataclass(frozen=True, slots=True)
class Tile:
    """A Royale casino tile for this round: its counter, token holder and dice lying on it."""

    code: TileCode
    casino: int
    level: int = 0
    holder: int | None = None
    dice: tuple[PlacedDie, ...] = ()
    spaces: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", TileCode(self.code))  # a code read as text, too


@dataclass(frozen=True, slots=True)
class Pending:
    """A tile decision the game waits for: which tile, whose, and what is asked."""

    casino: int
    code: TileCode
    seat: int
    ask: str
    context: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", TileCode(self.code))  # a code read as text, too


@dataclass(frozen=True, slots=True)
class GameState:
    """A whole game at one moment. Never changed in place: `engine.apply` returns a new one."""

    rules: Rules
    players: tuple[str, ...]
    phase: Phase
    round: int
    start_player: int
    current: int
    turn: int
    supplies: tuple[Supply, ...]
    casinos: tuple[Casino, ...]
    pile: Pile
    discards: tuple[int, ...]
    winnings: tuple[tuple[int, ...], ...]
    skip_tokens: tuple[int, ...]
    skips_used: tuple[int, ...]
    chip_cards: tuple[tuple[str, ...], ...]
    chip_pile: tuple[str, ...]
    pending_roll: Roll | None = None
    white_out: int = 0
    payouts: tuple[RoundPayout, ...] = ()
    tiles: tuple[Tile, ...] = ()
    bank: tuple[int, ...] = ()
    pending: Pending | None = None
    bank_cards: tuple[int, ...] = ()
    """Royale: money cards each player took from the bank (for the end tie-break)."""

    def tile_at(self, number: int) -> Tile | None:
        """The Royale tile beside a casino this round, if any."""
        return next((t for t in self.tiles if t.casino == number), None)

    def owner_name(self, owner: int) -> str:
        """A player's name, or the name of an imaginary owner such as 'white'."""
        return self.players[owner] if owner >= 0 else IMAGINARY_OWNERS[owner]

    def casino(self, number: int) -> Casino:
        """Casino 1-6, or 7 for the slot machine."""
        return self.casinos[number - 1]

    def to_move(self) -> str:
        """Name of the player whose turn it is."""
        return self.players[self.current]


_CONTROL_CATEGORIES = ("Cc", "Zl", "Zp")
"""Control characters and line and paragraph separators: they break the line a name is on."""

_DIRECTION_CONTROLS = ("LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI")
"""Marks that turn the writing direction of whatever follows the name. The joiners that
build emoji (also invisible format characters) are allowed."""


def _is_control(char: str) -> bool:
    return (
        unicodedata.category(char) in _CONTROL_CATEGORIES
        or unicodedata.bidirectional(char) in _DIRECTION_CONTROLS
    )


def _shown(name: str) -> str:
    """A name as a message quotes it: a very long one cut short."""
    if len(name) <= MAX_NAME * 2:
        return repr(name)
    return f"{name[:MAX_NAME]!r}... ({len(name)} characters)"


def check_name(name: object) -> str:
    """The player name without its outer spaces; IllegalMove if it is empty, longer than
    MAX_NAME or holds a control character (a line break, a tab, a change of writing
    direction)."""
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        shown = _shown(name) if isinstance(name, str) else repr(name)
        raise IllegalMove(
            "player names",
            f"a player's name is 1-{MAX_NAME} characters, got {shown}",
            why={"key": "name_length", "most": MAX_NAME},
        )
    hidden = [c for c in name if _is_control(c)]
    if hidden:
        # No keyboard at the table types these: they come from a program, so no page words.
        raise IllegalMove(
            "player names",
            f"a player's name holds no control characters, got {_shown(name)} "
            f"(with {', '.join(f'U+{ord(c):04X}' for c in hidden[:3])})",
        )
    return name.strip()


def new_game(
    rules: Rules,
    players: list[str] | tuple[str, ...],
    start_player: int = 0,
    *,
    stored: bool = False,
) -> GameState:
    """The state before the first deal, with the given seats and start player.

    `stored` marks a game read back from a game file: its names were checked when it began,
    and one begun before the name rule (`check_name`) still opens.
    """
    players = tuple(players)
    count = len(players)
    if not rules.min_players <= count <= rules.max_players:
        raise IllegalMove(
            "player count",
            f"{rules.edition} is for {rules.min_players}-{rules.max_players} players, got {count}",
            why={
                "key": "player_count",
                "least": rules.min_players,
                "most": rules.max_players,
                "got": count,
            },
        )
    names = [p.strip() for p in players]
    if not stored:
        for name in players:
            check_name(name)
    if any(not n for n in names) or len(set(n.casefold() for n in names)) != count:
        raise IllegalMove(
            "player names",
            f"names must be non-empty and distinct, got {list(players)}",
            why={"key": "names_distinct"},
        )
    if any(n.casefold() in IMAGINARY_OWNERS.values() for n in names):
        raise IllegalMove(
            "player names",
            f"'white' and 'neutral' name imaginary owners; got {list(players)}",
            why={"key": "names_imaginary"},
        )
    if not 0 <= start_player < count:
        raise IllegalMove(
            "start player", f"seat {start_player} does not exist among {count} players"
        )
    chip_pile = tuple(
        sorted(c for c in CHIP_CARD_COLOURS for _ in range(CHIP_CARDS_PER_COLOUR))
        if rules.chip_cards
        else ()
    )
    return GameState(
        rules=rules,
        players=tuple(names),
        phase=Phase.DEAL,
        round=1,
        start_player=start_player,
        current=start_player,
        turn=0,
        supplies=tuple(Supply() for _ in names),
        casinos=tuple(Casino(number) for number in range(1, rules.casino_count() + 1)),
        pile=Pile.shuffled(rules.deck),
        discards=(),
        winnings=tuple(() for _ in names),
        skip_tokens=tuple(rules.skip_tokens for _ in names),
        skips_used=tuple(0 for _ in names),
        chip_cards=tuple(() for _ in names),
        chip_pile=chip_pile,
        bank=tuple(0 for _ in names),
        bank_cards=tuple(0 for _ in names),
    )
