"""A USB camera without the hardware: its controls as set on every open, frames decoded only
when asked for, which devices are cameras, and "auto" waiting for one to be plugged in."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import camera
from vision.camera import AutoCamera, CameraControls, CameraError, DeviceCamera, usb_cameras
from vision.simtable import SimulatedTable

AE, EXPOSURE = cv2.CAP_PROP_AUTO_EXPOSURE, cv2.CAP_PROP_EXPOSURE
AWB, WB = cv2.CAP_PROP_AUTO_WB, cv2.CAP_PROP_WB_TEMPERATURE


class RecordingCapture:
    """A cv2.VideoCapture stand-in that records every control set, and counts the frames taken
    off the camera (grab) and decoded (retrieve). A frame comes every `frame_s`."""

    def __init__(self, device: object, api: int, frame_s: float = 0.002) -> None:
        self.props: dict[int, float] = {EXPOSURE: 156.0, WB: 4600.0}
        self.sets: list[tuple[int, float]] = []
        self.frame_s = frame_s
        self.grabs = self.retrieves = 0
        self.released = threading.Event()

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.sets.append((prop, value))
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def grab(self) -> bool:
        time.sleep(self.frame_s)
        self.grabs += 1
        return True

    def retrieve(self) -> tuple[bool, np.ndarray]:
        self.retrieves += 1
        return True, np.full((36, 64, 3), 90, np.uint8)

    def read(self) -> tuple[bool, np.ndarray]:
        self.grab()
        return self.retrieve()

    def release(self) -> None:
        self.released.set()


class Rig:
    """Makes DeviceCameras on recording captures; keeps the captures and the V4L2 ioctls."""

    def __init__(self) -> None:
        self.captures: list[RecordingCapture] = []
        self.ioctls: list[tuple[object, int, int]] = []

    def capture(self, device: object, api: int) -> RecordingCapture:
        self.captures.append(RecordingCapture(device, api))
        return self.captures[-1]

    def set_control(self, device: object, control: int, value: int) -> None:
        self.ioctls.append((device, control, value))

    def camera(self, controls: CameraControls | None = None, device: object = 0) -> DeviceCamera:
        return DeviceCamera(
            device,  # type: ignore[arg-type]
            settle_s=0.6,
            controls=controls,
            capture=self.capture,
            set_control=self.set_control,
        )


@pytest.fixture
def rig() -> Rig:
    return Rig()


def _controls_set(cap: RecordingCapture) -> list[tuple[int, float]]:
    """The picture controls set, without the format, size, rate and buffer asked for at open."""
    asked = (cv2.CAP_PROP_FOURCC, cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT)
    return [s for s in cap.sets if s[0] not in (*asked, cv2.CAP_PROP_FPS, cv2.CAP_PROP_BUFFERSIZE)]


@pytest.mark.parametrize(
    ("controls", "expected"),
    [
        # The default: auto exposure and white balance settle, then are held at what they chose.
        (CameraControls(), [(AE, 3), (AWB, 1), (AE, 1), (EXPOSURE, 156.0), (AWB, 0),
                            (WB, 4600.0)]),
        # Values from the settings are set as given and never handed back to the camera's auto.
        (CameraControls(exposure="200", white_balance="5000"),
         [(AE, 1), (EXPOSURE, 200.0), (AWB, 0), (WB, 5000.0)]),
        # "keep": what was set by hand (v4l2-ctl) stays; only the gain asked for is set.
        (CameraControls(exposure="keep", white_balance="keep", gain="12"),
         [(cv2.CAP_PROP_GAIN, 12.0)]),
        # A fixed focus turns autofocus off first; "auto" leaves exposure automatic, unlocked.
        (CameraControls(exposure="auto", white_balance="keep", focus="30"),
         [(cv2.CAP_PROP_AUTOFOCUS, 0), (cv2.CAP_PROP_FOCUS, 30.0), (AE, 3)]),
    ],
)  # fmt: skip
def test_controls_are_set_as_the_settings_say(rig: Rig, controls, expected) -> None:
    cam = rig.camera(controls)
    cam.open()
    cam.close()
    assert _controls_set(rig.captures[0]) == expected


def test_controls_are_set_again_on_every_open_and_a_relock_keeps_given_values(rig: Rig) -> None:
    controls = CameraControls(exposure="200", white_balance="auto-lock", power_line="50")
    cam = rig.camera(controls, device="/dev/null")
    for _ in range(2):  # a replug: the camera forgot everything
        cam.open()
        cam.close()
    first, second = (_controls_set(c) for c in rig.captures)
    assert first == second and (EXPOSURE, 200.0) in first
    assert rig.ioctls == [("/dev/null", camera.V4L2_CID_POWER_LINE_FREQUENCY, 1)] * 2
    cam.open()
    try:
        before = len(rig.captures[-1].sets)
        cam.settle_and_lock()  # as after a calibration
        relock = rig.captures[-1].sets[before:]
    finally:
        cam.close()
    assert (AE, 3) not in relock and (AWB, 1) in relock and (AWB, 0) in relock
    assert cam.settings["exposure"] == "set to 200"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"exposure": "bright"}, "camera_exposure must be a number"),  # a word it does not know
        ({"white_balance": "-1"}, "camera_white_balance must be a number of 0 or more"),
        ({"focus": "manual"}, "camera_focus must be a number"),
        ({"power_line": "55"}, "camera_power_line must be 50, 60, off or auto"),
    ],
)
def test_unusable_controls_are_refused_by_name(settings, message) -> None:
    with pytest.raises(ValueError, match=message):
        CameraControls(**settings)


def test_only_the_frames_asked_for_are_decoded(rig: Rig) -> None:
    cam = rig.camera(CameraControls(exposure="keep", white_balance="keep"))
    cam.open()
    try:
        got = 0
        end = time.monotonic() + 1.0
        while time.monotonic() < end:  # a reader at about 10 frames a second
            got += cam.read() is not None
            time.sleep(0.1 if got else 0.01)
        cap = rig.captures[0]
        grabbed, decoded = cap.grabs, cap.retrieves
    finally:
        cam.close()
    assert got >= 3
    assert grabbed > 100  # every frame is taken off the camera: none grows old in a queue
    assert decoded <= got + 2  # but only those read are decoded


def _sysfs(root: Path, nodes: dict[str, tuple[str, str]]) -> tuple[Path, Path]:
    """A fake /sys/class/video4linux and /dev: node name -> (device path, index)."""
    sys_dir, dev_dir = root / "sys", root / "dev"
    sys_dir.mkdir()
    dev_dir.mkdir()
    for name, (device, index) in nodes.items():
        target = root / "devices" / device.strip("/")
        target.mkdir(parents=True, exist_ok=True)
        (sys_dir / name).mkdir()
        (sys_dir / name / "device").symlink_to(target)
        (sys_dir / name / "index").write_text(index + "\n")
        (dev_dir / name).touch()
    return sys_dir, dev_dir


def test_usb_cameras_leaves_out_the_pis_own_video_devices(tmp_path: Path) -> None:
    nodes = {
        "video0": ("platform/scb/usb1/1-1/1-1.2/1-1.2:1.0", "0"),  # the USB camera's pictures
        "video1": ("platform/scb/usb1/1-1/1-1.2/1-1.2:1.0", "1"),  # its metadata
        "video10": ("platform/soc/bcm2835-codec", "0"),  # the Pi's video decoder
        "video14": ("platform/soc/bcm2835-isp", "0"),  # its image processor
        "video2": ("platform/scb/usb1/1-1/1-1.3/1-1.3:1.0", "0"),  # a second camera
    }
    sys_dir, dev_dir = _sysfs(tmp_path, nodes)
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-Cam_B-video-index0").symlink_to(dev_dir / "video2")
    found = usb_cameras(str(by_id), str(sys_dir), str(dev_dir))
    assert found == [str(by_id / "usb-Cam_B-video-index0"), str(dev_dir / "video0")]
    assert usb_cameras(str(by_id / "none"), str(sys_dir), str(dev_dir / "none")) == []


def test_auto_switches_to_a_camera_plugged_in_and_waits_for_it_once_lost(
    tmp_path: Path, rig: Rig
) -> None:
    plugged: list[str] = []
    now = [0.0]
    device = tmp_path / "video0"
    device.touch()
    auto = AutoCamera(
        find=lambda: list(plugged),
        clock=lambda: now[0],
        look_every_s=2.0,
        capture=rig.capture,
        set_control=rig.set_control,
        settle_s=0.3,
    )
    auto.open()
    assert isinstance(auto.sim_table, SimulatedTable) and not auto.live
    assert "waiting for a USB camera" in auto.name
    assert auto.read() is not None
    plugged.append(str(device))
    now[0] = 1.0
    auto.read()
    assert auto.camera is None  # not looked for again yet
    now[0] = 2.5
    auto.read()
    try:
        assert auto.camera is not None and auto.sim_table is None and auto.live
        assert auto.name == f"camera {device} (auto)"
    finally:
        auto.close()
    plugged.clear()  # unplugged: no simulated dice in place of the real table
    with pytest.raises(CameraError, match="no USB camera found"):
        auto.open()
    assert auto.sim_table is None
    plugged.append(str(device))
    auto.open()
    try:
        assert auto.camera is not None
    finally:
        auto.close()
    assert os.path.exists(device)
