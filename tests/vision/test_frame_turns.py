"""Locator training frames mirrored and transposed keep their boxes on their dice."""

from __future__ import annotations

import numpy as np
import pytest

from models.frame_turns import mirrored, transposed

H, W = 24, 32
BOXES = np.array([[5, 3, 12, 9, 0], [20, 14, 31, 24, 0]], np.float32)  # x0 y0 x1 y1 frame


def _frame_with_dice() -> np.ndarray:
    """A dark frame with a bright patch exactly under each box."""
    frame = np.zeros((H, W, 3), np.uint8)
    for k, (x0, y0, x1, y1, _) in enumerate(BOXES.astype(int)):
        frame[y0:y1, x0:x1] = 100 + 50 * k
    return frame


def _patch_box(frame: np.ndarray, value: int) -> list[float]:
    """The x0 y0 x1 y1 box (pixel edges) around the pixels of one value."""
    ys, xs = np.nonzero(frame[..., 0] == value)
    return [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]


@pytest.mark.parametrize("left_right", [False, True])  # the training's usual mirror
@pytest.mark.parametrize("top_bottom", [False, True])  # a camera at the far edge, with the above
def test_mirrored_boxes_stay_on_their_patches(left_right, top_bottom) -> None:
    frame, boxes = mirrored(_frame_with_dice(), BOXES, left_right, top_bottom)
    assert frame.shape == (H, W, 3)
    for k in range(len(BOXES)):
        assert boxes[k, :4].tolist() == _patch_box(frame, 100 + 50 * k)
    assert boxes[:, 4].tolist() == [0, 0]


def test_mirroring_leaves_the_given_boxes_alone() -> None:
    before = BOXES.copy()
    mirrored(_frame_with_dice(), BOXES, True, True)
    assert np.array_equal(BOXES, before)


def test_transposed_batch_keeps_boxes_on_their_patches() -> None:
    batch = np.stack([_frame_with_dice(), _frame_with_dice()])
    boxes = np.concatenate([BOXES, BOXES + [0, 0, 0, 0, 1]])
    frames, moved = transposed(batch, boxes)
    assert frames.shape == (2, W, H, 3)
    for row in moved:
        frame = frames[int(row[4])]
        value = 100 + 50 * (0 if row[0] < 10 else 1)
        assert row[:4].tolist() == _patch_box(frame, value)
    assert moved[:, 4].tolist() == [0, 0, 1, 1]
