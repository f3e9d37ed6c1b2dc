"""A tray looked at again where the first look doubts: windows of the frame around its doubtful
boxes, located again enlarged, and the dice found there merged with the first look's there.

Touching dice of one colour can merge into one box at the first look; an enlarged look finds
them apart. Only where the first look doubts (a die read unsure or weakly, a box it dropped, a
die boxed much larger than the tray's typical die) is that worth its cost: elsewhere the first
look's dice stand, and a tray read plainly is looked at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnxruntime as ort

from vision import locate
from vision.detections import Detections

# A doubtful box's window reaches this many typical die sides beyond it on every side, so
# that the dice it may have merged with, or lost beside it, lie in the window too.
REACH = 1.0
# Where the first look doubts this many boxes or more per die it read, the doubt is all over the
# tray, and the whole frame is looked at again.
WHOLE_FRAME_DOUBT = 1 / 3
# A die boxed this much larger (side) than the typical die may be two dice in one box.
MERGED_SIDE = 1.3
# The locator looks at each window with this many px (at the look's scale) of the frame around
# it (a map cell sees about 70 px on each side, as locate.STRIP_MARGIN), cut at multiples of
# GRID px (its coarsest stride, and the multiple its input's sides must be).
CONTEXT = 80
GRID = 16


def oversized(boxes: np.ndarray, typical_side: float | None) -> np.ndarray:
    """Which boxes (n, 4) are MERGED_SIDE times the typical die's side or more: a bool (n,)."""
    if typical_side is None or not len(boxes):
        return np.zeros(len(boxes), bool)
    return locate.box_sides(boxes) >= MERGED_SIDE * typical_side


def windows(doubtful: np.ndarray, typical_side: float, frame_shape: tuple[int, ...]) -> np.ndarray:
    """Windows (k, 4), int x0 y0 x1 y1 in frame pixels, that cover the doubtful boxes (n, 4)
    grown by REACH typical sides, clipped to the frame; windows that overlap are joined into
    the rectangle around both, so that no two share a pixel."""
    h, w = frame_shape[:2]
    reach = REACH * typical_side
    grown = np.reshape(doubtful, (-1, 4)).astype(np.float64) + [-reach, -reach, reach, reach]
    rects = [
        [max(int(x0), 0), max(int(y0), 0), min(int(np.ceil(x1)), w), min(int(np.ceil(y1)), h)]
        for x0, y0, x1, y1 in grown
    ]
    rects = [r for r in rects if r[2] > r[0] and r[3] > r[1]]
    joined = True
    while joined:
        joined = False
        for i in range(len(rects)):
            for j in range(i + 1, len(rects)):
                a, b = rects[i], rects[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    rects[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del rects[j]
                    joined = True
                    break
            if joined:
                break
    return np.array(rects, np.int64).reshape(-1, 4)


def located_in(
    session: ort.InferenceSession,
    frame_bgr: np.ndarray,
    wins: np.ndarray,
    long_side: int,
    threshold: float,
    not_dice: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (m, 4) in frame pixels, clipped to the frame, and scores (m,) of the dice centred
    in the windows `wins` (k, 4) that a look at the frame shrunk to `long_side` px finds: the
    frame is shrunk whole, and the locator runs on each window's part of it with CONTEXT px
    around it, cut on the locator's grid (GRID px), so that it sees the window as the whole
    look does. `not_dice` marks boxes known to be something else (printed markers): they are
    left out."""
    h, w = frame_bgr.shape[:2]
    tensor, scale = locate.preprocess(frame_bgr, long_side)
    th, tw = tensor.shape[2:]
    found_boxes, found_scores = [np.zeros((0, 4), np.float32)], [np.zeros(0, np.float32)]
    for window in np.asarray(wins, np.float32).reshape(-1, 4):
        x0, y0, x1, y1 = window * scale
        ta, tb = _on_grid(y0 - CONTEXT, y1 + CONTEXT, th)
        la, lb = _on_grid(x0 - CONTEXT, x1 + CONTEXT, tw)
        maps = locate.infer(session, np.ascontiguousarray(tensor[:, :, ta:tb, la:lb]))
        boxes, scores = locate.postprocess(maps, scale, threshold)
        boxes = boxes + np.array([la, ta, la, ta], np.float32) / scale
        inside = locate.centred_in(window, (boxes[:, :2] + boxes[:, 2:]) / 2)[0]
        found_boxes.append(boxes[inside])
        found_scores.append(scores[inside])
    boxes, scores = np.concatenate(found_boxes), np.concatenate(found_scores)
    if not_dice is not None and len(boxes):
        kept = ~not_dice(boxes)
        boxes, scores = boxes[kept], scores[kept]
    boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w - 1)
    boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h - 1)
    return boxes, scores


def _on_grid(lo: float, hi: float, size: int) -> tuple[int, int]:
    """The span [lo, hi) of a look's pixels widened to multiples of GRID, within [0, size)."""
    a = max(int(np.floor(lo / GRID)) * GRID, 0)
    b = min(int(np.ceil(hi / GRID)) * GRID, size)
    return a, max(b, a + GRID)


def merged_in_windows(
    first: Detections,
    later: list[Detections],
    wins: np.ndarray,
    merge: Callable[[list[Detections]], Detections],
) -> Detections:
    """The first look's dice outside the windows (k, 4), joined by `merge` of the looks' dice
    centred in the windows (the first's and each of `later`'s), as the whole looks would be
    merged where they read alike outside the windows; a die so merged that lies on one die
    with a die outside (across a window's edge) is left out."""
    windows_f = np.asarray(wins, np.float32).reshape(-1, 4)

    def inside(look: Detections) -> np.ndarray:
        return np.asarray(locate.centred_in(windows_f, look.centres).any(0))

    outside = first.select(~inside(first))
    here = merge([look.select(inside(look)) for look in [first, *later]])
    return outside.joined(here.select(~locate.on_one_die(here.boxes, outside.boxes)))
