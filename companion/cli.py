"""The `lasvegas` command line: play, replay, import, export, games, detect."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion import cli_check, cli_hint, cli_play
from companion.record import RecordError, replay_record, result_summary
from companion.render import explain_round, plural, render_standings
from companion.session import GameStore, SessionError

SIDE_FILES = ("-wal", "-shm", "-journal")
"""What SQLite keeps beside a game file while it is open."""


class OutputError(OSError):
    """A file to write cannot be written there; the message names it and says why."""


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


def _load_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(
            f"cannot read {path}: {getattr(error, 'strerror', None) or error}"
        ) from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not JSON: {error}") from None


def _existing_game_file(path: str) -> GameStore:
    """The game file a command only reads: a missing one is a typo, not a new file to make."""
    if not Path(path).exists():
        raise SessionError(f"no game file at {path} (check --db)")
    if Path(path).is_dir():
        raise SessionError(f"{path} is a folder, not a game file")
    return GameStore(path)


def _remove_new_file(path: Path) -> None:
    """Remove a game file (and SQLite's side files) that this command made and then failed on."""
    for name in (path, *(path.with_name(path.name + side) for side in SIDE_FILES)):
        name.unlink(missing_ok=True)


def _checked_output(text: str) -> Path:
    """A file to write: not a folder, and in a folder that exists."""
    path = Path(text)
    if path.is_dir():
        raise OutputError(f"{text} is a folder; name a file to write")
    if not path.parent.is_dir():
        raise OutputError(f"cannot write {text}: there is no folder {path.parent}")
    return path


def _write_whole(path: Path, text: str) -> None:
    """Write the file through a temporary one beside it, so that a failure leaves no half."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None


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
    db = Path(args.db)
    new_file = not db.exists()
    store = None
    try:
        record = _load_json(args.record)
        store = GameStore(db)
        session = store.import_record(record)
    except (RecordError, SessionError) as error:
        if store is not None:
            store.close()
        if new_file:  # a failed import leaves no empty game file behind
            _remove_new_file(db)
        print(f"lasvegas import: {args.record}: {error}", file=sys.stderr)
        return 1
    steps = plural(len(session.events), "step")
    where = f" into the new game file {db}" if new_file else ""
    print(f"Imported {args.record} as game {session.game_id} ({steps}){where}.")
    return 0


def _export(args: argparse.Namespace) -> int:
    try:
        output = _checked_output(args.output) if args.output else None
        store = _existing_game_file(args.db)
        if output is not None and output.exists() and output.samefile(args.db):
            raise OutputError(f"-o {args.output} is the game file itself; name another file")
        game_id = args.game or (store.games()[0].game_id if store.games() else None)
        if game_id is None:
            raise SessionError(f"{args.db} holds no games")
        text = json.dumps(store.open(game_id).record(), indent=2)
        if output is not None:
            _write_whole(output, text + "\n")
        else:
            print(text)
    except (SessionError, OutputError) as error:
        print(f"lasvegas export: {error}", file=sys.stderr)
        return 1
    return 0


def _games(args: argparse.Namespace) -> int:
    try:
        games = _existing_game_file(args.db).games()
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

    cli_play.register(subparsers, _option)
    cli_hint.register(subparsers, _load_json)

    replay = subparsers.add_parser("replay", help="check a game record and print its result")
    replay.add_argument("record")
    replay.add_argument("--json", action="store_true")
    replay.set_defaults(handler=_replay)

    imp = subparsers.add_parser(
        "import",
        help="store a game record in a game file",
        description="Store a game record as a new game in a game file; a file that does not "
        "exist yet is made, unless the import fails.",
    )
    imp.add_argument("record")
    imp.add_argument("--db", required=True, metavar="FILE")
    imp.set_defaults(handler=_import)

    exp = subparsers.add_parser("export", help="write a stored game as a JSON record")
    exp.add_argument("--db", required=True, metavar="FILE", help="an existing game file")
    exp.add_argument("--game", type=int, help="game id (default: the newest)")
    exp.add_argument("-o", "--output", help="the JSON file to write (default: print it)")
    exp.set_defaults(handler=_export)

    games = subparsers.add_parser("games", help="list the games stored in a game file")
    games.add_argument("--db", required=True, metavar="FILE", help="an existing game file")
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
    cli_check.register(subparsers, _read_casino_row, _load_json)
    return parser


def _read_casino_row(
    image: str, zones: str, palette: str | None, colours: Sequence[str], place: str
) -> cli_check.RowSight:
    """The reader's side of `check-table`, loaded when the command runs."""
    from vision.cli_check import read_row_file

    return read_row_file(image, zones, palette, colours, place)


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # the output was piped into a reader that stopped (e.g. head)
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:  # Ctrl+C outside a game: nothing was half written
        print(f"\nlasvegas {args.command}: stopped", file=sys.stderr)
        return cli_play.INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
