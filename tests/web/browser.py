"""Shared helpers for the page's tests: real servers (in a thread or a process), headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def browser_available() -> bool:
    """Whether Debian's chromium and chromedriver are installed."""
    return Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()


def skip_module_without_browser() -> None:
    """Skip the calling test module where the browser is missing; fail instead where
    LASVEGAS_REQUIRE_BROWSER is set (CI installs it, so a missing browser is an error there)."""
    if browser_available():
        return
    if os.environ.get("LASVEGAS_REQUIRE_BROWSER"):
        raise RuntimeError(
            "chromium and chromedriver are required (apt install chromium chromium-driver)"
        )
    pytest.skip("Debian's chromium and chromedriver are not installed", allow_module_level=True)


def free_port() -> int:
    """A local TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_command(port: int, db: Path | str, *extra: str) -> list[str]:
    """`lasvegas serve` on the simulated table, on localhost, as a process's command line."""
    return [
        sys.executable,
        "-m",
        "companion.cli",
        "serve",
        "--camera",
        "sim",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        str(db),
        *extra,
    ]


class LiveServer:
    """The app served by waitress on a free local port, in a background thread."""

    def __init__(self, app: Any) -> None:
        from waitress import create_server

        self.app = app
        self.server = create_server(app, host="127.0.0.1", port=0, threads=24, ident="test")
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        """Stop listening and hang up on every client, so that the streams being served end,
        and stop the server's idle worker threads; stop the app's camera thread, if it has
        one, first, while its database is still there.

        The server's wake-up pipe is left open, with its loop waiting on it: a worker still
        serving a stream (one waits for the app's next event before it writes and finds the
        client gone) wakes the loop by writing to that pipe. Had the pipe been closed, its file
        number could by then belong to the next test's game file, and the write would corrupt
        it ("file is not a database"). Sockets are closed in the server's own thread, between
        two waits on them: closed from here, its wait could meet a socket closed under it
        ("Bad file descriptor").
        """
        camera = self.app.extensions.get("camera")
        if camera is not None:
            camera.stop()
        if not self.thread.is_alive():
            return  # the server's loop has ended, and closed its sockets as it did
        if self._in_loop(self._hang_up):
            self.server.task_dispatcher.set_thread_count(0)

    def _hang_up(self) -> None:
        """Close the listening socket and every client's connection (the server's loop only)."""
        from waitress import wasyncore

        for channel in list(self.server._map.values()):
            if channel is self.server:
                wasyncore.dispatcher.close(channel)  # its own close shuts the wake-up pipe too
            elif channel is not self.server.trigger:
                channel.close()

    def _in_loop(self, action: Any) -> bool:
        """Run `action` in the server's loop and wait for it; False where the loop could not
        be woken (it had closed its wake-up pipe while ending)."""
        done = threading.Event()

        def run_and_tell() -> None:
            action()
            done.set()

        try:
            self.server.trigger.pull_trigger(run_and_tell)
        except OSError:
            return False
        done.wait(timeout=5)
        return True


UNKNOWN_COMMAND_TRIES = 3
"""Times a command is sent to chromedriver while it answers "unknown command" for it."""


def chromium(width: int = 1280, height: int = 800) -> Any:
    """A headless Chromium driven through Debian's chromedriver (no browser download)."""
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service

    class Chrome(webdriver.Chrome):
        """Chromium whose commands are sent again where chromedriver answers "unknown command"
        for a command it knows (seen now and then in the middle of a test, on a live session):
        a command it did not recognise was not run."""

        def execute(self, driver_command: str, params: dict | None = None) -> dict:
            for _ in range(UNKNOWN_COMMAND_TRIES - 1):
                try:
                    return super().execute(driver_command, params)
                except WebDriverException as error:
                    if "unknown command" not in str(error):
                        raise
                    time.sleep(0.2)
            return super().execute(driver_command, params)

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    return Chrome(service=Service(CHROMEDRIVER), options=options)


def wait_for(check: Callable[[], Any], timeout: float = 15.0, what: str = "condition") -> Any:
    """Poll until `check()` is truthy; fail with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            value = check()
            if value:
                return value
        except Exception as error:  # the page may be re-drawing; try again
            last_error = error
        time.sleep(0.05)
    raise AssertionError(
        f"timed out waiting for {what}" + (f" ({last_error})" if last_error else "")
    )


def exact_viewport(driver: Any, width: int, height: int) -> None:
    """Make the page's viewport exactly `width` x `height` CSS pixels, as on the device itself
    (a headless window of that size keeps part of its height for itself)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )


class LivePage:
    """A page in headless Chromium on a real server run in a thread, with the reads and taps the
    game's browser tests share."""

    def __init__(self, app: Any, width: int = 1024, height: int = 768) -> None:
        self.app = app
        self.live = LiveServer(app)
        self.driver = chromium(width, height)
        self.driver.get(self.live.url)

    def close(self) -> None:
        """Close the browser and stop the server."""
        self.driver.quit()
        self.live.close()

    def state(self) -> dict[str, Any]:
        """The table as the server has it now."""
        with urllib.request.urlopen(self.live.url + "api/state", timeout=10) as response:
            return dict(json.load(response))

    def js(self, script: str, *args: Any) -> Any:
        """Run a script in the page."""
        return self.driver.execute_script(script, *args)

    def all(self, selector: str) -> list[Any]:
        """Every element matching a CSS selector."""
        from selenium.webdriver.common.by import By

        return list(self.driver.find_elements(By.CSS_SELECTOR, selector))

    def text(self, selector: str) -> str:
        """The shown text of the first element matching a CSS selector ("" when there is none),
        read in one step so that a redraw cannot leave a stale element in hand."""
        script = "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';"
        return str(self.js(script, selector))

    def synced(self, timeout: float = 15.0) -> dict[str, Any]:
        """The server's state once the page shows that version of it."""

        def same() -> dict[str, Any] | None:
            state = self.state()
            shown = self.js("return document.body.dataset.version")
            return state if shown == state["version"] else None

        return wait_for(same, timeout, "the page to show the current state")  # type: ignore[no-any-return]

    def tap(self, selector: str) -> None:
        """Tap the first element matching a CSS selector, looked up afresh (a push may redraw
        the page), once it is there and enabled."""
        wait_for(
            lambda: self.js(
                "const e = document.querySelector(arguments[0]);"
                "if (!e || e.disabled) return false; e.click(); return true;",
                selector,
            ),
            10,
            selector,
        )


# --- steps that survive a redraw ---------------------------------------------------------------
# The page draws itself anew on every push (the camera starting, another tablet's move), and a
# push can land between finding an element and using it. Each step below looks its element up
# afresh and tries again after a stale element, so that a redraw cannot fail a test.


def tap_testid(driver: Any, testid: str, timeout: float = 10.0) -> None:
    """Tap the element with this data-testid once it is there and enabled, found and tapped in
    one step in the page."""
    wait_for(
        lambda: driver.execute_script(
            "const e = document.querySelector(`[data-testid='${arguments[0]}']`);"
            "if (!e || e.disabled) return false;"
            "e.scrollIntoView({block: 'center'}); e.click(); return true;",
            testid,
        ),
        timeout,
        testid,
    )


def choose_option(driver: Any, selector: str, value: str, timeout: float = 10.0) -> None:
    """Pick `value` in the drop-down matching a CSS selector, as a person would, and wait until
    the (possibly redrawn) drop-down shows it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    def pick() -> bool:
        Select(driver.find_element(By.CSS_SELECTOR, selector)).select_by_value(value)
        return True

    wait_for(pick, timeout, f"{value} chosen in {selector}")
    wait_for(
        lambda: driver.find_element(By.CSS_SELECTOR, selector).get_attribute("value") == value,
        timeout,
        f"{selector} to show {value}",
    )


def type_into(driver: Any, testid: str, text: str, timeout: float = 10.0) -> None:
    """Type into the text field with this data-testid as a person would (see `fill`)."""
    fill(driver, f'[data-testid="{testid}"]', text, timeout)


def fill(driver: Any, selector: str, text: str, timeout: float = 10.0) -> None:
    """Type into the field matching a CSS selector as a person would; where a redraw replaces
    the field while the keys go in, type into the new one, so that it holds `text`."""
    from selenium.webdriver.common.by import By

    def typed() -> bool:
        field = driver.find_element(By.CSS_SELECTOR, selector)
        field.clear()
        field.send_keys(text)
        return driver.find_element(By.CSS_SELECTOR, selector).get_attribute("value") == text

    wait_for(typed, timeout, f"{text!r} typed into {selector}")


def tick(driver: Any, selector: str, on: bool, timeout: float = 10.0) -> None:
    """Set the check box matching a CSS selector to `on` by tapping it where it differs."""
    wait_for(
        lambda: driver.execute_script(
            "const box = document.querySelector(arguments[0]);"
            "if (!box) return false;"
            "if (box.checked !== arguments[1]) box.click();"
            "return box.checked === arguments[1];",
            selector,
            on,
        ),
        timeout,
        f"{selector} {'ticked' if on else 'cleared'}",
    )
