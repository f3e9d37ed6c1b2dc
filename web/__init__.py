"""The tablet page: a Flask application over the table hub (game, camera, live updates)."""

from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: the game file, the hub, the camera (if any) and the page's blueprints."""
    app = Flask(__name__)
    app.config.from_mapping(
        DB="lasvegas.sqlite3",
        PIN="",
        LANGUAGE="en",
        CAMERA=None,  # a camera spec for vision.camera.open_source, or None for no camera
        SEED=None,
        THREADS=1,
        CAMERA_PLACE="auto",  # where the camera stands, for the dice reader
        PUBLIC_URL=None,
        CAMERA_FPS=10,
        CAMERA_CONTROLS=None,  # vision.camera.CameraControls for a USB camera; None: the default
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        EVENT_STREAMS=160,  # open live-update streams at once: a page each, with room to spare
        PREVIEW_STREAMS=8,  # open camera previews at once: few pages show it, and each costs CPU
        ALLOWED_HOSTS=(),  # names besides IP addresses, localhost and this machine's own
    )
    if test_config:
        app.config.from_mapping(test_config)

    from web import api, hints_api, host_check, pages, resources, results, roster, stream

    host_check.init_app(app)
    resources.init_app(app)
    stream.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(hints_api.bp)
    app.register_blueprint(stream.bp)
    app.register_blueprint(results.bp)
    app.register_blueprint(roster.bp)
    return app
