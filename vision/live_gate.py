"""Which frames the live camera reads: those after motion or a change, until a roll is known."""

from __future__ import annotations

import numpy as np

from vision.detections import Detections
from vision.video import Phase, RollWatcher, motion_level

CHANGE_LEVEL = 6.0
"""Change (0-255, as motion_level measures it) since the last read frame that calls for a read."""


class ReadGate:
    """Measures motion from frame to frame and decides which frames are read."""

    def __init__(self) -> None:
        self._small: np.ndarray | None = None
        self._small_read: np.ndarray | None = None
        self.last_motion = 0.0
        self._quiet = 0

    def moving(self, frame: np.ndarray, now: float, threshold: float) -> bool:
        """Whether the frame moved since the last one (more than `threshold`)."""
        level, self._small = motion_level(self._small, frame)
        moving = level > threshold
        if moving:
            self.last_motion, self._quiet = now, 0
        else:
            self._quiet += 1
        return moving

    def idle(self, now: float, after_s: float) -> bool:
        """Whether nothing moved for `after_s`."""
        return now - self.last_motion > after_s

    def calls_for_read(
        self, frame: np.ndarray, moving: bool, watcher: RollWatcher, latest: Detections
    ) -> bool:
        """Whether the frame (just measured by `moving`) is to be read; if so, it becomes the
        last frame read.

        The watcher reads every still frame; once it has voted and reported, and nothing moved
        since, reading again would only repeat what it already knows. A small die slipping in
        may never look like motion from one frame to the next, so the picture is also compared
        with the last one read.
        """
        changed, _ = motion_level(self._small_read, frame)
        read = (
            moving
            or changed > CHANGE_LEVEL
            or self._quiet <= watcher.still_frames + 1
            or watcher.phase is Phase.MOVING
            or watcher.waiting
            or not watcher.agrees(latest)
        )
        if read:
            self._small_read = self._small
        return read
