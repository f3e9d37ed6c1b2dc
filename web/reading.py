"""Turn what the camera read into a proposed roll for the player to move, flagging what does not fit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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

KIND_NAMES = {"regular": "dice", "biggy": "Biggies", "neutral": "white dice", "kickers": "kickers"}


@dataclass(frozen=True)
class ReadDie:
    """One die as read (or as corrected by a player): pips, colour, size, sureness, box."""

    pips: int
    colour: str
    big: bool = False
    unsure: bool = False
    box: tuple[float, float, float, float] | None = None


def dice_from_detections(dicts: Sequence[Mapping[str, Any]]) -> list[ReadDie]:
    """ReadDie list from `Detections.to_dicts()` output."""
    return [
        ReadDie(
            int(d["pips"]),
            str(d["colour"]),
            d["size"] == "big",
            bool(d["unsure"]),
            tuple(d["box"]) if d.get("box") else None,
        )
        for d in dicts
    ]


def _kind_of(die: ReadDie, state: GameState, colours: Sequence[str]) -> tuple[str | None, str]:
    """The kind a die would be in the current player's roll, or None and why it does not fit."""
    seat = state.current
    supply = state.supplies[seat]
    mine = colours[seat] if seat < len(colours) else None
    if die.colour == mine:
        return ("biggy" if die.big else "regular"), ""
    if die.colour == NEUTRAL_COLOUR and supply.neutral:
        return "neutral", ""
    if die.colour == KICKER_COLOUR and supply.kickers:
        return "kickers", ""
    owners = [state.players[s] for s, c in enumerate(colours) if c == die.colour]
    if owners:
        return None, f"{die.colour} is {owners[0]}'s colour; it is {state.to_move()}'s turn"
    return None, f"no dice of this game are {die.colour}"


def propose_roll(
    state: GameState, colours: Sequence[str], dice: Sequence[ReadDie]
) -> dict[str, Any]:
    """The dice with their kind and any problem, the problems of the whole roll, and the roll.

    `roll` is the Roll event (as a dict) only when every die fits: the player's or
    the neutral colours, read for sure, and exactly the dice the player holds.
    """
    if state.phase is not Phase.ROLL:
        return {"dice": [], "problems": ["the game does not wait for a roll now"], "roll": None}
    supply = state.supplies[state.current]
    held = {
        "regular": supply.regular,
        "biggy": supply.biggy,
        "neutral": supply.neutral,
        "kickers": supply.kickers,
    }
    seen = dict.fromkeys(KINDS, 0)
    out: list[dict[str, Any]] = []
    for die in dice:
        kind, problem = _kind_of(die, state, colours)
        if kind is not None and seen[kind] >= held[kind]:
            problem = f"{state.to_move()} has only {held[kind]} {KIND_NAMES[kind]} to roll"
            kind = None
        if kind is not None:
            seen[kind] += 1
        if not problem and die.pips == 0:
            problem = "a blank die is never rolled"
        if not problem and die.unsure:
            problem = "could not be read for sure: cocked, half out of view or blurred"
        out.append(
            {
                "pips": die.pips,
                "colour": die.colour,
                "big": die.big,
                "kind": kind,
                "problem": problem or None,
                "box": list(die.box) if die.box else None,
            }
        )
    problems = [
        f"read {seen[k]} of {state.to_move()}'s {held[k]} {KIND_NAMES[k]}"
        for k in KINDS
        if seen[k] < held[k]
    ]
    fits = not problems and all(d["problem"] is None for d in out)
    roll = None
    if fits:
        values = {k: sorted(int(d["pips"]) for d in out if d["kind"] == k) for k in KINDS}
        roll = {"type": "roll", **values}
    return {"dice": out, "problems": problems, "roll": roll}


def roll_from_entries(entries: Any) -> Roll:
    """A Roll from dice entered or corrected on the page: [{"pips": 3, "kind": "regular"}, ...]."""
    if not isinstance(entries, list) or not entries:
        raise IllegalMove("malformed roll", f"a roll is a non-empty list of dice, got {entries!r}")
    values: dict[str, list[int]] = {k: [] for k in KINDS}
    for entry in entries:
        if not isinstance(entry, dict):
            raise IllegalMove("malformed roll", f"each die is an object, got {entry!r}")
        pips, kind = entry.get("pips"), entry.get("kind", "regular")
        if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
            raise IllegalMove("malformed roll", f"a rolled die shows 1-6, got {pips!r}")
        if kind not in values:
            raise IllegalMove(
                "malformed roll", f"kind must be one of {', '.join(KINDS)}, got {kind!r}"
            )
        values[kind].append(pips)
    return Roll(**{k: tuple(sorted(v)) for k, v in values.items()})
