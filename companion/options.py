"""The game options, each described once: the one table that checks a setting and builds the form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalMove

_KIND_NAMES: dict[type, str] = {bool: "bool", int: "int", str: "str"}
"""How the setup form names each kind of value (the field types of `Rules`)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One game option: the kind of its value and the values the rules allow.

    `choices` lists the only values allowed; `low` and `high` bound a whole number,
    and `meaning` says what the bounds stand for in a refusal.
    """

    kind: type
    choices: tuple[Any, ...] = ()
    low: int | None = None
    high: int | None = None
    meaning: str = ""

    def check(self, name: str, value: Any) -> Any:
        """The value as the rules hold it, or IllegalMove naming the option and the value."""
        if self.kind is bool and not isinstance(value, bool):
            raise IllegalMove("option type", f"{name} must be true or false, got {value!r}")
        if self.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise IllegalMove("option type", f"{name} must be a whole number, got {value!r}")
        if self.kind is str and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # a one-number setting typed on the command line
        if self.kind is str and not isinstance(value, str):
            raise IllegalMove("option type", f"{name} must be text, got {value!r}")
        if self.choices and value not in self.choices:
            choices = ", ".join(map(str, self.choices))
            raise IllegalMove("option value", f"{name} must be one of {choices}, got {value!r}")
        low = self.low if self.low is not None else value
        high = self.high if self.high is not None else value
        if not low <= value <= high:
            meaning = f" ({self.meaning})" if self.meaning else ""
            raise IllegalMove(
                "option value", f"{name} must be {self.low}-{self.high}{meaning}, got {value}"
            )
        return value

    def spec(self, name: str, default: Any) -> dict[str, Any]:
        """The option as the setup form reads it: name, type, default, choices, min and max."""
        spec: dict[str, Any] = {"name": name, "type": _KIND_NAMES[self.kind], "default": default}
        if self.choices:
            spec["choices"] = list(self.choices)
        if self.low is not None:
            spec["min"] = self.low
        if self.high is not None:
            spec["max"] = self.high
        return spec


OPTIONS: dict[str, Option] = {
    # Las Vegas 2012 and its expansions
    "neutral_dice": Option(bool),
    "min_money_by_players": Option(bool),
    "big_notes": Option(bool),
    "biggies": Option(bool),
    "kickers": Option(bool),
    "two_kickers": Option(bool),
    "rainbow": Option(bool),
    "slot_machine": Option(bool),
    "chip_cards": Option(bool),
    "leftovers": Option(str, choices=("pile", "out")),
    "reshuffle": Option(bool),
    # the custom edition's house rules: a skip limit of once or twice a round, or none
    "skip_rule": Option(str, choices=("none", "chips", "cards")),
    "skip_limit": Option(int, low=0, high=2, meaning="0: no limit"),
    "rounds": Option(int, low=1, high=10),
    # the card game
    "sequential": Option(bool),
    # Las Vegas Royale: tiles lie beside casinos 1 to 6 at most
    "tiles": Option(int, low=0, high=6, meaning="one per casino at most"),
    "power_play": Option(str, choices=("next", "any")),
    "money_cards": Option(str),
    "black_box": Option(str),
    "fifty_fifty": Option(str),
    "no_entry": Option(str),
    "nice_dice": Option(str),
}
"""Every game option by name; an edition offers some of them (`rules.OPTION_NAMES`)."""
