"""The live camera's parts on their own: the watchdog, the light learnt, the preview."""

from __future__ import annotations

import numpy as np
import pytest

from vision.colour import default_palette
from vision.detections import Detections
from vision.live_learning import LightLearner, SideLearner
from vision.live_preview import Preview
from vision.live_source import Stalled, StallWatch
from vision.reader import ReaderConfig


class _Live:
    name = "test camera"
    live = True


def _dice(boxes: list[list[float]]) -> Detections:
    n = len(boxes)
    return Detections(
        np.array(boxes, np.float32), [3] * n, ["red"] * n, ["regular"] * n, [0.9] * n, [False] * n
    )


def test_a_frozen_picture_is_not_new_and_stalls_after_the_limit() -> None:
    watch, source = StallWatch(), _Live()
    watch.restart(0.0)
    frame = np.zeros((4, 4, 3), np.uint8)
    assert watch.is_new(frame, 0.1, source, stall_s=1.0)
    assert not watch.is_new(frame.copy(), 0.5, source, stall_s=1.0)
    assert not watch.is_new(None, 0.9, source, stall_s=1.0)
    with pytest.raises(Stalled, match="test camera shows the same picture for 1 s"):
        watch.is_new(frame.copy(), 1.2, source, stall_s=1.0)


def test_a_light_judged_while_other_colours_came_into_play_is_not_kept() -> None:
    red = default_palette().in_play_only(["red", "blue"])
    pink = default_palette().in_play_only(["pink", "green"])
    frame = np.full((120, 160, 3), (40, 40, 200), np.uint8)
    dice = _dice([[20, 20, 60, 60], [80, 20, 120, 60]])
    learner = LightLearner()
    learner.learn(frame, dice, lambda: red)
    assert learner.judged()[0] is not None and learner.judged()[1] == 2

    def changing() -> object:
        learner.settings_changed(red, pink)  # the players' colours change during the judging
        return red

    learner.learn(frame, dice, changing)  # type: ignore[arg-type]
    assert learner.judged() == (None, 0)
    config = ReaderConfig(palette=red)
    assert learner.applied(config) is config


def test_the_side_learnt_stands_in_only_where_the_settings_give_none() -> None:
    learner = SideLearner()
    frame = np.zeros((120, 160, 3), np.uint8)
    learner.learn(frame, _dice([[0, 0, 30, 30]]))
    assert learner.side is None  # one die says nothing of a regular die's size
    given = ReaderConfig(regular_side_px=40.0)
    assert learner.applied(given) is given


def test_the_preview_wakes_waiting_pages_and_closing_ends_the_wait() -> None:
    preview = Preview()
    assert preview.wait_jpeg(0, timeout=0.01) == (0, None)
    preview.show(np.zeros((8, 8, 3), np.uint8), Detections.empty())
    frame_id, jpeg = preview.wait_jpeg(0, timeout=1.0)
    assert frame_id == 1 and jpeg is not None and jpeg[:2] == b"\xff\xd8"
    preview.close()
    assert preview.wait_jpeg(1, timeout=5.0) == (1, jpeg)
