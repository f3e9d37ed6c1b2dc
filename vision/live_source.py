"""The live camera's frame source: made once, opened, closed on trouble, watched for stalls."""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np

from vision.camera import FrameSource

log = logging.getLogger(__name__)


class Stalled(Exception):
    """The source gives no new picture."""


class SourceLink:
    """The frame source, made once by its factory and opened and closed as often as needed; a
    loss is written to the log once, and again only when it changes or the source is back."""

    def __init__(self, factory: Callable[[], FrameSource]) -> None:
        self.factory = factory
        self.source: FrameSource | None = None
        self.opened = False
        self._told_lost: str | None = None  # the loss last written to the log, until it is back

    @property
    def name(self) -> str:
        """The source's name ("" before it is made)."""
        return self.source.name if self.source is not None else ""

    def made(self) -> FrameSource:
        """The source, made on the first call."""
        if self.source is None:
            self.source = self.factory()
        return self.source

    def open(self) -> None:
        """Open the source (made already)."""
        source = self.made()
        source.open()
        self.opened = True
        if self._told_lost is not None:
            log.warning("%s is back", source.name)
            self._told_lost = None

    def tell_lost(self, message: str) -> None:
        """Log the loss, once for each message in a row."""
        name = self.source.name if self.source is not None else "the camera"
        if message != self._told_lost:  # retried every retry_s: say it once, and on a change
            log.warning("%s lost: %s", name, message)
            self._told_lost = message

    def close(self) -> None:
        """Close the source, whatever it says."""
        if self.source is not None and self.opened:
            self.opened = False
            try:
                self.source.close()
            except Exception as error:  # noqa: BLE001 - closing a broken camera may fail too
                log.info("closing %s: %s", self.source.name, error)


class StallWatch:
    """Tells new pictures from none or a frozen one, and raises Stalled after `stall_s` without
    a new one."""

    def __init__(self) -> None:
        self._last_new = 0.0
        self._prev: np.ndarray | None = None

    def restart(self, now: float) -> None:
        """The source was (re)opened at `now`."""
        self._last_new = now
        self._prev = None

    def is_new(
        self, frame: np.ndarray | None, now: float, source: FrameSource, stall_s: float
    ) -> bool:
        """Whether `frame` (read at `now`) is a new picture. A live source showing the same
        picture as last time, or no picture, is stalled after `stall_s`."""
        frozen = (
            frame is not None
            and getattr(source, "live", True)
            and self._prev is not None
            and frame.shape == self._prev.shape
            and np.array_equal(frame, self._prev)
        )
        if frame is None or frozen:
            if now - self._last_new > stall_s:
                what = "shows the same picture" if frozen else "gives no new picture"
                raise Stalled(f"{source.name} {what} for {stall_s:g} s")
            return False
        self._last_new = now
        self._prev = frame
        return True
