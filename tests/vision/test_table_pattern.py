"""A die read weakly whose middle looks like the table around it is the table's own pattern."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reader import ReaderConfig, _table_pattern, read_dice
from vision.simtable import SimDie, SimulatedTable

COLOURS = ("red", "blue", "green", "yellow", "purple", "black")


def _speckled_table(width: int = 640, height: int = 480, dice: int = 12) -> np.ndarray:
    """The simulated table with `dice` dice at rest, its top dotted with small flecks of every
    colour around them (a terrazzo or granite top)."""
    table = SimulatedTable(seed=0, width=width, height=height, die_side=50.0)
    table.open()
    empty = table.read().copy()
    table.lay([SimDie(COLOURS[k % len(COLOURS)], 1 + k % 6) for k in range(dice)])
    frame = table.read().copy()
    top = np.abs(frame.astype(np.int16) - empty).max(axis=2) < 8
    rng = np.random.default_rng(3)
    flecks = frame.copy()
    for _ in range(int(6500 * width * height / 1e6)):
        centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        cv2.circle(flecks, centre, int(rng.integers(1, 4)), colour, -1)
    frame[top] = flecks[top]
    return frame


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
    dice = read_dice(_speckled_table(), ReaderConfig(threads=1))
    # The twelve dice laid are read for sure, and no patch of flecks is reported as a die
    # (at most one box is left over, a patch that stands out a little more than the rest).
    assert int((~dice.unsure).sum()) == 12
    assert len(dice.boxes) <= 13
