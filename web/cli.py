"""The `lasvegas serve` sub-command's parser; the server loads only when it runs."""

from __future__ import annotations

import argparse
from typing import Any


def _run(args: argparse.Namespace) -> int:
    from web.serve import run_server

    return run_server(args)


def register(subparsers: Any) -> None:
    """Add `serve` to the main CLI's sub-parsers."""
    p = subparsers.add_parser(
        "serve",
        help="start the tablet page (with the camera, or the simulated table)",
        description="Serve the table page on the local network. Settings come from --config "
        "(TOML), then from these flags.",
    )
    p.add_argument(
        "--config",
        help="TOML file with host, port, camera, db, pin, language, threads, camera_place, "
        "allowed_hosts (names the page answers to besides its addresses and hostname), "
        "width, height, and a USB camera's camera_exposure, camera_white_balance, camera_gain, "
        "camera_focus, camera_power_line (see hardware/README.md)",
    )
    p.add_argument("--host", help="address to listen on (default 0.0.0.0: the whole network)")
    p.add_argument("--port", type=int, help="port (default 8000)")
    p.add_argument(
        "--camera",
        help="auto (default: the first USB camera, the simulated table until one is plugged "
        "in), sim, a camera index, a /dev/v4l/by-id path, a video file or a folder of images",
    )
    p.add_argument("--db", help="game file (default lasvegas.sqlite3)")
    p.add_argument("--pin", help="PIN that a tablet enters to control the game (default: none)")
    p.add_argument("--lang", dest="language", choices=("en", "de"), help="page language")
    p.add_argument("--threads", type=int, help="CPU threads for the dice reader (default 1)")
    p.add_argument(
        "--camera-place",
        help="where the camera stands: auto (default), above (over the table, looking down), "
        "or bottom, left, top, right (beyond that edge of the picture, looking across)",
    )
    p.add_argument("--seed", type=int, help="seed for the simulated table and simulated deals")
    p.set_defaults(handler=_run)
