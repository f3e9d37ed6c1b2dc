"""What the app holds for its whole life: the game file, the table hub and the camera."""

from __future__ import annotations

import atexit
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.session import GameStore, SessionError
from web.errors import ActionError, refused_file
from web.hub import TableHub

if TYPE_CHECKING:
    from vision.camera import FrameSource
    from vision.live import CameraStatus, LiveCamera


def init_app(app: Flask) -> None:
    """Open the game file, build the hub, and start the camera when one is configured."""
    store = GameStore(app.config["DB"])
    hub = TableHub(
        store,
        pin=str(app.config["PIN"] or ""),
        seed=app.config["SEED"],
        language=app.config["LANGUAGE"],
        threads=int(app.config["THREADS"]),
        camera_place=str(app.config["CAMERA_PLACE"]),
    )
    app.extensions["hub"] = hub
    camera_spec = app.config["CAMERA"]
    if camera_spec:
        start_camera(app, hub, str(camera_spec))
    app.after_request(_security_headers)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ActionError, _refused)
    app.register_error_handler(SessionError, lambda error: _refused(refused_file(error)))


def start_camera(
    app: Flask,
    hub: TableHub,
    spec: str,
    source_factory: Callable[[], FrameSource] | None = None,
    **timings: Any,
) -> LiveCamera:
    """Start the live camera thread reading `spec` (or `source_factory`) and feeding the hub."""
    from vision.camera import open_source
    from vision.light import light_words
    from vision.live import LiveCamera

    width, height = app.config.get("CAMERA_SIZE") or (1280, 720)

    def status(s: CameraStatus) -> None:
        hub.set_camera_status(
            {
                "state": s.state,
                "source": s.source,
                "message": s.message,
                "frames": s.frames_read,
                "light": light_words(s.light) if s.light is not None else None,
                "light_dice": s.light_dice,
                "colours_learnt": list(s.colours_learnt),
                "every_colour_learnt": s.every_colour_learnt,
            }
        )

    controls = app.config.get("CAMERA_CONTROLS")

    def factory() -> FrameSource:
        camera = spec == "auto" or spec.isdigit() or spec.startswith("/dev/")
        kw = {"width": width, "height": height, "controls": controls}
        return open_source(spec, **kw) if camera else open_source(spec)

    timings.setdefault("active_fps", int(app.config["CAMERA_FPS"]))
    camera = LiveCamera(
        source_factory or factory, hub.reader_config(), hub.on_camera_event, status, **timings
    )
    hub.attach_camera(camera)
    camera.start()
    app.extensions["camera"] = camera
    atexit.register(camera.stop)
    return camera


def hub() -> TableHub:
    """The hub of the app handling this request."""
    return current_app.extensions["hub"]


def _refused(error: ActionError) -> tuple[Response, int]:
    """A refused request as JSON: the message, the rule when the engine named one, and the
    key for the page's own words when there is one."""
    body: dict[str, object] = {"error": error.message}
    body |= {"rule": error.rule} if error.rule else {}
    body |= {"why": error.why} if error.why else {}
    return jsonify(body), error.status


def _http_error(error: HTTPException) -> tuple[Response, int] | HTTPException:
    """API errors as JSON with a message; the page's own errors as Flask draws them."""
    if request.path.startswith(("/api/", "/video")):
        return jsonify({"error": error.description}), error.code or 500
    return error


def _security_headers(response: Response) -> Response:
    """No inline script or foreign content: a typed name can never run as code."""
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # Within the page, browsers then send its real Origin, which web.host_check compares;
    # under no-referrer they send "null", which cannot be told from another site's page.
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
