"""A fake camera for the page's tests: it can be unplugged and plugged back in."""

from __future__ import annotations

import numpy as np


class UnpluggableCamera:
    """Small grey frames until unplugged (reads give nothing, opening fails); works again
    once plugged back. Counts how often it was opened."""

    live = True
    name = "test camera"

    def __init__(self) -> None:
        self.plugged = True
        self.opens = 0
        self.count = 0

    def open(self) -> None:
        self.opens += 1
        if not self.plugged:
            from vision.camera import CameraError

            raise CameraError("camera test camera not found")

    def read(self) -> np.ndarray | None:
        if not self.plugged:
            return None
        self.count += 1
        return np.full((120, 160, 3), 40 + self.count % 3, np.uint8)

    def close(self) -> None:
        pass
