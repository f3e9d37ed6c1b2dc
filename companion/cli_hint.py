"""`lasvegas hint RECORD.json`: the hint for the position at the end of a game record."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from companion.hints import hint, hint_lines, hint_supported, hint_to_dict
from companion.record import RecordError, replay_record
from companion.state import Phase


def run_hint(args: argparse.Namespace, load_json: Any) -> int:
    """Replay the record and print the hint for the player to move."""
    try:
        state = replay_record(load_json(args.record)).final
    except RecordError as error:
        print(f"lasvegas hint: {args.record}: {error}", file=sys.stderr)
        return 1
    if state.phase not in (Phase.DEAL, Phase.ROLL, Phase.CHOOSE):
        print(
            f"lasvegas hint: {args.record}: no player decides now ({state.phase.value}); "
            "a hint is for a throw to place or a player about to throw",
            file=sys.stderr,
        )
        return 1
    if not hint_supported(state):
        print(
            f"lasvegas hint: {args.record}: hints cover Las Vegas 2012 with any variants, "
            "the Custom edition and the Royale basic game (no casino tiles), "
            "not this game's rules",
            file=sys.stderr,
        )
        return 1
    result = hint(state, random.Random(args.seed), seconds=args.seconds, target_error=args.error)
    if args.json:
        print(json.dumps(hint_to_dict(state, result)))
    else:
        print("\n".join(hint_lines(state, result)))
    return 0


def register(subparsers: Any, load_json: Any) -> None:
    """Add `hint` to the main command line's sub-parsers."""
    command = subparsers.add_parser(
        "hint",
        help="each choice's chance to win and money this round, for a record's last position",
        description="Replay a game record and estimate, for the player to move, each legal "
        "choice's chance of winning the game (a shared win counts 1/k) and its expected "
        "money this round. The record may end after a throw, with the choice to make; "
        "win_error is one standard error.",
    )
    command.add_argument("record")
    command.add_argument("--json", action="store_true")
    command.add_argument(
        "--seconds", type=float, default=0.2, help="time to think at most (default 0.2)"
    )
    command.add_argument(
        "--error",
        type=float,
        default=0.03,
        help="stop once the best choice's standard error is this small (default 0.03)",
    )
    command.add_argument("--seed", type=int, default=0, help="seed of the playouts")
    command.set_defaults(handler=lambda args: run_hint(args, load_json))
