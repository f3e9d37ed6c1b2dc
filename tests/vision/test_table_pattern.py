"""A die read weakly whose middle looks like the table around it is the table's own pattern."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from vision.reader import ReaderConfig, _table_pattern, read_dice

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from pi_speed import speckled  # noqa: E402


def test_a_weak_box_over_the_tables_own_pattern_is_the_table() -> None:
    rng = np.random.default_rng(0)
    frame = rng.integers(100, 140, (200, 200, 3)).astype(np.uint8)
    frame[120:170, 120:170] = (30, 30, 200)  # a red square: a die standing out
    boxes = np.array([[40, 40, 90, 90], [120, 120, 170, 170]], np.float32)
    assert _table_pattern(frame, boxes, np.array([True, True])).tolist() == [True, False]


def test_a_box_read_for_sure_is_never_taken_for_the_table() -> None:
    frame = np.full((200, 200, 3), 120, np.uint8)
    boxes = np.array([[40, 40, 90, 90]], np.float32)
    assert not _table_pattern(frame, boxes, np.array([False])).any()
    assert _table_pattern(frame, boxes, np.array([True])).all()


def test_a_speckled_table_top_adds_no_dice_to_a_roll() -> None:
    dice = read_dice(speckled(640, 480), ReaderConfig(threads=1))
    # The twelve dice laid are read for sure, and no patch of flecks is reported as a die
    # (at most one box is left over, a patch that stands out a little more than the rest).
    assert int((~dice.unsure).sum()) == 12
    assert len(dice.boxes) <= 13


def test_the_rim_of_a_speckled_table_cut_by_the_frame_is_no_die_seen_but_not_read() -> None:
    # At 1280x720 the locator is sure of a thin strip along the frame's bottom edge (the
    # table's rim, cut by the frame), which a pip reader calls a die cut off: a strip that
    # thin shows too little of a die to hold up the roll.
    dice = read_dice(speckled(1280, 720), ReaderConfig(threads=1))
    assert int((~dice.unsure).sum()) == 12
    assert len(dice.boxes) == 12
