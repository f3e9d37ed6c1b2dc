"""`lasvegas serve` settings: the TOML file, the flags, and the messages for bad ones."""

from __future__ import annotations

import socket
import subprocess

import numpy as np
import pytest
from browser import serve_command

from web.config import ConfigError, load_config


def test_file_then_flags(tmp_path):
    path = tmp_path / "lasvegas.toml"
    path.write_text('port = 8100\ncamera = 0\npin = 2468\nlanguage = "de"\nthreads = 2\n')
    config = load_config(path, {"port": 9000, "pin": None})
    assert (config.port, config.camera, config.pin, config.language, config.threads) == (
        9000,
        "0",
        "2468",
        "de",
        2,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("port = 70000", "port must be 1-65535"),
        ('language = "fr"', "language must be en or de"),
        ('pin = "12ab"', "pin must be 3-8 digits"),
        ("threads = 0", "threads must be 1-16"),
        ('camera_place = "ceiling"', "camera_place must be auto or one of bottom"),
        ('port = "eighty"', "port must be a whole number"),
        ("colour = 3", "unknown setting 'colour'"),
        ("port = ", "not valid TOML"),
        ('camera_exposure = "dark"', "camera_exposure must be a number"),  # a word unknown
        ("camera_power_line = 55", "camera_power_line must be 50, 60, off or auto"),
        ("camera_focus = true", "camera_focus must be text"),
    ],
)
def test_bad_settings_are_named(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError, match=message):
        load_config(path, {})


def test_camera_controls_from_the_file_reach_the_camera(tmp_path, monkeypatch):
    from vision.camera import AutoCamera, CameraControls, DeviceCamera
    from web import create_app
    from web.resources import start_camera

    path = tmp_path / "lasvegas.toml"
    path.write_text('camera_exposure = 250\ncamera_power_line = 50\ncamera_focus = "auto"\n')
    config = load_config(path, {})
    controls = config.camera_controls()
    assert controls == CameraControls(exposure="250", focus="auto", power_line="50")
    app = create_app(
        {"DB": str(tmp_path / "t.sqlite3"), "CAMERA": None, "CAMERA_CONTROLS": controls}
    )
    made = []
    monkeypatch.setattr("vision.live.LiveCamera.start", lambda self: None)
    for spec in ("/dev/video7", "auto"):
        live = start_camera(app, app.extensions["hub"], spec)
        made.append(live._link.factory())
    assert isinstance(made[0], DeviceCamera) and made[0].controls == controls
    assert isinstance(made[1], AutoCamera) and made[1]._camera_kw["controls"] == controls


def test_camera_place_from_file_then_flag(tmp_path):
    path = tmp_path / "lasvegas.toml"
    path.write_text('camera_place = "above"\n')
    assert load_config(path, {}).camera_place == "above"
    assert load_config(path, {"camera_place": "left"}).camera_place == "left"
    assert load_config(None, {}).camera_place == "auto"


@pytest.mark.parametrize(("setting", "reader_place"), [("above", "above"), ("auto", None)])
def test_the_camera_place_reaches_the_dice_reader(tmp_path, setting, reader_place):
    from web import create_app

    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "CAMERA_PLACE": setting})
    assert app.extensions["hub"].reader_config().camera_place == reader_place


@pytest.mark.parametrize(
    ("edition", "options", "in_play"),
    [
        ("classic", {}, ("red", "blue")),
        ("classic", {"neutral_dice": True, "kickers": True}, ("red", "blue", "white", "purple")),
        ("royale", {}, ("red", "blue", "grey")),  # Royale's blank dice are grey
    ],
)
def test_until_calibration_the_reader_names_dice_by_the_colours_in_play(
    tmp_path, edition, options, in_play
):
    from web import create_app

    app = create_app({"DB": str(tmp_path / "t.sqlite3"), "CAMERA": None})
    hub = app.extensions["hub"]
    assert hub.reader_config().palette.in_play == ()  # no game yet
    players = [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    client = app.test_client()
    base = client.get("/api/state").get_json()["version"]
    started = client.post(
        "/api/action",
        json={
            "action": "new_game",
            "base": base,
            "edition": edition,
            "options": options,
            "players": players,
        },
    )
    assert started.status_code == 200, started.get_json()
    assert hub.reader_config().palette.in_play == in_play
    # Royale's grey dice are all blank: a die showing pips is never named grey.
    assert hub.reader_config().palette.blank_only == (("grey",) if edition == "royale" else ())


def test_a_calibrated_table_names_dice_by_its_own_colours_alone(tmp_path):
    from vision.colour import calibrate
    from web import create_app

    hub = create_app({"DB": str(tmp_path / "t.sqlite3"), "CAMERA": None}).extensions["hub"]
    hub.set_palette(calibrate({"red": np.array([[40, 40, 200]])}, np.array([90, 90, 90])))
    assert hub.reader_config().palette.in_play == ()
    assert hub.reader_config().palette.blank_only == ()  # no game yet


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "none.toml", {})


def test_a_busy_port_gets_a_clear_message(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            serve_command(port, tmp_path / "t.sqlite3"),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_broken_game_file_stops_the_server_with_a_message(tmp_path):
    db = tmp_path / "broken.sqlite3"
    db.write_bytes(b"not a game file" * 200)
    result = subprocess.run(
        serve_command(1, db),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "not a readable game file" in result.stderr
    assert db.read_bytes() == b"not a game file" * 200


def test_serve_sizes_opencvs_thread_pool_from_the_threads_setting(tmp_path):
    import argparse

    import cv2

    from web.serve import run_server

    args = argparse.Namespace(
        **dict.fromkeys(("host", "port", "db", "pin", "language", "camera_place", "seed")),
        config=None,
        camera=str(tmp_path / "missing.mp4"),  # serve stops there, after setting the threads
        threads=3,
    )
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(1)
        assert run_server(args) == 2
        assert cv2.getNumThreads() == 3  # OMP_NUM_THREADS does not reach OpenCV's own pool
    finally:
        cv2.setNumThreads(before)
