"""The camera's place remembered over the live camera's frames (vision/live_place.py)."""

from __future__ import annotations

import time

import cv2
import numpy as np

from vision.detections import Detections
from vision.live import LiveCamera
from vision.live_place import PlaceLearner
from vision.reader import ReaderConfig, read_dice


def _dice(sure: int, unsure: int = 0) -> Detections:
    n = sure + unsure
    boxes = np.array([[10 + 40 * k, 10, 40 + 40 * k, 40] for k in range(n)], np.float32)
    flags = [False] * sure + [True] * unsure
    return Detections(boxes, [3] * n, ["red"] * n, ["regular"] * n, [0.9] * n, flags)


def _read(learner: PlaceLearner, place: str, det: Detections) -> ReaderConfig:
    """Let the learner hear `place` from a frame that read `det`; the settings it gave."""
    config = learner.applied(ReaderConfig())
    assert config.camera_place is None and config.place_heard is not None
    config.place_heard(place)
    config.place_heard("bottom")  # a later look of the same frame
    learner.learn(det)
    return config


def test_each_frame_is_read_first_from_the_place_the_frame_before_was_read_from() -> None:
    learner = PlaceLearner()
    assert _read(learner, "top", _dice(3)).likely_place is None  # the usual webcam's first
    assert learner.place == "top"  # the first look's place
    assert _read(learner, "left", _dice(5)).likely_place == "top"
    assert learner.applied(ReaderConfig()).likely_place == "left"


def test_a_frame_of_few_sure_dice_teaches_no_place() -> None:
    learner = PlaceLearner()
    _read(learner, "left", _dice(6))
    _read(learner, "above", _dice(2, unsure=4))
    assert learner.place == "left"
    learner.learn(_dice(5))  # nothing heard: the settings named a place
    assert learner.place == "left"


def test_settings_naming_a_place_or_needing_no_pips_are_kept_and_forget_starts_anew() -> None:
    learner = PlaceLearner()
    _read(learner, "above", _dice(5))
    named = ReaderConfig(camera_place="left")
    assert learner.applied(named) is named
    no_pips = ReaderConfig(pips_needed=False)
    assert learner.applied(no_pips) is no_pips
    learner.forget()
    assert learner.place is None and learner.applied(ReaderConfig()).likely_place is None


def test_dice_read_doubtfully_from_the_likely_place_are_read_from_the_place_searched(
    dev_photos,
) -> None:
    from models.yolo_folders import load_split

    # valid_10: an oblique webcam's photo whose dice read plainly as it sees them.
    item = next(i for i in load_split("Valid", dev_photos) if i.image.stem == "valid_10")
    frame = cv2.imread(str(item.image))
    heard: list[str] = []
    det = read_dice(frame, ReaderConfig(place_heard=heard.append))
    assert len(det) == 2 and heard == ["bottom"]
    # Turned for a camera beyond the top edge, they read doubtfully: the place is searched.
    likely_top = read_dice(frame, ReaderConfig(likely_place="top", place_heard=heard.append))
    assert heard == ["bottom", "bottom"]
    assert likely_top.pips.tolist() == det.pips.tolist()
    assert likely_top.unsure.tolist() == det.unsure.tolist()
    read_dice(frame, ReaderConfig(camera_place="bottom", place_heard=heard.append))
    assert len(heard) == 2  # a place given is not told


class _ChangingSource:
    """A camera whose picture changes every 10th frame and stays still between: each still
    picture is read."""

    name = "changing"
    live = False

    def __init__(self) -> None:
        self.reads = 0

    def open(self) -> None:
        pass

    def read(self) -> np.ndarray:
        self.reads += 1
        return np.random.default_rng(self.reads // 10).integers(0, 255, (48, 64, 3), np.uint8)

    def close(self) -> None:
        pass


def test_the_live_camera_reads_each_frame_first_from_the_place_of_the_one_before() -> None:
    places: list[str | None] = []

    def reader(frame: np.ndarray, config: ReaderConfig) -> Detections:
        places.append(config.likely_place)
        if config.place_heard is not None:
            config.place_heard("right")
        return _dice(4)

    cam = LiveCamera(
        _ChangingSource, ReaderConfig(), lambda e: None, active_fps=100, idle_fps=100, reader=reader
    )
    cam.start()
    try:
        deadline = time.monotonic() + 10
        while len(places) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        cam.stop()
    assert places[0] is None and places[1:3] == ["right", "right"]
