"""`lasvegas check-table`: a photo of the casinos checked against the position a record ends at.

The reader is handed in by the entry point (`companion/cli.py`), which alone puts the layers
together: this module knows dice read on casinos only by their colour, size and pips.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from companion.dice import NEUTRAL_COLOUR
from companion.engine import apply
from companion.events import SLOT_MACHINE, ResolvePayout, TableDie
from companion.record import RecordError, replay_record
from companion.state import GREY, NEUTRAL_SET, WHITE, GameState
from companion.table_check import (
    NEUTRAL_KEY,
    SeenCasino,
    TableCheck,
    UnsureDie,
    check_table,
    has_biggy,
)

BAD_INPUT = 2
"""Exit status for input the check cannot use (image, record, zones, palette, colours)."""
DIFFERS = 1
"""Exit status when the table shows other dice than the game holds, or dice not read for sure."""
GREY_COLOUR = "grey"
PALE_COLOURS = ("white", "grey")
"""A die not read for sure that is read in one of these colours may be a die of any colour: a
note's paper over it or a shadow pales a die. Read in another colour, it is a die of that
colour's owner, or no die."""


class ReadDie(Protocol):
    """A die the camera read on a casino (7: the slot machine)."""

    @property
    def casino(self) -> int: ...
    @property
    def colour(self) -> str: ...
    @property
    def big(self) -> bool: ...
    @property
    def pips(self) -> int: ...
    @property
    def unsure(self) -> bool: ...
    @property
    def likely_pips(self) -> tuple[int, ...]: ...


class RowSight(Protocol):
    """The casino row as the camera read it: its dice, and the casinos whose zone was found."""

    @property
    def dice(self) -> Sequence[ReadDie]: ...
    @property
    def casinos(self) -> Sequence[int]: ...


ReadRow = Callable[[str, str, str | None, Sequence[str], str], RowSight]
"""(image, zones, palette, colours in play, camera place) -> the row read; ValueError with a
message for an image, zones file or palette that cannot be used."""


class CheckError(ValueError):
    """Input the check cannot use; the message says which and why."""


def round_end_position(record: Any) -> GameState:
    """The position a record ends at; for a record that ends with a round's payout, the moment
    just before it, when the dice still lie on the casinos."""
    try:
        replay = replay_record(record)
    except RecordError as error:
        raise CheckError(str(error)) from None
    if not replay.events or not isinstance(replay.events[-1], ResolvePayout):
        return replay.final
    state = replay.initial
    for event in replay.events[:-1]:
        state = apply(state, event)
    return state


def owner_colours(state: GameState, from_record: Any, given: Sequence[str]) -> dict[int, str]:
    """Each owner's dice colour: the record's "colours" object, then `NAME=COLOUR` options;
    white for neutral dice and grey for Royale's blank dice unless named."""
    named: dict[str, str] = {}
    if from_record is not None:
        if not isinstance(from_record, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in from_record.items()
        ):
            raise CheckError('the record\'s "colours" must be an object {"Anna": "red", ...}')
        named.update(from_record)
    for text in given:
        name, sep, colour = text.partition("=")
        if not sep or not name or not colour:
            raise CheckError(f"--colours takes NAME=COLOUR, got {text!r}")
        named[name] = colour
    owners: dict[str, int] = {name: seat for seat, name in enumerate(state.players)}
    rules = state.rules
    if rules.neutral_dice:
        owners[NEUTRAL_KEY] = WHITE
        named.setdefault(NEUTRAL_KEY, named.pop("white", NEUTRAL_COLOUR))
    if rules.edition == "royale":
        owners["grey"] = GREY
        named.setdefault("grey", GREY_COLOUR)
        if rules.neutral_at_round_start(len(state.players)):
            owners[NEUTRAL_KEY] = NEUTRAL_SET
    unknown = sorted(set(named) - set(owners))
    if unknown:
        raise CheckError(
            f"--colours: {unknown[0]!r} is not in this game (it has {', '.join(owners)})"
        )
    missing = [name for name in owners if name not in named]
    if missing:
        raise CheckError(
            f"no dice colour for {missing[0]}: give --colours {missing[0]}=COLOUR "
            '(or a "colours" object in the record)'
        )
    colours = {owners[name]: colour for name, colour in named.items()}
    taken: dict[str, int] = {}
    for owner, colour in colours.items():
        if colour in taken:
            raise CheckError(f"two owners cannot both play {colour} dice")
        taken[colour] = owner
    return colours


def seen_casinos(state: GameState, row: RowSight, colours: Mapping[int, str]) -> list[SeenCasino]:
    """What the camera read on each casino it found, as owners' dice: a die of no owner's
    colour is a stranger; a die not read for sure is unsure, and so is a blank face where no
    die of the game is blank (all but Royale's grey dice show pips, and those never lie on the
    slot machine): a printed mark or a note's edge more likely than a die. What an unsure
    die may be: its colour's owner's die unless the colour is pale (PALE_COLOURS) or no
    owner's, else any owner's; two dice where it was read as big (its box covers more than
    a die). A die read big of an owner who has no Biggy (the white neutral dice) is two dice in
    one box, or a die and a note's pale paper: unsure too, any owner's, maybe two. A die on the
    slot machine in doubt for its pips alone (`likely_pips`, surely a regular die of its colour)
    is its owner's die, showing one of those pips."""
    owner_of = {colour: owner for owner, colour in colours.items()}
    blank_dice = state.rules.edition == "royale"  # only Royale's grey dice show no pips
    out = []
    for number in row.casinos:
        if number > state.rules.casino_count():
            continue
        dice: list[TableDie] = []
        strangers: list[str] = []
        unsure: list[UnsureDie] = []
        for die in row.dice:
            if die.casino != number:
                continue
            slot = number == SLOT_MACHINE
            owner = owner_of.get(die.colour)
            no_biggy = die.big and owner is not None and not has_biggy(owner)
            if slot and die.unsure and die.likely_pips and owner is not None and not die.big:
                unsure.append(UnsureDie(owner, values=die.likely_pips))
            elif die.unsure or no_biggy or not (1 <= die.pips <= 6 or blank_dice and not slot):
                told = die.colour not in PALE_COLOURS and not no_biggy
                unsure.append(UnsureDie(owner if told else None, die.big))
            elif die.colour in owner_of:
                dice.append(TableDie(owner_of[die.colour], die.big, die.pips if slot else None))
            else:
                strangers.append(die.colour)
        out.append(SeenCasino(number, tuple(dice), len(unsure), tuple(strangers), tuple(unsure)))
    return out


def run_check(args: argparse.Namespace, read_row: ReadRow, load_json: Callable[[str], Any]) -> int:
    """Check the photo against the record; print the check; exit 0 when the table agrees."""
    try:
        record = load_json(args.record)
        state = round_end_position(record)
        colours = owner_colours(
            state, record.get("colours") if isinstance(record, dict) else None, args.colours
        )
        if state.rules.play != "dice":
            raise CheckError("the card game lays cards, not dice: there is nothing to check")
        row = read_row(args.image, args.zones, args.palette, sorted(colours.values()), "auto")
    except (RecordError, CheckError, ValueError) as error:
        print(f"lasvegas check-table: {error}", file=sys.stderr)
        return BAD_INPUT
    check = check_table(state, seen_casinos(state, row, colours), colours)
    if args.json:
        print(json.dumps(check.to_dict()))
    else:
        print(check_words(check))
    return 0 if check.agrees else DIFFERS


def check_words(check: TableCheck) -> str:
    """The check for a person: each casino that does not agree, and what that changes."""
    if check.agrees:
        return "The table shows what the game holds on every casino."
    lines = []
    for casino in check.casinos:
        if casino.agrees:
            continue
        where = "Slot machine" if casino.casino == SLOT_MACHINE else f"Casino {casino.casino}"
        for difference in casino.differences:
            lines.append(f"{where}: {difference}.")
        for owner in casino.biggy_doubts:
            lines.append(
                f"{where}: {owner}'s Biggy was read on no casino; one of {owner}'s dice here "
                "may be it: look at them."
            )
        unsure = casino.unsure - len(casino.biggy_doubts)
        if unsure:
            dice = "die" if unsure == 1 else "dice"
            them = "it" if unsure == 1 else "them"
            lines.append(f"{where}: {unsure} {dice} not read for sure; look at {them}.")
        if casino.payout_changes:
            lines.append(f"  At payout: {casino.payout_changes}.")
    if check.payout_may_go_on:
        lines.append(
            "Whatever the dice not read for sure are, the payout is the same: it may go on."
        )
    return "\n".join(lines)


def register(subparsers: Any, read_row: ReadRow, load_json: Callable[[str], Any]) -> None:
    """Add `check-table` to the main command line's sub-commands."""
    p = subparsers.add_parser(
        "check-table",
        help="check a photo of the casinos against the game a record ends at",
        description="Read the dice lying on each casino (1-6 and the slot machine) in a photo "
        "and compare them, by owner and size, with the position at the end of a game record "
        "(before its last payout, if it ends with one). Exit status: 0 the table agrees, "
        "1 it differs or a die is not read for sure, 2 input that cannot be used.",
    )
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--record", required=True, metavar="RECORD.json")
    p.add_argument(
        "--zones",
        default="markers",
        metavar="markers|ZONES.json",
        help='"markers" (default): the ArUco markers in the photo; or a JSON file of corners '
        '{"casino1": [[x, y], ...], ..., "slot": ...}',
    )
    p.add_argument("--palette", metavar="P", help="colour palette JSON from `lasvegas calibrate`")
    p.add_argument(
        "--colours",
        nargs="+",
        default=[],
        metavar="NAME=COLOUR",
        help="each player's dice colour (default: the record's \"colours\" object); "
        "neutral=COLOUR for the neutral dice (default white)",
    )
    p.add_argument("--json", action="store_true", help="print the check as JSON")
    p.set_defaults(handler=lambda args: run_check(args, read_row, load_json))
