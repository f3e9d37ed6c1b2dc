"""Frame sources: a USB camera, a video file or a folder of images, or the simulated table."""

from __future__ import annotations

import fcntl
import logging
import os
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from glob import glob
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.images import ImageError, as_bgr_frame, load_image

log = logging.getLogger(__name__)

BY_ID = "/dev/v4l/by-id"  # stable names of USB cameras on Linux; /dev/videoN can change on replug
V4L_SYS = "/sys/class/video4linux"  # says which video devices hang off USB
AUTO_DEVICES = ("/dev/video0",)  # tried by "auto" where there is no V4L_SYS to ask
LOOK_EVERY_S = 2.0  # while "auto" shows the simulated table, how often it looks for a camera
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
# V4L2's exposure modes as OpenCV passes them through; some backends want 0.25/0.75 instead.
V4L2_EXPOSURE_MANUAL, V4L2_EXPOSURE_AUTO = 1, 3
# OpenCV has no property for the mains frequency: it is set with the V4L2 ioctl itself.
V4L2_CID_POWER_LINE_FREQUENCY = 0x00980918
VIDIOC_S_CTRL = 0xC008561C  # _IOWR('V', 28, struct v4l2_control {u32 id; s32 value})
POWER_LINE = {"off": 0, "50": 1, "60": 2, "auto": 3}  # the control's values by setting


@dataclass(frozen=True)
class CameraControls:
    """How a USB camera's picture is set on every open (after a replug too).

    exposure and white_balance: "auto-lock" (let the camera settle, then hold what it chose),
    "auto" (left automatic), "keep" (left as it is, for instance as set with v4l2-ctl), or a
    number: the exposure in the camera's units (V4L2 exposure_time_absolute, 100 µs steps),
    the white balance in kelvin. gain, focus and power_line: "" leaves them as they are; gain
    a number; focus "auto" or a number (focus_absolute, autofocus off); power_line "50" or
    "60" (Hz), "off" or "auto".
    """

    exposure: str = "auto-lock"
    white_balance: str = "auto-lock"
    gain: str = ""
    focus: str = ""
    power_line: str = ""

    def __post_init__(self) -> None:
        for key in ("exposure", "white_balance"):
            _number_or(getattr(self, key), ("auto-lock", "auto", "keep"), f"camera_{key}")
        _number_or(self.gain, ("",), "camera_gain")
        _number_or(self.focus, ("", "auto"), "camera_focus")
        if self.power_line not in ("", *POWER_LINE):
            raise ValueError(
                f"camera_power_line must be 50, 60, off or auto (or empty), got {self.power_line!r}"
            )


def _number_or(value: str, words: tuple[str, ...], name: str) -> float | None:
    """value as a number, or None where it is one of the words; ValueError names the setting."""
    if value in words:
        return None
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if number < 0:
        said = " or ".join(repr(w) for w in words if w) or "nothing"
        raise ValueError(f"{name} must be a number of 0 or more or {said}, got {value!r}")
    return number


class CameraError(RuntimeError):
    """A camera (or the file standing in for one) cannot be opened or read."""


class FrameSource(Protocol):
    """Anything that gives BGR frames: a USB camera, a video file, a folder, the simulated table.

    live is True for a real camera, where the same frame byte for byte means it froze.
    """

    name: str

    @property
    def live(self) -> bool:
        """True for a real camera (a frame repeated byte for byte means it froze)."""

    def open(self) -> None:
        """Start delivering frames; raises CameraError with a message a player understands."""

    def read(self) -> np.ndarray | None:
        """The newest BGR frame not returned before, or None when there is none yet."""

    def close(self) -> None:
        """Stop and release the device or file (opening again later is allowed)."""


def _set_v4l2_control(device: str | int, control: int, value: int) -> None:
    """Set one V4L2 control on the device node (a second handle on it is allowed while open)."""
    path = f"/dev/video{device}" if isinstance(device, int) else device
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    try:
        fcntl.ioctl(fd, VIDIOC_S_CTRL, struct.pack("Ii", control, value))
    finally:
        os.close(fd)


class DeviceCamera:
    """A USB camera by index or stable path; a reader thread keeps only its newest frame.

    The thread takes every frame off the camera (so none waits in a queue and grows old) but
    decodes only those asked for: a reader at 10 or 2 frames a second would otherwise pay for
    decoding 30.
    """

    live = True

    def __init__(
        self,
        device: str | int,
        width: int = 1280,
        height: int = 720,
        fps: int = 30,
        *,
        settle_s: float = 2.0,
        controls: CameraControls | None = None,
        capture: Callable[..., Any] | None = None,
        set_control: Callable[[str | int, int, int], None] = _set_v4l2_control,
    ) -> None:
        self.device = device
        self.name = f"camera {device}"
        self.width, self.height, self.fps = width, height, fps
        self.settle_s = settle_s
        self.controls = controls or CameraControls()
        self.settings: dict[str, Any] = {}
        self._capture = capture or cv2.VideoCapture  # a stand-in lets tests run without hardware
        self._set_control = set_control
        self._cap: Any = None
        self._cap_lock = threading.Lock()  # the reader thread and settle_and_lock share the device
        self._cond = threading.Condition()
        self._frame: np.ndarray | None = None
        self._seq = self._returned = 0
        self._wanted = threading.Event()  # read() asked for a frame: decode the next one
        self._decode_all = False  # while settling, every frame is looked at
        self.decoded = 0  # frames decoded since open, of `grabbed` taken off the camera
        self.grabbed = 0
        self._failing_since: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def open(self) -> None:
        """Open the device, ask for MJPG at the set size, start reading, apply the controls."""
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
        self.decoded = self.grabbed = 0
        with self._cond:
            self._frame, self._seq, self._returned = frame, 1, 0
        self._thread = threading.Thread(
            target=self._run, args=(cap, self._stop), name=f"{self.name} reader", daemon=True
        )
        self._thread.start()
        self.apply_controls()

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
        try:
            return cap, as_bgr_frame(frame)
        except ValueError as exc:
            cap.release()
            raise CameraError(f"camera {dev} gives pictures the reader cannot take: {exc}") from exc

    def _run(self, cap: Any, stop: threading.Event) -> None:
        """Reader thread: take frames off the camera as they come; decode the ones asked for."""
        try:
            while not stop.is_set():
                frame = None
                with self._cap_lock:
                    ok = bool(cap.grab())
                    if ok and (self._wanted.is_set() or self._decode_all):
                        ok, frame = cap.retrieve()
                        ok = ok and frame is not None
                if ok and frame is not None:
                    # A grey or 16-bit camera's frames are made BGR; what is no image is none.
                    try:
                        frame = as_bgr_frame(frame)
                    except ValueError:
                        ok = False
                if stop.is_set():
                    break
                if ok:
                    self._failing_since = None
                    self.grabbed += 1
                    if frame is not None:
                        self.decoded += 1
                        with self._cond:
                            self._frame, self._seq = frame, self._seq + 1
                            self._wanted.clear()
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
            self._wanted.set()
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
        self._decode_all = True
        try:
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
        finally:
            self._decode_all = False
        return means[-1] if means else 0.0

    def _manual_exposure(self) -> bool:
        """Turn auto exposure off (the V4L2 value, or the one some backends want instead)."""
        return self._set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_EXPOSURE_MANUAL) or self._set(
            cv2.CAP_PROP_AUTO_EXPOSURE, 0.25
        )

    def apply_controls(self) -> dict[str, Any]:
        """Set what the controls name, leave what they leave; settle and lock where asked."""
        if self._cap is None:
            raise CameraError(f"{self.name} is not open")
        c = self.controls
        if c.power_line:
            try:
                self._set_control(
                    self.device, V4L2_CID_POWER_LINE_FREQUENCY, POWER_LINE[c.power_line]
                )
                self.settings["power_line"] = c.power_line
            except OSError as error:
                self.settings["power_line"] = f"not set: {error.strerror or error}"
        if c.focus == "auto":
            self._set(cv2.CAP_PROP_AUTOFOCUS, 1)
            self.settings["focus"] = "automatic"
        elif c.focus:
            fixed = self._set(cv2.CAP_PROP_AUTOFOCUS, 0)
            fixed = self._set(cv2.CAP_PROP_FOCUS, float(c.focus)) or fixed
            self.settings["focus"] = f"fixed at {c.focus}" if fixed else "not settable"
        if c.gain:
            done = self._set(cv2.CAP_PROP_GAIN, float(c.gain))
            self.settings["gain"] = c.gain if done else "not settable"
        # "auto-lock" is left to settle_and_lock, below.
        if c.exposure not in ("keep", "auto-lock"):
            if c.exposure == "auto":
                self._set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_EXPOSURE_AUTO)
            elif self._manual_exposure() and self._set(cv2.CAP_PROP_EXPOSURE, float(c.exposure)):
                self.settings["exposure"] = f"set to {c.exposure}"
            else:
                self.settings["exposure"] = "automatic: this camera does not let it be set"
        if c.white_balance not in ("keep", "auto-lock"):
            if c.white_balance == "auto":
                self._set(cv2.CAP_PROP_AUTO_WB, 1)
            elif self._set(cv2.CAP_PROP_AUTO_WB, 0) and self._set(
                cv2.CAP_PROP_WB_TEMPERATURE, float(c.white_balance)
            ):
                self.settings["white_balance"] = f"set to {c.white_balance} K"
            else:
                self.settings["white_balance"] = "automatic: this camera does not let it be set"
        for key, value in (("exposure", c.exposure), ("white_balance", c.white_balance)):
            if value in ("auto", "keep"):
                self.settings[key] = "automatic" if value == "auto" else "as the camera had it"
        if "auto-lock" in (c.exposure, c.white_balance):
            return self.settle_and_lock()
        log.info("%s: %s", self.name, self.settings)
        return dict(self.settings)

    def settle_and_lock(self) -> dict[str, Any]:
        """Let auto exposure and white balance settle on the table, then hold them there.

        Only those the controls leave to "auto-lock": a value the settings give is not touched.
        """
        if self._cap is None:
            raise CameraError(f"{self.name} is not open")
        exposure_lock = self.controls.exposure == "auto-lock"
        wb_lock = self.controls.white_balance == "auto-lock"
        if exposure_lock:
            self._set(cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_EXPOSURE_AUTO)
        if wb_lock:
            self._set(cv2.CAP_PROP_AUTO_WB, 1)
        if exposure_lock or wb_lock:
            self.settings["brightness"] = round(self._wait_stable(), 1)
        # Colour names are learnt under one exposure and white balance: keep them from drifting.
        if exposure_lock:
            exposure = self._get(cv2.CAP_PROP_EXPOSURE)
            if self._manual_exposure():
                self._set(cv2.CAP_PROP_EXPOSURE, exposure)
                self.settings["exposure"] = f"locked at {exposure:g}"
            else:
                self.settings["exposure"] = "automatic: this camera does not let it be locked"
        if wb_lock:
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


def _read_text(path: str) -> str:
    """A small sysfs file's text, stripped; "" where it cannot be read."""
    try:
        with open(path) as handle:
            return handle.read().strip()
    except OSError:
        return ""


def usb_cameras(
    by_id: str | None = None, sys_dir: str | None = None, dev_dir: str = "/dev"
) -> list[str]:
    """The USB cameras' picture devices, stable /dev/v4l/by-id names first.

    A Raspberry Pi's own video devices (its codecs and image processor, /dev/video10 and up)
    are not cameras, and a UVC camera's second node carries metadata, not pictures: sysfs says
    which device hangs off USB and which node is the picture (index 0). Without sysfs (not
    Linux), AUTO_DEVICES stand in.
    """
    by_id = BY_ID if by_id is None else by_id
    sys_dir = V4L_SYS if sys_dir is None else sys_dir
    stable = sorted(glob(os.path.join(by_id, "*-video-index0")))
    if not os.path.isdir(sys_dir):
        return [*stable, *(d for d in AUTO_DEVICES if os.path.exists(d) and d not in stable)]
    taken = {os.path.realpath(path) for path in stable}
    found = list(stable)
    nodes = glob(os.path.join(sys_dir, "video*"))
    for node in sorted(nodes, key=lambda n: (len(n), n)):  # video2 before video10
        if "/usb" not in os.path.realpath(os.path.join(node, "device")):
            continue
        if _read_text(os.path.join(node, "index")) not in ("", "0"):
            continue
        dev = os.path.join(dev_dir, os.path.basename(node))
        if os.path.exists(dev) and os.path.realpath(dev) not in taken:
            found.append(dev)
    return found


class AutoCamera:
    """camera = "auto": the first USB camera that opens, and the simulated table until one does.

    While it shows the simulated table it looks for a camera every `look_every_s` and switches
    to it when one is plugged in. Once a camera was used, a lost one is waited for (open raises
    CameraError), never replaced by the simulated table, whose dice a player might take for real.
    """

    def __init__(
        self,
        *,
        look_every_s: float = LOOK_EVERY_S,
        find: Callable[[], list[str]] = usb_cameras,
        clock: Callable[[], float] = time.monotonic,
        **camera_kw: Any,
    ) -> None:
        self.name = "auto"
        self.look_every_s = look_every_s
        self._find = find
        self._clock = clock
        self._camera_kw = camera_kw
        self._source: FrameSource | None = None
        self._had_camera = False
        self._next_look = 0.0

    @property
    def live(self) -> bool:
        """Like the source it shows (a camera is live, the simulated table is not)."""
        return bool(getattr(self._source, "live", False))

    @property
    def sim_table(self) -> Any:
        """The simulated table while it is shown, else None."""
        from vision.simtable import SimulatedTable

        return self._source if isinstance(self._source, SimulatedTable) else None

    @property
    def camera(self) -> DeviceCamera | None:
        """The camera in use (None while the simulated table is shown or none is open)."""
        return self._source if isinstance(self._source, DeviceCamera) else None

    def _open_camera(self) -> DeviceCamera | None:
        """The first USB camera that opens now, opened; None when none does."""
        for spec in self._find():
            cam = DeviceCamera(spec, **self._camera_kw)
            try:
                cam.open()
            except CameraError as error:
                log.info("auto: %s", error)
                continue
            cam.name = f"camera {spec} (auto)"
            log.info("auto: chose %s", spec)
            self._had_camera = True
            return cam
        return None

    def open(self) -> None:
        """Open a USB camera, or the simulated table while none was ever found."""
        from vision.simtable import SimulatedTable

        self.close()
        cam = self._open_camera()
        if cam is not None:
            self._source, self.name = cam, cam.name
            return
        if self._had_camera:
            raise CameraError("no USB camera found (unplugged?)")
        sim = SimulatedTable()
        sim.name = "simulated table (auto: waiting for a USB camera)"
        sim.open()
        self._source, self.name = sim, sim.name
        self._next_look = self._clock() + self.look_every_s

    def read(self) -> np.ndarray | None:
        """The shown source's next frame; while that is the simulated table, a camera plugged
        in since the last look takes its place."""
        source = self._source
        if source is None:
            raise CameraError("auto is not open")
        if self.sim_table is not None and self._clock() >= self._next_look:
            self._next_look = self._clock() + self.look_every_s
            if self._find():  # only a device node appearing is worth trying to open
                cam = self._open_camera()
                if cam is not None:
                    source.close()
                    self._source, self.name = cam, cam.name
                    return cam.read()
        return source.read()

    def close(self) -> None:
        """Close the source shown."""
        if self._source is not None:
            self._source.close()
            self._source = None

    def settle_and_lock(self) -> dict[str, Any] | None:
        """The camera's settle_and_lock; None while the simulated table is shown."""
        cam = self.camera
        return None if cam is None else cam.settle_and_lock()


def check_source(spec: str) -> None:
    """Open the source a spec names once and let it go; CameraError says why it cannot be used.

    "auto" and "sim" always can: auto shows the simulated table until a camera is plugged in.
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

    Keyword arguments go to the source's constructor (for "auto", to its cameras'). None is
    opened here: its user opens it.
    """
    spec = str(spec).strip()
    if spec == "sim":
        from vision.simtable import SimulatedTable

        return SimulatedTable(**kw)
    if spec == "auto":
        return AutoCamera(**kw)
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
