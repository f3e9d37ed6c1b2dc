"""The `lasvegas` command line: play, replay, detect."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with one sub-command per tool."""
    parser = argparse.ArgumentParser(prog="lasvegas", description="Las Vegas table companion")
    subparsers = parser.add_subparsers(dest="command", required=True)
    try:
        from vision import cli as vision_cli
    except ImportError:  # the reader is optional for the rules tools
        vision_cli = None
    if vision_cli is not None and hasattr(vision_cli, "register"):
        vision_cli.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
