"""Pushes to the pages: live table updates (server-sent events) and the camera preview (MJPEG)."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app

from web.errors import ActionError
from web.resources import hub

bp = Blueprint("stream", __name__)

KEEPALIVE_S = 15.0
"""A comment line this often keeps proxies and tablets from closing a quiet stream."""


def _sse(message: dict[str, Any]) -> str:
    return f"data: {json.dumps(message, separators=(',', ':'))}\n\n"


@bp.get("/api/events")
def events() -> Response:
    """A full state on connect, then what changed; the browser reconnects by itself."""
    table = hub()
    q, first = table.subscribe()

    def generate() -> Iterator[str]:
        try:
            yield "retry: 1500\n\n" + _sse(first)
            while table.is_subscribed(q):
                try:
                    message = q.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    yield "event: ping\ndata: 0\n\n"  # lets the page notice a dead stream
                    continue
                yield _sse(message)
        finally:
            table.unsubscribe(q)

    return Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@bp.get("/video.mjpg")
def video() -> Response:
    """The camera picture with what was read drawn on it, as a multipart JPEG stream."""
    camera = current_app.extensions.get("camera")
    if camera is None:
        raise ActionError(404, "no camera is running; enter rolls by hand")

    def generate() -> Iterator[bytes]:
        last = -1
        while True:
            frame_id, jpeg = camera.wait_jpeg(last, timeout=5.0)
            if jpeg is None or frame_id == last:
                if getattr(camera, "stopped", False):
                    return
                continue
            last = frame_id
            yield (
                b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: "
                + str(len(jpeg)).encode()
                + b"\r\n\r\n"
                + jpeg
                + b"\r\n"
            )

    return Response(
        generate(),
        mimetype="multipart/x-mixed-replace; boundary=frame",
        headers={"Cache-Control": "no-cache"},
    )
