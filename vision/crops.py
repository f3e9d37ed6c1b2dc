"""Cut square, fixed-size crops around die boxes: the pip reader's input."""

from __future__ import annotations

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
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    out = np.zeros((len(boxes), size, size, 3), np.float32)
    shrunk: dict[int, np.ndarray] = {}  # the frame area-averaged down by each factor used
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        side = max(x1 - x0, y1 - y0, 2.0) * margin
        scale = size / side
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = (0.0, 1.0) if down is None else (float(down[i][0]), float(down[i][1]))
        # Rows map frame offsets to crop x and y: (dx, dy) to (0, 1), a turn without a mirror.
        turn = np.array([[dy, -dx], [dx, dy]], np.float32) * scale
        mat = np.concatenate(
            [
                turn,
                (
                    np.array([size / 2, size / 2], np.float32)
                    - turn @ np.array([cx, cy], np.float32)
                )[:, None],
            ],
            1,
        )
        # Shrinking a lot with plain bilinear sampling aliases pips away, so pre-blur.
        src = frame_bgr
        if scale < 0.5:
            factor = int(SHRINK_FIRST_BELOW / scale) if scale < SHRINK_FIRST_BELOW else 1
            if factor > 1:
                if factor not in shrunk:
                    shrunk[factor] = cv2.resize(
                        frame_bgr,
                        (
                            max(frame_bgr.shape[1] // factor, 1),
                            max(frame_bgr.shape[0] // factor, 1),
                        ),
                        interpolation=cv2.INTER_AREA,
                    )
                src = shrunk[factor]
                # Pixel j of the shrunk frame is the mean of frame pixels j*f .. j*f+f-1.
                mat[:, 2] += mat[:, :2] @ np.full(2, (factor - 1) / 2, np.float32)
                mat[:, :2] *= factor
            centre = (np.array([cx, cy]) - (factor - 1) / 2) / factor  # in src's pixels
            pad = int(side / factor)
            xa, ya = max(int(centre[0] - pad), 0), max(int(centre[1] - pad), 0)
            xb, yb = int(centre[0] + pad) + 1, int(centre[1] + pad) + 1
            src = src[ya:yb, xa:xb]
            mat[:, 2] += mat[:, :2] @ np.array([xa, ya], np.float32)
            k = int(1 / (scale * factor)) | 1
            src = cv2.GaussianBlur(src, (k, k), 0)
        out[i] = cv2.warpAffine(
            src,
            mat,
            (size, size),
            flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2))
