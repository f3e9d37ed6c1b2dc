"""The whole-die sets' photos cut into locator training windows."""

from __future__ import annotations

import numpy as np

from models.whole_die_sets import FRAME_SHAPE, _windows


def test_a_square_photo_at_a_wider_scale_gives_four_windows_holding_every_die() -> None:
    photo = np.zeros((640, 640, 3), np.uint8)
    dice = np.array([[20, 20, 60, 60], [580, 580, 630, 630], [300, 300, 340, 340]], np.float32)
    windows = _windows(photo, dice, width=384)
    assert len(windows) == 4
    assert all(frame.shape[:2] == FRAME_SHAPE for frame, _ in windows)
    kept = sum(len(boxes) for _, boxes in windows)
    assert kept >= len(dice)  # a die near the middle lies in more than one window
    scale = 384 / 640
    corner = windows[-1][1]  # the bottom right window holds the bottom right die
    assert any(np.allclose(box, dice[1] * scale - [64, 144, 64, 144]) for box in corner)


def test_at_the_frame_width_a_square_photo_gives_two_windows_and_cut_dice_are_left_out() -> None:
    photo = np.zeros((640, 640, 3), np.uint8)
    # A die across the line where the top window ends: mostly below it.
    dice = np.array([[100, 450, 160, 530]], np.float32)
    top, bottom = _windows(photo, dice)
    assert len(top[1]) == 0 and len(bottom[1]) == 1
    assert (bottom[1] >= 0).all() and (bottom[1][:, 2] <= FRAME_SHAPE[1]).all()
