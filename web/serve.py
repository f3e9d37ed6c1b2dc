"""Run the page with waitress, one process (the camera and the game live in it)."""

from __future__ import annotations

import argparse
import socket
import sys

from companion.session import SessionError
from web.config import ConfigError, ServerConfig, load_config
from web.qr import qr_terminal


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent to find it)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def resolve_camera(spec: str) -> str:
    """The camera spec to serve with, checked: a camera, file or folder named outright must
    open now, and CameraError says why it does not (a mistyped path is not waited for).

    "auto" stays "auto": the camera thread takes the first USB camera that opens, shows the
    simulated table until one is plugged in, and waits for a camera it lost.
    """
    from vision.camera import check_source

    check_source(spec)
    return spec


def page_url(config: ServerConfig) -> str:
    """The address to print and to put in the QR code."""
    host = lan_address() if config.host in ("0.0.0.0", "") else config.host
    return f"http://{host}:{config.port}/"


def run_server(args: argparse.Namespace) -> int:
    """`lasvegas serve`: load settings, open the game file, start the camera, serve the page."""
    overrides = {
        k: getattr(args, k, None)
        for k in ("host", "port", "camera", "db", "pin", "language", "threads", "camera_place")
    }
    try:
        config = load_config(args.config, overrides)
    except ConfigError as error:
        print(f"lasvegas serve: {error}", file=sys.stderr)
        return 2
    import cv2

    # OpenCV's own thread pool ignores OMP_NUM_THREADS: without this it takes every core.
    cv2.setNumThreads(config.threads)
    from vision.camera import CameraError

    try:
        camera = resolve_camera(config.camera)
    except CameraError as error:
        print(f"lasvegas serve: {error}", file=sys.stderr)
        return 2
    url = page_url(config)
    from web import create_app

    try:
        app = create_app(
            {
                "DB": config.db,
                "PIN": config.pin,
                "LANGUAGE": config.language,
                "CAMERA": camera,
                "SEED": args.seed,
                "THREADS": config.threads,
                "CAMERA_PLACE": config.camera_place,
                "PUBLIC_URL": url,
                "CAMERA_FPS": config.fps,
                "CAMERA_SIZE": (config.width, config.height),
                "CAMERA_CONTROLS": config.camera_controls(),
                "ALLOWED_HOSTS": config.allowed_hosts,
            }
        )
    except SessionError as error:
        print(f"lasvegas serve: {error}", file=sys.stderr)
        return 2
    from web.server import build_server

    try:
        server = build_server(app, config.host, config.port)
    except OSError as error:
        print(
            f"lasvegas serve: cannot listen on {config.host}:{config.port} ({error.strerror}); "
            "is another companion running? Choose another with --port",
            file=sys.stderr,
        )
        return 2
    print(qr_terminal(url))
    print(f"\nLas Vegas table companion: open {url} on a tablet (scan the code above).")
    shown = {
        "sim": "simulated table",
        "auto": "auto (the first USB camera; the simulated table until one is plugged in)",
    }
    print(f"Camera: {shown.get(camera, camera)}.  Game file: {config.db}")
    print(
        "Control: "
        + (
            "tablets enter the PIN to control the game"
            if config.pin
            else "no PIN set, every page may control the game"
        )
    )
    print("Stop with Ctrl+C; the game is saved after every step.", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        print("\nStopped; the game is saved.")
    return 0
