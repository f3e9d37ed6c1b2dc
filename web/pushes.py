"""Pushes to the open pages: each page's queue gets what changed since the last push."""

from __future__ import annotations

import queue
import threading
from collections.abc import Mapping

SUBSCRIBER_QUEUE = 64
"""Pushes held for a slow page before it is dropped (it reconnects and gets a full state)."""

Snapshot = dict[str, object]
"""The whole table as the pages draw it (see `TableHub.snapshot`): JSON-ready."""

Message = dict[str, object]
"""One push: {"type": "full", "seq": n, "state": ...} or {"type": "patch", "seq": n, "changes": ...}."""


class Pushes:
    """The queues of every open page, and the last snapshot pushed to them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queues: set[queue.Queue[Message]] = set()
        self._last: Snapshot = {}
        self.seq = 0

    def publish(self, snapshot: Snapshot) -> None:
        """Push the parts of `snapshot` that changed since the last push to every page."""
        with self._lock:
            changes = {k: v for k, v in snapshot.items() if self._last.get(k) != v}
            if not changes:
                return
            self.seq += 1
            self._last = snapshot
            message: Message = {"type": "patch", "seq": self.seq, "changes": changes}
            for q in list(self._queues):
                try:
                    q.put_nowait(message)
                except queue.Full:
                    # A page that stopped reading; its stream ends and it reconnects for a full state.
                    self._queues.discard(q)

    def subscribe(self, snapshot: Mapping[str, object]) -> tuple[queue.Queue[Message], Message]:
        """A queue of pushes for one page, and its first message: the full `snapshot`."""
        with self._lock:
            q: queue.Queue[Message] = queue.Queue(SUBSCRIBER_QUEUE)
            self._queues.add(q)
            self._last = self._last or dict(snapshot)
            return q, {"type": "full", "seq": self.seq, "state": snapshot}

    def unsubscribe(self, q: queue.Queue[Message]) -> None:
        """Forget a page that went away."""
        with self._lock:
            self._queues.discard(q)

    def is_subscribed(self, q: queue.Queue[Message]) -> bool:
        """Whether pushes still go to this queue (a page too slow to read is dropped)."""
        with self._lock:
            return q in self._queues
