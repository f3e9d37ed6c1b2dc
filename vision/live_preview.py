"""The live camera's preview: the latest frame with what was read drawn on it, as JPEG."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from vision.detections import Detections
from vision.draw import draw_detections


class Preview:
    """The latest frame (raw, and as a JPEG with the dice drawn on it) and its id, for pages
    that wait for the next one."""

    def __init__(self, jpeg_quality: int = 80) -> None:
        self._quality = jpeg_quality
        self._cond = threading.Condition()
        self._jpeg: bytes | None = None
        self._frame_id = 0
        self._raw: np.ndarray | None = None
        self._closed = False

    def show(self, frame: np.ndarray, dice: Detections) -> None:
        """Make the frame, with `dice` drawn on it, the latest, and wake the pages waiting."""
        picture = draw_detections(frame, dice) if len(dice) else frame
        ok, enc = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, self._quality])
        with self._cond:
            self._raw = frame
            if ok:
                self._jpeg = enc.tobytes()
            self._frame_id += 1
            self._cond.notify_all()

    def close(self) -> None:
        """No frame will follow: wake the pages waiting."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    @property
    def frame_id(self) -> int:
        """Counts the preview frames made so far."""
        with self._cond:
            return self._frame_id

    def jpeg(self) -> bytes | None:
        """The latest frame with what was read drawn on it, as JPEG bytes."""
        with self._cond:
            return self._jpeg

    def wait_jpeg(self, after_id: int, timeout: float) -> tuple[int, bytes | None]:
        """Wait (up to timeout, or until closed) for a preview newer than after_id; its id and
        JPEG bytes."""
        with self._cond:
            self._cond.wait_for(lambda: self._frame_id > after_id or self._closed, timeout)
            return self._frame_id, self._jpeg

    def snapshot(self) -> np.ndarray | None:
        """A copy of the latest raw frame (None before the first)."""
        with self._cond:
            return None if self._raw is None else self._raw.copy()
