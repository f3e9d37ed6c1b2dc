"""Find die boxes: preprocess a frame, run the heatmap locator, decode peaks into boxes."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import onnxruntime as ort

STRIDE = 4
MAX_DICE = 256  # peaks a look keeps: a photo of a dice tray can hold a hundred dice
LOCATOR_LONG_SIDE = 384  # trained at 320 (640x480 at half size); a little larger helps small dice


def preprocess(
    frame_bgr: np.ndarray, long_side: int = LOCATOR_LONG_SIDE, smoothing: int = 0
) -> tuple[np.ndarray, float]:
    """Scaled, padded (1, 3, H, W) float32 tensor with H, W multiples of 16, and the scale;
    with `smoothing` (odd, px), the scaled frame's flecks smoothed out by a median that wide."""
    h, w = frame_bgr.shape[:2]
    scale = long_side / max(h, w)
    nw, nh = max(int(round(w * scale)), 16), max(int(round(h * scale)), 16)
    small = cv2.resize(frame_bgr, (nw, nh), interpolation=cv2.INTER_AREA)
    if smoothing:
        small = cv2.medianBlur(small, smoothing)
    ph, pw = -nh % 16, -nw % 16
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    # Channel by channel into one contiguous array: the runtime would copy a transposed view.
    tensor = np.empty((1, 3, *small.shape[:2]), np.float32)
    for channel in range(3):
        tensor[0, channel] = small[:, :, channel]
    return tensor, scale


def infer(session: ort.InferenceSession, tensor: np.ndarray) -> np.ndarray:
    """Raw locator maps, shape (5, H/4, W/4)."""
    name = session.get_inputs()[0].name
    return session.run(None, {name: tensor})[0][0]


def postprocess(
    maps: np.ndarray, scale: float, threshold: float = 0.3, max_dice: int = MAX_DICE
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (n, 4) in frame pixels and scores (n,) from the locator's maps."""
    heat = 1.0 / (1.0 + np.exp(-maps[0]))
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks)
    scores = heat[ys, xs]
    order = np.argsort(-scores)[:max_dice]
    ys, xs, scores = ys[order], xs[order], scores[order]
    w = np.exp(maps[1, ys, xs]) * STRIDE
    h = np.exp(maps[2, ys, xs]) * STRIDE
    cx = (xs + maps[3, ys, xs]) * STRIDE
    cy = (ys + maps[4, ys, xs]) * STRIDE
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1) / scale
    return _suppress(boxes.astype(np.float32), scores.astype(np.float32))


def _suppress(
    boxes: np.ndarray, scores: np.ndarray, overlap: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Drop a box whose centre lies deep inside a better box (two peaks on one die).

    Boxes come best first, so each box is checked against the kept boxes before it.
    """
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    reach = (boxes[:, 2:] - boxes[:, :2]) / 2 * overlap
    # inside[i, j]: the centre of box i lies within the inner part of box j.
    inside = np.all(np.abs(centres[:, None] - centres[None]) < reach[None], axis=2)
    keep = np.zeros(len(boxes), bool)
    for i in range(len(boxes)):
        keep[i] = not inside[i, :i][keep[:i]].any()
    return boxes[keep], scores[keep]


# Dice sides (in locator pixels) that one look reads well, near those it was trained on; outside
# this, look again rescaled so that the typical die is about BEST_SIDE (SHRUNK_SIDE for large
# dice).
ONE_LOOK_SIDE = (25.0, 64.0)
BEST_SIDE = 30.0
# Dice too large for one look are shrunk to this side instead, the middle of ONE_LOOK_SIDE: a
# frame shrunk until its large dice are 30 px (a photo from above of a few large dice, to 150
# px or less) leaves the locator too little around them, and it boxes some of them weakly or
# not at all.
SHRUNK_SIDE = 45.0
SQUARE_ENOUGH = 2.0  # a box longer than this times its width is no sign of the dice's size
SURE_BOX = 0.5  # the typical die is judged from boxes this sure where there are any
EMPTY_FRAME_LONG_SIDE = 256  # the second look at a frame where the first found no die
LARGEST_LOOK = 1280  # long side (px) of the largest look: tiny dice in a big photo


def locate_at(
    session: ort.InferenceSession, frame_bgr: np.ndarray, long_side: int, threshold: float = 0.3
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes and scores from one look at the frame shrunk to `long_side`, not clipped."""
    tensor, scale = preprocess(frame_bgr, long_side)
    return postprocess(infer_in_strips(session, tensor), scale, threshold)


# A speckled top (granite) hides dice from the locator, which learnt plain tables: a look at the
# frame with its flecks smoothed out, a median of SMOOTHING px at the look's own scale (where
# dice are about BEST_SIDE px, and a fleck a few px), boxes them again. Only a speckled frame is
# so looked at: one whose grey levels, every pixel taken at about the look's scale, differ from
# their SMOOTHING px median by FLECKS on average or more. Plain tables and trays, rendered and
# real, give 0.3-1.5; rendered granite 3-25, 4.6 or more where the smoothed look found a die;
# the publisher's noisy phone photos of coloured dice 0.5-11.
SMOOTHING = 3
FLECKS = 2.5


def flecks(frame_bgr: np.ndarray, long_side: int) -> float:
    """How speckled a frame is at a look `long_side` px long: the mean difference of its grey
    levels, every pixel taken at about that scale (no averaging, which would hide flecks),
    from their SMOOTHING px median."""
    step = max(1, round(max(frame_bgr.shape[:2]) / long_side))
    grey = cv2.cvtColor(np.ascontiguousarray(frame_bgr[::step, ::step]), cv2.COLOR_BGR2GRAY)
    return float(cv2.absdiff(grey, cv2.medianBlur(grey, SMOOTHING)).mean())


def locate_smoothed(
    session: ort.InferenceSession, frame_bgr: np.ndarray, long_side: int, threshold: float = 0.3
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (n, 4) in frame pixels, clipped, and scores (n,) from one look at the frame
    shrunk to `long_side`, its flecks smoothed out there (a SMOOTHING px median); none where
    the frame is not speckled (`flecks` under FLECKS)."""
    if flecks(frame_bgr, long_side) < FLECKS:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    tensor, scale = preprocess(frame_bgr, long_side, SMOOTHING)
    boxes, scores = postprocess(infer_in_strips(session, tensor), scale, threshold)
    h, w = frame_bgr.shape[:2]
    return _clipped(boxes, scores, w, h)


# The locator's working memory grows with its input, so larger looks are run in strips of at
# most STRIP_PIXELS, each with STRIP_MARGIN rows of the frame above and below that only give
# context (a map cell sees about 70 px on each side), and their maps are joined.
STRIP_PIXELS = 400_000
STRIP_MARGIN = 64


def infer_in_strips(session: ort.InferenceSession, tensor: np.ndarray) -> np.ndarray:
    """Raw locator maps, shape (5, H/4, W/4), from horizontal strips of the tensor where it
    holds more than STRIP_PIXELS pixels, else from the whole tensor at once."""
    h, w = tensor.shape[2:]
    strips = -(-h * w // STRIP_PIXELS)
    if strips <= 1:
        return infer(session, tensor)
    rows = -(-h // (strips * 16)) * 16  # a strip's own rows: a multiple of 16, as the input's
    maps = []
    for top in range(0, h, rows):
        bottom = min(top + rows, h)
        lo, hi = max(top - STRIP_MARGIN, 0), min(bottom + STRIP_MARGIN, h)
        strip = infer(session, np.ascontiguousarray(tensor[:, :, lo:hi]))
        maps.append(strip[:, (top - lo) // STRIDE : (bottom - lo) // STRIDE])
    return np.concatenate(maps, axis=1)


def clear_of_edge(boxes: np.ndarray, frame_shape: tuple[int, ...]) -> np.ndarray:
    """Which boxes (n, 4) keep off the frame's two outermost pixels on every side: a box that
    reaches them may hold a die the frame cuts."""
    h, w = frame_shape[:2]
    return (boxes[:, :2].min(1) > 1) & (boxes[:, 2] < w - 2) & (boxes[:, 3] < h - 2)


def centred_in(boxes: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Which centres (m, 2) lie in which boxes (n, 4), edges included: a bool array (n, m)."""
    boxes, centres = np.reshape(boxes, (-1, 4)), np.reshape(centres, (-1, 2))
    return np.all(
        (boxes[:, None, :2] <= centres[None]) & (centres[None] <= boxes[:, None, 2:]), axis=2
    )


def on_one_die(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Which boxes (n, 4) lie on a die with any of `others` (m, 4): one of the two is centred
    in the other. A bool array (n,)."""
    boxes, others = np.reshape(boxes, (-1, 4)), np.reshape(others, (-1, 4))
    centres, other_centres = (boxes[:, :2] + boxes[:, 2:]) / 2, (others[:, :2] + others[:, 2:]) / 2
    return np.asarray(centred_in(others, centres).any(0) | centred_in(boxes, other_centres).any(1))


def shared_areas(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The area each of `boxes` (n, 4) shares with each of `others` (m, 4): an array (n, m)."""
    lo = np.maximum(boxes[:, None, :2], others[None, :, :2])
    hi = np.minimum(boxes[:, None, 2:], others[None, :, 2:])
    return np.prod(np.clip(hi - lo, 0, None), axis=2)


def shrunk(boxes: np.ndarray, share: float) -> np.ndarray:
    """The boxes (n, 4) shrunk about their centres to `share` of their width and height."""
    centres, half = (boxes[:, :2] + boxes[:, 2:]) / 2, (boxes[:, 2:] - boxes[:, :2]) / 2 * share
    return np.concatenate([centres - half, centres + half], 1)


def box_sides(boxes: np.ndarray) -> np.ndarray:
    """Each box's side (n,): the square root of its area."""
    return np.sqrt(np.prod(boxes[:, 2:] - boxes[:, :2], 1))


def typical_side(
    boxes: np.ndarray, scores: np.ndarray, frame_shape: tuple[int, ...] | None = None
) -> float | None:
    """Median side (frame px) of the boxes that show a whole die, or None where none does.

    Thin boxes (a table's rim) say nothing of the dice's size, and a faint box (a pip of a
    side face, a shadow) next to a plain die must not make the dice of the frame look small:
    where the locator is sure of some boxes, only those count. Where it is sure of none, faint
    boxes at the edge of the frame (if its shape is given) do not count either: in an empty
    frame that is often all there is, a speck in a corner.
    """
    wh = boxes[:, 2:] - boxes[:, :2]
    whole = wh.max(1) <= SQUARE_ENOUGH * wh.min(1) if len(wh) else np.zeros(0, bool)
    sure = whole & (scores >= SURE_BOX)
    pick = sure if sure.any() else whole
    if frame_shape is not None and not sure.any() and len(boxes):
        pick = pick & clear_of_edge(boxes, frame_shape)
    if not pick.any():
        return None
    return float(np.median(box_sides(boxes[pick])))


def locate(
    session: ort.InferenceSession,
    frame_bgr: np.ndarray,
    threshold: float = 0.3,
    not_dice: Callable[[np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Die boxes (n, 4) and locator scores (n,) in one frame. `not_dice` marks boxes known to
    be something else (printed markers): they are left out, and do not set the typical die's
    size."""
    boxes, scores, _long_side = locate_sized(session, frame_bgr, threshold, not_dice)
    return boxes, scores


def locate_sized(
    session: ort.InferenceSession,
    frame_bgr: np.ndarray,
    threshold: float = 0.3,
    not_dice: Callable[[np.ndarray], np.ndarray] | None = None,
    long_side: int | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Die boxes (n, 4), locator scores (n,) and the long side (px) the frame was shrunk to
    for the look they came from: `long_side` where given (one look, the dice's size is not
    judged), else the size that suits the frame's dice."""
    h, w = frame_bgr.shape[:2]

    def dice(found: np.ndarray) -> np.ndarray:
        return np.ones(len(found), bool) if not_dice is None else ~not_dice(found)

    if long_side is not None:
        boxes, scores = locate_at(session, frame_bgr, long_side, threshold)
        kept = dice(boxes)
        return (*_clipped(boxes[kept], scores[kept], w, h), long_side)
    long_side = LOCATOR_LONG_SIDE
    boxes, scores = locate_at(session, frame_bgr, long_side, threshold)
    if not len(boxes):
        # A die far bigger than most (a lone Biggy, the last die of a player) can stay unseen
        # at the usual scale: look once more with the frame shrunk further.
        long_side = EMPTY_FRAME_LONG_SIDE
        boxes, scores = locate_at(session, frame_bgr, long_side, threshold)
    # Photos from other cameras show dice much bigger or smaller than the arena camera.
    kept = dice(boxes)
    side = typical_side(boxes[kept], scores[kept], frame_bgr.shape)
    if side is not None:
        side *= long_side / max(h, w)
        if not ONE_LOOK_SIDE[0] <= side <= ONE_LOOK_SIDE[1]:
            best = BEST_SIDE if side < ONE_LOOK_SIDE[0] else SHRUNK_SIDE
            new_long = int(np.clip(long_side * best / side, 96, LARGEST_LOOK))
            if abs(new_long - long_side) > 32:
                long_side = new_long
                boxes, scores = locate_at(session, frame_bgr, long_side, threshold)
                kept = dice(boxes)
    return (*_clipped(boxes[kept], scores[kept], w, h), long_side)


# A close-up (a die filling a third of the frame or more) is too large for the usual look: its
# locator boxes the die's pips as small dice, and the typical die's size is then judged from
# them. A quick look at the frame shrunk to QUICK_LOOK_SIDE sees such a die whole, surely.
QUICK_LOOK_SIDE = 160
LARGE_DIE_RATIO = 2.0  # a box of the usual look this much smaller than a large one is a pip's


def too_large(boxes: np.ndarray, long_frame_side: int) -> np.ndarray:
    """Which boxes (n, 4) of a frame with this long side (px) hold dice too large for the usual
    look (over ONE_LOOK_SIDE's upper bound at LOCATOR_LONG_SIDE)."""
    return box_sides(boxes) * LOCATOR_LONG_SIDE / long_frame_side > ONE_LOOK_SIDE[1]


def large_dice_look(
    session: ort.InferenceSession,
    frame_bgr: np.ndarray,
    threshold: float,
    found: np.ndarray,
    plain_faces: np.ndarray | None = None,
) -> int | None:
    """The long side (px) of a look that suits dice too large for the usual look, where a
    quick look at the frame shrunk to QUICK_LOOK_SIDE is sure of such a die and the usual look
    found none there (`found`: its boxes, (n, 4)); else None.

    A large box with one of `plain_faces` (boxes of the usual look read plainly as faces, as
    no pip of a large die is) centred in it is a region around dice, not a die."""
    boxes, scores = locate_at(session, frame_bgr, QUICK_LOOK_SIDE, threshold)
    long_frame_side = max(frame_bgr.shape[:2])
    wh = boxes[:, 2:] - boxes[:, :2]
    sides = box_sides(boxes)
    large = (
        (scores >= SURE_BOX)
        & (wh.max(1) <= SQUARE_ENOUGH * wh.min(1))
        & too_large(boxes, long_frame_side)
    )
    # A die of the usual look on a large box counts as that die only if at least half as large.
    found_sides = box_sides(found)
    for i in np.flatnonzero(large):
        alike = found[found_sides >= sides[i] / LARGE_DIE_RATIO]
        large[i] = not on_one_die(boxes[i], alike)[0]
    if plain_faces is not None and len(plain_faces):
        centres = (plain_faces[:, :2] + plain_faces[:, 2:]) / 2
        large &= ~centred_in(boxes, centres).any(1)
    if not large.any():
        return None
    side = float(np.median(sides[large]))
    return int(np.clip(long_frame_side * BEST_SIDE / side, 96, LOCATOR_LONG_SIDE))


def _clipped(
    boxes: np.ndarray, scores: np.ndarray, w: int, h: int
) -> tuple[np.ndarray, np.ndarray]:
    """The boxes clipped to a frame of w x h pixels, and their scores."""
    boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w - 1)
    boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h - 1)
    return boxes, scores
