"""Mirror and transpose locator training frames together with their boxes.

A camera can stand at any edge of the table or straight above it, so a frame may show the dice
in any of the eight ways a rectangle maps onto itself or its transpose. These helpers need only
NumPy, so they are tested without the training extra.
"""

from __future__ import annotations

import numpy as np


def mirrored(
    frame: np.ndarray, boxes: np.ndarray, left_right: bool, top_bottom: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The frame (h, w, 3) mirrored as asked, and its boxes (n, 4+) x0 y0 x1 y1 moved along;
    columns after the fourth are kept as they are."""
    h, w = frame.shape[:2]
    boxes = boxes.copy()
    if left_right:
        frame = frame[:, ::-1]
        boxes[:, [0, 2]] = w - boxes[:, [2, 0]]
    if top_bottom:
        frame = frame[::-1]
        boxes[:, [1, 3]] = h - boxes[:, [3, 1]]
    return frame, boxes


def transposed(frames: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A batch of frames (n, h, w, 3) as (n, w, h, 3), rows and columns swapped, with its
    boxes (m, 4+) x0 y0 x1 y1 swapped to match."""
    order = [1, 0, 3, 2, *range(4, boxes.shape[1])]
    return frames.transpose(0, 2, 1, 3), boxes[:, order]
