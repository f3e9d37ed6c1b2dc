"""Die size: regular or big (the Biggy), from the area each die covers, not its box."""

from __future__ import annotations

import cv2
import numpy as np

BIG_RATIO = 1.25  # a Biggy is about 1.5 times a regular die; measurement noise eats some


def die_sides(frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Square root of the area each die covers, in pixels, shape (n,).

    An axis-aligned box grows by up to 1.41 when a die turns 45 degrees, so it cannot tell a
    turned regular die from a Biggy; the covered area does not change as the die turns.
    """
    h, w = frame_bgr.shape[:2]
    out = np.zeros(len(boxes), np.float32)
    for i, (x0, y0, x1, y1) in enumerate(np.asarray(boxes, np.float32)):
        bw, bh = x1 - x0, y1 - y0
        box_side = float(np.sqrt(max(bw * bh, 1.0)))
        out[i] = box_side
        pad = 0.15 * max(bw, bh)
        xa, ya = int(max(x0 - pad, 0)), int(max(y0 - pad, 0))
        xb, yb = int(min(x1 + pad, w)), int(min(y1 + pad, h))
        crop = frame_bgr[ya:yb, xa:xb]
        if crop.shape[0] < 8 or crop.shape[1] < 8:
            continue
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab).astype(np.float32)
        ring = np.concatenate([lab[:2].reshape(-1, 3), lab[-2:].reshape(-1, 3),
                               lab[:, :2].reshape(-1, 3), lab[:, -2:].reshape(-1, 3)])
        dist = np.linalg.norm(lab - np.median(ring, 0), axis=2)
        dist8 = np.clip(dist * (255.0 / max(dist.max(), 1.0)), 0, 255).astype(np.uint8)
        _, mask = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        k = max(3, int(box_side * 0.15)) | 1
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        if n < 2:
            continue
        cx, cy = (x0 + x1) / 2 - xa, (y0 + y1) / 2 - ya
        lab_id = labels[int(np.clip(cy, 0, labels.shape[0] - 1)),
                        int(np.clip(cx, 0, labels.shape[1] - 1))]
        if lab_id == 0:
            lab_id = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        side = float(np.sqrt(stats[lab_id, cv2.CC_STAT_AREA]))
        # A clean mask covers between half the box and the whole of it.
        if 0.5 * box_side <= side <= 1.05 * box_side:
            out[i] = side
    return out


def sizes(frame_bgr: np.ndarray, boxes: np.ndarray, regular_side: float | None = None
          ) -> np.ndarray:
    """'big' for dice clearly larger than a regular die, else 'regular', shape (n,)."""
    side = die_sides(frame_bgr, boxes)
    if regular_side is None:
        if len(side) < 2:
            return np.full(len(side), "regular", object)
        # Most dice in a roll are regular (one Biggy at most per player): the median is one.
        regular_side = float(np.median(side) if len(side) >= 3 else side.min())
    return np.where(side > BIG_RATIO * regular_side, "big", "regular").astype(object)
