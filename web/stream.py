"""Pushes to the pages: live table updates (server-sent events) and the camera preview (MJPEG).

Every open stream holds one of the server's threads (see `web.server`), so each kind has a
cap and a stream beyond it is refused with 503; a stream ends as soon as its page has gone,
and the preview ends, after a "no camera" picture, when the camera delivers no pictures.
"""

from __future__ import annotations

import functools
import json
import queue
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request

from web.errors import ActionError
from web.resources import hub
from web.slots import StreamSlots

bp = Blueprint("stream", __name__)

KEEPALIVE_S = 15.0
"""A comment line this often keeps proxies and tablets from closing a quiet stream."""

LOOK_S = 2.0
"""How often a quiet stream looks whether its page has gone (and frees its thread)."""

EVENTS_LIFETIME_S = 600.0
"""A live-update stream ends after this long; the browser reconnects by itself at once.
Frees the slot of a tablet that vanished without closing its connection."""

FRAME_WAIT_S = 3.0
"""A preview ends (after the "no camera" picture) when no new picture came this long."""


def init_app(app: Flask) -> None:
    """Give the app one cap of open streams per kind (EVENT_STREAMS, PREVIEW_STREAMS)."""
    app.extensions["stream_slots"] = {
        "events": StreamSlots("live update", int(app.config["EVENT_STREAMS"])),
        "preview": StreamSlots("camera preview", int(app.config["PREVIEW_STREAMS"])),
    }


def slots(kind: str) -> StreamSlots:
    """The cap of one kind of stream of the app handling this request."""
    return current_app.extensions["stream_slots"][kind]


def _page_gone() -> Callable[[], bool]:
    """Whether the page of this request has closed its connection (waitress tells; a server
    that does not, never)."""
    gone = request.environ.get("waitress.client_disconnected")
    return gone if callable(gone) else lambda: False


def _sse(message: dict[str, Any]) -> str:
    return f"data: {json.dumps(message, separators=(',', ':'))}\n\n"


@bp.get("/api/events")
def events() -> Response:
    """A full state on connect, then what changed; the browser reconnects by itself."""
    cap = slots("events")
    if not cap.take():
        return cap.refusal()
    table = hub()
    q, first = table.subscribe()
    gone = _page_gone()

    def generate() -> Iterator[str]:
        yield "retry: 1500\n\n" + _sse(first)
        now = time.monotonic()
        ends, ping = now + EVENTS_LIFETIME_S, now + KEEPALIVE_S
        while table.is_subscribed(q) and not gone() and time.monotonic() < ends:
            try:
                message = q.get(timeout=LOOK_S)
            except queue.Empty:
                if time.monotonic() >= ping:
                    ping = time.monotonic() + KEEPALIVE_S
                    yield "event: ping\ndata: 0\n\n"  # lets the page notice a dead stream
                continue
            yield _sse(message)

    def end() -> None:
        table.unsubscribe(q)
        cap.give_back()

    response = Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(end)  # also when the stream never started
    return response


@functools.cache
def no_camera_jpeg() -> bytes:
    """The picture a preview shows when the camera gives none: grey, "no camera"."""
    import cv2
    import numpy as np

    picture = np.full((360, 640, 3), 60, np.uint8)
    text, font = "no camera picture", cv2.FONT_HERSHEY_SIMPLEX
    (width, height), _ = cv2.getTextSize(text, font, 1.2, 2)
    origin = ((640 - width) // 2, (360 + height) // 2)
    cv2.putText(picture, text, origin, font, 1.2, (220, 220, 220), 2, cv2.LINE_AA)
    ok, encoded = cv2.imencode(".jpg", picture)
    assert ok, "OpenCV could not encode the no-camera picture"
    return encoded.tobytes()


def _part(jpeg: bytes) -> bytes:
    """One picture of the multipart stream."""
    head = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(jpeg)
    return head + jpeg + b"\r\n"


def _camera_delivers(camera: Any) -> bool:
    """Whether the camera is reading pictures now (not starting, lost or stopped)."""
    if getattr(camera, "stopped", False):
        return False
    status = getattr(camera, "status", None)
    return not callable(status) or status().state == "ok"


def _preview(camera: Any, gone: Callable[[], bool]) -> Iterator[bytes]:
    """The camera's pictures as they come; the no-camera picture and the end once none comes."""
    last, last_new = -1, time.monotonic()
    while not gone() and _camera_delivers(camera) and time.monotonic() - last_new < FRAME_WAIT_S:
        frame_id, jpeg = camera.wait_jpeg(last, timeout=LOOK_S / 4)
        if jpeg is None or frame_id == last:
            continue
        last, last_new = frame_id, time.monotonic()
        yield _part(jpeg)
    if not gone():
        yield _part(no_camera_jpeg())


def _multipart(parts: Iterator[bytes]) -> Response:
    return Response(
        parts,
        mimetype="multipart/x-mixed-replace; boundary=frame",
        headers={"Cache-Control": "no-cache"},
    )


@bp.get("/video.mjpg")
def video() -> Response:
    """The camera picture with what was read drawn on it, as a multipart JPEG stream; while the
    camera is lost, one "no camera" picture, and the stream ends (the page asks again later)."""
    camera = current_app.extensions.get("camera")
    if camera is None:
        raise ActionError(404, "no camera is running; enter rolls by hand")
    if not _camera_delivers(camera):
        return _multipart(iter([_part(no_camera_jpeg())]))
    cap = slots("preview")
    if not cap.take():
        return cap.refusal()
    response = _multipart(_preview(camera, _page_gone()))
    response.call_on_close(cap.give_back)
    return response
