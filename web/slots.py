"""Caps on open streams, one per kind, so that streams never take the threads requests need."""

from __future__ import annotations

import threading

from flask import Response, jsonify

RETRY_AFTER_S = 5
"""Seconds a refused page waits before it asks again (the page adds a random part)."""


class StreamSlots:
    """Counts the open streams of one kind; a stream beyond `cap` is refused."""

    def __init__(self, kind: str, cap: int) -> None:
        self.kind = kind
        self.cap = cap
        self._open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Count one more open stream; False (and nothing counted) when all slots are taken."""
        with self._lock:
            if self._open >= self.cap:
                return False
            self._open += 1
            return True

    def give_back(self) -> None:
        """A stream ended: its slot is free again."""
        with self._lock:
            self._open -= 1

    @property
    def open(self) -> int:
        """How many streams of this kind are open now."""
        return self._open

    def refusal(self) -> Response:
        """503 with Retry-After and a message: every slot of this kind is taken."""
        response = jsonify(
            {
                "error": f"{self.cap} {self.kind} streams are open, the most this table serves; "
                f"try again in {RETRY_AFTER_S} s",
                "why": {"key": "streams_full", "kind": self.kind, "cap": self.cap},
            }
        )
        response.status_code = 503
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
        return response
