"""Whether a box holds a round thing (a coin, a bottle cap, a lens, a screw head, a magnet)
rather than a die: the outline of what lies in the box's middle, traced against the table
around it. A die read blank for sure whose outline is round is flagged unsure
(`round_blanks`); one read 1 is, where the die checker doubts it too, and an unsure round box
the checker doubts is dropped (`reader._round_bars`).

A die's outline has corners from every side: four seen from above, six seen across a corner.
A round thing's outline is a circle, or an ellipse when the camera looks at it at a slant. The
pip readers see only a face, and call a cap or a lens a blank die or a 1, for sure; the outline
tells them apart where the thing stands out from the table all around. Where it does not (a
thing on a busy table, or much of its edge against a neighbour), there is no outline or it is
no ellipse, and the box is not called round: the check errs towards a die. A box read blank
is judged by its corners alone: a cap with its shadow beside it is an egg, no ellipse, and no
blank die's face, which has four or six corners.
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
# The outline's points lie from the ellipse fitted to them, in the ellipse's own radii, with
# a spread under this: round. A die seen from above spreads more, a circle less.
ELLIPSE_SPREAD = 0.035
# A die seen across a corner is a hexagon, near an ellipse, and one with well rounded corners
# is near one from above; the corners show as the fourth or sixth harmonic of the outline's
# radius around the ellipse, under this for a round thing.
CORNERS = 0.02
# The game's blank dice are cubes, so a face read blank is judged by its corners alone: round
# where they are under BLANK_CORNERS and its outline lies within BLANK_SPREAD of an ellipse (a
# cap or a magnet with its shadow on one side is an egg, no ellipse, but has no corners).
BLANK_CORNERS = 0.03
BLANK_SPREAD = 0.08
ANGLES = 128  # the outline's radius is sampled at this many angles for its harmonics
# The outline is traced along rays from the look's middle: on each ray, the edge is the
# outermost strong fall of the difference from the table, over EDGE_FALL px outward, between
# RAY_SPAN of half the box's side. A ray that meets a neighbour, a stem or a shadow bends the
# outline there alone.
RAYS = 64
RAY_SPAN = (0.45, 1.45)
RAY_STEP = 0.5  # px between samples along a ray
EDGE_FALL = 4  # px
# A ray's edge counts where its fall is at least this share of the middle's median difference
# from the table, and at least EDGE_FLOOR; a thing whose edge counts on fewer than
# EDGE_RAYS_SHARE of the rays has no outline there.
EDGE_SHARE = 0.35
EDGE_FLOOR = 4.0  # 8-bit Lab levels
EDGE_RAYS_SHARE = 0.75


def round_bodies(
    frame_bgr: np.ndarray, boxes: np.ndarray, read_blank: np.ndarray | None = None
) -> np.ndarray:
    """Which boxes (n, 4) hold a round thing: an outline, traced against the table around it
    along rays from the box's middle, that an ellipse fits (`ELLIPSE_SPREAD`) with no corners
    (`CORNERS`), a bool array (n,). A box `read_blank` (n,) is judged as a blank die's face
    (`BLANK_SPREAD`, `BLANK_CORNERS`)."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(boxes):
        return np.zeros(0, bool)
    blank_faces = np.zeros(len(boxes), bool) if read_blank is None else np.asarray(read_blank)
    looks = crop_dice(frame_bgr, boxes, size=LOOK_SIDE, margin=LOOK_SHARE)
    round_ = np.zeros(len(boxes), bool)
    for k, look in enumerate(looks):
        outline = _outline(_difference_from_table(look))
        if blank_faces[k]:
            round_[k] = _is_round(outline, BLANK_SPREAD, BLANK_CORNERS)
        else:
            round_[k] = _is_round(outline)
    return round_


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
        every_blank = np.ones(len(checked), bool)
        doubted[checked] = round_bodies(frame_bgr, np.asarray(boxes)[checked], every_blank)
    return doubted


def _difference_from_table(look: np.ndarray) -> np.ndarray:
    """How far each pixel of a look (3, side, side; float BGR) lies from the table, the
    median colour of the look's outer ring, in 8-bit Lab levels (side, side)."""
    bgr = np.clip(look.transpose(1, 2, 0), 0, 255).astype(np.uint8)
    lab = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32), (3, 3), 0)
    ring = np.ones(lab.shape[:2], bool)
    ring[TABLE_RING:-TABLE_RING, TABLE_RING:-TABLE_RING] = False
    off = lab - np.median(lab[ring], axis=0)
    return np.sqrt(np.einsum("ijk,ijk->ij", off, off))


def _outline(difference: np.ndarray) -> np.ndarray | None:
    """The outline (m, 2) traced along RAYS rays from the middle of a look's difference from
    the table: on each, the outermost point where the difference falls strongly (`EDGE_SHARE`,
    `EDGE_FLOOR`), most of its neighbours; None where fewer than EDGE_RAYS_SHARE of the rays
    have one. The outermost, so that a lens's rim, not its dark middle, is its outline."""
    side = difference.shape[0]
    middle = side / 2 - 0.5
    half_box = side / LOOK_SHARE / 2
    radii = np.arange(RAY_SPAN[0] * half_box, RAY_SPAN[1] * half_box, RAY_STEP)
    angles = np.linspace(0, 2 * np.pi, RAYS, endpoint=False)
    xs = middle + np.cos(angles)[:, None] * radii[None]
    ys = middle + np.sin(angles)[:, None] * radii[None]
    along = cv2.remap(
        difference.astype(np.float32),
        xs.astype(np.float32),
        ys.astype(np.float32),
        cv2.INTER_LINEAR,
    )
    fall_steps = int(round(EDGE_FALL / RAY_STEP))
    fall = along[:, :-fall_steps] - along[:, fall_steps:]
    inner = float(np.median(along[:, : len(radii) // 3]))
    peaks = np.zeros(fall.shape, bool)  # strong falls, each the largest of its neighbours
    peaks[:, 1:-1] = (fall[:, 1:-1] >= fall[:, :-2]) & (fall[:, 1:-1] >= fall[:, 2:])
    peaks &= fall >= max(EDGE_SHARE * inner, EDGE_FLOOR)
    strong = peaks.any(axis=1)
    if strong.mean() < EDGE_RAYS_SHARE:
        return None
    at = fall.shape[1] - 1 - np.argmax(peaks[:, ::-1], axis=1)  # the outermost
    edge = radii[at + fall_steps // 2]
    points = np.stack([middle + np.cos(angles) * edge, middle + np.sin(angles) * edge], 1)
    return points[strong].astype(np.float32)


def _is_round(
    outline: np.ndarray | None, spread: float = ELLIPSE_SPREAD, corners: float = CORNERS
) -> bool:
    """Whether an outline (m, 2) lies within `spread` of an ellipse, with corners under
    `corners`."""
    if outline is None:
        return False
    angles, radii = _on_ellipse(outline)
    if float(np.std(radii)) >= spread:
        return False
    return _corner_strength(angles, radii) < corners


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
