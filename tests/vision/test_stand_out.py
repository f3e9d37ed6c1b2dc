"""Boxes on table the reader leaves unread: a faint box the colour of the table around it, or a
weak long strip; and a speckled table whose dice are all read."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import reader
from vision.reader import ReaderConfig, read_dice
from vision.stand_out import contrast_with_table

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from pi_speed import frame_with_dice, speckled  # noqa: E402

TEAL = (120, 100, 60)


def _table(h: int = 240, w: int = 320, flecks: int = 0, seed: int = 0) -> np.ndarray:
    """A plain teal table, dotted with `flecks` small flecks of random colours."""
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = TEAL
    rng = np.random.default_rng(seed)
    for _ in range(flecks):
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        cv2.circle(frame, centre, int(rng.integers(1, 3)), colour, -1)
    return frame


@pytest.mark.parametrize(
    ("body", "at_least", "at_most"),
    [
        ((40, 40, 200), 100, 442),  # a red die on teal: far from the table
        ((200, 200, 200), 100, 442),  # a white die
        ((125, 104, 62), 0, 8),  # a die near the table's own colour: hardly stands out
        (TEAL, 0, 0),  # no die at all: the box's middle is the table
    ],
)
def test_contrast_is_the_middle_against_the_table_around(body, at_least, at_most) -> None:
    frame = _table()
    frame[100:140, 140:180] = body
    contrast = contrast_with_table(frame, np.array([[140, 100, 180, 140]], np.float32))
    assert at_least <= contrast[0] <= at_most


def test_speckled_table_is_like_the_table_and_a_die_on_it_is_not() -> None:
    frame = _table(flecks=800)
    frame[100:140, 140:180] = (40, 40, 200)
    boxes = np.array(
        [
            [140, 100, 180, 140],  # the die
            [20, 20, 70, 70],  # speckled table
            [220, 120, 290, 190],  # speckled table, larger
        ],
        np.float32,
    )
    contrast = contrast_with_table(frame, boxes)
    assert contrast[0] > 100
    assert (contrast[1:] <= reader.LIKE_TABLE).all()


def test_a_box_over_the_whole_frame_stands_out_without_measure() -> None:
    frame = _table()
    contrast = contrast_with_table(frame, np.array([[0, 0, 319, 239]], np.float32))
    assert contrast[0] == np.inf
    assert contrast_with_table(frame, np.zeros((0, 4), np.float32)).shape == (0,)


def test_strips_are_boxes_longer_than_long_box_times_their_width() -> None:
    boxes = np.array(
        [
            [0, 0, 50, 50],  # square
            [0, 0, 100, 50],  # two dice side by side: 2 to 1
            [0, 0, 130, 50],  # 2.6 to 1
            [0, 0, 20, 90],  # a sliver at an edge
        ],
        np.float32,
    )
    assert reader._strips(boxes).tolist() == [False, False, True, True]


@pytest.mark.parametrize("size", [(640, 480), (1280, 720)])
def test_speckled_table_reads_every_die_of_the_plain_table(size) -> None:
    width, height = size
    plain = read_dice(frame_with_dice(12, 0, width, height), ReaderConfig())
    dice = read_dice(speckled(width, height), ReaderConfig())
    # Every die of the plain table is found on the speckled one, with the same pips.
    for box, pip in zip(plain.boxes, plain.pips, strict=True):
        centre = (box[:2] + box[2:]) / 2
        inside = np.all((dice.boxes[:, :2] <= centre) & (centre <= dice.boxes[:, 2:]), axis=1)
        assert inside.any()
        assert pip in dice.pips[inside]


def test_weak_boxes_like_the_table_are_not_read(monkeypatch) -> None:
    frame = speckled(640, 480)
    read = []
    original = reader.pips.read_pips

    def counting(sessions, frame_bgr, boxes, *args, **kw):
        read.append(len(boxes))
        return original(sessions, frame_bgr, boxes, *args, **kw)

    monkeypatch.setattr(reader.pips, "read_pips", counting)
    read_dice(frame, ReaderConfig(look_closer=False, look_for_large_dice=False))
    few = sum(read)  # the boxes read, over the look's reads (the surest boxes are read first)
    monkeypatch.setattr(reader, "LIKE_TABLE", -1.0)
    monkeypatch.setattr(reader, "LONG_BOX", 1e9)
    read.clear()
    read_dice(frame, ReaderConfig(look_closer=False, look_for_large_dice=False))
    assert few < sum(read)
