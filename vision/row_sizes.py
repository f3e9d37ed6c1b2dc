"""The sizes of the dice lying on the casino row: the side each die covers within its box, the
side of a regular die on the row, and each die judged regular or big (a Biggy) from them.

Dice on the cards lie close together, so a die's size is measured inside its own box, where a
touching neighbour adds at most a corner, and judged against the dice of the same row.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import size as size_mod
from vision.detections import Detections

LEAST_CONTRAST = 12.0
"""A die whose middle lies nearer the card's colour than this (L1 in Lab) cannot be measured."""
PLAUSIBLE = (0.6, 1.05)
"""A die's covered side lies within these shares of its box's side (0.71 turned 45 degrees)."""
SURE_BIG = 1.37
"""A die judged big (size.BIG_RATIO) whose covered side is less than this times a regular die's
is not read for sure. On rendered hardest rows (16 frames, 873 dice) regular dice pressed
against a die of their colour, or under a note's edge, covered up to 1.36 of the regular side
(6 judged big), Biggies 1.31-1.59 (6 under 1.37)."""


def covered_sides(frame: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Square root of the area each die covers within its own box, px, shape (n,); NaN where
    the die cannot be told from the card it lies on.

    Dice on a card lie close: measured beyond its box (as `vision.size.die_sides` does, for
    dice apart in the arena) a die turned 45 degrees takes in the neighbour it touches and
    looks as large as a Biggy. Within its box a touching neighbour adds at most a corner. A
    pixel is die where its colour lies at least half as far from the card's (the median of a
    ring around the box) as the middle of the box does: pips and body alike, whatever their
    contrast with each other.
    """
    h, w = frame.shape[:2]
    out = np.full(len(boxes), np.nan, np.float32)
    for i, (x0, y0, x1, y1) in enumerate(np.asarray(boxes, np.float32)):
        xa, ya, xb, yb = int(max(x0, 0)), int(max(y0, 0)), int(min(x1, w)), int(min(y1, h))
        if xb - xa < 6 or yb - ya < 6:
            continue
        pad = int(0.2 * max(xb - xa, yb - ya))
        ring_box = frame[max(ya - pad, 0) : min(yb + pad, h), max(xa - pad, 0) : min(xb + pad, w)]
        ring = np.concatenate([ring_box[0], ring_box[-1], ring_box[:, 0], ring_box[:, -1]])
        lab = cv2.cvtColor(frame[ya:yb, xa:xb], cv2.COLOR_BGR2Lab)
        table = cv2.cvtColor(np.median(ring, 0).astype(np.uint8)[None, None], cv2.COLOR_BGR2Lab)
        diff = cv2.absdiff(lab, np.array([*(float(v) for v in table[0, 0]), 0.0]))
        dist = cv2.transform(diff, np.ones((1, 3), np.float32))
        bh, bw = dist.shape
        middle = float(np.median(dist[bh // 4 : bh - bh // 4, bw // 4 : bw - bw // 4]))
        if middle < LEAST_CONTRAST:
            continue
        box_side = float(np.sqrt(bw * bh))
        k = max(3, int(box_side * 0.15)) | 1
        die = cv2.morphologyEx(
            (dist > 0.5 * middle).astype(np.uint8) * 255, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)
        )
        count, labels, stats, _ = cv2.connectedComponentsWithStats(die)
        if count < 2:
            continue
        at_centre = labels[bh // 2, bw // 2]
        part = at_centre if at_centre else 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        side = float(np.sqrt(stats[part, cv2.CC_STAT_AREA]))
        # A die covers between half its box (turned 45 degrees) and all of it.
        if PLAUSIBLE[0] * box_side <= side <= PLAUSIBLE[1] * box_side:
            out[i] = side
    return out


def row_sizes(
    frame: np.ndarray, det: Detections, regular_side: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """'big' or 'regular' for each die of the row (n,), and whether its size could be judged
    (n,): big when the side it covers is size.BIG_RATIO times a regular die's, which is the
    given one, else the median of the dice read for sure (most dice are regular: one Biggy a
    player). A die whose covered area cannot be measured, or all dice where fewer than two
    can stand for a regular die, cannot be judged; nor a die that covers more than a regular
    die but less than SURE_BIG times its side (a Biggy, or a die whose box took in a corner
    of a touching neighbour or a note's edge)."""
    sides = covered_sides(frame, det.boxes)
    return judged_sizes(sides, regular_side or row_regular_side(sides, det))


def row_regular_side(sides: np.ndarray, det: Detections) -> float | None:
    """The side a regular die covers on the row: the median of the dice read for sure whose
    covered side was measured (None where fewer than two were)."""
    typical = ~np.isnan(sides) & ~det.unsure
    return float(np.median(sides[typical])) if typical.sum() >= 2 else None


def judged_sizes(sides: np.ndarray, regular_side: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Sizes and whether each was judged (see `row_sizes`), from the covered sides."""
    if regular_side is None:
        return np.full(len(sides), "regular", object), np.zeros(len(sides), bool)
    measured = ~np.isnan(sides)
    big = np.where(measured, sides, 0) > size_mod.BIG_RATIO * regular_side
    between = big & (sides < SURE_BIG * regular_side)
    return np.where(big, "big", "regular").astype(object), measured & ~between
