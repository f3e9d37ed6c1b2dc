"""Frozen rule configurations: one per edition, with its variants as parameters."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import IllegalMove
from companion.options import OPTIONS

RAINBOW = 0
"""A Rainbow card in the money pile: worth $40,000 while dealt, replaced before payout."""

RAINBOW_DEAL_VALUE = 40_000

CLASSIC_DECK: tuple[tuple[int, int], ...] = (
    (10_000, 6),
    (20_000, 8),
    (30_000, 8),
    (40_000, 6),
    (50_000, 6),
    (60_000, 5),
    (70_000, 5),
    (80_000, 5),
    (90_000, 5),
)
BIG_NOTES: tuple[int, int] = (100_000, 5)
RAINBOW_CARDS: tuple[int, int] = (RAINBOW, 6)
MIN_MONEY_BY_PLAYERS = {2: 30_000, 3: 40_000, 4: 50_000, 5: 60_000, 6: 70_000}
CHIP_CARD_COLOURS = ("pink", "gold", "green", "blue", "silver")
CHIP_CARDS_PER_COLOUR = 5
CHIP_SET_BONUS = (0, 10_000, 30_000, 60_000, 100_000, 150_000)


ROYALE_DECK_TEXT = "30x11 40x11 50x13 60x15 70x13 80x11 90x9 100x7"
"""The 90 money cards: the best public count (the text gives only the total and the range)."""

BLACK_BOX_TEXT = "60 20 20 0 0 0"
"""Black Box tokens, in thousands: $60k, $20k, $20k and three empty (two public sources agree)."""

FIFTY_FIFTY_TEXT = "0 10 20 30 40 50 60"
"""Fifty Fifty's spaces after each throw: the text says only '$0-$60,000'."""

NO_ENTRY_TEXT = "0 1c 2c 30 40 50 60"
"""No Entry's spaces after the start: not printed in the text, which says only that empty
spaces pay nothing; set `no_entry` to what the tile shows."""

NICE_DICE_TEXT = "1c 2c 30 40 50 60"
"""Nice Dice's spaces 1-6: the text says '1 or 2 chips or $30,000-$60,000'."""


def parse_rewards(text: str) -> tuple[tuple[int, int], ...]:
    """'0 1c 2c 30 40' (thousands; 'c' for chips; '-' or 0 for an empty space) into
    (money, chips) pairs; IllegalMove on anything else."""
    rewards: list[tuple[int, int]] = []
    for token in text.replace(",", " ").split():
        token = token.lower()
        if token == "-":
            rewards.append((0, 0))
        elif token.endswith("c") and token[:-1].isdigit():
            rewards.append((0, int(token[:-1])))
        elif token.isdigit():
            rewards.append((int(token) * 1000, 0))
        else:
            raise IllegalMove(
                "option value", f"cannot read {token!r}: use thousands like 30, or 2c for 2 chips"
            )
    return tuple(rewards)


def parse_deck(text: str) -> tuple[tuple[int, int], ...]:
    """'30x11 40x11 ...' (thousands x count) into (value, count) pairs."""
    deck: list[tuple[int, int]] = []
    for token in text.replace(",", " ").split():
        value, _, count = token.lower().partition("x")
        if not value.isdigit() or not count.isdigit() or not int(value) or not int(count):
            raise IllegalMove(
                "option value", f"cannot read {token!r}: each card value as thousands x count"
            )
        deck.append((int(value) * 1000, int(count)))
    if len({v for v, _ in deck}) != len(deck) or sum(c for _, c in deck) < 36:
        raise IllegalMove(
            "option value",
            f"money_cards needs distinct values and at least 36 cards (3 rounds of 12), got {text!r}",
        )
    return tuple(sorted(deck))


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything an edition and its chosen variants decide, read once at game start."""

    edition: str
    min_players: int
    max_players: int
    rounds: int
    dice_per_player: int = 8
    biggies: bool = False
    kickers: bool = False
    neutral_dice: bool = False
    min_money_by_players: bool = False
    big_notes: bool = False
    rainbow: bool = False
    slot_machine: bool = False
    chip_cards: bool = False
    leftovers: str = "pile"
    reshuffle: bool = True
    notes_per_casino: int = 0
    start_player_rule: str = "left"
    skip_rule: str = "none"
    skip_limit: int = 0
    skip_tokens: int = 0
    play: str = "dice"
    max_turns: int = 0
    stop_at_cards: int = 0
    sequential: bool = False
    token_value: int = 1
    tokens_break_ties: bool = False
    tokens_per_round: int = 0
    pairs_by_total: bool = False
    tiles: int = 0
    deck: tuple[tuple[int, int], ...] = CLASSIC_DECK
    two_kickers: bool = True
    money_cards: str = ROYALE_DECK_TEXT
    black_box: str = BLACK_BOX_TEXT
    fifty_fifty: str = FIFTY_FIFTY_TEXT
    no_entry: str = NO_ENTRY_TEXT
    nice_dice: str = NICE_DICE_TEXT
    power_play: str = "next"

    def minimum_money(self, players: int) -> int:
        """The least money each casino must show after the deal."""
        if self.min_money_by_players:
            return MIN_MONEY_BY_PLAYERS[players]
        return 50_000

    def neutral_per_player(self, players: int) -> int:
        """White neutral dice each player rolls along with their own."""
        if not self.neutral_dice:
            return 0
        return 4 if players == 2 else 2

    def neutral_at_round_start(self, players: int) -> int:
        """Dice of an imaginary owner rolled onto the casinos before the first turn.

        Las Vegas 2012 with neutral dice and 3 players: two white dice. Royale with
        2 players: a non-player colour's full set, 7 dice and the Biggy (listed last).
        """
        if self.edition == "royale":
            return self.dice_per_player if players == 2 else 0
        return 2 if self.neutral_dice and players == 3 else 0

    def kickers_per_player(self, players: int) -> int:
        """Violet kicker dice each player swaps for regular dice.

        One each; with fewer than 6 players the English text says two 'should' be
        traded, the German that two 'can' be: `two_kickers` says which the table plays.
        """
        if not self.kickers:
            return 0
        return 2 if players < 6 and self.two_kickers else 1

    @property
    def black_box_tokens(self) -> tuple[int, ...]:
        """The six Black Box tokens in dollars (0 = an empty token)."""
        return tuple(money for money, _ in parse_rewards(self.black_box))

    @property
    def fifty_fifty_track(self) -> tuple[int, ...]:
        """Fifty Fifty's reward under the counter after the 1st, 2nd ... throw, in dollars."""
        return tuple(money for money, _ in parse_rewards(self.fifty_fifty))

    @property
    def no_entry_track(self) -> tuple[tuple[int, int], ...]:
        """(money, chips) on each space of No Entry's track after the start space."""
        return parse_rewards(self.no_entry)

    @property
    def nice_dice_rewards(self) -> tuple[tuple[int, int], ...]:
        """(money, chips) for a die on Nice Dice's spaces 1 to 6."""
        return parse_rewards(self.nice_dice)

    def casino_count(self) -> int:
        """Casinos that take dice: six, plus the slot machine as a seventh."""
        return 7 if self.slot_machine else 6

    def options(self) -> dict[str, Any]:
        """The variant settings that differ from the edition's defaults, for records."""
        base = EDITIONS[self.edition]({})
        return {
            name: getattr(self, name)
            for name in OPTION_NAMES[self.edition]
            if getattr(self, name) != getattr(base, name)
        }


def _classic(options: Mapping[str, Any]) -> Rules:
    rules = Rules(edition="classic", min_players=2, max_players=6, rounds=4)
    rules = _with_options(rules, options)
    deck = list(CLASSIC_DECK)
    if rules.big_notes:
        deck.append(BIG_NOTES)
    if rules.rainbow:
        deck.append(RAINBOW_CARDS)
    return replace(rules, deck=tuple(deck))


def _custom(options: Mapping[str, Any]) -> Rules:
    rules = Rules(
        edition="custom",
        min_players=2,
        max_players=8,
        rounds=4,
        leftovers="out",
        reshuffle=False,
        notes_per_casino=2,
        start_player_rule="casino6_winner",
        deck=tuple((rank, 8) for rank in range(3, 11)),
    )
    if options.get("skip_rule", "none") != "none" and "rounds" not in options:
        rules = replace(rules, rounds=3)
    rules = _with_options(rules, options)
    tokens = {"none": 0, "chips": 2, "cards": 4}[rules.skip_rule]
    return replace(rules, skip_tokens=tokens)


def _cards(options: Mapping[str, Any]) -> Rules:
    rules = Rules(
        edition="cards",
        min_players=2,
        max_players=5,
        rounds=4,
        dice_per_player=0,
        leftovers="out",
        reshuffle=False,
        notes_per_casino=2,
        play="cards",
        max_turns=6,
        stop_at_cards=8,
        deck=tuple((value, 6) for value in range(30_000, 100_001, 10_000)),
    )
    return _with_options(rules, options)


def _check_text_options(rules: Rules) -> Rules:
    """Read the text settings once, refusing a box the engine cannot play."""
    if rules.edition != "royale":
        return rules
    if len(rules.black_box_tokens) != 6 or any(c for _, c in parse_rewards(rules.black_box)):
        raise IllegalMove(
            "option value", f"black_box lists 6 tokens in thousands, got {rules.black_box!r}"
        )
    if not rules.fifty_fifty_track or any(c for _, c in parse_rewards(rules.fifty_fifty)):
        raise IllegalMove(
            "option value",
            f"fifty_fifty lists the money under each space, got {rules.fifty_fifty!r}",
        )
    if not rules.no_entry_track:
        raise IllegalMove("option value", "no_entry lists at least one space")
    if len(rules.nice_dice_rewards) != 6:
        raise IllegalMove(
            "option value", f"nice_dice lists the rewards of spaces 1-6, got {rules.nice_dice!r}"
        )
    return replace(rules, deck=parse_deck(rules.money_cards))


def _royale(options: Mapping[str, Any]) -> Rules:
    rules = Rules(
        edition="royale",
        min_players=2,
        max_players=5,
        rounds=3,
        biggies=True,
        notes_per_casino=2,
        pairs_by_total=True,
        start_player_rule="royale",
        skip_rule="chips",
        token_value=10_000,
        tokens_break_ties=True,
        tokens_per_round=2,
    )
    return _check_text_options(_with_options(rules, options))


EDITIONS = {"classic": _classic, "custom": _custom, "cards": _cards, "royale": _royale}

OPTION_NAMES: dict[str, tuple[str, ...]] = {
    "classic": (
        "neutral_dice",
        "min_money_by_players",
        "big_notes",
        "biggies",
        "kickers",
        "two_kickers",
        "rainbow",
        "slot_machine",
        "chip_cards",
        "leftovers",
        "reshuffle",
    ),
    "custom": ("skip_rule", "skip_limit", "rounds"),
    "cards": ("sequential", "chip_cards"),
    "royale": (
        "tiles",
        "leftovers",
        "power_play",
        "money_cards",
        "black_box",
        "fifty_fifty",
        "no_entry",
        "nice_dice",
    ),
}


def _with_options(rules: Rules, options: Mapping[str, Any]) -> Rules:
    allowed = OPTION_NAMES[rules.edition]
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name not in allowed:
            raise IllegalMove(
                "unknown option",
                f"{rules.edition} has no option {name!r}; known: {', '.join(allowed)}",
            )
        changes[name] = OPTIONS[name].check(name, value)
    return replace(rules, **changes)


def option_specs(edition: str) -> list[dict[str, Any]]:
    """Each option of an edition with its type, default and allowed values, for setup forms."""
    base = EDITIONS[edition]({})
    return [OPTIONS[name].spec(name, getattr(base, name)) for name in OPTION_NAMES[edition]]


def every_variant(edition: str) -> dict[str, Any]:
    """Every on/off variant of an edition switched on (for tests and benchmarks)."""
    base = EDITIONS[edition]({})
    return {name: True for name in OPTION_NAMES[edition] if isinstance(getattr(base, name), bool)}


def make_rules(edition: str, options: Mapping[str, Any] | None = None) -> Rules:
    """Build the frozen rules for an edition name and its option settings."""
    if edition not in EDITIONS:
        raise IllegalMove("unknown edition", f"{edition!r}; known: {', '.join(EDITIONS)}")
    return EDITIONS[edition](dict(options or {}))
