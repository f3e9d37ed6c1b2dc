"""A frame shrunk for the locator's look: halved first where that is quicker, read alike."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import locate
from vision.reader import read_dice
from vision.simtable import SimDie, SimulatedTable

COLOURS = ("red", "blue", "green", "yellow", "purple", "black")


def _camera_frame(width: int, height: int, dice: int = 12) -> np.ndarray:
    table = SimulatedTable(seed=4, width=width, height=height, die_side=50.0 * height / 480)
    table.open()
    table.lay([SimDie(COLOURS[k % len(COLOURS)], 1 + k % 6) for k in range(dice)])
    return table.read()


def _direct(frame: np.ndarray, width: int, height: int) -> np.ndarray:
    return cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize(
    "shape, size",
    [
        ((480, 640), (384, 288)),  # less than twice as large: one step, as before
        ((480, 640), (160, 120)),  # four times: OpenCV's quick path already
        ((721, 1281), (384, 216)),  # odd sides cannot be halved evenly
    ],
)
def test_a_frame_that_needs_no_halving_is_shrunk_as_opencv_shrinks_it(shape, size) -> None:
    frame = np.random.default_rng(1).integers(0, 256, (*shape, 3), dtype=np.uint8)
    assert np.array_equal(locate.area_shrunk(frame, *size), _direct(frame, *size))


@pytest.mark.parametrize("size", [(384, 216), (468, 263), (96, 54)])
def test_a_camera_frame_halved_first_differs_from_one_step_by_a_level_at_most_on_average(
    size,
) -> None:
    frame = _camera_frame(1280, 720)
    shrunk, direct = locate.area_shrunk(frame, *size), _direct(frame, *size)
    assert shrunk.shape == direct.shape == (size[1], size[0], 3)
    diff = np.abs(shrunk.astype(np.int16) - direct)
    assert diff.mean() < 1.0
    assert (diff > 2).mean() < 0.06  # only pixels at sharp edges move more
    plain = np.full((720, 1280, 3), (40, 90, 30), np.uint8)  # a plain table: no edge at all
    assert np.array_equal(locate.area_shrunk(plain, *size), _direct(plain, *size))


def test_the_reader_reads_a_camera_frame_alike_halved_first_or_not(monkeypatch) -> None:
    frame = _camera_frame(1280, 720)
    halved = read_dice(frame)
    monkeypatch.setattr(locate, "area_shrunk", _direct)
    direct = read_dice(frame)
    assert len(halved) == len(direct) == 12
    # Each die of one reading is the die whose box centre lies nearest in the other.
    gaps = np.linalg.norm(halved.centres[:, None] - direct.centres[None], axis=2)
    same = gaps.argmin(1)
    assert sorted(same) == list(range(12)) and gaps.min(1).max() < 3.0
    assert np.array_equal(halved.pips, direct.pips[same])
    assert np.array_equal(halved.colour, direct.colour[same])
    assert not halved.unsure.any() and not direct.unsure.any()
