"""The waitress server with a budget: threads, connections and output buffers that streams
cannot use up.

waitress serves each request on a thread of a fixed pool, and a live stream keeps its
thread for as long as it is open. So the pool holds one thread for every stream the app
lets open (its caps, see `web.stream`) and `REQUEST_THREADS` more that only requests
use: a page's action never waits behind the streams.
"""

from __future__ import annotations

import resource
import time
from typing import Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server

REQUEST_THREADS = 16
"""Threads beyond the streams' caps, for requests: actions, states, the page's files."""

CONNECTIONS = 1000
"""Open connections accepted at once. Streams hold one each; browsers keep a few idle ones."""

FILES_WANTED = CONNECTIONS + 200
"""Open files asked of the system: the connections plus the game file, camera and libraries."""

REQUEST_WAIT_S = 10.0
"""A connection that has not sent a whole request this long after it began one is closed
(so half-sent requests cannot hold connections until the idle timeout)."""

IDLE_S = 60
"""A connection with no request and nothing sent or received this long is closed."""

OUTPUT_BUFFER = 64 * 1024
"""Bytes written to a connection's output buffer before it starts a fresh one (and unsent
bytes before a writer waits for a slow client). A buffer keeps in memory what it has already
sent until it is replaced, so waitress's default, 16 MB, let a long-lived stream (a preview;
live updates once a send was partial or a message passed 8 kB) hold up to 16 MB it had sent."""


class GuardedChannel(HTTPChannel):
    """A waitress connection that is closed when its request is not whole `request_wait_s`
    after its first byte (or after connecting, when it sends nothing)."""

    request_wait_s = REQUEST_WAIT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waiting_since: float | None = time.monotonic()

    def received(self, data: bytes) -> bool:
        """Note when a request begins and when it is whole."""
        if self.request is None and self.waiting_since is None:
            self.waiting_since = time.monotonic()
        result: bool = super().received(data)
        if self.request is None:
            self.waiting_since = None
        return result

    def readable(self) -> bool:
        """Asked on every turn of the server's loop: the moment to close a stalled request."""
        since = self.waiting_since
        if (
            since is not None
            and not self.requests
            and time.monotonic() - since > self.request_wait_s
        ):
            self.will_close = True  # the loop closes it (writable() says so)
            return False
        return bool(super().readable())


def thread_budget(app: Flask) -> int:
    """Threads for the pool: one per stream the app lets open, and the requests' reserve."""
    return int(app.config["EVENT_STREAMS"]) + int(app.config["PREVIEW_STREAMS"]) + REQUEST_THREADS


def allow_open_files(wanted: int = FILES_WANTED) -> int:
    """Raise this process's open-file limit towards `wanted` (up to the hard limit); the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        soft = raised
    return wanted if soft == resource.RLIM_INFINITY else int(soft)


def build_server(
    app: Flask, host: str, port: int, request_wait_s: float = REQUEST_WAIT_S, **extra: Any
) -> BaseWSGIServer | MultiSocketServer:
    """The waitress server for `app` on host:port, with the budget above (not yet running)."""
    files = allow_open_files()
    server = create_server(
        app,
        host=host,
        port=port,
        ident="lasvegas",
        threads=thread_budget(app),
        connection_limit=min(CONNECTIONS, files - 100),
        asyncore_use_poll=True,  # select() cannot watch more than 1024 connections
        channel_timeout=IDLE_S,
        cleanup_interval=5,  # how often idle connections are looked for
        outbuf_high_watermark=OUTPUT_BUFFER,
        channel_request_lookahead=1,  # keeps reading while a stream runs: sees clients leave
        **extra,
    )
    channel = type("Channel", (GuardedChannel,), {"request_wait_s": request_wait_s})
    listeners = getattr(server, "map", None) or getattr(server, "_map", {})
    for listener in list(listeners.values()):
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = channel
    return server
