"""Whether a box holds a round thing (a coin, a bottle cap, a lens, a screw head, a magnet)
rather than a die: the outline of what lies in the box's middle, cut from the table around it.
A die read blank for sure whose outline is round is flagged unsure (`round_blanks`); one read
1 is, where the die checker doubts it too, and an unsure round box the checker doubts is
dropped (`reader._round_bars`).

A die's outline has corners from every side: four seen from above, six seen across a corner.
A round thing's outline is a circle, or an ellipse when the camera looks at it at a slant. The
pip readers see only a face, and call a cap or a lens a blank die or a 1, for sure; the outline
tells them apart where the thing stands out from the table clearly enough to be cut out. Where
it does not (a die touching another, a thing on a busy table), the outline is no ellipse, and
the box is not called round: the check errs towards a die.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision import pips
from vision.crops import crop_dice

# Why each value is what it is, with the measurements behind it: models/MODEL_CARD.md, "A die
# read blank or 1 whose outline is round is doubted".
LOOK_SIDE = 64  # px: each box is looked at this size ...
LOOK_SHARE = 2.0  # ... spanning this many box sides around its middle, the table around it
TABLE_RING = 6  # px: the look's outer ring, taken as the table
DIFFERENCE_GAIN = 4  # each pixel's Lab distance from the table, times this, as a grey level
# The outline's points lie from the ellipse fitted to them, in the ellipse's own radii, with
# a spread under this: round. A die seen from above spreads 0.05-0.1, a circle under 0.03.
ELLIPSE_SPREAD = 0.035
# A die seen across a corner is a hexagon, near an ellipse; its corners show as the fourth or
# sixth harmonic of the outline's radius around the ellipse (0.035 for a drawn die), a round
# thing's under 0.02.
CORNERS = 0.02
ANGLES = 128  # the outline's radius is sampled at this many angles for its harmonics
SMALLEST_OUTLINE = 8  # points: a shorter outline tells nothing


def round_bodies(frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Which boxes (n, 4) hold a round thing: an outline cut from the table around it that
    an ellipse fits (`ELLIPSE_SPREAD`) with no corners (`CORNERS`), a bool array (n,)."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(boxes):
        return np.zeros(0, bool)
    looks = crop_dice(frame_bgr, boxes, size=LOOK_SIDE, margin=LOOK_SHARE)
    return np.array([_is_round(_outline(look)) for look in looks], bool)


def round_blanks(
    frame_bgr: np.ndarray, boxes: np.ndarray, read_pips: np.ndarray, unsure: np.ndarray
) -> np.ndarray:
    """Which dice read blank and not flagged unsure have a round outline (`round_bodies`), a
    bool array (n,): dice to flag unsure. The game's blank dice are cubes, so a round blank is
    doubted whatever the die checker says (a 1 is asked to it: `reader._round_bars`)."""
    doubted = np.zeros(len(boxes), bool)
    checked = np.flatnonzero(
        ~np.asarray(unsure, bool) & (np.asarray(read_pips) == pips.CLASS_BLANK)
    )
    if len(checked):
        doubted[checked] = round_bodies(frame_bgr, np.asarray(boxes)[checked])
    return doubted


def _outline(look: np.ndarray) -> np.ndarray | None:
    """The outline (m, 2) of the thing in the middle of a look (3, side, side; float BGR):
    the pixels that differ from the table (the look's outer ring) by more than Otsu's split of
    the differences, joined to the middle, holes and all; None where nothing stands out."""
    bgr = np.clip(look.transpose(1, 2, 0), 0, 255).astype(np.uint8)
    lab = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0)
    ring = np.ones(lab.shape[:2], bool)
    ring[TABLE_RING:-TABLE_RING, TABLE_RING:-TABLE_RING] = False
    table = np.median(lab[ring], axis=0)
    off = lab - table
    distance = np.sqrt(np.einsum("ijk,ijk->ij", off, off))  # per pixel, in 8-bit Lab levels
    difference = np.clip(distance * DIFFERENCE_GAIN, 0, 255).astype(np.uint8)
    _, standing_out = cv2.threshold(difference, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    standing_out = cv2.morphologyEx(standing_out, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, _, centres = cv2.connectedComponentsWithStats(standing_out, connectivity=8)
    if count < 2:
        return None
    middle = lab.shape[0] // 2
    part = labels[middle, middle]
    if part == 0:  # a ring (a lens, a washer) leaves the middle out: the part nearest it
        part = 1 + int(np.argmin(np.hypot(*(centres[1:] - middle).T)))
    outlines, _ = cv2.findContours(
        (labels == part).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE
    )
    longest = max(outlines, key=len)
    return longest[:, 0, :].astype(np.float32) if len(longest) >= SMALLEST_OUTLINE else None


def _is_round(outline: np.ndarray | None) -> bool:
    """Whether an outline (m, 2) is an ellipse with no corners."""
    if outline is None:
        return False
    angles, radii = _on_ellipse(outline)
    if float(np.std(radii)) >= ELLIPSE_SPREAD:
        return False
    return _corner_strength(angles, radii) < CORNERS


def _on_ellipse(outline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each outline point's angle and distance from the centre of the ellipse fitted to the
    outline, in that ellipse's own axes and radii (the ellipse is the unit circle there)."""
    (cx, cy), (width, height), degrees = cv2.fitEllipse(outline)
    turn = np.deg2rad(degrees)
    dx, dy = (outline - (cx, cy)).T
    along = (dx * np.cos(turn) + dy * np.sin(turn)) / max(width / 2, 1e-3)
    across = (-dx * np.sin(turn) + dy * np.cos(turn)) / max(height / 2, 1e-3)
    return np.arctan2(across, along), np.hypot(along, across)


def _corner_strength(angles: np.ndarray, radii: np.ndarray) -> float:
    """The larger of the fourth and sixth harmonics of the outline's radius around its
    ellipse (a square's and a hexagon's corners), sampled at ANGLES even angles."""
    order = np.argsort(angles)
    even = np.linspace(-np.pi, np.pi, ANGLES, endpoint=False)
    sampled = np.interp(even, angles[order], radii[order], period=2 * np.pi)
    amplitudes = np.abs(np.fft.rfft(sampled - sampled.mean())) * 2 / ANGLES
    return float(max(amplitudes[4], amplitudes[6]))
