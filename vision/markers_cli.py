"""The `lasvegas markers` sub-command's parser: print the zone marker sheet(s).

OpenCV loads only when the command runs, so the other `lasvegas` commands start without it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

OUT_SUFFIXES = (".png", ".pdf")


def _out_file(text: str) -> Path:
    """--out must name a .png or .pdf file."""
    path = Path(text)
    if path.suffix.lower() not in OUT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"must end in .png or .pdf, got {text!r} (PNG: image at --dpi; PDF: true size)"
        )
    return path


def _run(args: argparse.Namespace) -> int:
    from vision.markers import run

    return run(args)


def register(subparsers: Any) -> None:
    """Add the `markers` sub-command to the main CLI's sub-parsers."""
    p = subparsers.add_parser(
        "markers",
        help="write the printable ArUco marker sheet(s) for the zones",
        description="Write the marker sheet that tells the camera where the arena, the casinos "
        "and the slot machine are: a PDF at true size, or PNG at a stated DPI. "
        "Print at 100%, not 'fit to page'.",
    )
    p.add_argument(
        "--out",
        type=_out_file,
        default=Path("lasvegas-markers.pdf"),
        metavar="FILE",
        help="FILE.pdf or FILE.png (default lasvegas-markers.pdf); with --layout "
        "zones, PNG pages are written as FILE-arena.png, FILE-casino1.png, ...",
    )
    p.add_argument("--size", choices=("a4", "letter"), default="a4", help="paper (default a4)")
    p.add_argument(
        "--layout",
        choices=("sheet", "zones"),
        default="sheet",
        help="sheet: every zone on one page, for a 640x480 camera (default); "
        "zones: one page per zone, casino cards around an arena page, "
        "for 1280x720",
    )
    p.add_argument("--dpi", type=int, default=300, help="image resolution (default 300)")
    p.set_defaults(handler=_run)
