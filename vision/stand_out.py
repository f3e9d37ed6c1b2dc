"""How far each box stands out from the table around it: a die's body differs in colour from
the table it lies on, while a patch of speckled stone, felt or print that the locator boxes is,
in its middle, the colour of the table around it."""

from __future__ import annotations

import numpy as np

MIDDLE = 0.5  # the middle of a box: this share of its width and height about its centre
AROUND = 3.0  # the ring around a box: the box grown to this many times its width and height
SAMPLES = 24  # pixels sampled along each side of a region: enough for its median colour
# A box whose middle differs from the ring around it by no more than this (BGR units) is like
# the table: speckled stone, felt and print differ by 1-4, weak boxes on dice by 6.9 or more.
LIKE_TABLE = 4.0


def contrast_with_table(frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """For each box (n, 4), the distance in BGR units (0-442) between the median colour of its
    middle and that of the ring around it (clipped to the frame), shape (n,). A box with no
    ring inside the frame (it covers the frame) stands out without measure: inf."""
    boxes = np.reshape(np.asarray(boxes, np.float64), (-1, 4))
    if not len(boxes):
        return np.zeros(0, np.float32)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    halves = np.maximum(boxes[:, 2:] - boxes[:, :2], 1.0) / 2
    middle, _ = _sampled(frame_bgr, centres, halves * MIDDLE)
    around, (ys, xs) = _sampled(frame_bgr, centres, halves * AROUND)
    in_box = (
        ((ys >= boxes[:, 1:2]) & (ys <= boxes[:, 3:4]))[:, :, None]
        & ((xs >= boxes[:, 0:1]) & (xs <= boxes[:, 2:3]))[:, None, :]
    ).reshape(len(boxes), -1)
    has_ring = ~in_box.all(1)
    table = _median_of(around, ~in_box)
    body = _median_of(middle, np.ones(middle.shape[:2], bool))
    out = np.sqrt(((body - table) ** 2).sum(1))
    return np.where(has_ring, out, np.inf).astype(np.float32)


def _median_of(colours: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Each row's median colour (n, 3) over its valid samples: colours (n, m, 3), valid (n, m);
    0 for a row with none. (A sort puts the invalid ones, made NaN, last: quicker than
    numpy's nanmedian.)"""
    ordered = np.sort(np.where(valid[:, :, None], colours, np.nan), axis=1)
    count = valid.sum(1)
    lo = np.maximum(count - 1, 0) // 2
    hi = np.maximum(count // 2, lo)
    pick = np.stack([lo, hi], 1)[:, :, None].repeat(3, 2)
    middle = np.take_along_axis(ordered, pick, axis=1).mean(1)
    return np.where(count[:, None] > 0, middle, 0.0).astype(np.float32)


def _sampled(
    frame_bgr: np.ndarray, centres: np.ndarray, halves: np.ndarray
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """SAMPLES x SAMPLES pixels spread evenly over each region of these centres and half sides
    (n, 2), clipped to the frame: colours (n, SAMPLES**2, 3) as float32, and the rows and
    columns sampled, each (n, SAMPLES)."""
    h, w = frame_bgr.shape[:2]
    steps = np.linspace(0.0, 1.0, SAMPLES)
    lo = np.clip(centres - halves, 0, [w - 1, h - 1])
    hi = np.clip(centres + halves, 0, [w - 1, h - 1])
    xs = np.rint(lo[:, :1] + (hi[:, :1] - lo[:, :1]) * steps).astype(np.intp)
    ys = np.rint(lo[:, 1:] + (hi[:, 1:] - lo[:, 1:]) * steps).astype(np.intp)
    pixels = frame_bgr[ys[:, :, None], xs[:, None, :]]
    return pixels.reshape(len(centres), -1, 3).astype(np.float32), (ys, xs)
