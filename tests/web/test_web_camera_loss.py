"""A camera unplugged mid-game: the page is told, manual entry goes on, the camera comes back."""

from __future__ import annotations

import time

from fake_cameras import UnpluggableCamera

from web import create_app
from web.resources import start_camera


def wait_state(client, state, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = client.get("/api/state").get_json()
        if data["camera"]["state"] == state:
            return data
        time.sleep(0.02)
    raise AssertionError(f"camera never became {state}: {data['camera']}")


def test_unplugged_camera_is_reported_and_picked_up_again(tmp_path):
    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 4})
    client = app.test_client()
    camera = UnpluggableCamera()
    live = start_camera(
        app,
        app.extensions["hub"],
        "test",
        lambda: camera,
        active_fps=100,
        idle_fps=100,
        stall_s=0.3,
        retry_s=0.1,
    )
    try:
        wait_state(client, "ok")
        base = client.get("/api/state").get_json()["version"]
        client.post(
            "/api/action",
            json={
                "action": "new_game",
                "base": base,
                "edition": "classic",
                "players": [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
            },
        )
        camera.plugged = False
        lost = wait_state(client, "lost")
        assert "test camera" in lost["camera"]["message"]
        # The game goes on by hand while the camera is away.
        for action in ({"action": "simulate"}, {"action": "roll", "dice": [{"pips": 2}] * 8}):
            base = client.get("/api/state").get_json()["version"]
            assert client.post("/api/action", json=action | {"base": base}).status_code == 200
        assert client.get("/api/state").get_json()["game"]["phase"] == "choose"
        opens = camera.opens
        camera.plugged = True
        wait_state(client, "ok")
        assert camera.opens > opens  # it was reopened, not waited on forever
    finally:
        live.stop()
