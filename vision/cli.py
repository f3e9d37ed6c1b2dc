"""The `lasvegas detect` and `calibrate` sub-commands: read dice in image files, learn colours.

Only the argument parsers live here; OpenCV and ONNX Runtime load when a command runs,
so the other `lasvegas` commands start without them.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _deferred(name: str) -> Callable[[argparse.Namespace], int]:
    """A handler that imports the reader on first use."""

    def run(args: argparse.Namespace) -> int:
        from vision import cli_run

        return int(getattr(cli_run, name)(args))

    return run


def register(subparsers: Any) -> None:
    """Add the `detect` sub-command to the main CLI's sub-parsers."""
    p = subparsers.add_parser(
        "detect",
        help="read the dice in image files",
        description="Find every die in each image and read it.",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files to read")
    p.add_argument("--json", action="store_true", help="print one JSON array for all images")
    p.add_argument(
        "--draw",
        metavar="OUT_DIR",
        type=Path,
        help="write each image with what was read drawn on it",
    )
    p.add_argument("--threads", type=int, default=1, help="CPU threads for inference")
    p.add_argument(
        "--camera-place",
        default="auto",
        metavar="PLACE",
        help="where the camera stands: bottom, left, top or right (beyond that edge "
        "of the image, looking across the table), above (straight over it), "
        "or auto (default: judged in each image)",
    )
    p.add_argument("--palette", type=Path, help="colour palette JSON from `lasvegas calibrate`")
    p.add_argument(
        "--colours",
        nargs="+",
        metavar="NAME",
        help="the colours of the dice in play: a die is named by the nearest of "
        "them where it lies close, and, without --palette, the light's colour "
        "is judged from the dice against them",
    )
    p.add_argument(
        "--zones",
        type=Path,
        help='zone corners JSON {"arena": [[x, y], ...], "casino1": ...}, or "markers"'
        " to find the printed marker sheet in each image",
    )
    p.set_defaults(handler=_deferred("run_detect"))
    c = subparsers.add_parser(
        "calibrate",
        help="learn this table's dice colours from one photo",
        description="Photograph a few dice of each colour; name them in order, left to right "
        "(top to bottom for equal columns); the palette is written as JSON.",
    )
    c.add_argument("image", metavar="IMAGE")
    c.add_argument("--colours", nargs="+", required=True, metavar="NAME")
    c.add_argument("--out", type=Path, required=True, help="palette JSON to write")
    c.set_defaults(handler=_deferred("run_calibrate"))
