"""The `lasvegas` command line: play, replay, import, export, games, detect."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from companion.errors import IllegalMove
from companion.record import RecordError, replay_record, result_summary
from companion.render import explain_round, render_standings
from companion.rules import EDITIONS, make_rules
from companion.session import GameStore, SessionError, open_or_create
from companion.state import new_game
from companion.terminal import Terminal


def _option(text: str) -> tuple[str, Any]:
    """'neutral_dice' or 'skip_rule=chips' or 'skip_limit=1' into a name and a value."""
    name, _, raw = text.partition("=")
    if not raw:
        return name, True
    lowered = raw.lower()
    if lowered in ("true", "yes", "on"):
        return name, True
    if lowered in ("false", "no", "off"):
        return name, False
    return name, int(raw) if raw.isdigit() else raw


def _play(args: argparse.Namespace) -> int:
    try:
        rules = make_rules(args.edition, dict(args.option))
        if args.start not in args.players:
            raise IllegalMove("start player", f"{args.start!r} is not among {args.players}")
        state = new_game(rules, args.players, args.players.index(args.start))
        if args.db:
            session = open_or_create(args.db, state)
            if session.events:
                print(
                    f"Resuming game {session.game_id} from {args.db} ({len(session.events)} steps)."
                )
        else:
            session = GameStore(":memory:").new_game(state)
    except (IllegalMove, SessionError) as error:
        print(f"lasvegas play: {error}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    terminal = Terminal(
        session=session,
        ask=input,
        say=print,
        rng=rng,
        simulate_chance=args.seed is not None,
        auto=args.auto,
    )
    terminal.run()
    return 0


def _load_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read {path}: {error}") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not JSON: {error}") from None


def _replay(args: argparse.Namespace) -> int:
    try:
        replay = replay_record(_load_json(args.record))
    except RecordError as error:
        if args.json:
            print(json.dumps({"error": str(error), "step": error.step, "rule": error.rule}))
        print(f"lasvegas replay: {args.record}: {error}", file=sys.stderr)
        return 1
    final = replay.final
    if args.json:
        print(json.dumps(result_summary(final), indent=2))
    else:
        for payout in final.payouts:
            print(explain_round(payout, final))
        print(render_standings(final))
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        session = GameStore(args.db).import_record(_load_json(args.record))
    except (RecordError, SessionError) as error:
        print(f"lasvegas import: {args.record}: {error}", file=sys.stderr)
        return 1
    print(f"Imported {args.record} as game {session.game_id} ({len(session.events)} steps).")
    return 0


def _export(args: argparse.Namespace) -> int:
    try:
        store = GameStore(args.db)
        game_id = args.game or (store.games()[0].game_id if store.games() else None)
        if game_id is None:
            raise SessionError(f"{args.db} holds no games")
        text = json.dumps(store.open(game_id).record(), indent=2)
    except SessionError as error:
        print(f"lasvegas export: {error}", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)
    return 0


def _games(args: argparse.Namespace) -> int:
    try:
        games = GameStore(args.db).games()
    except SessionError as error:
        print(f"lasvegas games: {error}", file=sys.stderr)
        return 1
    for game in games:
        state = "finished" if game.finished else "running"
        print(
            f"{game.game_id:>4}  {game.created}  {game.edition:<8} {state:<9} {', '.join(game.players)}"
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with one sub-command per tool."""
    parser = argparse.ArgumentParser(prog="lasvegas", description="Las Vegas table companion")
    subparsers = parser.add_subparsers(dest="command", required=True)

    play = subparsers.add_parser("play", help="play a whole game in the terminal")
    play.add_argument("--edition", choices=sorted(EDITIONS), default="classic")
    play.add_argument(
        "--players", nargs="+", default=["Anna", "Ben", "Carla", "Denny"], metavar="NAME"
    )
    play.add_argument("--start", help="the start player (default: the first named)")
    play.add_argument(
        "--option",
        action="append",
        type=_option,
        default=[],
        metavar="NAME[=VALUE]",
        help="a variant, e.g. neutral_dice, kickers, slot_machine, skip_rule=chips",
    )
    play.add_argument("--seed", type=int, help="simulate deals and rolls with this seed")
    play.add_argument("--auto", action="store_true", help="let the computer choose for everyone")
    play.add_argument("--db", help="SQLite game file: the game is saved there and resumed")
    play.set_defaults(handler=_play)

    replay = subparsers.add_parser("replay", help="check a game record and print its result")
    replay.add_argument("record")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(handler=_replay)

    imp = subparsers.add_parser("import", help="store a game record in a game file")
    imp.add_argument("record")
    imp.add_argument("--db", required=True)
    imp.set_defaults(handler=_import)

    exp = subparsers.add_parser("export", help="write a stored game as a JSON record")
    exp.add_argument("--db", required=True)
    exp.add_argument("--game", type=int, help="game id (default: the newest)")
    exp.add_argument("-o", "--output")
    exp.set_defaults(handler=_export)

    games = subparsers.add_parser("games", help="list the games stored in a game file")
    games.add_argument("--db", required=True)
    games.set_defaults(handler=_games)

    try:
        from vision.cli import register as register_vision
        from vision.markers_cli import register as register_markers
        from web.cli import register as register_web
    except ImportError:  # the reader and the page are optional for the rules tools
        return parser
    register_web(subparsers)
    register_vision(subparsers)
    register_markers(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "start", "") is None:
        args.start = args.players[0]
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # the output was piped into a reader that stopped (e.g. head)
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
