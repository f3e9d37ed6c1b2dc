"""camera = "auto" with no camera plugged in: the page shows the simulated table and says so,
then the camera once it is plugged in."""

from __future__ import annotations

import time

import numpy as np

from vision.camera import AutoCamera, CameraControls
from web import create_app
from web.resources import start_camera


class PluggedCapture:
    """A cv2.VideoCapture stand-in for the camera plugged in: grey frames with a little noise."""

    def __init__(self, device: object, api: int) -> None:
        self.rng = np.random.default_rng(0)

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def get(self, prop: int) -> float:
        return 0.0

    def grab(self) -> bool:
        time.sleep(0.01)
        return True

    def retrieve(self) -> tuple[bool, np.ndarray]:
        return True, self.rng.integers(60, 64, (120, 160, 3), np.uint8)

    def read(self) -> tuple[bool, np.ndarray]:
        self.grab()
        return self.retrieve()

    def release(self) -> None:
        pass


def wait_for(client, holds, timeout=10.0):
    """The page's state once holds(state) is true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get("/api/state").get_json()
        if holds(state):
            return state
        time.sleep(0.02)
    raise AssertionError(f"never came: {state['camera']}, sim {state['sim']}")


def test_auto_shows_the_simulated_table_until_a_camera_is_plugged_in(tmp_path):
    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 4})
    client = app.test_client()
    device = tmp_path / "video0"
    device.touch()
    plugged: list[str] = []

    def factory() -> AutoCamera:
        return AutoCamera(
            find=lambda: list(plugged),
            look_every_s=0.1,
            capture=PluggedCapture,
            settle_s=0.1,
            controls=CameraControls(exposure="keep", white_balance="keep"),
        )

    live = start_camera(app, app.extensions["hub"], "auto", factory, active_fps=50, idle_fps=50)
    try:
        waiting = wait_for(client, lambda s: s["camera"]["state"] == "ok")
        assert waiting["sim"] is True
        assert waiting["camera"]["source"] == "simulated table (auto: waiting for a USB camera)"
        plugged.append(str(device))
        shown = wait_for(client, lambda s: s["camera"]["source"] == f"camera {device} (auto)")
        assert shown["sim"] is False and shown["camera"]["state"] == "ok"
    finally:
        live.stop()
