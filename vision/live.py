"""The live camera service: one thread reads frames, watches rolls and keeps a preview JPEG.

`LiveCamera` runs the thread and puts its parts together: the source and its stalls
(`vision.live_source`), which frames are read (`vision.live_gate`), the preview
(`vision.live_preview`), what is learnt from the dice (`vision.live_learning`), the camera's
place remembered (`vision.live_place`) and the status
the page sees (`vision.live_status`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from vision.camera import CameraError, FrameSource
from vision.colour import Palette
from vision.detections import Detections
from vision.live_gate import ReadGate
from vision.live_learning import ColoursFromPlay, LightLearner, SideLearner
from vision.live_place import PlaceLearner
from vision.live_preview import Preview
from vision.live_source import SourceLink, StallWatch
from vision.live_status import CameraStatus, StatusBoard
from vision.reader import ReaderConfig, read_dice
from vision.simtable import SimulatedTable
from vision.video import DiceLeft, RollSettled, RollWatcher

log = logging.getLogger(__name__)


def _arena(config: ReaderConfig) -> str | None:
    """Watch only the arena when the zones name one, else the whole picture."""
    zones = config.zones
    return "arena" if zones is not None and "arena" in zones.names else None


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
        self._config = config
        self._on_event = on_event
        self.active_fps, self.idle_fps = float(active_fps), float(idle_fps)
        self.stall_s, self.retry_s, self.idle_after_s = stall_s, retry_s, idle_after_s
        self._reader = reader
        self._clock = clock
        self._lock = threading.Lock()  # guards the settings and the latest reading
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._link = SourceLink(source_factory)
        self._stall = StallWatch()
        self._gate = ReadGate()
        self._preview = Preview(jpeg_quality)
        self._side = SideLearner()
        self._light = LightLearner()
        self._play = ColoursFromPlay()
        self._camera_place = PlaceLearner()  # used by the camera thread alone
        self._board = StatusBoard(
            on_status, self._light.judged, clock, status_every_s, self._play.learnt_so_far
        )
        self._watcher = RollWatcher(read=self._read, arena_zone=_arena(config))
        self._latest = Detections.empty()
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
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=10.0)
        self._link.close()
        self.stopped = True
        self._report("stopped", "the camera was stopped")
        self._preview.close()

    def set_config(self, config: ReaderConfig) -> None:
        """Read with new settings from the next frame on (after calibration or new zones)."""
        with self._lock:
            self._light.settings_changed(self._config.palette, config.palette)
            self._play.settings_changed(self._config.palette, config.palette)
            self._config = config
            self._watcher.arena_zone = _arena(config)

    def with_learnt_colours(self, config: ReaderConfig) -> ReaderConfig:
        """`config` under what the camera learnt of the dice's colours until calibration: the
        palette learnt from the rolls applied, else the light judged from the settled rolls.
        Other things this camera sees, the casino row, lie under the same lamp."""
        return self._play.applied(self._light.applied(config))

    def roll_applied(
        self, dice: Detections, used: Sequence[bool], colours: Mapping[str, int]
    ) -> bool:
        """The table applied a roll from the dice of a settled roll this camera reported
        (`dice`, the very object), those `used` for it, holding so many dice of each colour:
        learn the dice's colours from it (`vision.live_learning.ColoursFromPlay`); whether
        anything was learnt."""
        with self._lock:
            config = self._config
        palette = self._light.applied(config).palette
        return self._play.roll_applied(dice, used, colours, palette)

    def learnt_colours(self) -> dict[str, Any] | None:
        """What the camera learnt of the dice's colours from play, JSON-ready (None before)."""
        return self._play.to_json()

    def restore_learnt_colours(self, data: object) -> None:
        """Take up colours learnt from play before a restart (`learnt_colours`), where they
        were learnt for the colours in play now and nothing is learnt yet."""
        with self._lock:
            config = self._config
        self._play.restore(data, config.palette)

    def settle_and_lock(self) -> dict[str, Any] | None:
        """Let a real camera settle exposure and white balance again and lock them; its settings.

        None where the source has no such settings (a file, the simulated table) or is not open
        right now (lost, being opened again): opening it settles and locks anyway.
        """
        settle = getattr(self._link.source, "settle_and_lock", None)
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
        return self._link.source

    @property
    def sim_table(self) -> SimulatedTable | None:
        """The simulated table when that is the source, so a page can throw and take dice."""
        source = self._link.source
        if isinstance(source, SimulatedTable):
            return source
        return getattr(source, "sim_table", None)  # "auto" while it waits for a camera

    @property
    def frame_id(self) -> int:
        """Counts the preview frames made so far."""
        return self._preview.frame_id

    def jpeg(self) -> bytes | None:
        """The latest frame with what was read drawn on it, as JPEG bytes."""
        return self._preview.jpeg()

    def wait_jpeg(self, after_id: int, timeout: float) -> tuple[int, bytes | None]:
        """Wait (up to timeout) for a preview newer than after_id; its id and JPEG bytes."""
        return self._preview.wait_jpeg(after_id, timeout)

    def snapshot(self) -> np.ndarray | None:
        """A copy of the latest raw frame (None before the first)."""
        return self._preview.snapshot()

    def latest(self) -> Detections:
        """What the reader read in the last frame it read."""
        with self._lock:
            return self._latest

    @property
    def regular_side_px(self) -> float | None:
        """A regular die's side as last measured in a reading of several dice (None before)."""
        return self._side.side

    def status(self) -> CameraStatus:
        """The camera's state now."""
        return self._board.status()

    # --- the camera thread ------------------------------------------------------------------

    def _run(self) -> None:
        """Open, read, and on any trouble report it, close and try again; never end early."""
        while not self._stop.is_set():
            try:
                if not self._link.opened:
                    self._open()
                else:
                    self._step()
            except Exception as error:  # noqa: BLE001 - a lost camera must not end the thread
                self._lose(str(error) or type(error).__name__)

    def _open(self) -> None:
        """Make the source (once) and open it."""
        source = self._link.made()
        if self._board.state == "starting":  # while lost, the message keeps saying why
            self._report("starting", f"opening {source.name}")
        self._link.open()
        self._stall.restart(self._clock())

    def _lose(self, message: str) -> None:
        """Report the camera lost, close it, and wait before the next try."""
        if self._stop.is_set():
            return
        self._link.tell_lost(message)
        self._camera_place.forget()  # the camera may be put back elsewhere
        self._report("lost", f"{message}; trying again every {self.retry_s:g} s")
        self._link.close()
        self._stop.wait(self.retry_s)

    def _step(self) -> None:
        """Read one frame; process it if new; wait for the next one's turn."""
        source = self._link.made()
        now = self._clock()
        frame = source.read()
        if not self._stall.is_new(frame, now, source, self.stall_s):
            # Poll again soon: a real camera's next frame is due within a frame time.
            self._stop.wait(min(0.02, 0.5 / self.active_fps))
            return
        assert frame is not None
        if self._board.state != "ok" or self._board.source != source.name:
            self._report("ok", f"reading {source.name}")  # "auto" may have switched
        self._process(frame, now)
        idle = self._gate.idle(now, self.idle_after_s)
        interval = 1.0 / (self.idle_fps if idle else self.active_fps)
        self._stop.wait(max(0.0, interval - (self._clock() - now)))

    def _process(self, frame: np.ndarray, now: float) -> None:
        """Watch for rolls (reading only when the picture changed) and make the preview."""
        moving = self._gate.moving(frame, now, self._watcher.motion_threshold)
        events: list[RollSettled | DiceLeft] = []
        if self._gate.calls_for_read(frame, moving, self._watcher, self._latest):
            try:
                events = self._watcher.update(frame)
            except Exception as error:  # noqa: BLE001 - a reader failure is reported, not fatal
                log.exception("reading the dice failed")
                self._report(self._board.state, f"reading the dice failed: {error}")
        with self._lock:
            shown = Detections.empty() if moving else self._latest
        self._preview.show(frame, shown)
        self._board.frame_shown(now)
        for event in events:
            if isinstance(event, RollSettled):
                self._light.learn(frame, event.dice, self._palette)
                self._play.settled(frame, event.dice)
            try:
                self._on_event(event)
            except Exception as error:  # noqa: BLE001 - the game's trouble is not the camera's
                log.exception("the camera event handler failed")
                self._report(self._board.state, f"handling {type(event).__name__}: {error}")
        if self._board.heartbeat_due(now):
            self._report(self._board.state, self._board.message, force=True)

    def _palette(self) -> Palette:
        """The palette of the settings now."""
        with self._lock:
            return self._config.palette

    def _read(self, frame: np.ndarray) -> Detections:
        """Read the dice with the current settings (the watcher's reader)."""
        with self._lock:
            config = self._config
        config = self._camera_place.applied(self._side.applied(self.with_learnt_colours(config)))
        det = self._reader(frame, config)
        self._camera_place.learn(det)
        self._side.learn(frame, det)
        self._board.dice_read()
        with self._lock:
            self._latest = det
        return det

    def _report(self, state: str, message: str, force: bool = False) -> None:
        """Record the status and tell on_status when it changed (or when forced)."""
        self._board.report(state, self._link.name, message, force)
