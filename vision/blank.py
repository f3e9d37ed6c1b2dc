"""Whether a die read blank shows pips after all: a look for pip-shaped blobs in its box.

Only the game's grey dice (Royale) are blank; every other die shows 1-6 pips. The pip readers
can call a die with faint or washed-out pips blank, and sure of it, so a die read blank stays
sure only where the middle of its box holds no round blob of a pip's size that stands out from
the face around it, darker or lighter.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import pips
from vision.crops import crop_dice

# Why each value is what it is, with the measurements behind it: models/MODEL_CARD.md, "A die
# read blank stays sure only where its box shows no pip".
CHECK_SIDE = 64  # px: each die's middle is looked at this size
FACE_SHARE = 0.65  # the look spans this share of the box's longer side around its middle
SPECK_FILTER = 3  # px: a median filter this wide first wipes out specks and noise
FACE_FILTER = 21  # px: a median filter this wide wipes out the pips, leaving the face around them
PIP_DIAMETER = (0.1, 0.3)  # a pip's diameter, as a share of CHECK_SIDE
PIP_FILL = 0.6  # a round pip fills at least this share of the rectangle around it
PIP_STRETCH = 2.0  # ... and that rectangle's long side is at most this many times its short one
BLOB_STEP = 8  # grey levels from the face around it at which a pixel belongs to a blob
PIP_CONTRAST = 15  # grey levels a blob's mean lies from the face around it, at least: a pip
# Grey levels the face around a blob may lie from the die's middle: a blob farther off lies on
# another face or die (a neighbour's pips at the box's edge), not on this die's face.
FACE_LIKE_MIDDLE = 40


def strongest_pip(frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """For each box (n, 4), how far (in grey levels) the pip-shaped blob that stands out most
    in the middle of the box lies from the face around it, darker or lighter (0 where there is
    none), a float array (n,). A blob is pip-shaped where it is round (`PIP_FILL`,
    `PIP_STRETCH`), of a pip's size (`PIP_DIAMETER`), clear of the look's edges, and on a face
    like the die's middle (`FACE_LIKE_MIDDLE`)."""
    if not len(boxes):
        return np.zeros(0, np.float32)
    crops = crop_dice(frame_bgr, boxes, size=CHECK_SIDE, margin=FACE_SHARE)
    smallest, largest = (np.pi / 4 * (d * CHECK_SIDE) ** 2 for d in PIP_DIAMETER)
    strongest = np.zeros(len(boxes), np.float32)
    quarter = CHECK_SIDE // 4
    for k, crop in enumerate(crops):
        grey = cv2.medianBlur(np.clip(crop.mean(0), 0, 255).astype(np.uint8), SPECK_FILTER)
        face = cv2.medianBlur(grey, FACE_FILTER).astype(np.float32)
        off_face = grey - face
        middle = float(np.median(face[quarter:-quarter, quarter:-quarter]))
        for sign in (-1.0, 1.0):  # dark pips, then light ones
            blobs = (sign * off_face > BLOB_STEP).astype(np.uint8)
            count, labels, stats, _ = cv2.connectedComponentsWithStats(blobs, connectivity=4)
            x, y, w, h, area = stats[1:].T
            round_ = (area >= PIP_FILL * w * h) & (
                np.maximum(w, h) <= PIP_STRETCH * np.minimum(w, h)
            )
            inside = (x > 0) & (y > 0) & (x + w < CHECK_SIDE) & (y + h < CHECK_SIDE)
            shaped = round_ & inside & (area >= smallest) & (area <= largest)
            if not shaped.any():
                continue
            flat = labels.ravel()
            contrast = sign * np.bincount(flat, off_face.ravel(), count)[1:] / area
            around = np.bincount(flat, face.ravel(), count)[1:] / area
            pip_like = shaped & (np.abs(around - middle) <= FACE_LIKE_MIDDLE)
            if pip_like.any():
                strongest[k] = max(strongest[k], float(contrast[pip_like].max()))
    return strongest


def pips_on_blank(
    frame_bgr: np.ndarray, boxes: np.ndarray, read_pips: np.ndarray, unsure: np.ndarray
) -> np.ndarray:
    """Which dice read blank and not flagged unsure show a pip in their box (`strongest_pip`
    at least PIP_CONTRAST), a bool array (n,): dice to flag unsure."""
    doubted = np.zeros(len(boxes), bool)
    checked = np.flatnonzero(~unsure & (read_pips == pips.CLASS_BLANK))
    if len(checked):
        doubted[checked] = strongest_pip(frame_bgr, boxes[checked]) >= PIP_CONTRAST
    return doubted
