"""`lasvegas play`: set up or resume a game in a game file, and run it at the terminal."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from companion.errors import IllegalMove
from companion.render import plural
from companion.rules import EDITIONS, make_rules
from companion.session import GameSession, GameStore, SessionError
from companion.state import GameState, Phase, new_game
from companion.terminal import Terminal

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "Denny")
DEFAULT_EDITION = "classic"
INTERRUPTED = 130
"""The exit status of a program stopped by Ctrl+C (128 + SIGINT), as shells report it."""


class SetupMismatch(SessionError):
    """The game file's unfinished game is not the game the command line asks for."""


def asked_game(args: argparse.Namespace) -> GameState:
    """The new game the command line describes (defaults where it says nothing)."""
    players = list(args.players or DEFAULT_PLAYERS)
    rules = make_rules(args.edition or DEFAULT_EDITION, dict(args.option))
    start = args.start if args.start is not None else players[0]
    if start not in players:
        raise IllegalMove("start player", f"{start!r} is not among {players}")
    return new_game(rules, players, players.index(start))


def describe_setup(state: GameState) -> str:
    """'royale with tiles=3, players Anna, Ben (Ben starts)' for a message."""
    options = state.rules.options()
    text = state.rules.edition
    if options:
        text += " with " + ", ".join(
            name if value is True else f"{name}={value}" for name, value in options.items()
        )
    text += f", players {', '.join(state.players)}"
    if state.start_player:
        text += f" ({state.players[state.start_player]} starts)"
    return text


def setup_differs(args: argparse.Namespace, stored: GameState, asked: GameState) -> bool:
    """Whether a setup the command line names differs from the stored game's.

    Only what was given counts: `play --db FILE` alone resumes whatever game is there.
    """
    if (args.edition is not None or args.option) and (
        stored.rules.edition,
        stored.rules.options(),
    ) != (asked.rules.edition, asked.rules.options()):
        return True
    if args.players is not None and stored.players != asked.players:
        return True
    return args.start is not None and stored.players[stored.start_player] != args.start


def open_game(args: argparse.Namespace, asked: GameState) -> tuple[GameSession, bool]:
    """The session to play, and whether it is the file's unfinished game (else a new one).

    A file whose unfinished game is not the one asked for is refused, unless --new says to
    start the new game beside it; the old one stays in the file either way.
    """
    store = GameStore(args.db)
    game_id = None if args.new else store.latest_unfinished()
    if game_id is None:
        return store.new_game(asked), False
    session = store.open(game_id)
    if setup_differs(args, session.initial, asked):
        store.close()
        raise SetupMismatch(
            f"{args.db} holds unfinished game {game_id} ({describe_setup(session.initial)}), "
            f"not the game asked for ({describe_setup(asked)}); resume it with "
            f"`lasvegas play --db {args.db}`, or add --new to start the new game beside it"
        )
    return session, True


def stopped_line(db: str | None) -> str:
    """What a player is told when the game stops before its end."""
    if db is None:
        return "Stopped; this game was not saved (play with --db FILE to keep a game)."
    return f"Stopped; the game is saved in {db}: `lasvegas play --db {db}` resumes it."


def run_play(args: argparse.Namespace) -> int:
    """Set up or resume the game, play it at the terminal, and say where it is kept."""
    try:
        asked = asked_game(args)
        if args.db:
            session, resumed = open_game(args, asked)
            if resumed:
                steps = plural(len(session.events), "step")
                print(f"Resuming game {session.game_id} from {args.db} ({steps}).")
        else:
            session = GameStore(":memory:").new_game(asked)
    except (IllegalMove, SessionError) as error:
        print(f"lasvegas play: {error}", file=sys.stderr)
        return 2
    terminal = Terminal(
        session=session,
        ask=input,
        say=print,
        rng=random.Random(args.seed),
        simulate_chance=args.seed is not None,
        auto=args.auto,
        verbose=args.verbose or not args.auto,
    )
    try:
        final = terminal.run()
    except KeyboardInterrupt:
        # Ctrl+C at a prompt or mid-game: every step taken is already stored (or, without a
        # game file, lost), so there is nothing to tidy up, only to say so.
        print(file=sys.stdout, flush=True)
        print(stopped_line(args.db), file=sys.stderr)
        return INTERRUPTED
    if final.phase is not Phase.OVER:
        print(stopped_line(args.db))
    return 0


def register(subparsers: Any, option_type: Any) -> None:
    """Add `play` to the main command line's sub-parsers."""
    play = subparsers.add_parser(
        "play",
        help="play a whole game in the terminal",
        description="Play a game at the terminal. With --db the game is saved after every "
        "step, and the same command resumes the file's unfinished game. If the edition, "
        "options, players or start player given differ from that game's, play refuses and "
        "says how to resume it; --new starts the new game beside it instead.",
    )
    play.add_argument(
        "--edition",
        choices=sorted(EDITIONS),
        help=f"the edition (default {DEFAULT_EDITION})",
    )
    play.add_argument(
        "--players",
        nargs="+",
        metavar="NAME",
        help=f"the players in seat order (default: {' '.join(DEFAULT_PLAYERS)})",
    )
    play.add_argument("--start", help="the start player (default: the first named)")
    play.add_argument(
        "--option",
        action="append",
        type=option_type,
        default=[],
        metavar="NAME[=VALUE]",
        help="a variant, e.g. neutral_dice, kickers, slot_machine, skip_rule=chips",
    )
    play.add_argument("--seed", type=int, help="simulate deals and rolls with this seed")
    play.add_argument(
        "--auto",
        action="store_true",
        help="let the computer choose for everyone; prints one line a turn and each payout",
    )
    play.add_argument(
        "--verbose", action="store_true", help="with --auto: draw the table after every step"
    )
    play.add_argument(
        "--db", metavar="FILE", help="SQLite game file: the game is saved there and resumed"
    )
    play.add_argument(
        "--new",
        action="store_true",
        help="with --db: start a new game even if the file holds an unfinished one",
    )
    play.set_defaults(handler=run_play)
