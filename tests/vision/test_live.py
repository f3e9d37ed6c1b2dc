"""The live camera service: watchdog, reading on change, idle rate, preview and events."""

from __future__ import annotations

import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from vision.camera import CameraError
from vision.colour import calibrate, default_palette
from vision.detections import Detections
from vision.live import CameraStatus, LiveCamera
from vision.reader import ReaderConfig, read_dice
from vision.simtable import SimDie, SimulatedTable
from vision.video import DiceLeft, RollSettled

FAST = {"active_fps": 200, "idle_fps": 200, "stall_s": 0.15, "retry_s": 0.05}


def _frame(k: int) -> np.ndarray:
    """A small frame that differs from frame k - 1."""
    return np.random.default_rng(k).integers(0, 255, (48, 64, 3), np.uint8)


class FakeSource:
    """A camera whose behaviour on its first opening is scripted; later openings work."""

    live = True

    def __init__(self, trouble: str, good_frames: int = 5) -> None:
        self.name = f"fake {trouble}"
        self.trouble = trouble
        self.good_frames = good_frames
        self.opens = self.reads = self.closes = 0
        self.is_open = False

    def open(self) -> None:
        self.opens += 1
        if self.trouble == "open raises" and self.opens <= 2:
            raise CameraError(f"camera {self.name} not found")
        self.is_open = True
        self.served = 0

    def read(self) -> np.ndarray | None:
        assert self.is_open, "read on a closed source"
        self.reads += 1
        self.served += 1
        if self.opens == 1 and self.served > self.good_frames:
            if self.trouble == "no frames":
                return None  # an unplugged camera that just stops
            if self.trouble == "frozen":
                return _frame(self.good_frames).copy()  # a driver repeating its last buffer
            if self.trouble == "raises":
                raise OSError("device unplugged")
        return _frame(self.reads)

    def close(self) -> None:
        self.closes += 1
        self.is_open = False


class Recorder:
    """Collects statuses and events from the camera thread, and waits for them."""

    def __init__(self) -> None:
        self.statuses: list[CameraStatus] = []
        self.events: list[RollSettled | DiceLeft] = []
        self.changed = threading.Condition()

    def status(self, s: CameraStatus) -> None:
        with self.changed:
            self.statuses.append(s)
            self.changed.notify_all()

    def event(self, e: RollSettled | DiceLeft) -> None:
        with self.changed:
            self.events.append(e)
            self.changed.notify_all()

    def wait(self, what: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until what() holds; it is checked on each report and every 20 ms."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not what():
                assert time.monotonic() < deadline, f"timed out: {self.states()}"
                self.changed.wait(0.02)

    def states(self) -> list[str]:
        return [s.state for s in self.statuses]


def _no_dice(frame: np.ndarray, config: ReaderConfig) -> Detections:
    """A reader that sees nothing, instantly."""
    return Detections.empty()


def _live(factory, rec: Recorder, **kw) -> LiveCamera:
    opts = {**FAST, "reader": _no_dice, **kw}
    return LiveCamera(factory, ReaderConfig(), rec.event, rec.status, **opts)


def _reading_camera(factory, rec: Recorder, config: ReaderConfig | None = None, **kw) -> LiveCamera:
    """A live camera with the real reader (or `kw`'s), checking for change 50 times a second."""
    opts = {"active_fps": 50, "idle_fps": 50, **kw}
    return LiveCamera(factory, config or ReaderConfig(), rec.event, rec.status, **opts)


@pytest.mark.parametrize(
    ("trouble", "message"),
    [
        ("no frames", "fake no frames gives no new picture for 0.15 s"),  # read() returns None
        ("frozen", "fake frozen shows the same picture for 0.15 s"),  # the same bytes each time
        ("raises", "device unplugged"),  # read() raises
        ("open raises", "camera fake open raises not found"),  # unplugged before it starts
    ],
)
def test_watchdog_reports_lost_then_recovers(trouble: str, message: str) -> None:
    rec = Recorder()
    source = FakeSource(trouble)
    cam = _live(lambda: source, rec)
    cam.start()
    try:
        rec.wait(lambda: "lost" in rec.states() and rec.states()[-1] == "ok")
    finally:
        cam.stop()
    lost = next(s for s in rec.statuses if s.state == "lost")
    assert lost.message.startswith(message) and "trying again every 0.05 s" in lost.message
    assert lost.source == f"fake {trouble}"
    states = [s for i, s in enumerate(rec.states()) if i == 0 or s != rec.states()[i - 1]]
    expected = ["ok", "lost", "ok"] if trouble != "open raises" else ["starting", "lost", "ok"]
    assert states[: len(expected)] == expected or states[1:][: len(expected)] == expected
    assert source.opens >= 2 and source.closes >= 1
    assert rec.statuses[-1].state == "stopped" and cam.stopped


def test_a_folder_like_source_may_repeat_frames() -> None:
    rec = Recorder()
    source = FakeSource("frozen")
    source.live = False  # a held image is not a frozen camera
    cam = _live(lambda: source, rec)
    cam.start()
    time.sleep(0.5)
    cam.stop()
    assert "lost" not in rec.states()


def test_the_page_is_told_when_the_source_shown_changes() -> None:
    # "auto" switches from the simulated table to a camera plugged in, without being lost.
    rec = Recorder()
    source = FakeSource("none")
    source.name = "simulated table (auto: waiting for a USB camera)"
    cam = _live(lambda: source, rec)
    cam.start()
    try:
        rec.wait(lambda: rec.states()[-1:] == ["ok"])
        source.name = "camera /dev/video0 (auto)"
        rec.wait(lambda: rec.statuses[-1].source == "camera /dev/video0 (auto)")
    finally:
        cam.stop()
    assert "lost" not in rec.states()


def test_factory_failure_is_retried() -> None:
    rec = Recorder()
    calls = []

    def factory() -> FakeSource:
        calls.append(1)
        if len(calls) == 1:
            raise CameraError("no camera 'webcam'")
        return FakeSource("none")

    cam = _live(factory, rec)
    cam.start()
    try:
        rec.wait(lambda: rec.states()[-1:] == ["ok"])
    finally:
        cam.stop()
    assert rec.statuses[0].state == "lost" and "no camera 'webcam'" in rec.statuses[0].message


class UnpluggedSource(FakeSource):
    """A camera that cannot be opened for its first `misses` tries, then works."""

    def __init__(self, misses: int) -> None:
        super().__init__("none")
        self.name = "camera 7"
        self.misses = misses

    def open(self) -> None:
        if self.opens < self.misses:
            self.opens += 1
            raise CameraError("camera 7 not found")
        super().open()


def test_a_lost_camera_is_logged_once_and_again_when_back(caplog) -> None:
    """Retried every retry_s, the same loss is written to the log once, not at every try."""
    rec = Recorder()
    source = UnpluggedSource(misses=6)
    cam = _live(lambda: source, rec)
    with caplog.at_level("WARNING", logger="vision.live"):
        cam.start()
        try:
            rec.wait(lambda: rec.states()[-1:] == ["ok"])
        finally:
            cam.stop()
    assert source.opens >= 6  # it was retried
    assert [r.getMessage() for r in caplog.records] == [
        "camera 7 lost: camera 7 not found",
        "camera 7 is back",
    ]


class StillSource:
    """A table where nothing moves until told to: the same picture (plus nothing) each read."""

    name = "still table"
    live = False

    def __init__(self) -> None:
        self.picture = np.full((48, 64, 3), 90, np.uint8)
        self.reads = 0

    def open(self) -> None:
        pass

    def read(self) -> np.ndarray:
        self.reads += 1
        return self.picture.copy()

    def close(self) -> None:
        pass


def test_reader_failure_is_reported_and_reading_goes_on() -> None:
    rec = Recorder()

    def broken(frame: np.ndarray, config: ReaderConfig) -> Detections:
        raise RuntimeError("model file damaged")

    cam = _live(lambda: StillSource(), rec, reader=broken)  # still: the watcher reads
    cam.start()
    try:
        rec.wait(lambda: any("model file damaged" in s.message for s in rec.statuses))
        before = cam.frame_id
        time.sleep(0.1)
        assert cam.frame_id > before  # the thread lives on
    finally:
        cam.stop()


def test_idle_rate_when_nothing_moves_and_no_reading() -> None:
    rec = Recorder()
    source = StillSource()
    readings = []

    def counting(frame: np.ndarray, config: ReaderConfig) -> Detections:
        readings.append(1)
        return Detections.empty()

    cam = _live(lambda: source, rec, active_fps=100, idle_fps=5, idle_after_s=0.2, reader=counting)
    cam.start()
    try:
        time.sleep(0.4)  # the start counts as motion; idle after 0.2 s still
        reads, read_calls = source.reads, len(readings)
        time.sleep(0.6)
        assert source.reads - reads <= 6  # about 3 at 5 fps; 60 at the active rate
        assert len(readings) == read_calls  # the still picture was read once and for all
        assert 1 <= read_calls <= 6
        reads = source.reads
        source.picture = np.full((48, 64, 3), 200, np.uint8)  # something moved
        time.sleep(0.4)  # seen within 0.2 s, then active for 0.2 s
        assert source.reads - reads >= 8  # back to the active rate for a while
        assert len(readings) > read_calls  # and the new picture was read
    finally:
        cam.stop()


def test_preview_jpeg_snapshot_and_stop() -> None:
    rec = Recorder()
    cam = _live(lambda: FakeSource("none"), rec)
    assert cam.jpeg() is None and cam.snapshot() is None and len(cam.latest()) == 0
    cam.start()
    try:
        frame_id, jpeg = cam.wait_jpeg(0, timeout=2.0)
        assert frame_id >= 1 and jpeg is not None
        assert cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR).shape == (48, 64, 3)
        later, _ = cam.wait_jpeg(frame_id, timeout=2.0)
        assert later > frame_id
        snap = cam.snapshot()
        assert snap is not None and snap.shape == (48, 64, 3)
        assert cam.sim_table is None and isinstance(cam.source, FakeSource)
    finally:
        cam.stop()
    t0 = time.monotonic()
    assert cam.wait_jpeg(10**9, timeout=2.0)[1] is not None
    assert time.monotonic() - t0 < 0.5  # a stopped camera does not keep streams waiting
    assert cam.status().state == "stopped"


def test_simulated_throw_and_take_make_events() -> None:
    rec = Recorder()
    cam = _reading_camera(lambda: SimulatedTable(seed=4), rec)
    cam.start()
    try:
        rec.wait(lambda: cam.sim_table is not None and cam.status().readings >= 3)
        table = cam.sim_table
        table.throw([SimDie("blue", p) for p in (2, 4, 4, 6)] + [SimDie("blue", 1, big=True)])
        rec.wait(lambda: len(rec.events) >= 1, timeout=10)
        roll = rec.events[0]
        assert isinstance(roll, RollSettled)
        assert sorted(roll.dice.pips.tolist()) == [1, 2, 4, 4, 6]
        assert set(roll.dice.colour.tolist()) == {"blue"}
        assert sorted(roll.dice.size.tolist()) == ["big"] + ["regular"] * 4
        table.take(4)
        rec.wait(lambda: len(rec.events) >= 2, timeout=10)
        left = rec.events[1]
        assert isinstance(left, DiceLeft) and left.dice.pips.tolist() == [4, 4]
        assert len(cam.latest()) == 3
        # A player's last die, their Biggy, alone: sized against the dice seen before.
        assert cam.regular_side_px is not None and 45 < cam.regular_side_px < 52
        table.clear()
        table.throw([SimDie("blue", 5, big=True)])
        # The sweep and the throw may be seen as one movement (no DiceLeft between them).
        rec.wait(lambda: any(isinstance(e, RollSettled) for e in rec.events[2:]), timeout=10)
        lone = rec.events[-1]
        assert isinstance(lone, RollSettled) and len(lone.dice) == 1, rec.events[2:]
        assert lone.dice.size.tolist() == ["big"]
    finally:
        cam.stop()


def test_the_light_is_judged_from_the_rolls_until_the_table_is_calibrated() -> None:
    lights: list[np.ndarray | None] = []

    def reader(frame: np.ndarray, config: ReaderConfig) -> Detections:
        lights.append(config.palette.light)
        return read_dice(frame, config)

    rec = Recorder()
    in_play = default_palette().in_play_only(["red", "pink", "purple", "orange", "yellow"])
    warm = (0.72, 1.0, 1.25)  # a warm lamp, that makes pink dice look red
    cam = _reading_camera(
        lambda: SimulatedTable(seed=5, lamp_bgr=warm),
        rec,
        ReaderConfig(palette=in_play),
        reader=reader,
    )
    cam.start()
    try:
        rec.wait(lambda: cam.sim_table is not None and cam.status().readings >= 3)
        table = cam.sim_table
        table.throw([SimDie("pink", p) for p in (1, 3, 5)] + [SimDie("purple", 2)])
        rec.wait(lambda: len(rec.events) >= 1, timeout=10)
        roll = rec.events[0]
        assert isinstance(roll, RollSettled)
        assert sorted(roll.dice.colour.tolist()) == ["pink"] * 3 + ["purple"]
        # Read without the colours in play, the same dice are not all named right.
        plain = read_dice(cam.snapshot(), ReaderConfig())
        assert sorted(plain.colour.tolist()) != ["pink"] * 3 + ["purple"]
        # Each reading after the roll starts from the light judged from it: the lamp undone.
        assert all(light is None for light in lights[:3])

        def rolls() -> list[RollSettled]:
            return [e for e in rec.events if isinstance(e, RollSettled)]

        table.clear()
        table.throw([SimDie("pink", 6)])
        rec.wait(lambda: len(rolls()) >= 2, timeout=10)
        light = lights[-1]
        assert light is not None and light[0] / light[1] > 1 > light[2] / light[1]
        status = cam.status()  # the page shows the light judged, and from how many dice
        assert status.light is not None and np.allclose(status.light, light)
        assert status.light_dice == 5
        assert rolls()[1].dice.colour.tolist() == ["pink"]
        # What else the camera reads (the casino row) is read under the same light.
        row_config = cam.with_learnt_colours(ReaderConfig(palette=in_play))
        assert row_config.palette.light is not None and np.allclose(row_config.palette.light, light)
        # Calibrated, the table's own colours stand: no light is judged.
        calibrated = calibrate({"pink": np.array([[180, 130, 245]])}, np.array([110, 100, 60]))
        cam.set_config(ReaderConfig(palette=calibrated))
        table.clear()
        table.throw([SimDie("pink", 4)])
        rec.wait(lambda: len(rolls()) >= 3, timeout=10)
        assert lights[-1] is None
        assert cam.status().light is None and cam.status().light_dice == 0
        assert cam.with_learnt_colours(ReaderConfig(palette=calibrated)).palette.light is None
    finally:
        cam.stop()


def test_real_photos_held_before_the_camera_settle_as_rolls(dev_photos, tmp_path) -> None:
    """Real photos played as a camera, each held a moment: each is one settled roll, read as
    the reader reads the photo alone and as its labels say (the vote and the roll watcher on
    real frames, in a game of red, blue and the neutral white dice)."""
    from models.yolo_folders import load_split
    from vision.camera import FileCamera

    photos, previous = [], None
    for item in load_split("Valid", dev_photos):
        pips = sorted(item.pips.tolist())
        if len(pips) >= 3 and pips != previous:  # a roll unlike the one before
            photos.append(item)
            shutil.copy(item.image, tmp_path / f"{len(photos):02d}.jpg")
            previous = pips
        if len(photos) == 6:
            break
    config = ReaderConfig(palette=default_palette().in_play_only(["red", "blue", "white"]))
    rec = Recorder()
    cam = _reading_camera(
        lambda: FileCamera(tmp_path, fps=0, loop=False, hold_frames=12), rec, config
    )
    cam.start()
    try:
        rec.wait(lambda: len(rec.events) >= len(photos), timeout=60)
    finally:
        cam.stop()
    rolls = rec.events[: len(photos)]
    assert all(isinstance(roll, RollSettled) for roll in rolls), rolls
    wrong = 0
    for roll, item in zip(rolls, photos, strict=True):
        alone = read_dice(cv2.imread(str(item.image)), config)
        assert sorted(roll.dice.pips.tolist()) == sorted(alone.pips.tolist()), item.image.name
        assert not roll.dice.unsure.any() and set(roll.dice.colour.tolist()) == {"white"}
        unmatched = Counter(item.pips.tolist()) - Counter(roll.dice.pips.tolist())
        wrong += sum(unmatched.values())
    # One label of these photos is wrong: valid_56's box holds one pip but says 4.
    assert wrong <= 1, wrong
