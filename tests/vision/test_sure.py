"""A die read weakly is kept sure only by the pip readers' vote (`vision/sure.py`)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from models.devdata import Labelled
from vision import sure
from vision.detections import Detections
from vision.onnx_models import PIPS_FILES, model_path, open_session
from vision.reader import ReaderConfig, read_dice


@pytest.fixture(scope="module")
def readers():
    return [open_session(str(model_path(f))) for f in PIPS_FILES]


CLEAR = 0.8


@pytest.fixture(scope="module")
def clear_dice(rendered_scenes):
    """The frame and, of its dice read clearly (sure, with a confidence of 0.8 or more: the
    readers are seldom surer on rendered dice), the boxes and pips (first scene with three such
    dice)."""
    for frame, _truths in rendered_scenes:
        det = read_dice(frame, ReaderConfig(camera_place="bottom"))
        clear = ~det.unsure & (det.confidence >= CLEAR)
        if clear.sum() >= 3:
            return frame, det.boxes[clear], det.pips[clear]
    pytest.fail("no rendered scene has three dice read clearly")


def test_the_vote_backs_a_clear_reading_and_not_another(readers, clear_dice) -> None:
    frame, boxes, pips = clear_dice
    backed = sure.vote_for_pips(readers, frame, boxes, pips, "bottom")
    other = sure.vote_for_pips(readers, frame, boxes, (pips % 6) + 1, "bottom")
    assert backed.shape == (len(boxes),)
    assert (backed >= 0.9).all() and (other < 0.1).all()


def test_only_weak_dice_not_yet_unsure_are_put_to_the_vote(readers, clear_dice) -> None:
    frame, boxes, pips = clear_dice
    wrong = (pips % 6) + 1
    n = len(boxes)

    def doubted(read, confidence, unsure):
        return sure.doubted_by_vote(
            readers, frame, boxes, read, np.full(n, confidence), unsure, 0.6, 0.9, "bottom"
        )

    nobody_unsure = np.zeros(n, bool)
    assert doubted(wrong, 0.55, nobody_unsure).all()  # weak and voted down
    assert not doubted(pips, 0.55, nobody_unsure).any()  # weak but backed by the vote
    assert not doubted(wrong, 0.6, nobody_unsure).any()  # sure enough alone: no vote
    assert not doubted(wrong, 0.55, ~nobody_unsure).any()  # already unsure
    no_dice = sure.doubted_by_vote(
        readers, frame, boxes[:0], pips[:0], np.zeros(0), np.zeros(0, bool), 0.6, 0.9, None
    )
    assert no_dice.shape == (0,)


def test_the_reader_flags_weak_dice_the_vote_doubts(rendered_scenes) -> None:
    """No vote (sure_alone at sure_reading) gives the bar alone; a vote no die can win flags
    every die under sure_alone, and no other."""
    cfg = ReaderConfig(camera_place="bottom")
    newly_flagged = 0
    for frame, _truths in rendered_scenes[:6]:
        no_vote = read_dice(frame, replace(cfg, sure_alone=cfg.sure_reading))
        bar = no_vote.confidence < cfg.sure_reading
        assert (no_vote.unsure | bar).tolist() == no_vote.unsure.tolist()
        impossible = read_dice(frame, replace(cfg, sure_alone=0.8, sure_vote=1.01))
        assert impossible.unsure.tolist() == (no_vote.unsure | (no_vote.confidence < 0.8)).tolist()
        newly_flagged += int((impossible.unsure & ~no_vote.unsure).sum())
    assert newly_flagged > 0  # the scenes hold dice read between the bar and 0.8


def test_the_benchmark_writes_the_dice_read_for_sure_but_wrong(tmp_path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import vision_sets

    photo = Labelled(
        Path("roll.jpg"),
        np.array([[30.0, 30.0], [130.0, 30.0], [230.0, 30.0]]),
        np.array([4, 2, 6]),
        die_boxes=np.array([[10, 10, 50, 50], [110, 10, 150, 50], [210, 10, 250, 50]], float),
    )
    read = Detections(
        np.array([[12, 12, 48, 48], [112, 12, 148, 48], [212, 12, 248, 48]], np.float32),
        np.array([4, 3, 5]),  # right; wrong and sure; wrong but flagged
        np.full(3, "white", object),
        np.full(3, "regular", object),
        np.array([0.9, 0.8, 0.4], np.float32),
        np.array([False, False, True]),
    )
    frame = np.full((60, 260, 3), 200, np.uint8)
    assert vision_sets.write_sure_wrong(tmp_path, photo, frame, read) == 1
    (written,) = tmp_path.iterdir()
    assert written.name == "roll_1_read3_true2_conf0.80.png"


def test_with_colours_in_play_a_die_named_a_colour_no_one_plays_counts_in_doubt(monkeypatch):
    # A photo of a red and an orange die, named with the colours labelled there in play: the
    # orange die named grey (no one plays grey) is flagged at the table, not applied unseen.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import vision_sets

    photo = Labelled(
        Path("roll.jpg"),
        np.array([[30.0, 30.0], [130.0, 30.0]]),
        np.array([4, 2]),
        colours=("red", "orange"),
        die_boxes=np.array([[10, 10, 50, 50], [110, 10, 150, 50]], float),
    )
    palettes = []

    def read(frame, cfg):
        palettes.append(cfg.palette.in_play)
        return Detections(
            np.array([[12, 12, 48, 48], [112, 12, 148, 48]], np.float32),
            np.array([4, 2]),
            np.array(["red", "grey"], object),
            np.full(2, "regular", object),
            np.full(2, 0.9, np.float32),
            np.zeros(2, bool),
        )

    monkeypatch.setattr(vision_sets.cv2, "imread", lambda path: np.zeros((64, 256, 3), np.uint8))
    monkeypatch.setattr(vision_sets, "read_dice", read)
    summary = vision_sets.score_photos([photo], ReaderConfig(), in_play=True)
    assert palettes == [("orange", "red")]
    assert (summary["colour_pct"], summary["colour_sure_wrong_pct"]) == (50.0, 0.0)
    summary = vision_sets.score_photos([photo], ReaderConfig())
    assert palettes[-1] == () and summary["colour_sure_wrong_pct"] == 50.0
