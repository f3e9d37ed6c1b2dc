"""Colour left unread on a casino: patches of a die colour in play that no die read explains.

A die the reader does not find at all (half under a note's edge, or pressed against dice of its
colour) still shows patches of its colour on the card. Each casino's zone is sorted pixel by
pixel into the colours of the dice read for sure on the row (measured on this frame, so under
its light) and the card's own colour. A pixel of a die colour counts as explained where it lies
in the box of a die read in that colour, or, for the pip colour white, in any die's box (the
pips of a coloured die). A patch of unexplained colour as large as a fair share of a die is a
die not read for sure: a person looks, rather than the check claiming a die missing.

Only colours of dice read for sure on the row are looked for, and never grey: a note's paper and
a white die's shadow lie near grey, and Royale's grey dice are blank, without the pips that tell
a die from paper.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.colour import bodies_of
from vision.detections import Detections

LIGHTNESS_WEIGHT = 0.6
"""Lightness counts this much against the colour's two other axes (8-bit Lab): the light falls
off across a row, a die's hue holds."""
COLOUR_REACH = 15.0
"""A pixel is a die colour within this distance (weighted 8-bit Lab) of that colour as measured
on the row's dice, and nearer it than to any other colour looked for and the card."""
PATCH_SHARE = 0.07
"""A patch left unexplained is a die not read for sure from this share of a regular die's area
(closed over its pips, then opened a fifth of a die's side wide). On rendered hardest rows (90
frames, measured before the closing) the dice
the reader missed left patches of 0.04-0.5 of a die; each patch from this share on lay on a die
not counted in its colour (two of them white, on a missed coloured die). On
easy rows (44 frames) no patch was left at all."""
BOX_GROWTH = 0.0
"""A box read explains its colour this share of its side beyond it. None: a die's own edge
pixels outside its box are a rim thinner than the opening (a fifth of a die's side) takes
away, while a die pressed between two dice of its colour, half under a note, may show no more
than a strip beside their boxes (grown by a tenth of their side, such strips covered 0.064
of a die and went unseen; on seeds 0 and 1 of the hardest rows a false alarm)."""
JOIN_SHARE = 0.35
"""Patches of one colour this share of a die's side apart are one (a die split by its pips or a
note's edge)."""
WORKING_SIDE = 15.0
"""The zone is looked at shrunk so that a regular die is about this many pixels wide."""
PIP_COLOURS = ("white",)
"""Colours that any die's box explains: its pips may show them."""
NEVER_LOOKED_FOR = ("grey",)
"""Colours never looked for: grey lies near a note's paper and a white die's shadow."""
CARD_SAMPLE = 4
"""The card's colour is the median of every this many of its pixels."""
MARKER_GROWTH = 1.3
"""A printed marker, grown this much about its centre, is no die colour."""


def row_colours(
    frame: np.ndarray, det: Detections, in_play: Sequence[str] = ()
) -> dict[str, np.ndarray]:
    """Each colour read for sure on the row (in play, where `in_play` names any; never grey),
    as the weighted Lab (3,) of the median body colour of its dice on this frame."""
    keep = ~det.unsure & ~np.isin(det.colour, NEVER_LOOKED_FOR)
    if in_play:
        keep &= np.isin(det.colour, list(in_play))
    if not keep.any():
        return {}
    bodies = bodies_of(frame, det.select(keep))
    names = det.colour[keep]
    order = sorted({str(name) for name in names})
    labs = weighted_lab(np.array([np.median(bodies[names == name], axis=0) for name in order]))
    return dict(zip(order, labs, strict=True))


def weighted_lab(bgr: np.ndarray) -> np.ndarray:
    """8-bit Lab (n, 3) of BGR values (n, 3), lightness weighted by LIGHTNESS_WEIGHT."""
    pixels = np.clip(np.asarray(bgr, np.float32), 0, 255).astype(np.uint8).reshape(-1, 1, 3)
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    lab[:, 0] *= LIGHTNESS_WEIGHT
    return lab


def colour_left(
    frame: np.ndarray,
    polygon: np.ndarray,
    det: Detections,
    colours: Mapping[str, np.ndarray],
    regular_side: float,
    markers: Sequence[np.ndarray] = (),
) -> list[tuple[str, tuple[float, float, float, float], float]]:
    """The patches of die colour in a zone (polygon (k, 2), frame pixels) that the dice read
    (`det`, anywhere on the row) do not explain: (colour, box in frame pixels, area in shares
    of a regular die's area), for each patch of at least PATCH_SHARE. `colours` are the row's
    (`row_colours`); printed `markers` (quads (4, 2)) are left out."""
    if not colours or regular_side <= 0:
        return []
    h, w = frame.shape[:2]
    lo = np.clip(np.floor(polygon.min(0)), 0, [w, h]).astype(int)
    hi = np.clip(np.ceil(polygon.max(0)), 0, [w, h]).astype(int)
    step = max(1, round(regular_side / WORKING_SIDE))
    part = frame[lo[1] : hi[1] : step, lo[0] : hi[0] : step]
    if part.shape[0] < 2 or part.shape[1] < 2:
        return []
    side = regular_side / step
    least = PATCH_SHARE * side**2
    zone = _zone_mask(part.shape[:2], polygon, markers, lo, step)
    boxes = [
        (_box_slice(box, lo, step), str(name))
        for box, name in zip(det.boxes, det.colour, strict=True)
        if box[0] < hi[0] and box[2] > lo[0] and box[1] < hi[1] and box[3] > lo[1]
    ]
    outside_dice = zone.copy()
    for (rows, cols), _ in boxes:
        outside_dice[rows, cols] = 0
    names = list(colours)
    lab = weighted_lab(part.reshape(-1, 3))
    centres = [colours[name] for name in names]
    if outside_dice.any():  # the card's own colour, where no die lies
        centres.append(np.median(lab[outside_dice.reshape(-1) > 0][::CARD_SAMPLE], axis=0))
    points = np.array(centres, np.float32)
    # Squared distances of every pixel to every colour, (n, k), as |x|^2 - 2 x.c + |c|^2.
    dist = (lab * lab).sum(1)[:, None] - 2 * lab @ points.T + (points * points).sum(1)[None]
    nearest = dist.argmin(1)
    nearest[dist[np.arange(len(dist)), nearest] > COLOUR_REACH**2] = -1
    nearest = np.where(zone.reshape(-1) > 0, nearest, -1).reshape(part.shape[:2])
    k = max(3, int(0.2 * side)) | 1
    kernel = np.ones((k, k), np.uint8)
    j = max(3, int(JOIN_SHARE * side)) | 1
    join = np.ones((j, j), np.uint8)
    found = []
    for index, name in enumerate(names):
        mask = (nearest == index).astype(np.uint8)
        if mask.sum() < least:
            continue
        explained = np.zeros_like(mask)
        for (rows, cols), read in boxes:
            if read == name or name in PIP_COLOURS:
                explained[rows, cols] = 1
        # A die's pips are part of it: closed over them, its patch is not riddled away by the
        # opening (a die half under a note, showing its pips, kept too little to count).
        mask = cv2.morphologyEx(mask * (1 - explained), cv2.MORPH_CLOSE, kernel) * (1 - explained)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
        if mask.sum() < least:
            continue
        # Pieces of one die (split by its pips or a note's edge) are taken together.
        joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, join)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
        areas = np.bincount(labels[mask > 0], minlength=count)
        for label in range(1, count):
            share = float(areas[label]) / side**2
            if share < PATCH_SHARE:
                continue
            x, y, bw, bh = (int(v) for v in stats[label, :4])
            box = (
                float(lo[0] + x * step),
                float(lo[1] + y * step),
                float(lo[0] + (x + bw) * step),
                float(lo[1] + (y + bh) * step),
            )
            found.append((name, box, share))
    return found


def _zone_mask(
    shape: tuple[int, int],
    polygon: np.ndarray,
    markers: Sequence[np.ndarray],
    origin: np.ndarray,
    step: int,
) -> np.ndarray:
    """1 inside the zone, 0 outside it and on the printed markers, at the shrunk scale."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round((polygon - origin) / step).astype(np.int32)], 1)
    far = origin + np.array(shape[::-1]) * step
    for quad in markers:
        quad = np.asarray(quad, np.float32)
        if (quad.max(0) < origin).any() or (quad.min(0) > far).any():
            continue
        grown = quad.mean(0) + (quad - quad.mean(0)) * MARKER_GROWTH
        cv2.fillPoly(mask, [np.round((grown - origin) / step).astype(np.int32)], 0)
    return mask


def _box_slice(box: np.ndarray, origin: np.ndarray, step: int) -> tuple[slice, slice]:
    """The rows and columns of a die's box, grown by BOX_GROWTH, at the shrunk scale."""
    x0, y0, x1, y1 = (float(v) for v in box)
    grow = BOX_GROWTH * max(x1 - x0, y1 - y0)
    c0 = max(int((x0 - grow - origin[0]) / step), 0)
    r0 = max(int((y0 - grow - origin[1]) / step), 0)
    c1 = max(math.ceil((x1 + grow - origin[0]) / step), 0)
    r1 = max(math.ceil((y1 + grow - origin[1]) / step), 0)
    return slice(r0, r1), slice(c0, c1)
