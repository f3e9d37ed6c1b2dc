"""The live camera's status as the page sees it: its state, counts and light, and who is told."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CameraStatus:
    """What the camera is doing: state (starting, ok, lost, stopped), source, a message, counts,
    the light judged from the dice of the last rolls (see `vision.light`), and the colours
    learnt from the rolls applied (see `vision.live_learning.ColoursFromPlay`)."""

    state: str
    source: str
    message: str
    frames_read: int
    readings: int
    last_frame_age_s: float | None
    light: np.ndarray | None = None  # judged from the rolls' dice, until calibration
    light_dice: int = 0  # how many dice it was judged from
    colours_learnt: tuple[str, ...] = ()  # named from the rolls applied, until calibration
    every_colour_learnt: bool = False  # colours_learnt holds every colour the game rolls


# The light judged so far and how many dice it was judged from.
LightJudged = Callable[[], tuple[np.ndarray | None, int]]
# The colours learnt from the rolls applied so far (none before), and whether they are every
# colour the game rolls.
ColoursLearnt = Callable[[], tuple[tuple[str, ...], bool]]


class StatusBoard:
    """Keeps the camera's status and counts, and tells `on_status` of each change (and, when
    forced, of no change: a heartbeat)."""

    def __init__(
        self,
        on_status: Callable[[CameraStatus], None] | None,
        light: LightJudged,
        clock: Callable[[], float],
        every_s: float,
        colours_learnt: ColoursLearnt = lambda: ((), False),
    ) -> None:
        self._on_status = on_status
        self._light = light
        self._colours_learnt = colours_learnt
        self._clock = clock
        self.every_s = every_s
        self._lock = threading.Lock()
        self._status = CameraStatus("starting", "", "starting the camera", 0, 0, None)
        self._sent = 0.0
        self._frames = self._readings = 0
        self._last_frame: float | None = None

    @property
    def state(self) -> str:
        """The state last reported."""
        return self._status.state

    @property
    def message(self) -> str:
        """The message last reported."""
        return self._status.message

    @property
    def source(self) -> str:
        """The source's name last reported."""
        return self._status.source

    def frame_shown(self, now: float) -> None:
        """Count a frame taken from the source at `now`."""
        with self._lock:
            self._frames += 1
            self._last_frame = now

    def dice_read(self) -> None:
        """Count a reading of the dice."""
        with self._lock:
            self._readings += 1

    def heartbeat_due(self, now: float) -> bool:
        """Whether nothing was sent for `every_s`."""
        return now - self._sent > self.every_s

    def status(self) -> CameraStatus:
        """The camera's state now."""
        with self._lock:
            return self._current(self._status.state, self._status.source, self._status.message)

    def report(self, state: str, source: str, message: str, force: bool = False) -> None:
        """Record the status and tell on_status when it changed (or when forced)."""
        with self._lock:
            old = self._status
            self._status = self._current(state, source, message)
            changed = (old.state, old.source, old.message) != (state, source, message)
            if changed or force:
                self._sent = self._clock()
            status = self._status
        if (changed or force) and self._on_status is not None:
            try:
                self._on_status(status)
            except Exception:  # noqa: BLE001 - the page's trouble must not stop the camera
                log.exception("the camera status handler failed")

    def _current(self, state: str, source: str, message: str) -> CameraStatus:
        """A status with the counts, the last frame's age and the light as they are now."""
        age = None if self._last_frame is None else self._clock() - self._last_frame
        light, light_dice = self._light()
        learnt, every_colour = self._colours_learnt()
        return CameraStatus(
            state,
            source,
            message,
            self._frames,
            self._readings,
            age,
            light,
            light_dice,
            learnt,
            every_colour,
        )
