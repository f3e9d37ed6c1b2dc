"""Frame sources: which spec opens what, files and folders as cameras, and clear errors."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import camera
from vision.camera import CameraError, DeviceCamera, FileCamera, open_source
from vision.simtable import SimulatedTable


def _solid(value: int, h: int = 48, w: int = 64) -> np.ndarray:
    """A frame of one grey level."""
    return np.full((h, w, 3), value, np.uint8)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Three images (grey 40, 120, 200), a corrupt one between them and a JPEG cut short."""
    for name, value in (("a.png", 40), ("c.png", 120), ("d.png", 200)):
        cv2.imwrite(str(tmp_path / name), _solid(value))
    (tmp_path / "b.png").write_bytes(b"\x89PNG not really")
    whole = cv2.imencode(".jpg", np.random.default_rng(1).integers(0, 255, (48, 64, 3), np.uint8))
    (tmp_path / "e.jpg").write_bytes(whole[1].tobytes()[:-300])
    (tmp_path / "notes.txt").write_text("not an image, not a problem")
    return tmp_path


@pytest.fixture
def video(tmp_path: Path) -> Path:
    """A five-frame MJPG video of grey levels 20, 60, 100, 140, 180."""
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for k in range(5):
        writer.write(_solid(20 + 40 * k))
    writer.release()
    return path


@pytest.mark.parametrize(
    ("spec", "kind", "device"),
    [
        ("sim", SimulatedTable, None),  # the table without a camera
        ("0", DeviceCamera, 0),  # a camera index
        (" 2 ", DeviceCamera, 2),  # typed with spaces
        ("/dev/v4l/by-id/usb-X-video-index0", DeviceCamera, "/dev/v4l/by-id/usb-X-video-index0"),
        ("/dev/video1", DeviceCamera, "/dev/video1"),  # any path under /dev, opened later
    ],
)
def test_open_source_dispatch(spec: str, kind: type, device: object) -> None:
    src = open_source(spec)
    assert isinstance(src, kind)
    if device is not None:
        assert src.device == device


def test_open_source_file_and_folder(folder: Path, video: Path) -> None:
    assert isinstance(open_source(str(folder)), FileCamera)
    assert isinstance(open_source(str(video), fps=0), FileCamera)


@pytest.mark.parametrize(
    "spec",
    [
        "webcam",  # not a word it knows
        "",  # nothing typed
        "/tmp/surely/not/here.avi",  # a file that is not there
        "-1",  # not a camera index
    ],
)
def test_open_source_refuses_unknown_specs(spec: str) -> None:
    with pytest.raises(CameraError, match=r"no camera .*: use auto, sim, a camera index"):
        open_source(spec)


def test_auto_shows_the_simulated_table_while_no_camera_is_plugged_in(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(camera, "BY_ID", str(tmp_path))  # no camera plugged in
    monkeypatch.setattr(camera, "V4L_SYS", str(tmp_path / "no-sysfs"))
    monkeypatch.setattr(camera, "AUTO_DEVICES", (str(tmp_path / "video0"),))
    src = open_source("auto")
    src.open()
    try:
        assert isinstance(src.sim_table, SimulatedTable)
        assert "waiting for a USB camera" in src.name
    finally:
        src.close()


def test_auto_chooses_the_first_camera_that_opens(tmp_path: Path, monkeypatch) -> None:
    for name in ("usb-B-video-index0", "usb-A-video-index1", "usb-A-video-index0"):
        (tmp_path / name).touch()
    tried = []

    def fake_open(self: DeviceCamera) -> None:
        tried.append(Path(self.device).name)
        if "usb-A" in str(self.device):
            raise CameraError(f"camera {self.device} not found")

    monkeypatch.setattr(camera, "BY_ID", str(tmp_path))
    monkeypatch.setattr(camera, "V4L_SYS", str(tmp_path / "no-sysfs"))
    monkeypatch.setattr(DeviceCamera, "open", fake_open)
    src = open_source("auto")
    src.open()
    # Streaming nodes (index0) are tried before metadata ones, then by name.
    assert tried == ["usb-A-video-index0", "usb-B-video-index0"]
    assert isinstance(src.camera, DeviceCamera) and src.name.endswith("usb-B-video-index0 (auto)")


@pytest.mark.parametrize(
    ("device", "message"),
    [
        (
            "/dev/v4l/by-id/usb-nothing-video-index0",
            "camera /dev/v4l/by-id/usb-nothing-video-index0 not found",
        ),  # a stable path, unplugged
        (97, "camera 97 not found"),  # an index with no camera
    ],
)
def test_device_camera_not_there(device: str | int, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        DeviceCamera(device).open()


class FakeCapture:
    """A cv2.VideoCapture stand-in: frames getting brighter, then steady; settable controls."""

    def __init__(self, device: object, api: int) -> None:
        self.props: dict[int, float] = {
            cv2.CAP_PROP_EXPOSURE: 156.0,
            cv2.CAP_PROP_WB_TEMPERATURE: 4600.0,
        }
        self.sets: list[tuple[int, float]] = []
        self.n = 0
        self.released = threading.Event()
        self.tick = threading.Event()

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.sets.append((prop, value))
        self.props[prop] = value
        return prop != cv2.CAP_PROP_AUTO_WB  # this camera cannot switch white balance

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def grab(self) -> bool:
        self.tick.wait(0.005)
        self.n += 1
        return True

    def retrieve(self) -> tuple[bool, np.ndarray]:
        return True, _solid(min(100, 10 * self.n))

    def read(self) -> tuple[bool, np.ndarray]:
        self.grab()
        return self.retrieve()

    def release(self) -> None:
        self.released.set()


def test_device_camera_newest_frame_once_and_locks() -> None:
    made: list[FakeCapture] = []

    def capture(device: object, api: int) -> FakeCapture:
        made.append(FakeCapture(device, api))
        return made[-1]

    cam = DeviceCamera(3, 640, 480, settle_s=1.0, capture=capture)
    cam.open()
    cap = made[0]
    try:
        assert (cv2.CAP_PROP_BUFFERSIZE, 1) in cap.sets
        assert (cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG")) in cap.sets
        # Settled on the steady picture, exposure held at the value auto exposure chose.
        assert cam.settings["brightness"] == 100
        assert cam.settings["exposure"] == "locked at 156"
        assert cap.props[cv2.CAP_PROP_AUTO_EXPOSURE] == camera.V4L2_EXPOSURE_MANUAL
        assert cam.settings["white_balance"].startswith("automatic")
        first = None
        for _ in range(200):
            first = cam.read()
            if first is not None:
                break
        assert first is not None
        assert cam.read() is not first  # a frame is handed out once: then None or a newer one
    finally:
        cam.close()
    assert cap.released.wait(2.0)
    with pytest.raises(CameraError, match="camera 3 is not open"):
        cam.read()


class GreyCapture(FakeCapture):
    """A camera that hands over grey frames (h, w), as some monochrome cameras do."""

    def retrieve(self) -> tuple[bool, np.ndarray]:
        return True, np.full((48, 64), min(100, 10 * self.n), np.uint8)


class TwoChannelCapture(FakeCapture):
    """A camera left giving raw two-channel YUYV frames, which no reader can take."""

    def retrieve(self) -> tuple[bool, np.ndarray]:
        return True, np.zeros((48, 64, 2), np.uint8)


def test_a_grey_camera_gives_colour_frames_and_a_raw_one_is_refused_plainly() -> None:
    cam = DeviceCamera(3, 64, 48, settle_s=0.2, capture=GreyCapture)
    cam.open()
    try:
        frame = None
        for _ in range(200):
            if (frame := cam.read()) is not None:
                break
            time.sleep(0.005)
        assert frame is not None and frame.shape == (48, 64, 3) and frame.dtype == np.uint8
    finally:
        cam.close()
    raw = DeviceCamera(4, 64, 48, settle_s=0.2, capture=TwoChannelCapture)
    with pytest.raises(CameraError, match="camera 4 gives pictures the reader cannot take"):
        raw.open()


def test_folder_skips_corrupt_images_and_cycles(folder: Path) -> None:
    cam = FileCamera(folder, fps=0, hold_frames=2)
    cam.open()
    levels = [int(cam.read()[0, 0, 0]) for _ in range(8)]
    assert levels == [40, 40, 120, 120, 200, 200, 40, 40]
    assert cam.problems == [
        "skipped b.png: not a readable image",
        "skipped e.jpg: the JPEG ends before its picture does (cut short while it was copied "
        "or saved)",
    ]
    cam.close()


def test_folder_is_paced_by_its_clock(folder: Path) -> None:
    now = [100.0]
    cam = FileCamera(folder, fps=10, hold_frames=1, clock=lambda: now[0])
    cam.open()
    assert cam.read() is not None
    assert cam.read() is None  # nothing new within the same tenth of a second
    now[0] += 0.1
    assert cam.read() is not None


def test_folder_without_loop_ends(folder: Path) -> None:
    cam = FileCamera(folder, fps=0, loop=False, hold_frames=1)
    cam.open()
    frames = [cam.read() for _ in range(5)]
    assert [f is None for f in frames] == [False, False, False, True, True]
    assert cam.ended


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing", "no video file or image folder at"),  # nothing there
        (lambda p: p, "holds no images"),  # an empty folder
        (lambda p: _write(p / "bad.jpg", b"not a jpeg"), "no image in .* could be read"),
        (lambda p: _write(p / "bad.avi", b"not a video"), "bad.avi"),  # a broken video
    ],
)
def test_file_camera_errors(tmp_path: Path, make, message: str) -> None:
    path = make(tmp_path)
    with pytest.raises(CameraError, match=message):
        FileCamera(path).open()


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_video_plays_in_order_and_loops(video: Path) -> None:
    cam = FileCamera(video, fps=0)
    cam.open()
    levels = [round(float(cam.read().mean()) / 10) * 10 for _ in range(7)]
    assert levels == [20, 60, 100, 140, 180, 20, 60]
    cam.close()


def test_video_without_loop_ends(video: Path) -> None:
    cam = FileCamera(video, fps=0, loop=False)
    cam.open()
    assert sum(cam.read() is not None for _ in range(7)) == 5
    assert cam.ended
