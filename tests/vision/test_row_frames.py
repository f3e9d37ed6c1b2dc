"""Locator frames cut from rendered casino rows (`models/row_frames.py`): the boxes fit the dice
as drawn, dice cut by a window's edge or mostly under a note are background, and the output has
the locator's training-frame format and is the same for the same seed."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from models import row_frames
from models.row_frames import SceneBox
from vision.sim_casinos import HARDEST, RowDie, row_scene
from vision.simtable import SimDie


def _die(x: float, y: float, side: float = 30.0, angle: float = 0.0) -> RowDie:
    return RowDie(1, SimDie("red", 1), (x, y), side, angle)


def test_a_die_box_is_its_whole_outline() -> None:
    square = row_frames.die_box(_die(100, 50))
    assert square == pytest.approx((85, 35, 115, 65), abs=0.01)
    turned = row_frames.die_box(_die(100, 50, angle=math.pi / 4))
    width = turned[2] - turned[0]
    # A rounded square turned by 45 degrees: wider than its side, narrower than its diagonal.
    assert 30 < width < 30 * math.sqrt(2)
    assert turned[0] + turned[2] == pytest.approx(200, abs=0.01)


def test_a_die_under_a_note_is_boxed_by_what_shows_or_left_out() -> None:
    dice = (_die(50, 50), _die(150, 50), _die(250, 50))
    covered = np.zeros((100, 300), bool)
    covered[:, 60:] = covered[:, 60:] | (np.arange(300)[60:] < 60)  # nothing over the first
    covered[:, 160:200] = True  # the second's right third under paper
    covered[:, 235:300] = True  # the third's right half and more
    first, second, third = row_frames.scene_boxes(dice, covered)
    assert first.target and first.box == pytest.approx((35, 35, 65, 65), abs=0.01)
    assert second.target and second.box[2] == pytest.approx(160, abs=1)
    assert second.box[0] == pytest.approx(135, abs=1)
    assert not third.target


def test_windows_keep_dice_mostly_inside_and_clip_them() -> None:
    frame = np.zeros((240, 320, 3), np.uint8)  # exactly one window
    boxes = [
        SceneBox((10, 10, 40, 40), True),  # wholly inside
        SceneBox((300, 100, 330, 130), True),  # two thirds inside: kept, clipped
        SceneBox((310, 150, 340, 180), True),  # a third inside: background
        SceneBox((100, 100, 130, 130), False),  # mostly under a note: background
    ]
    windows = row_frames.cut_windows(frame, boxes, 1.0, np.random.default_rng(0))
    assert len(windows) == 1
    window, kept = windows[0]
    assert window.shape == (240, 320, 3)
    np.testing.assert_allclose(kept, [[10, 10, 40, 40], [300, 100, 319, 130]])


def test_a_window_without_targets_is_not_cut() -> None:
    frame = np.zeros((480, 640, 3), np.uint8)
    boxes = [SceneBox((10, 10, 40, 40), True)]
    windows = row_frames.cut_windows(frame, boxes, 1.0, np.random.default_rng(3))
    assert windows and all(len(kept) == 1 for _, kept in windows)


def test_window_starts_cover_the_frame_edge_to_edge() -> None:
    starts = row_frames.window_tops(1000, 320, 100)
    assert starts[0] == 0 and starts[-1] == 1000 - 320
    assert all(0 < b - a <= 240 for a, b in zip(starts, starts[1:], strict=False))
    assert row_frames.window_tops(300, 320, 50) == [0]


def test_the_note_mask_finds_the_paper_the_renderer_lays_over_dice() -> None:
    dice = {3: [SimDie("blue", 3), SimDie("white", 3), SimDie("black", 3)]}
    clean = replace(HARDEST, hidden=1.0, hidden_most=0.3, noise=0.0, light_fall=0.0)
    scene = row_scene(dice, {}, 5, settings=clean)
    covered = row_frames.note_mask(scene.frame)
    # Every die has an edge under paper, and the paper's pixels are found on it.
    for die in scene.dice:
        x0, y0, x1, y1 = (int(v) for v in row_frames.die_box(die))
        assert 0.02 < covered[y0:y1, x0:x1].mean() < 0.6
    boxes = row_frames.scene_boxes(scene.dice, covered)
    assert [b.box for b in boxes] != [row_frames.die_box(d) for d in scene.dice]
    open_scene = row_scene(dice, {}, 5, settings=replace(clean, hidden=0.0))
    uncovered = row_frames.scene_boxes(open_scene.dice, row_frames.note_mask(open_scene.frame))
    assert [b.box for b in uncovered] == [row_frames.die_box(d) for d in open_scene.dice]


@pytest.fixture(scope="module")
def few_scenes() -> dict[str, np.ndarray]:
    return row_frames.frames(3, 11)


def test_frames_have_the_locator_training_format(few_scenes) -> None:
    frames, boxes = few_scenes["frames"], few_scenes["boxes"]
    assert frames.dtype == np.uint8 and frames.shape[1:] == (240, 320, 3) and len(frames) > 3
    assert boxes.dtype == np.float32 and boxes.shape[1] == 5
    assert (boxes[:, 0] >= 0).all() and (boxes[:, 1] >= 0).all()
    assert (boxes[:, 2] <= 319).all() and (boxes[:, 3] <= 239).all()
    assert (boxes[:, 2] > boxes[:, 0]).all() and (boxes[:, 3] > boxes[:, 1]).all()
    # Every frame holds a die, and every box names a frame.
    assert set(boxes[:, 4].astype(int)) == set(range(len(frames)))


def test_boxes_hold_the_dice_of_their_scene(few_scenes) -> None:
    """The frames are the scenes' windows in order, each with its boxes; every target die
    that lies wholly in its row is boxed whole in some window; boxes are as large as dice
    scaled to 14-40 px (a turned Biggy's box up to about 55)."""
    frames, boxes = few_scenes["frames"], few_scenes["boxes"]
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    whole = (boxes[:, 0] > 0) & (boxes[:, 2] < 319) & (boxes[:, 1] > 0) & (boxes[:, 3] < 239)
    assert sides[whole].min() >= 0.8 * row_frames.SIDE_RANGE[0] and sides.max() <= 60
    start = 0
    for i in range(3):
        seed = 11 * 1_000_003 + i
        _frame, scene_boxes, settings = row_frames.rendered_row(seed)
        scale = row_frames.row_scale(settings, np.random.default_rng([seed, 1]))
        shown, window_boxes = row_frames.scene_frames(seed)
        for window, kept in zip(shown, window_boxes, strict=True):
            np.testing.assert_array_equal(window, frames[start])
            np.testing.assert_allclose(boxes[boxes[:, 4] == start, :4], kept)
            start += 1
        sizes = np.concatenate(window_boxes)
        sizes = sizes[:, 2:] - sizes[:, :2]
        targets = [b.box for b in scene_boxes if b.target]
        assert targets
        for x0, y0, x1, y1 in targets:
            size = np.array([x1 - x0, y1 - y0]) * scale
            assert (np.abs(sizes - size) < 1.0).all(1).any(), (x0, y0)
    assert start == len(frames)


def test_the_same_seed_gives_the_same_frames(few_scenes) -> None:
    again = row_frames.frames(3, 11, workers=2)
    np.testing.assert_array_equal(again["frames"], few_scenes["frames"])
    np.testing.assert_array_equal(again["boxes"], few_scenes["boxes"])
    other = row_frames.frames(1, 12)
    assert other["frames"].shape[0] == 0 or not np.array_equal(
        other["frames"][0], few_scenes["frames"][0]
    )


def test_a_cap_on_windows_keeps_that_many_of_a_rows_windows() -> None:
    seed = 11 * 1_000_003
    every, _ = row_frames.scene_frames(seed)
    some, some_boxes = row_frames.scene_frames(seed, most=2)
    assert len(every) > 2 and len(some) == len(some_boxes) == 2
    assert all(any(np.array_equal(w, e) for e in every) for w in some)
