"""The real server under many streams: requests always have a thread, streams beyond a cap are
refused, previews of a lost camera end, half-sent requests and long streams cost little."""

from __future__ import annotations

import http.client
import io
import json
import os
import socket
import sys
import threading
import time

import pytest
from browser import LiveServer
from fake_cameras import UnpluggableCamera

from web import create_app
from web.resources import start_camera
from web.server import OUTPUT_BUFFER, build_server

PLAYERS = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


class BudgetServer(LiveServer):
    """The app served as `lasvegas serve` serves it (`web.server.build_server`), in a thread."""

    def __init__(self, app, **options) -> None:
        self.app = app
        self.server = build_server(app, "127.0.0.1", 0, **options)
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop listening and end the pool's threads (the budget's pool is large)."""
        super().close()
        self.server.task_dispatcher.shutdown(timeout=5)


@pytest.fixture
def make_server(tmp_path):
    """Start BudgetServers on fresh game files; each is closed after the test."""
    started = []

    def make(config=None, **options) -> BudgetServer:
        db = str(tmp_path / f"t{len(started)}.sqlite3")
        live = BudgetServer(create_app({"DB": db, "SEED": 3} | (config or {})), **options)
        started.append(live)
        return live

    yield make
    for live in started:
        camera = live.app.extensions.get("camera")
        if camera is not None:
            camera.stop()
        live.close()


def get(port, path, timeout=5.0):
    """(status, headers, body) of one GET; raises TimeoutError when not answered in time."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def post_action(port, body, timeout=5.0):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", "/api/action", json.dumps(body), {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def open_stream(port, path="/api/events", timeout=5.0):
    """A GET whose answer is left open: (connection, response)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("GET", path)
    return conn, conn.getresponse()


def next_message(response) -> dict:
    """The next data message of an event stream."""
    while True:
        line = response.readline()
        assert line, "the stream ended"
        if line.startswith(b"data:"):
            return json.loads(line[5:])


def test_more_streams_than_the_old_thread_pool_and_an_action_still_goes_through(make_server):
    server = make_server({"EVENT_STREAMS": 60})
    streams = []
    try:
        for _ in range(60):  # the old server had 48 threads, all of them held by streams
            conn, response = open_stream(server.port)
            assert response.status == 200
            assert next_message(response)["type"] == "full"
            streams.append((conn, response))
        status, headers, body = get(server.port, "/api/events")  # one more than the cap
        assert status == 503 and headers["Retry-After"].isdigit()
        refusal = json.loads(body)
        assert "60 live update streams are open" in refusal["error"]
        assert refusal["why"]["key"] == "streams_full"
        status, _ = post_action(
            server.port,
            {"action": "new_game", "base": "none", "edition": "classic", "players": PLAYERS},
        )
        assert status == 200
        for _, response in (streams[0], streams[-1]):
            patch = next_message(response)
            assert patch["changes"]["game"]["players"][0]["name"] == "Anna"
    finally:
        for conn, response in streams:
            response.close()
            conn.close()
    # The slots are given back once the pages have gone.
    deadline = time.monotonic() + 10
    while True:
        conn, response = open_stream(server.port)
        response.close()
        conn.close()
        if response.status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert response.status == 200, "no slot came free after the pages left"


class LostCamera:
    """A camera that is not there: every open fails."""

    live = True
    name = "test camera"

    def open(self) -> None:
        from vision.camera import CameraError

        raise CameraError("camera test camera not found")

    def read(self):
        return None

    def close(self) -> None:
        pass


def wait_camera(port, state, timeout=10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = get(port, "/api/state")[2]
        if json.loads(body)["camera"]["state"] == state:
            return
        time.sleep(0.05)
    raise AssertionError(f"the camera never became {state}")


def is_no_camera_picture(body: bytes) -> bool:
    from web.stream import no_camera_jpeg

    return no_camera_jpeg() in body


def test_previews_of_a_lost_camera_show_no_camera_and_end(make_server):
    server = make_server()
    app = server.app
    start_camera(app, app.extensions["hub"], "test", LostCamera, retry_s=0.2)
    wait_camera(server.port, "lost")
    pages = []
    for _ in range(60):  # page reloads while the camera is away
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(b"GET /video.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        pages.append(sock)
    assert get(server.port, "/api/state")[0] == 200
    for sock in pages:
        body = b""
        while chunk := sock.recv(1 << 16):  # the answer ends: the server closes
            body += chunk
        sock.close()
        assert body.startswith(b"HTTP/1.1 200")
        assert is_no_camera_picture(body)
    assert get(server.port, "/api/state")[0] == 200


def test_a_preview_ends_with_no_camera_when_the_camera_is_lost(make_server):
    server = make_server()
    app = server.app
    camera = UnpluggableCamera()
    start_camera(
        app, app.extensions["hub"], "test", lambda: camera, active_fps=20, idle_fps=20, stall_s=0.3
    )
    wait_camera(server.port, "ok")
    conn, response = open_stream(server.port, "/video.mjpg", timeout=10)
    assert response.status == 200
    assert response.read(2000).startswith(b"--frame")
    camera.plugged = False
    rest = response.read()  # returns once the stream ends
    conn.close()
    assert is_no_camera_picture(rest)


def test_half_sent_requests_do_not_lock_the_server_out(make_server):
    server = make_server(request_wait_s=1.0)
    idle = []
    for _ in range(110):  # the old server accepted 100 connections, then none for 130 s
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(b"GET / HTTP/1.1\r\nHo")
        idle.append(sock)
    try:
        assert get(server.port, "/api/state", timeout=5)[0] == 200
        for sock in idle:  # each is closed once its request is overdue
            assert sock.recv(100) == b""
    finally:
        for sock in idle:
            sock.close()


def held_output(channel) -> int:
    """Bytes a waitress connection keeps for its output, sent already or not (a buffer in
    memory keeps what it sent until it is replaced; one in a temporary file is counted too)."""
    held = 0
    for outbuf in list(channel.outbufs):
        buf = outbuf.buf
        if buf is None:
            held += len(outbuf.strbuf)
        elif isinstance(buf.file, io.BytesIO):
            held += sys.getsizeof(buf.file)  # with what it has allocated
        else:
            held += os.fstat(buf.file.fileno()).st_size  # a temporary file
    return held


def test_long_lived_streams_keep_little_of_what_they_sent(make_server):
    server = make_server()
    hub = server.app.extensions["hub"]
    streams = [open_stream(server.port) for _ in range(20)]
    for _, response in streams:
        next_message(response)
    words = "the camera is somewhere else " * 700  # 20 kB in every push
    for i in range(100):  # 2 MB through each stream
        hub.set_camera_status({"state": "ok" if i % 2 else "lost", "message": f"{i} {words}"})
        for _, response in streams:
            assert next_message(response)["changes"]["camera"]["message"].startswith(f"{i} ")
    channels = [c for c in list(server.server.active_channels.values()) if c.requests]
    assert len(channels) == 20
    held = [held_output(channel) for channel in channels]
    for conn, response in streams:
        response.close()
        conn.close()
    assert max(held) < 4 * OUTPUT_BUFFER, held


def test_an_action_whose_page_gave_up_waiting_is_not_applied_later(make_server, monkeypatch):
    monkeypatch.setattr("web.server.REQUEST_THREADS", 0)  # two threads, both for streams
    monkeypatch.setattr("web.stream.EVENTS_LIFETIME_S", 2.0)  # then the threads come free
    server = make_server({"EVENT_STREAMS": 2, "PREVIEW_STREAMS": 0})
    streams = [open_stream(server.port) for _ in range(2)]
    for _, response in streams:
        next_message(response)
    body = json.dumps(
        {"action": "new_game", "base": "none", "edition": "classic", "players": PLAYERS}
    ).encode()
    page = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    page.sendall(
        b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    time.sleep(0.5)  # every thread is busy with a stream: the action waits
    page.close()  # and the page gives up
    for conn, response in streams:
        response.read()  # the stream ends: its thread is free
        conn.close()
    time.sleep(0.5)
    state = json.loads(get(server.port, "/api/state")[2])
    assert state["game"] is None, "an action nobody waits for any more was applied"
