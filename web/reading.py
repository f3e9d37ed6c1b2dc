"""Turn what the camera read into a proposed roll for the player to move, flagging what does not fit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import IllegalMove
from companion.events import Roll
from companion.state import GameState, Phase

KINDS = ("regular", "biggy", "neutral", "kickers")
"""Kinds of dice in a roll, as in `Roll`'s fields."""

NEUTRAL_COLOUR = "white"
"""Las Vegas 2012's neutral dice are white."""

KICKER_COLOUR = "purple"
"""Las Vegas 2012's kickers are violet dice."""

KIND_NAMES = {
    "regular": ("die", "dice"),
    "biggy": ("Biggy", "Biggies"),
    "neutral": ("white die", "white dice"),
    "kickers": ("kicker", "kickers"),
}
"""English names of each kind of die, one and many."""

PROBLEM_TEXTS = {
    "not_rolling": "the game does not wait for a roll now",
    "other_colour": "{colour} is {owner}'s colour; it is {player}'s turn",
    "no_such_colour": "no dice of this game are {colour}",
    "too_many": "{player} has only {count} {kind} to roll",
    "blank": "a blank die is never rolled",
    "unsure": "could not be read for sure: cocked, half out of view or blurred",
    "missing": "read {seen} of {player}'s {count} {kind}",
}
"""English text of each problem; the page words them in its own language from the key."""


@dataclass(frozen=True)
class Problem:
    """Why a read die or a whole roll does not fit: a key and the values its text needs.

    A value named `kind` is a kind of die (see `KINDS`), worded as one or many
    after the value `count`; `colour` is a colour's name.
    """

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The problem in English."""
        values = dict(self.values)
        if "kind" in values:
            one, many = KIND_NAMES[values["kind"]]
            values["kind"] = one if values.get("count") == 1 else many
        return PROBLEM_TEXTS[self.key].format(**values)

    def to_dict(self) -> dict[str, Any]:
        """The key and values, for the page to word: {"key": "missing", "seen": 6, ...}."""
        return {"key": self.key, **self.values}


@dataclass(frozen=True)
class ReadDie:
    """One die as read (or as corrected by a player): pips, colour, size, sureness, box, and
    the reader's confidence (0-1) in it."""

    pips: int
    colour: str
    big: bool = False
    unsure: bool = False
    box: tuple[float, float, float, float] | None = None
    confidence: float = 1.0


def dice_from_detections(dicts: Sequence[Mapping[str, Any]]) -> list[ReadDie]:
    """ReadDie list from `Detections.to_dicts()` output."""
    return [
        ReadDie(
            int(d["pips"]),
            str(d["colour"]),
            d["size"] == "big",
            bool(d["unsure"]),
            tuple(d["box"]) if d.get("box") else None,
            float(d.get("confidence", 1.0)),
        )
        for d in dicts
    ]


def _kind_of(
    die: ReadDie, state: GameState, colours: Sequence[str]
) -> tuple[str | None, Problem | None]:
    """The kind a die would be in the current player's roll, or None and why it does not fit."""
    seat = state.current
    supply = state.supplies[seat]
    mine = colours[seat] if seat < len(colours) else None
    if die.colour == mine:
        return ("biggy" if die.big else "regular"), None
    if die.colour == NEUTRAL_COLOUR and supply.neutral:
        return "neutral", None
    if die.colour == KICKER_COLOUR and supply.kickers:
        return "kickers", None
    owners = [state.players[s] for s, c in enumerate(colours) if c == die.colour]
    if owners:
        values = {"colour": die.colour, "owner": owners[0], "player": state.to_move()}
        return None, Problem("other_colour", values)
    return None, Problem("no_such_colour", {"colour": die.colour})


def propose_roll(
    state: GameState, colours: Sequence[str], dice: Sequence[ReadDie]
) -> dict[str, Any]:
    """The dice with their kind and any problem, the problems of the whole roll, and the roll.

    `roll` is the Roll event (as a dict) only when every die fits: the player's or
    the neutral colours, read for sure, and exactly the dice the player holds.
    Where more dice of a kind are read than the player holds, the dice read least
    surely are the ones too many (a die read twice, or a stray one, is more often
    read weakly). Each problem comes as English text (`problem`, `problems`) and as
    a key with its values (`why`, `whys`) for the page to word in its language.
    """
    if state.phase is not Phase.ROLL:
        return _proposal([], [Problem("not_rolling")], None)
    supply = state.supplies[state.current]
    held = {
        "regular": supply.regular,
        "biggy": supply.biggy,
        "neutral": supply.neutral,
        "kickers": supply.kickers,
    }
    seen = dict.fromkeys(KINDS, 0)
    fits: dict[int, tuple[str | None, Problem | None]] = {}
    for i in sorted(range(len(dice)), key=lambda i: -dice[i].confidence):
        kind, problem = _kind_of(dice[i], state, colours)
        if kind is not None and seen[kind] >= held[kind]:
            values = {"player": state.to_move(), "count": held[kind], "kind": kind}
            problem = Problem("too_many", values)
            kind = None
        if kind is not None:
            seen[kind] += 1
        fits[i] = kind, problem
    out: list[dict[str, Any]] = []
    for i, die in enumerate(dice):
        kind, problem = fits[i]
        if problem is None and die.pips == 0:
            problem = Problem("blank")
        if problem is None and die.unsure:
            problem = Problem("unsure")
        out.append(
            {
                "pips": die.pips,
                "colour": die.colour,
                "big": die.big,
                "kind": kind,
                "problem": problem.text() if problem else None,
                "why": problem.to_dict() if problem else None,
                "box": list(die.box) if die.box else None,
            }
        )
    problems = [
        Problem(
            "missing", {"seen": seen[k], "player": state.to_move(), "count": held[k], "kind": k}
        )
        for k in KINDS
        if seen[k] < held[k]
    ]
    roll = None
    if not problems and all(d["problem"] is None for d in out):
        values = {k: sorted(int(d["pips"]) for d in out if d["kind"] == k) for k in KINDS}
        roll = {"type": "roll", **values}
    return _proposal(out, problems, roll)


def propose_throw(
    state: GameState, colours: Sequence[str], dice: Sequence[ReadDie], thrown: Sequence[bool]
) -> dict[str, Any]:
    """`propose_roll` for the dice of a settled throw, and how many of them it left out.

    Where the dice do not fit but those `thrown` alone do (the others lay there, with the
    same pips, before the throw: a die left in the arena, a printed pattern read as a die),
    those are the proposal. Where only all of them fit (a cocked die set flat again, the
    others lying still), all count. Where neither fits, the one with fewer problems is shown
    (all dice where both have as many), for a person to correct. `left_out` is the number of
    dice left out.
    """
    proposal = propose_roll(state, colours, dice)
    if proposal["roll"] is None and not all(thrown):
        fresh = [die for die, new in zip(dice, thrown, strict=True) if new]
        alone = propose_roll(state, colours, fresh)
        if alone["roll"] is not None or _problem_count(alone) < _problem_count(proposal):
            return alone | {"left_out": len(dice) - len(fresh)}
    return proposal | {"left_out": 0}


def extra_dice_throw(
    state: GameState, dice: Sequence[ReadDie], thrown: Sequence[bool]
) -> dict[str, Any] | None:
    """The tile decision for the two extra dice a tile throws, as the camera read them.

    Only the dice of this throw count (not those that lay there before). None unless the
    game waits for such a throw and exactly two dice were read for sure; Prime Time is
    left to the player, who also says which of them they place.
    """
    pending = state.pending
    if state.phase is not Phase.TILE or pending is None or pending.ask != "extra dice":
        return None
    fresh = [die for die, new in zip(dice, thrown, strict=True) if new]
    if pending.code == "B1" or len(fresh) != 2:
        return None
    if any(die.unsure or not 1 <= die.pips <= 6 for die in fresh):
        return None
    return {"type": "tile", "casino": pending.casino, "choice": {"dice": [d.pips for d in fresh]}}


def _problem_count(proposal: Mapping[str, Any]) -> int:
    """How many problems a proposal has: its dice's and the whole roll's."""
    return sum(d["why"] is not None for d in proposal["dice"]) + len(proposal["whys"])


def _proposal(
    dice: list[dict[str, Any]], problems: Sequence[Problem], roll: dict[str, Any] | None
) -> dict[str, Any]:
    """The proposal's dict, each problem of the whole roll as text and as key and values."""
    return {
        "dice": dice,
        "problems": [p.text() for p in problems],
        "whys": [p.to_dict() for p in problems],
        "roll": roll,
    }


def roll_from_entries(entries: Any) -> Roll:
    """A Roll from dice entered or corrected on the page: [{"pips": 3, "kind": "regular"}, ...]."""
    if not isinstance(entries, list) or not entries:
        raise IllegalMove(
            "malformed roll",
            f"a roll is a non-empty list of dice, got {entries!r}",
            why={"key": "roll_empty"},
        )
    values: dict[str, list[int]] = {k: [] for k in KINDS}
    for entry in entries:
        if not isinstance(entry, dict):
            raise IllegalMove("malformed roll", f"each die is an object, got {entry!r}")
        pips, kind = entry.get("pips"), entry.get("kind", "regular")
        if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
            raise IllegalMove("malformed roll", f"a rolled die shows 1-6, got {pips!r}")
        if not isinstance(kind, str) or kind not in values:
            raise IllegalMove(
                "malformed roll", f"kind must be one of {', '.join(KINDS)}, got {kind!r}"
            )
        values[kind].append(pips)
    return Roll(**{k: tuple(sorted(v)) for k, v in values.items()})
