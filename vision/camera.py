"""Frame sources: a USB camera, a video file or a folder of images, or the simulated table."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from glob import glob
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.images import ImageError, load_image

log = logging.getLogger(__name__)

BY_ID = "/dev/v4l/by-id"  # stable names of USB cameras on Linux; /dev/videoN can change on replug
AUTO_DEVICES = ("/dev/video0",)  # tried by "auto" after the stable names
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# V4L2's exposure modes as OpenCV passes them through; some backends want 0.25/0.75 instead.
V4L2_EXPOSURE_MANUAL, V4L2_EXPOSURE_AUTO = 1, 3


class CameraError(RuntimeError):
    """A camera (or the file standing in for one) cannot be opened or read."""


class FrameSource(Protocol):
    """Anything that gives BGR frames: a USB camera, a video file, a folder, the simulated table.

    live is True for a real camera, where the same frame byte for byte means it froze.
    """

    name: str
    live: bool

    def open(self) -> None:
        """Start delivering frames; raises CameraError with a message a player understands."""

    def read(self) -> np.ndarray | None:
        """The newest BGR frame not returned before, or None when there is none yet."""

    def close(self) -> None:
        """Stop and release the device or file (opening again later is allowed)."""


class DeviceCamera:
    """A USB camera by index or stable path; a reader thread keeps only its newest frame."""

    live = True

    def __init__(
        self,
        device: str | int,
        width: int = 1280,
        height: int = 720,
        fps: int = 30,
        *,
        settle_s: float = 2.0,
        capture: Callable[..., Any] | None = None,
    ) -> None:
        self.device = device
        self.name = f"camera {device}"
        self.width, self.height, self.fps = width, height, fps
        self.settle_s = settle_s
        self.settings: dict[str, Any] = {}
        self._capture = capture or cv2.VideoCapture  # a stand-in lets tests run without hardware
        self._cap: Any = None
        self._cap_lock = threading.Lock()  # the reader thread and settle_and_lock share the device
        self._cond = threading.Condition()
        self._frame: np.ndarray | None = None
        self._seq = self._returned = 0
        self._failing_since: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def open(self) -> None:
        """Open the device, ask for MJPG at the set size, start reading, settle and lock."""
        if self._thread is not None and self._thread.is_alive():
            return
        cap, frame = self._open_capture()
        fourcc = int(cap.get(cv2.CAP_PROP_FOURCC))
        self.settings = {
            "size": f"{frame.shape[1]}x{frame.shape[0]}",
            "fourcc": "".join(chr((fourcc >> 8 * i) & 255) for i in range(4)),
            "fps": float(cap.get(cv2.CAP_PROP_FPS)),
        }
        self._cap = cap
        # Each reader thread has its own stop flag: one stuck in a read after close() must not
        # be woken back into life by the next open().
        self._stop = threading.Event()
        self._failing_since = None
        with self._cond:
            self._frame, self._seq, self._returned = frame, 1, 0
        self._thread = threading.Thread(
            target=self._run, args=(cap, self._stop), name=f"{self.name} reader", daemon=True
        )
        self._thread.start()
        self.settle_and_lock()

    def probe(self) -> None:
        """Open the device, read one picture and let it go: CameraError says why it cannot."""
        cap, _ = self._open_capture()
        cap.release()

    def _open_capture(self) -> tuple[Any, np.ndarray]:
        """The device opened in MJPG at the set size, and its first picture."""
        dev = self.device
        if isinstance(dev, str) and not os.path.exists(dev):
            raise CameraError(f"camera {dev} not found")
        api = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
        cap = self._capture(dev, api)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"camera {dev} not found or in use by another program")
        # MJPG: raw YUYV at 1280x720 does not fit USB 2.0 bandwidth at a useful frame rate.
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # a queue of old frames would show the past
        ok, frame = cap.read()
        if not ok or frame is None:
            cap.release()
            raise CameraError(f"camera {dev} opened but gives no picture")
        return cap, frame

    def _run(self, cap: Any, stop: threading.Event) -> None:
        """Reader thread: grab frames as they come and keep only the newest."""
        try:
            while not stop.is_set():
                with self._cap_lock:
                    ok, frame = cap.read()
                if stop.is_set():
                    break
                if ok and frame is not None:
                    self._failing_since = None
                    with self._cond:
                        self._frame, self._seq = frame, self._seq + 1
                        self._cond.notify_all()
                else:
                    if self._failing_since is None:
                        self._failing_since = time.monotonic()
                    stop.wait(0.05)
        finally:
            with self._cap_lock:
                cap.release()

    def read(self) -> np.ndarray | None:
        """The newest frame, once; None until the camera delivers the next one."""
        if self._thread is None:
            raise CameraError(f"{self.name} is not open")
        with self._cond:
            if self._seq != self._returned:
                self._returned = self._seq
                return self._frame
        failing = self._failing_since
        if failing is not None and time.monotonic() - failing > 1.0:
            raise CameraError(f"{self.name} stopped giving pictures (unplugged?)")
        return None

    def close(self) -> None:
        """Stop the reader thread; it releases the device."""
        self._stop.set()
        if self._thread is not None:
            # A read on an unplugged camera can block for seconds; the thread still ends then.
            self._thread.join(timeout=3.0)
        self._thread, self._cap = None, None

    def _set(self, prop: int, value: float) -> bool:
        """Set a device property; False where the camera refuses it (or is closed)."""
        with self._cap_lock:
            cap = self._cap
            try:
                return cap is not None and bool(cap.set(prop, value))
            except cv2.error:
                return False

    def _get(self, prop: int) -> float:
        """A device property's value (0 or -1 where the camera does not report it)."""
        with self._cap_lock:
            cap = self._cap
            return 0.0 if cap is None else float(cap.get(prop))

    def _wait_stable(self) -> float:
        """Watch the picture until its brightness holds still (or settle_s passes); the mean."""
        start = time.monotonic()
        means: list[float] = []
        seen = 0
        while time.monotonic() - start < self.settle_s:
            with self._cond:
                if self._seq == seen:
                    self._cond.wait(0.2)
                frame, seen = self._frame, self._seq
            if frame is None:
                continue
            small = cv2.resize(frame, (64, 36), interpolation=cv2.INTER_AREA)
            means.append(float(small.mean()))
            recent = means[-6:]
            if (
                time.monotonic() - start > 0.5
                and len(recent) == 6
                and max(recent) - min(recent) < 1.5
            ):
                break
        return means[-1] if means else 0.0

    def settle_and_lock(self) -> dict[str, Any]:
        """Let auto exposure and white balance settle on the table, then hold them there."""
        if self._cap is None:
            raise CameraError(f"{self.name} is not open")
        self._set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_EXPOSURE_AUTO)
        self._set(cv2.CAP_PROP_AUTO_WB, 1)
        self.settings["brightness"] = round(self._wait_stable(), 1)
        # Colour names are learnt under one exposure and white balance: keep them from drifting.
        exposure = self._get(cv2.CAP_PROP_EXPOSURE)
        if self._set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_EXPOSURE_MANUAL) or self._set(
            cv2.CAP_PROP_AUTO_EXPOSURE, 0.25
        ):
            self._set(cv2.CAP_PROP_EXPOSURE, exposure)
            self.settings["exposure"] = f"locked at {exposure:g}"
        else:
            self.settings["exposure"] = "automatic: this camera does not let it be locked"
        wb = self._get(cv2.CAP_PROP_WB_TEMPERATURE)
        if self._set(cv2.CAP_PROP_AUTO_WB, 0):
            if wb > 0:
                self._set(cv2.CAP_PROP_WB_TEMPERATURE, wb)
            self.settings["white_balance"] = f"locked at {wb:g} K" if wb > 0 else "locked"
        else:
            self.settings["white_balance"] = "automatic: this camera does not let it be locked"
        log.info("%s: %s", self.name, self.settings)
        return dict(self.settings)


class FileCamera:
    """A video file or a folder of images played as a camera at `fps` (0: a frame per read)."""

    live = False  # a held image repeats exactly; that is not a frozen camera

    def __init__(
        self,
        path: str | os.PathLike[str],
        fps: float = 10.0,
        loop: bool = True,
        *,
        hold_frames: int = 10,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.name = f"file {self.path}"
        self.fps, self.loop, self.hold_frames = fps, loop, max(1, hold_frames)
        self.problems: list[str] = []
        self.ended = False
        self._clock = clock
        self._images: list[Path] | None = None
        self._image: tuple[int, np.ndarray] | None = None  # (index, decoded) of the image shown
        self._video: Any = None
        self._pending: np.ndarray | None = None  # the video's next frame, already decoded
        self._t0 = 0.0
        self._shown = -1

    def open(self) -> None:
        """Check the file or folder and show its first frame next."""
        self.close()
        p = self.path
        if not p.exists():
            raise CameraError(f"no video file or image folder at {p}")
        if p.is_dir() or p.suffix.lower() in IMAGE_SUFFIXES:
            images = (
                [
                    f
                    for f in sorted(p.iterdir())
                    if f.is_file() and f.suffix.lower() in IMAGE_SUFFIXES
                ]
                if p.is_dir()
                else [p]
            )
            if not images:
                raise CameraError(
                    f"folder {p} holds no images ({', '.join(s[1:] for s in IMAGE_SUFFIXES)})"
                )
            self._images = images
            self._load(0)
        else:
            self._video = self._open_video()
            ok, frame = self._video.read()
            if not ok or frame is None:
                self.close()
                raise CameraError(f"video {p} has no frames that can be read")
            self._pending = frame
        self.ended = False
        self._t0 = self._clock()
        self._shown = -1

    def _open_video(self) -> Any:
        """A capture on the video file."""
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"cannot open {self.path} as a video")
        return cap

    def _load(self, index: int) -> np.ndarray | None:
        """The image at index (decoded once); unreadable images are dropped with a note. None
        when the folder does not loop and no readable image is left from index on."""
        assert self._images is not None
        while self._images:
            if index >= len(self._images) and not self.loop:
                return None
            index %= len(self._images)
            if self._image is not None and self._image[0] == index:
                return self._image[1]
            f = self._images[index]
            try:
                img = load_image(f)
            except ImageError as exc:
                why = str(exc).removeprefix(f"{f}: ")
                self.problems.append(f"skipped {f.name}: {why}")
                log.warning("%s: skipped %s: %s", self.name, f, why)
            else:
                self._image = (index, img)
                return img
            del self._images[index]
            self._image = None
        raise CameraError(f"no image in {self.path} could be read")

    def read(self) -> np.ndarray | None:
        """The frame due now, once; None until the next one is due or after the end."""
        if self._images is None and self._video is None:
            raise CameraError(f"{self.name} is not open")
        # The small term keeps 0.1 s at 10 fps from rounding down to frame 0.
        elapsed = self._clock() - self._t0
        due = int(elapsed * self.fps + 1e-6) if self.fps > 0 else self._shown + 1
        if due <= self._shown or self.ended:
            return None
        # Like a camera, show the newest frame; a slow reader skips frames (a few at most).
        steps = min(due - self._shown, 30)
        self._shown = due
        if self._images is not None:
            shown = due // self.hold_frames
            if not self.loop and shown >= len(self._images):
                self.ended = True
                return None
            frame = self._load(shown)
            if frame is None:
                self.ended = True
                return None
            return frame.copy()
        frame = None
        for _ in range(steps):
            frame = self._next_video_frame()
            if frame is None:
                return None
        return frame

    def _next_video_frame(self) -> np.ndarray | None:
        """The video's next frame, from the start again at its end when looping."""
        if self._pending is not None:
            frame, self._pending = self._pending, None
            return frame
        ok, frame = self._video.read()
        if ok and frame is not None:
            return frame
        if not self.loop:
            self.ended = True
            return None
        # Seeking back is unreliable for some codecs; opening again is not.
        self._video.release()
        self._video = self._open_video()
        ok, frame = self._video.read()
        if not ok or frame is None:
            raise CameraError(f"video {self.path} has no frames that can be read")
        return frame

    def close(self) -> None:
        """Release the video (a folder holds nothing open)."""
        if self._video is not None:
            self._video.release()
        self._video, self._pending, self._images, self._image = None, None, None, None


def _auto(**kw: Any) -> FrameSource:
    """The first USB camera that opens (stable names first), else the simulated table."""
    from vision.simtable import SimulatedTable

    found = sorted(glob(os.path.join(BY_ID, "*")), key=lambda p: ("index0" not in p, p))
    for spec in [*found, *AUTO_DEVICES]:
        cam = DeviceCamera(spec, **kw)
        try:
            cam.open()
        except CameraError as error:
            log.info("auto: %s", error)
            continue
        cam.name = f"camera {spec} (auto)"
        log.info("auto: chose %s", spec)
        return cam
    sim = SimulatedTable()
    sim.name = "simulated table (auto: no camera found)"
    log.info("auto: no camera found, chose the simulated table")
    return sim


def check_source(spec: str) -> None:
    """Open the source a spec names once and let it go; CameraError says why it cannot be used.

    "auto" and "sim" always can: auto falls back on the simulated table.
    """
    if str(spec).strip() in ("auto", "sim"):
        return
    source = open_source(spec)
    if isinstance(source, DeviceCamera):
        source.probe()  # opening it fully would also wait for its exposure to settle
    elif isinstance(source, FileCamera):
        source.open()
        source.close()


def open_source(spec: str, **kw: Any) -> FrameSource:
    """The frame source a spec names: auto, sim, a camera index or /dev path, a file or folder.

    Keyword arguments go to the source's constructor. Only "auto" opens the source (to find one
    that works); the others are opened by their user.
    """
    spec = str(spec).strip()
    if spec == "sim":
        from vision.simtable import SimulatedTable

        return SimulatedTable(**kw)
    if spec == "auto":
        return _auto(**kw)
    if spec.isdigit():
        return DeviceCamera(int(spec), **kw)
    if spec.startswith("/dev/"):
        return DeviceCamera(spec, **kw)
    if spec and Path(spec).exists():
        return FileCamera(spec, **kw)
    raise CameraError(
        f"no camera {spec!r}: use auto, sim, a camera index such as 0, a "
        f"/dev/v4l/by-id/... path, or an existing video file or image folder"
    )
