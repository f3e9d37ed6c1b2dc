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
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2Lab)
        ring = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
        table = np.median(ring, 0).astype(np.uint8)
        # L1 colour distance from the table, all in OpenCV's C loops (this runs per die).
        diff = cv2.absdiff(lab, np.array([*(float(v) for v in table), 0.0]))
        dist = cv2.transform(diff, np.ones((1, 3), np.float32))
        dist8 = cv2.normalize(dist, np.empty_like(dist), 0, 255, cv2.NORM_MINMAX, cv2.CV_8U)
        _, mask = cv2.threshold(dist8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        k = max(3, int(box_side * 0.15)) | 1
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        cx = int(np.clip((x0 + x1) / 2 - xa, 0, mask.shape[1] - 1))
        cy = int(np.clip((y0 + y1) / 2 - ya, 0, mask.shape[0] - 1))
        if mask[cy, cx]:
            # The die is the patch that holds the box's centre.
            area = cv2.floodFill(mask, None, (cx, cy), 128, flags=8)[0]
        else:
            n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
            if n < 2:
                continue
            area = stats[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA])), cv2.CC_STAT_AREA]
        side = float(np.sqrt(area))
        # A clean mask covers between half the box and the whole of it.
        if 0.5 * box_side <= side <= 1.05 * box_side:
            out[i] = side
    return out


def sizes(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    regular_side: float | None = None,
    trusted: np.ndarray | None = None,
) -> np.ndarray:
    """'big' for dice clearly larger than a regular die, else 'regular', shape (n,).

    Only `trusted` dice (default all) may stand for a regular die: a doubtful box, often not a
    die at all, should not make a real die look big.
    """
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    n = len(boxes)
    ref = np.ones(n, bool) if trusted is None or not np.any(trusted) else np.asarray(trusted)
    if n == 0 or (regular_side is None and ref.sum() < 2):
        return np.full(n, "regular", object)
    box_side = np.sqrt(np.prod(np.maximum(boxes[:, 2:] - boxes[:, :2], 1), 1))
    # Measuring the covered area costs time: do it only for dice whose box could be a Biggy's,
    # and for up to five typical dice that stand for a regular one.
    med = float(np.median(box_side[ref]))
    # A box is never smaller than the covered side; a Biggy's box is some 1.25 times a typical
    # regular die's box, which is itself widened by turning.
    limit = 0.95 * BIG_RATIO * regular_side if regular_side else 1.1 * med
    candidates = np.nonzero(box_side > limit)[0]
    idx = np.nonzero(ref)[0]
    typical = (
        idx[np.argsort(np.abs(box_side[idx] - med))[:5]]
        if len(idx) >= 3
        else idx[[box_side[idx].argmin()]]
    )
    todo = np.union1d(candidates, typical if regular_side is None else [])
    side = np.zeros(n, np.float32)
    side[todo.astype(int)] = die_sides(frame_bgr, boxes[todo.astype(int)])
    if regular_side is None:
        # Most dice in a roll are regular (one Biggy at most per player).
        regular_side = float(np.median(side[typical]))
    return np.where(side > BIG_RATIO * regular_side, "big", "regular").astype(object)
