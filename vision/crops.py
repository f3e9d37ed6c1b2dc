"""Cut square, fixed-size crops around die boxes: the pip reader's input."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

CROP_SIZE = 40
CROP_MARGIN = 1.15
# A box this many times larger than its crop or more (a close-up, or a box over most of a
# 1280x720 frame) is cut from the frame area-averaged down by a whole factor (once a call for
# each factor) before the blur, which is cheaper than a blur as wide as such a box.
SHRINK_FIRST_BELOW = 0.25


def crop_dice(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    size: int = CROP_SIZE,
    margin: float = CROP_MARGIN,
    down: np.ndarray | None = None,
) -> np.ndarray:
    """Crops of shape (n, 3, size, size), float32 BGR in [0, 255], one square per box.

    `down` (n, 2) holds, per box, the unit vector of the frame that becomes the crop's down
    (the crop is turned about the box's centre); without it the crops keep the frame's down.
    """
    return crop_dice_views(frame_bgr, boxes, [down], size, margin)[0]


def crop_dice_views(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    downs: Sequence[np.ndarray | None],
    size: int = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> list[np.ndarray]:
    """The crops of `crop_dice` for each of `downs` (one view each), the same boxes in all: a
    box's region is cut and blurred once for all the views."""
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    out = [np.zeros((len(boxes), size, size, 3), np.float32) for _ in downs]
    shrunk: dict[int, np.ndarray] = {}  # the frame area-averaged down by each factor used
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        side = max(x1 - x0, y1 - y0, 2.0) * margin
        scale = size / side
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        src, factor, origin = _region(frame_bgr, shrunk, side, scale, cx, cy)
        for view, down in enumerate(downs):
            dx, dy = (0.0, 1.0) if down is None else (float(down[i][0]), float(down[i][1]))
            mat = _turn_matrix(dx, dy, scale, cx, cy, size)
            if factor > 1:
                # Pixel j of the shrunk frame is the mean of frame pixels j*f .. j*f+f-1.
                mat[:, 2] += mat[:, :2] @ np.full(2, (factor - 1) / 2, np.float32)
                mat[:, :2] *= factor
            if origin is not None:
                mat[:, 2] += mat[:, :2] @ origin
            out[view][i] = cv2.warpAffine(
                src,
                mat,
                (size, size),
                flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
    return [np.ascontiguousarray(crops.transpose(0, 3, 1, 2)) for crops in out]


def _turn_matrix(dx: float, dy: float, scale: float, cx: float, cy: float, size: int) -> np.ndarray:
    """The affine map (2, 3) from frame pixels to a crop of `size` px around (cx, cy), scaled
    by `scale` and turned so that the frame's (dx, dy) becomes the crop's down."""
    # Rows map frame offsets to crop x and y: (dx, dy) to (0, 1), a turn without a mirror.
    turn = np.array([[dy, -dx], [dx, dy]], np.float32) * scale
    offset = np.array([size / 2, size / 2], np.float32) - turn @ np.array([cx, cy], np.float32)
    return np.concatenate([turn, offset[:, None]], 1)


def _region(
    frame_bgr: np.ndarray,
    shrunk: dict[int, np.ndarray],
    side: float,
    scale: float,
    cx: float,
    cy: float,
) -> tuple[np.ndarray, int, np.ndarray | None]:
    """What a box's crop is sampled from: the frame itself where the crop shrinks it little;
    else the box's region, pre-blurred (shrinking a lot with plain bilinear sampling aliases
    pips away), of the frame area-averaged down by a whole factor first where the crop
    shrinks it very much (`shrunk` keeps each factor's frame). With the region, the factor
    and the region's top-left corner in the shrunk frame's pixels (None: the frame itself)."""
    if scale >= 0.5:
        return frame_bgr, 1, None
    src = frame_bgr
    factor = int(SHRINK_FIRST_BELOW / scale) if scale < SHRINK_FIRST_BELOW else 1
    if factor > 1:
        if factor not in shrunk:
            shrunk[factor] = cv2.resize(
                frame_bgr,
                (max(frame_bgr.shape[1] // factor, 1), max(frame_bgr.shape[0] // factor, 1)),
                interpolation=cv2.INTER_AREA,
            )
        src = shrunk[factor]
    centre = (np.array([cx, cy]) - (factor - 1) / 2) / factor  # in src's pixels
    pad = int(side / factor)
    xa, ya = max(int(centre[0] - pad), 0), max(int(centre[1] - pad), 0)
    xb, yb = int(centre[0] + pad) + 1, int(centre[1] + pad) + 1
    k = int(1 / (scale * factor)) | 1
    region = cv2.GaussianBlur(src[ya:yb, xa:xb], (k, k), 0)
    return region, factor, np.array([xa, ya], np.float32)
