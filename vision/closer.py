"""A closer look at doubtful boxes: locate again in a small window around each one, with the die
enlarged to well inside the locator's sizes, and take the new box only if its face is read for
sure."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from vision import locate, pips

WINDOW = 1.0  # half the window's side, in sides of the doubtful box
MIN_LOCATOR_SCORE = 0.3  # a weaker box is more often felt or a shadow than a die: no closer look
# The window (two box sides, fewer at the frame edge) goes to the locator at this many px on its
# long side, so the die is about 32 px there. 80-128 px found up to 0.4 points more on rendered
# frames, a few dice, and at 128 added false boxes on real photos.
LOOK_SIDE = 64


def look_closer(
    locator: ort.InferenceSession,
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    scores: np.ndarray,
    reading: pips.Reading,
    min_confidence: float,
    threshold: float = 0.2,
    min_pip_prob: float = 0.6,
    mirror: bool = True,
) -> tuple[np.ndarray, np.ndarray, pips.Reading]:
    """Boxes, scores and reading after a closer look at each doubtful box: one dropped (read
    as not a die, or with confidence under `min_confidence`) or kept but flagged unsure.

    A box from the first look can be off (two dice in one box, a die merged with a disc of its
    colour, a big die at the edge of the locator's sizes), and the readers then doubt a plain
    die. The new box replaces the old one where its face is read for sure and it does not land
    on another die already kept. A kept die's box is only refined: the new box's centre must
    lie within the old box, so that the die is not swapped for a neighbour.
    """
    boxes, scores = boxes.copy(), scores.copy()
    pip, prob, unsure, is_die = (a.copy() for a in reading)
    h, w = frame_bgr.shape[:2]

    def kept() -> np.ndarray:
        return is_die & (np.clip(scores, 0, 1) * prob >= min_confidence)

    for i in np.nonzero((~kept() | unsure) & (scores >= MIN_LOCATOR_SCORE))[0]:
        new_box, new_score = _closest_box(locator, frame_bgr, boxes[i], threshold)
        if new_box is None:
            continue
        centre = (new_box[:2] + new_box[2:]) / 2
        others = kept()
        if others[i] and not _contains(boxes[i : i + 1], centre):
            continue
        others[i] = False
        if _contains(boxes[others], centre):
            continue
        new_box[[0, 2]] = new_box[[0, 2]].clip(0, w - 1)
        new_box[[1, 3]] = new_box[[1, 3]].clip(0, h - 1)
        p, pr, u, d = pips.read_pips(readers, frame_bgr, new_box[None], min_pip_prob, mirror)
        score = max(new_score, float(scores[i]))
        if d[0] and not u[0] and score * pr[0] >= min_confidence:
            boxes[i], scores[i] = new_box, score
            pip[i], prob[i], unsure[i], is_die[i] = p[0], pr[0], u[0], d[0]
    return boxes, scores, (pip, prob, unsure, is_die)


def _contains(boxes: np.ndarray, point: np.ndarray) -> bool:
    """Whether any of `boxes` (n, 4) holds the point (x, y)."""
    return bool(np.any(np.all((boxes[:, :2] <= point) & (point <= boxes[:, 2:]), axis=1)))


def _closest_box(
    locator: ort.InferenceSession, frame_bgr: np.ndarray, box: np.ndarray, threshold: float
) -> tuple[np.ndarray | None, float]:
    """The box (frame pixels) and score that a look at a window around `box` finds nearest
    the box's centre, or (None, 0) where it finds nothing."""
    h, w = frame_bgr.shape[:2]
    side = float(max(box[2] - box[0], box[3] - box[1], 2.0))
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    reach = side * WINDOW
    x0, y0 = int(max(cx - reach, 0)), int(max(cy - reach, 0))
    x1, y1 = int(min(cx + reach, w)), int(min(cy + reach, h))
    window = frame_bgr[y0:y1, x0:x1]
    if min(window.shape[:2]) < 8:
        return None, 0.0
    found, found_scores = locate.locate_at(locator, window, LOOK_SIDE, threshold)
    if not len(found):
        return None, 0.0
    found = found + np.array([x0, y0, x0, y0], np.float32)
    centres = (found[:, :2] + found[:, 2:]) / 2
    j = int(np.argmin(np.hypot(centres[:, 0] - cx, centres[:, 1] - cy)))
    return found[j].copy(), float(found_scores[j])
