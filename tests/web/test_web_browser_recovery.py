"""The page comes back by itself when the server refuses its stream or its preview ends."""

from __future__ import annotations

import pytest
from browser import LiveServer, chromium, skip_module_without_browser, wait_for
from fake_cameras import UnpluggableCamera

from web import create_app
from web.resources import start_camera

skip_module_without_browser()


@pytest.fixture
def open_page(tmp_path):
    """Serve a fresh table (with `camera` as its camera, if given) and open one page on it;
    returns (server, driver)."""
    cleanups = []

    def open_(camera=None):
        app = create_app({"DB": str(tmp_path / "t.sqlite3"), "SEED": 2, "EVENT_STREAMS": 1})
        if camera is not None:
            live_camera = start_camera(
                app, app.extensions["hub"], "test", lambda: camera, active_fps=10, idle_fps=10,
                stall_s=0.3, retry_s=0.2,
            )  # fmt: skip
            cleanups.append(live_camera.stop)
        server = LiveServer(app)
        cleanups.append(server.close)
        driver = chromium()
        cleanups.append(driver.quit)
        driver.get(server.url)
        return server, driver

    yield open_
    for cleanup in reversed(cleanups):
        cleanup()


def connection(driver) -> str:
    return driver.execute_script("return document.getElementById('connection').className")


def stream_state(driver) -> int:
    """The page's EventSource: 0 connecting, 1 open, 2 closed (given up)."""
    return driver.execute_script("return stream ? stream.readyState : -1")


def preview_width(driver) -> int:
    """The width of the picture the preview shows (0 before the first one)."""
    return driver.execute_script(
        "const img = document.querySelector('[data-testid=preview]');"
        "return img ? img.naturalWidth : 0;"
    )


def test_the_preview_opens_anew_when_the_camera_comes_back(open_page):
    camera = UnpluggableCamera()
    _, driver = open_page(camera)
    wait_for(lambda: preview_width(driver) == 160, 15, "the camera's picture")
    camera.plugged = False
    wait_for(lambda: preview_width(driver) == 640, 15, "the no-camera picture")
    camera.plugged = True
    wait_for(lambda: preview_width(driver) == 160, 15, "the camera's picture again")


def test_a_refused_live_stream_is_asked_for_again(open_page, monkeypatch):
    monkeypatch.setattr("web.stream.EVENTS_LIFETIME_S", 1.0)  # the page's streams end often
    server, driver = open_page()
    wait_for(lambda: "conn-live" in connection(driver), 15, "the live stream")
    events = server.app.extensions["stream_slots"]["events"]
    monkeypatch.setattr("web.stream.EVENTS_LIFETIME_S", 600.0)
    events.cap = 0  # the page's next stream is refused: the browser gives up on it
    wait_for(lambda: stream_state(driver) == 2, 15, "the refusal")
    events.cap = 1
    # The page asks again within seconds (before, only after 40 s without a message).
    wait_for(
        lambda: stream_state(driver) == 1 and "conn-live" in connection(driver),
        15,
        "the stream back",
    )
