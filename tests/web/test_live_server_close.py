"""The tests' server, closed while a stream is still being served, writes into no file that
opens after it (the next test's game file)."""

from __future__ import annotations

import os
import socket
import threading
import time

from browser import LiveServer


class _StreamingApp:
    """A WSGI app whose one answer is a stream of small chunks, one every 20 ms, for 0.3 s."""

    def __init__(self) -> None:
        self.extensions: dict = {}  # no camera
        self.streaming = threading.Event()

    def __call__(self, environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        self.streaming.set()
        for _ in range(15):
            time.sleep(0.02)
            yield b"x" * 16


def test_a_stream_served_after_close_writes_into_no_file_opened_since(tmp_path) -> None:
    app = _StreamingApp()
    server = LiveServer(app)
    client = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    try:
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert app.streaming.wait(5)
        server.close()
        # Files opened now take the lowest free file numbers, those of anything the close
        # let go of; the stream's worker goes on a little, and wakes the server's loop when
        # its answer ends.
        files = [os.open(tmp_path / f"game{i}.sqlite3", os.O_RDWR | os.O_CREAT) for i in range(8)]
        try:
            time.sleep(0.8)
        finally:
            for fd in files:
                os.close(fd)
    finally:
        client.close()
    assert [(tmp_path / f"game{i}.sqlite3").stat().st_size for i in range(8)] == [0] * 8
