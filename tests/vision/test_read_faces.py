"""The reader's verdict on a look's boxes and the camera's place it reads them from: the surest
boxes are read first, a dozen at a time, and tell whether the place must be searched for; the
reading is the same as reading every box at once from the place settled on."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import locate, pips, reader
from vision.onnx_models import LOCATOR_FILE, model_path, open_session
from vision.reader import ReaderConfig, read_dice

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from pi_speed import frame_with_dice, speckled  # noqa: E402


def _located(frame: np.ndarray, cfg: ReaderConfig) -> tuple[np.ndarray, np.ndarray]:
    loc = open_session(str(model_path(LOCATOR_FILE)), 1)
    boxes, scores, _side = locate.locate_sized(loc, frame, cfg.locator_threshold)
    return boxes, scores


@pytest.mark.parametrize(
    ("frame", "likely"),
    [
        (speckled(1280, 720), None),  # a camera's first frame: its place is searched for
        (speckled(1280, 720), "top"),  # the frames after it
        (frame_with_dice(12, 0, 640, 480), None),
        # 58 dice: their sure boxes are read a dozen at a time, until one is in doubt
        (frame_with_dice(58, 1, 1280, 720, 51.0), None),
        (frame_with_dice(58, 1, 1280, 720, 51.0), "top"),
    ],
)
def test_the_reading_is_every_box_read_at_once_from_the_place_settled_on(frame, likely) -> None:
    cfg = replace(ReaderConfig(threads=1), likely_place=likely)
    boxes, scores = _located(frame, cfg)
    readers = reader.pip_readers(cfg)
    printed = np.zeros(len(boxes), bool)
    place, reading = reader._read_faces(readers, frame, boxes, scores, cfg, printed)
    at_once = pips.read_pips(readers, frame, boxes, cfg.min_pip_prob, cfg.mirror_pips, place)
    for ours, theirs in zip(reading, at_once, strict=True):
        np.testing.assert_array_equal(ours, theirs)


def test_dice_cut_by_the_frames_edge_do_not_send_the_reader_searching_for_the_place(
    monkeypatch,
) -> None:
    """On the speckled table, dice at the bottom edge are cut and read unsure from every place;
    read from the place the frame before was read from, the frame needs no search. (Read with
    the usual locator: the one for speckled frames also boxes flecks on this table's rim, which
    read doubtfully from every place and send each frame searching; see the model card, "A
    speckled frame looked at with a locator that learnt speckled tables".)"""
    usual = ReaderConfig(threads=1, speckled_locator=False)
    frame = speckled(1280, 720)
    boxes, _scores = _located(frame, usual)
    assert not locate.clear_of_edge(boxes, frame.shape).all()  # the frame does cut dice
    searched = []
    original = pips.surest_camera_place

    def searching(*args, **kw):
        searched.append(True)
        return original(*args, **kw)

    monkeypatch.setattr(pips, "surest_camera_place", searching)
    first = read_dice(frame, usual)
    assert searched  # a first frame read from the usual webcam's place doubts some dice
    heard = []
    searched.clear()
    cfg = replace(usual, likely_place="top", place_heard=heard.append)
    again = read_dice(frame, cfg)
    assert not searched and set(heard) == {"top"}
    assert len(again) == len(first) and sorted(again.pips) == sorted(first.pips)


def test_a_tray_in_doubt_from_the_first_place_is_not_read_whole_from_there(monkeypatch) -> None:
    """The sure boxes of a tray are read a dozen at a time from the usual webcam's place until
    one dozen holds a die in doubt from there: the place is searched for at once, and the tray
    is read whole only from the place found."""
    frame = frame_with_dice(58, 3, 1280, 720, 51.0)
    cfg = ReaderConfig(threads=1)
    boxes, scores = _located(frame, cfg)
    read_from: list[tuple[str, int]] = []
    original = pips.read_pips

    def recording(sessions, frame_bgr, chosen, min_prob, mirror, place, known=None):
        read_from.append((place, len(chosen)))
        return original(sessions, frame_bgr, chosen, min_prob, mirror, place, known)

    monkeypatch.setattr(pips, "read_pips", recording)
    readers = reader.pip_readers(cfg)
    place, _reading = reader._read_faces(
        readers, frame, boxes, scores, cfg, np.zeros(len(boxes), bool)
    )
    assert len(boxes) >= 50 and place != "bottom"
    dozens = len(read_from) - 1
    assert 1 <= dozens < len(boxes) // reader.TELLING_AT_ONCE
    assert read_from == [("bottom", reader.TELLING_AT_ONCE)] * dozens + [(place, len(boxes))]
