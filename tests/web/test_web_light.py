"""The light the camera judges from the rolls reaches the page, until the table is calibrated."""

from __future__ import annotations

import time

from vision.simtable import SimDie, SimulatedTable
from web.resources import start_camera


def _camera_state(client, ready, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        camera = client.get("/api/state").get_json()["camera"]
        if ready(camera):
            return camera
        time.sleep(0.05)
    raise AssertionError(f"the camera never got there: {camera}")


def test_the_page_is_told_the_light_judged_from_the_rolls(app, client, act):
    table = SimulatedTable(seed=5, lamp_bgr=(0.72, 1.0, 1.25))  # a warm lamp
    camera = start_camera(
        app,
        app.extensions["hub"],
        "sim",
        lambda: table,
        active_fps=50,
        idle_fps=50,
        status_every_s=0.1,
    )
    try:
        _camera_state(client, lambda c: c["state"] == "ok")
        players = [{"name": "Anna", "colour": "pink"}, {"name": "Ben", "colour": "red"}]
        started = act("new_game", edition="classic", players=players)
        assert started.status_code == 200, started.get_json()
        assert _camera_state(client, lambda c: True)["light"] is None  # no roll seen yet
        table.throw([SimDie("pink", p) for p in (1, 3, 5, 6)])
        judged = _camera_state(client, lambda c: c.get("light") is not None)
        # Warm, and maybe dim: the lamp clips the pink dice's red, so they look darker too.
        assert "warm" in judged["light"] and judged["light_dice"] == 4
    finally:
        camera.stop()
