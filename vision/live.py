"""The live camera service: one thread reads frames, watches rolls and keeps a preview JPEG."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.camera import CameraError, FrameSource
from vision.colour import Palette, body_colours
from vision.detections import Detections
from vision.draw import draw_detections
from vision.light import judged_light
from vision.reader import ReaderConfig, read_dice
from vision.simtable import SimulatedTable
from vision.size import die_sides
from vision.video import DiceLeft, Phase, RollSettled, RollWatcher, motion_level

log = logging.getLogger(__name__)

# Until the table is calibrated, the light's colour is judged from the body colours of the dice
# of the last rolls, this many at most, each counting by its confidence: a roll shows one
# player's colour, the rolls of a round show them all.
LIGHT_SAMPLES = 48


@dataclass(frozen=True)
class CameraStatus:
    """What the camera is doing: state (starting, ok, lost, stopped), source, a message, counts,
    and the light judged from the dice of the last rolls (see `vision.light`)."""

    state: str
    source: str
    message: str
    frames_read: int
    readings: int
    last_frame_age_s: float | None
    light: np.ndarray | None = None  # judged from the rolls' dice, until calibration
    light_dice: int = 0  # how many dice it was judged from


CHANGE_LEVEL = 6.0
"""Change (0-255, as motion_level measures it) since the last read frame that calls for a read."""


class _Stalled(Exception):
    """The source gives no new picture."""


def _regular_side(frame: np.ndarray, det: Detections) -> float | None:
    """The side in pixels of a regular die: the median over three or more sure dice.

    Sizes as read are not trusted here: once a wrong side was learnt, every die would be
    called big and no reading would correct it. A player has at most one Biggy, so the
    median of three or more dice is a regular one.
    """
    sure = ~det.unsure
    if sure.sum() < 3:
        return None
    return float(np.median(die_sides(frame, det.boxes[sure])))


def _arena(config: ReaderConfig) -> str | None:
    """Watch only the arena when the zones name one, else the whole picture."""
    zones = config.zones
    return "arena" if zones is not None and "arena" in zones.names else None


def _light_key(palette: Palette) -> tuple[str, ...] | None:
    """The colours in play that the light is judged against; None where it is not judged (a
    calibrated table, or no colours in play)."""
    if palette.reference_bgr is not None or not palette.in_play:
        return None
    return palette.in_play


class LiveCamera:
    """Reads a frame source in a background thread, reports rolls, survives a lost camera."""

    def __init__(
        self,
        source_factory: Callable[[], FrameSource],
        config: ReaderConfig,
        on_event: Callable[[RollSettled | DiceLeft], None],
        on_status: Callable[[CameraStatus], None] | None = None,
        active_fps: float = 10,
        idle_fps: float = 2,
        stall_s: float = 2.0,
        retry_s: float = 1.5,
        *,
        idle_after_s: float = 3.0,
        reader: Callable[[np.ndarray, ReaderConfig], Detections] = read_dice,
        clock: Callable[[], float] = time.monotonic,
        jpeg_quality: int = 80,
        status_every_s: float = 5.0,
    ) -> None:
        self._factory = source_factory
        self._config = config
        self._on_event = on_event
        self._on_status = on_status
        self.active_fps, self.idle_fps = float(active_fps), float(idle_fps)
        self.stall_s, self.retry_s, self.idle_after_s = stall_s, retry_s, idle_after_s
        self._reader = reader
        self._clock = clock
        self._jpeg_quality = jpeg_quality
        self._status_every_s = status_every_s
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._source: FrameSource | None = None
        self._opened = False
        self._watcher = RollWatcher(read=self._read, arena_zone=_arena(config))
        # Shared with other threads, under the lock.
        self._jpeg: bytes | None = None
        self._frame_id = 0
        self._raw: np.ndarray | None = None
        self._latest = Detections.empty()
        self._learnt_side: float | None = None
        self._light: np.ndarray | None = None  # judged from the rolls' dice, until calibration
        self._light_dice = 0
        self._status = CameraStatus("starting", "", "starting the camera", 0, 0, None)
        self._status_sent = 0.0
        self._frames = self._readings = 0
        self._last_frame: float | None = None
        # Owned by the camera thread.
        self._told_lost: str | None = None  # the loss last written to the log, until it is back
        self._seen_colours = np.zeros((0, 3), np.float32)
        self._seen_weights = np.zeros(0, np.float32)
        self._seen_key: tuple[str, ...] | None = None
        self._small: np.ndarray | None = None
        self._small_read: np.ndarray | None = None
        self._prev_raw: np.ndarray | None = None
        self._last_new = 0.0
        self._last_motion = 0.0
        self._quiet = 0
        self.stopped = False

    # --- control ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the camera thread."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="live camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread, wait for it, and release the source."""
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10.0)
        self._close_source()
        self.stopped = True
        self._report("stopped", "the camera was stopped")
        with self._cond:
            self._cond.notify_all()

    def set_config(self, config: ReaderConfig) -> None:
        """Read with new settings from the next frame on (after calibration or new zones)."""
        with self._lock:
            if _light_key(config.palette) != _light_key(self._config.palette):
                self._light, self._light_dice = None, 0  # other colours, or a calibrated table
            self._config = config
            self._watcher.arena_zone = _arena(config)

    def settle_and_lock(self) -> dict[str, Any] | None:
        """Let a real camera settle exposure and white balance again and lock them; its settings.

        None where the source has no such settings (a file, the simulated table) or is not open
        right now (lost, being opened again): opening it settles and locks anyway.
        """
        settle = getattr(self._source, "settle_and_lock", None)
        if not callable(settle):
            return None
        try:
            return settle()
        except CameraError as error:
            log.info("settle and lock: %s", error)
            return None

    # --- what the page reads ----------------------------------------------------------------

    @property
    def source(self) -> FrameSource | None:
        """The frame source in use (None until the first one is made)."""
        return self._source

    @property
    def sim_table(self) -> SimulatedTable | None:
        """The simulated table when that is the source, so a page can throw and take dice."""
        source = self._source
        if isinstance(source, SimulatedTable):
            return source
        return getattr(source, "sim_table", None)  # "auto" while it waits for a camera

    @property
    def frame_id(self) -> int:
        """Counts the preview frames made so far."""
        with self._lock:
            return self._frame_id

    def jpeg(self) -> bytes | None:
        """The latest frame with what was read drawn on it, as JPEG bytes."""
        with self._lock:
            return self._jpeg

    def wait_jpeg(self, after_id: int, timeout: float) -> tuple[int, bytes | None]:
        """Wait (up to timeout) for a preview newer than after_id; its id and JPEG bytes."""
        with self._cond:
            self._cond.wait_for(lambda: self._frame_id > after_id or self.stopped, timeout)
            return self._frame_id, self._jpeg

    def snapshot(self) -> np.ndarray | None:
        """A copy of the latest raw frame (None before the first)."""
        with self._lock:
            return None if self._raw is None else self._raw.copy()

    def latest(self) -> Detections:
        """What the reader read in the last frame it read."""
        with self._lock:
            return self._latest

    @property
    def regular_side_px(self) -> float | None:
        """A regular die's side as last measured in a reading of several dice (None before)."""
        with self._lock:
            return self._learnt_side

    def status(self) -> CameraStatus:
        """The camera's state now."""
        with self._lock:
            s = self._status
            age = None if self._last_frame is None else self._clock() - self._last_frame
            return CameraStatus(
                s.state,
                s.source,
                s.message,
                self._frames,
                self._readings,
                age,
                self._light,
                self._light_dice,
            )

    # --- the camera thread ------------------------------------------------------------------

    def _run(self) -> None:
        """Open, read, and on any trouble report it, close and try again; never end early."""
        while not self._stop.is_set():
            try:
                if not self._opened:
                    self._open()
                else:
                    self._step()
            except Exception as error:  # noqa: BLE001 - a lost camera must not end the thread
                self._lose(str(error) or type(error).__name__)

    def _open(self) -> None:
        """Make the source (once) and open it."""
        if self._source is None:
            self._source = self._factory()
        if self._status.state == "starting":  # while lost, the message keeps saying why
            self._report("starting", f"opening {self._source.name}")
        self._source.open()
        self._opened = True
        if self._told_lost is not None:
            log.warning("%s is back", self._source.name)
            self._told_lost = None
        self._last_new = self._clock()
        self._prev_raw = None

    def _lose(self, message: str) -> None:
        """Report the camera lost, close it, and wait before the next try."""
        if self._stop.is_set():
            return
        name = self._source.name if self._source is not None else "the camera"
        if message != self._told_lost:  # retried every retry_s: say it once, and on a change
            log.warning("%s lost: %s", name, message)
            self._told_lost = message
        self._report("lost", f"{message}; trying again every {self.retry_s:g} s")
        self._close_source()
        self._stop.wait(self.retry_s)

    def _close_source(self) -> None:
        """Close the source, whatever it says."""
        if self._source is not None and self._opened:
            self._opened = False
            try:
                self._source.close()
            except Exception as error:  # noqa: BLE001 - closing a broken camera may fail too
                log.info("closing %s: %s", self._source.name, error)

    def _step(self) -> None:
        """Read one frame; process it if new; wait for the next one's turn."""
        assert self._source is not None
        now = self._clock()
        frame = self._source.read()
        frozen = (
            frame is not None
            and getattr(self._source, "live", True)
            and self._prev_raw is not None
            and frame.shape == self._prev_raw.shape
            and np.array_equal(frame, self._prev_raw)
        )
        if frame is None or frozen:
            if now - self._last_new > self.stall_s:
                what = "shows the same picture" if frozen else "gives no new picture"
                raise _Stalled(f"{self._source.name} {what} for {self.stall_s:g} s")
            # Poll again soon: a real camera's next frame is due within a frame time.
            self._stop.wait(min(0.02, 0.5 / self.active_fps))
            return
        self._last_new = now
        self._prev_raw = frame
        if self._status.state != "ok" or self._status.source != self._source.name:
            self._report("ok", f"reading {self._source.name}")  # "auto" may have switched
        self._process(frame, now)
        idle = now - self._last_motion > self.idle_after_s
        interval = 1.0 / (self.idle_fps if idle else self.active_fps)
        self._stop.wait(max(0.0, interval - (self._clock() - now)))

    def _process(self, frame: np.ndarray, now: float) -> None:
        """Watch for rolls (reading only when the picture changed) and make the preview."""
        watcher = self._watcher
        level, self._small = motion_level(self._small, frame)
        moving = level > watcher.motion_threshold
        if moving:
            self._last_motion, self._quiet = now, 0
        else:
            self._quiet += 1
        events: list[RollSettled | DiceLeft] = []
        # The watcher reads every still frame; once it has voted and reported, and nothing
        # moved since, reading again would only repeat what it already knows.
        # A small die slipping in may never look like motion from one frame to the next, so
        # the picture is also compared with the last one read.
        changed, _ = motion_level(self._small_read, frame)
        if (
            moving
            or changed > CHANGE_LEVEL
            or self._quiet <= watcher.still_frames + 1
            or watcher.phase is Phase.MOVING
            or watcher.waiting
            or not watcher.agrees(self._latest)
        ):
            self._small_read = self._small
            try:
                events = watcher.update(frame)
            except Exception as error:  # noqa: BLE001 - a reader failure is reported, not fatal
                log.exception("reading the dice failed")
                self._report(self._status.state, f"reading the dice failed: {error}")
        with self._lock:
            shown = Detections.empty() if moving else self._latest
        preview = draw_detections(frame, shown) if len(shown) else frame
        ok, enc = cv2.imencode(".jpg", preview, [cv2.IMWRITE_JPEG_QUALITY, self._jpeg_quality])
        with self._cond:
            self._raw = frame
            self._frames += 1
            self._last_frame = now
            if ok:
                self._jpeg = enc.tobytes()
            self._frame_id += 1
            self._cond.notify_all()
        for event in events:
            if isinstance(event, RollSettled):
                self._learn_light(frame, event.dice)
            try:
                self._on_event(event)
            except Exception as error:  # noqa: BLE001 - the game's trouble is not the camera's
                log.exception("the camera event handler failed")
                self._report(self._status.state, f"handling {type(event).__name__}: {error}")
        if now - self._status_sent > self._status_every_s:
            self._report(self._status.state, self._status.message, force=True)

    def _read(self, frame: np.ndarray) -> Detections:
        """Read the dice with the current settings (the watcher's reader)."""
        with self._lock:
            config, learnt, light = self._config, self._learnt_side, self._light
        if light is not None and _light_key(config.palette) is not None:
            config = replace(config, palette=replace(config.palette, light=light))
        # Size is judged against the other dice in the frame; a lone die (often a player's
        # last, the Biggy) has none, so the size of regular dice seen earlier stands in.
        if config.regular_side_px is None and learnt is not None:
            config = replace(config, regular_side_px=learnt)
        det = self._reader(frame, config)
        side = _regular_side(frame, det) if len(det) >= 3 else None
        with self._lock:
            self._readings += 1
            self._latest = det
            if side is not None:
                self._learnt_side = side
        return det

    def _learn_light(self, frame: np.ndarray, dice: Detections) -> None:
        """Judge the light anew from the settled roll's dice and those of the rolls before."""
        with self._lock:
            palette = self._config.palette
        key = _light_key(palette)
        if key is None:
            return
        if key != self._seen_key:
            self._seen_colours, self._seen_weights = self._seen_colours[:0], self._seen_weights[:0]
            self._seen_key = key
        seen = np.concatenate([self._seen_colours, body_colours(frame, dice.boxes)])
        self._seen_colours = seen[-LIGHT_SAMPLES:]
        weights = np.concatenate([self._seen_weights, dice.confidence])
        self._seen_weights = weights[-LIGHT_SAMPLES:]
        light = judged_light(
            palette, self._seen_colours, self._seen_weights, thorough=True, exposure=True
        ).light
        with self._lock:
            if _light_key(self._config.palette) == key:
                self._light, self._light_dice = light, len(self._seen_colours)

    def _report(self, state: str, message: str, force: bool = False) -> None:
        """Record the status and tell on_status when it changed (or when forced)."""
        name = self._source.name if self._source is not None else ""
        with self._lock:
            old = self._status
            age = None if self._last_frame is None else self._clock() - self._last_frame
            self._status = CameraStatus(
                state,
                name,
                message,
                self._frames,
                self._readings,
                age,
                self._light,
                self._light_dice,
            )
            changed = (old.state, old.source, old.message) != (state, name, message)
            if changed or force:
                self._status_sent = self._clock()
            status = self._status
        if (changed or force) and self._on_status is not None:
            try:
                self._on_status(status)
            except Exception:  # noqa: BLE001 - the page's trouble must not stop the camera
                log.exception("the camera status handler failed")
