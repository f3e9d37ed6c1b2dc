"""CPU of the whole service (camera thread, dice reader, page server) with the table idle and
during play, the page open: one live-update stream and one camera preview, read by a separate
process so that only the service's own CPU is counted.

The camera is a stand-in for a USB camera at 1280x720 in MJPG at 30 frames a second: frames of
the simulated table, JPEG-encoded beforehand, come at the camera's pace, and decoding one costs
what OpenCV's V4L2 backend pays in retrieve(). Two ways of taking frames are compared: the
service's (every frame taken off the camera, only those the reader uses decoded) and decoding
every frame, as a camera thread calling read() in a loop does.

Prints the service's CPU in % of one core over windows of a few seconds: median and worst
window, per phase (idle: dice lying still; play: dice thrown and taken off every few seconds),
and the service's peak resident memory (with the recorded frames, a few tens of MB, in it).

Run: python benchmarks/service_cpu.py [--seconds 30] [--window 5] [--threads 2]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

if __package__ in (None, "") and (Path(__file__).resolve().parents[1] / "vision").is_dir():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.camera import CameraControls, DeviceCamera  # noqa: E402
from vision.simtable import SimDie, SimulatedTable  # noqa: E402

WIDTH, HEIGHT, FPS = 1280, 720, 30
COLOURS = ("red", "blue")

CLIENT = """
import http.client, sys, threading
port = int(sys.argv[1])
def drain(path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    response = conn.getresponse()
    while response.read(65536):
        pass
for path in ("/api/events", "/video.mjpg"):
    threading.Thread(target=drain, args=(path,), daemon=True).start()
threading.Event().wait()
"""


def _jpeg(frame: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()


def recorded_frames() -> tuple[list[bytes], list[bytes]]:
    """JPEG frames of the table at 1280x720: dice lying still, and two throws taken off again."""
    table = SimulatedTable(seed=4, width=WIDTH, height=HEIGHT, die_side=75.0)
    table.open()
    table.lay([SimDie(COLOURS[k % 2], 1 + k % 6) for k in range(8)])
    idle = [_jpeg(table.read()) for _ in range(FPS * 2)]
    play: list[bytes] = []
    for throw in range(2):
        table.clear()
        play += [_jpeg(table.read()) for _ in range(FPS)]  # an empty arena for a second
        table.throw([SimDie(COLOURS[throw], 1 + k % 6) for k in range(8)])
        while not table.settled:
            play.append(_jpeg(table.read()))
        play += [_jpeg(table.read()) for _ in range(FPS * 3)]  # the roll lies still
    return idle, play


class PlayedCamera:
    """A cv2.VideoCapture stand-in: the frames given, at FPS, decoded as the V4L2 backend does."""

    def __init__(self, frames: list[bytes], decode_every: bool) -> None:
        self.frames = frames
        self.decode_every = decode_every
        self._index = 0
        self._next = time.monotonic()
        self._decoded: np.ndarray | None = None

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        return True

    def get(self, prop: int) -> float:
        return float(FPS) if prop == cv2.CAP_PROP_FPS else 0.0

    def grab(self) -> bool:
        self._next += 1.0 / FPS
        time.sleep(max(0.0, self._next - time.monotonic()))
        self._index += 1
        if self.decode_every:
            self._decoded = self._decode()
        return True

    def _decode(self) -> np.ndarray:
        return cv2.imdecode(
            np.frombuffer(self.frames[self._index % len(self.frames)], np.uint8),
            cv2.IMREAD_COLOR,
        )

    def retrieve(self) -> tuple[bool, np.ndarray]:
        if self.decode_every and self._decoded is not None:
            return True, self._decoded
        return True, self._decode()

    def read(self) -> tuple[bool, np.ndarray]:
        self.grab()
        return self.retrieve()

    def release(self) -> None:
        pass


def cpu_seconds() -> float:
    """CPU time of this process, all its threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def windows(seconds: float, window: float) -> list[float]:
    """This process's CPU in % of one core over consecutive windows."""
    shares = []
    for _ in range(max(1, int(seconds / window))):
        c0, t0 = cpu_seconds(), time.monotonic()
        time.sleep(window)
        shares.append(100 * (cpu_seconds() - c0) / (time.monotonic() - t0))
    return shares


def measure(
    decode_every: bool,
    idle: list[bytes],
    play: list[bytes],
    seconds: float,
    window: float,
    threads: int,
) -> dict[str, list[float]]:
    """Run the service on the played camera and measure it idle, then in play."""
    from web import create_app
    from web.actions import act
    from web.resources import start_camera
    from web.server import build_server

    cap = PlayedCamera(idle, decode_every)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DB": str(Path(folder) / "cpu.sqlite3"), "THREADS": threads})
        hub = app.extensions["hub"]
        act(
            hub,
            {
                "action": "new_game",
                "base": "none",
                "edition": "classic",
                "players": [{"name": "Anna", "colour": "red"}, {"name": "Ben", "colour": "blue"}],
            },
            None,
        )
        controls = CameraControls(exposure="keep", white_balance="keep")

        def factory() -> Any:
            return DeviceCamera(0, WIDTH, HEIGHT, controls=controls, capture=lambda *a: cap)

        camera = start_camera(app, hub, "played", source_factory=factory)
        server = build_server(app, "127.0.0.1", 0)
        port = server.effective_port  # type: ignore[union-attr]
        threading.Thread(target=server.run, daemon=True).start()
        client = subprocess.Popen([sys.executable, "-c", CLIENT, str(port)])
        try:
            time.sleep(4)  # the page connects, the watcher settles
            slots = app.extensions["stream_slots"]
            if slots["events"].open != 1 or slots["preview"].open != 1:
                raise RuntimeError("the page's streams did not open")
            before = camera.status()
            result = {"idle": windows(seconds, window)}
            idle_status = camera.status()
            cap.frames = play
            time.sleep(1)
            play_from = camera.status()
            result["play"] = windows(seconds, window)
            after = camera.status()
            for phase, (s0, s1) in {
                "idle": (before, idle_status),
                "play": (play_from, after),
            }.items():
                result[f"{phase} counts"] = [
                    float(s1.frames_read - s0.frames_read),
                    float(s1.readings - s0.readings),
                ]
        finally:
            client.kill()
            client.wait()
            camera.stop()
            server.close()
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seconds", type=float, default=30, help="measured seconds per phase")
    ap.add_argument("--window", type=float, default=5, help="seconds per window")
    ap.add_argument("--threads", type=int, default=2, help="reader threads (the Pi's: 2)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(a.threads)
    idle, play = recorded_frames()
    print(f"camera {WIDTH}x{HEIGHT} MJPG {FPS} fps; reader threads {a.threads}; % of one core")
    print(
        f"{'frames decoded':<22}{'phase':<7}{'median %':>10}{'worst %':>10}{'windows':>9}"
        f"{'frames':>8}{'reads':>7}"
    )
    for decode_every, label in ((False, "when read (service)"), (True, "every frame")):
        result = measure(decode_every, idle, play, a.seconds, a.window, a.threads)
        for phase in ("idle", "play"):
            shares = result[phase]
            frames, reads = result[f"{phase} counts"]
            print(
                f"{label:<22}{phase:<7}{statistics.median(shares):>10.1f}{max(shares):>10.1f}"
                f"{len(shares):>9}{frames:>8.0f}{reads:>7.0f}"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the service: {peak:.0f} MB (the unit allows 1024)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
