"""A closer look at doubtful boxes: locate again in a small window around each one, with the die
enlarged to well inside the locator's sizes, or else search the box for a smaller square that
holds a die; take the new box where its face is read for sure, or, for a box that would be
dropped, where the window sees a die inside it that it cannot read for sure (kept unsure)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnxruntime as ort

from vision import locate, pips
from vision.stand_out import LIKE_TABLE, contrast_with_table

WINDOW = 1.0  # half the window's side, in sides of the doubtful box
MIN_LOCATOR_SCORE = 0.3  # a weaker box is more often felt or a shadow than a die: no closer look
# The window (two box sides, fewer at the frame edge) goes to the locator at this many px on its
# long side, so the die is about 32 px there, well inside the locator's sizes.
LOOK_SIDE = 64
# A dropped box the window look cannot mend is searched for a die inside it: squares of these
# sides (in the box's short side) at nine places each.
INNER_SCALES = (0.7, 0.85)
INNER_SURE = 0.85  # of many guesses at a box, only a plainly read face is taken
MAX_COVERED = 0.5  # an inner square half on a die already kept is that die's side face
SQUARE_BOX = 1.35  # only a box at most this much longer than wide is searched for a die
SEEN_LARGER = 1.2  # a die seen in a dropped box may be at most this much wider or taller than it
# A look's work is bounded, so that a speckled table or printed text boxed all over cannot make
# one frame take seconds: at most this many doubtful boxes are looked at again (the locator's
# surest first), and at most this many of them are searched for a die inside. A search reads
# 18 squares; on the real photos over half of its finds come from a look's first search, and
# 2 a look (8 before) read the rendered rows alike to a few dice for 11 % less time on the
# slowest tenth of the photos (model card, "Fewer searches inside dropped boxes").
MOST_CLOSER_LOOKS = 32
MOST_INNER_SEARCHES = 2


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
    camera_place: str = "bottom",
) -> tuple[np.ndarray, np.ndarray, pips.Reading]:
    """Boxes, scores and reading after a closer look at each doubtful box: one dropped (read
    as not a die, or with confidence under `min_confidence`) or kept but flagged unsure.

    A box from the first look can be off (two dice in one box, a die merged with a disc of its
    colour, a big die at the edge of the locator's sizes), and the readers then doubt a plain
    die. The new box replaces the old one where its face is read for sure and it does not land
    on another die already kept. A kept die's box is only refined: the new box's centre must
    lie within the old box, so that the die is not swapped for a neighbour. A dropped box the
    window does not mend is searched for a square die inside it (a box grown onto a neighbour).
    Where that finds none either, a die the window saw centred in the dropped box but could not
    read for sure (cocked, half hidden, blurred) is kept and flagged unsure: a die seen is
    reported, not silently lost. One read blank stays dropped: on the real photos those were a
    cable's label or a plug more often than a grey die.
    """
    boxes, scores = boxes.copy(), scores.copy()
    pip, prob, unsure, is_die = (a.copy() for a in reading)
    read = _Readers(readers, frame_bgr, min_pip_prob, mirror, camera_place)

    def kept() -> np.ndarray:
        return is_die & (np.clip(scores, 0, 1) * prob >= min_confidence)

    doubtful = np.flatnonzero((~kept() | unsure) & (scores >= MIN_LOCATOR_SCORE))
    doubtful = doubtful[np.argsort(-scores[doubtful], kind="stable")][:MOST_CLOSER_LOOKS]
    # Each window depends on its own box alone: all are located first, and the box each will
    # read, as the kept dice stand now, is read at once with the others (a look's reading is
    # the same read alone or with others; a box that a mend before it changes is read then).
    nearby = [_boxes_nearby(locator, frame_bgr, boxes[i], threshold) for i in doubtful]
    read.read_ahead(_boxes_to_read(frame_bgr.shape, boxes, doubtful, nearby, kept()))
    searches_left = MOST_INNER_SEARCHES
    for i, (found, found_scores) in zip(doubtful, nearby, strict=True):
        others = kept()
        own = others[i]
        others[i] = False
        mended, seen_unsure = _window_die(
            read,
            found,
            found_scores,
            boxes[i],
            float(scores[i]),
            boxes[others],
            own,
            min_confidence,
        )
        if mended is not None:
            boxes[i], scores[i], (pip[i], prob[i], unsure[i], is_die[i]) = mended
        if own or kept()[i]:
            continue  # a kept die stays as read (flagged unsure where it was)
        inside = None
        if searches_left > 0 and _stands_out(frame_bgr, boxes[i]):
            searches_left -= 1
            inside = _die_inside(read, boxes[i], boxes[others], float(scores[i]), min_confidence)
        if inside is not None:
            boxes[i], (pip[i], prob[i], unsure[i], is_die[i]) = inside
        elif seen_unsure is not None:
            boxes[i], scores[i], (pip[i], prob[i], unsure[i], is_die[i]) = seen_unsure
    return boxes, scores, (pip, prob, unsure, is_die)


@dataclass(frozen=True)
class _Readers:
    """The pip readers with the frame and the settings they read it with."""

    sessions: list[ort.InferenceSession]
    frame_bgr: np.ndarray
    min_pip_prob: float
    mirror: bool
    camera_place: str
    # Single boxes read ahead: each one's reading (pips, confidence, unsure, is a die), each
    # an array (1,), by the box's float32 bytes.
    ahead: dict[bytes, pips.Reading] = field(default_factory=dict)

    def read(self, boxes: np.ndarray) -> pips.Reading:
        """The readers' verdict on `boxes` (n, 4)."""
        if len(boxes) == 1:
            known = self.ahead.get(np.asarray(boxes, np.float32).tobytes())
            if known is not None:
                return known
        return pips.read_pips(
            self.sessions,
            self.frame_bgr,
            boxes,
            self.min_pip_prob,
            self.mirror,
            self.camera_place,
        )

    def read_ahead(self, boxes: np.ndarray) -> None:
        """Read `boxes` (n, 4) at once, for `read` to take each one's reading from."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        if not len(boxes):
            return
        reading = self.read(boxes)
        for j, box in enumerate(boxes):
            self.ahead[box[None].tobytes()] = tuple(a[j : j + 1] for a in reading)  # type: ignore[assignment]


# A box found again, its score, and its reading (pips, confidence, unsure, is a die).
_Found = tuple[np.ndarray, float, tuple]


def _window_die(
    read: _Readers,
    found: np.ndarray,
    found_scores: np.ndarray,
    box: np.ndarray,
    score: float,
    kept_boxes: np.ndarray,
    own: bool,
    min_confidence: float,
) -> tuple[_Found | None, _Found | None]:
    """What the window look around a doubtful `box` (kept already where `own`) gives: the
    nearest of its boxes (`found`, nearest first) on no die of `kept_boxes` (for a kept box,
    centred in it) where its face is read for sure, else None; and, for a dropped box, a die
    that box centred in it but read unsure, else None."""
    j = _nearest_free(found, box, kept_boxes, own)
    if j is not None:
        # The nearest box that is on no other die: the one this box was meant to be.
        in_box = locate.centred_in(box, (found[j, :2] + found[j, 2:]) / 2).any()
        new_box, new_score = _clipped(found[j], read.frame_bgr.shape), found_scores[j]
        p, pr, u, d = read.read(new_box[None])
        best = max(float(new_score), score)
        reading = (p[0], pr[0], u[0], d[0])
        if d[0] and not u[0] and best * pr[0] >= min_confidence:
            return (new_box, best, reading), None
        if (
            not own
            and in_box
            and d[0]
            and p[0] != pips.CLASS_BLANK
            and best * pr[0] >= min_confidence
            and _no_larger(new_box, box)
        ):
            return None, (new_box, best, (p[0], pr[0], True, True))
    return None, None


def _nearest_free(
    found: np.ndarray, box: np.ndarray, kept_boxes: np.ndarray, own: bool
) -> int | None:
    """The index of the first of `found` (nearest first) centred on no die of `kept_boxes`,
    and, for a kept box (`own`), centred in `box`; None where there is none."""
    centres = (found[:, :2] + found[:, 2:]) / 2
    free = ~locate.centred_in(kept_boxes, centres).any(0)
    if own:
        free &= locate.centred_in(box, centres)[0]
    hits = np.flatnonzero(free)
    return int(hits[0]) if len(hits) else None


def _clipped(box: np.ndarray, frame_shape: tuple[int, ...]) -> np.ndarray:
    """A copy of `box` (4,) clipped to a frame of this shape."""
    h, w = frame_shape[:2]
    out = np.array(box, np.float32)
    out[[0, 2]] = out[[0, 2]].clip(0, w - 1)
    out[[1, 3]] = out[[1, 3]].clip(0, h - 1)
    return out


def _boxes_to_read(
    frame_shape: tuple[int, ...],
    boxes: np.ndarray,
    doubtful: np.ndarray,
    nearby: list[tuple[np.ndarray, np.ndarray]],
    kept: np.ndarray,
) -> np.ndarray:
    """The box (m, 4) each window look around a doubtful box will read while the dice `kept`
    stay as they are (see `_window_die`): one per window at most."""
    out = []
    for i, (found, _scores) in zip(doubtful, nearby, strict=True):
        others = kept.copy()
        others[i] = False
        j = _nearest_free(found, boxes[i], boxes[others], bool(kept[i]))
        if j is not None:
            out.append(_clipped(found[j], frame_shape))
    return np.array(out, np.float32).reshape(-1, 4)


def _die_inside(
    read: _Readers, box: np.ndarray, kept_boxes: np.ndarray, score: float, min_confidence: float
) -> tuple[np.ndarray, tuple] | None:
    """The square inside `box` read most surely as a die's face, with its reading (pips,
    confidence, unsure, is a die), or None where no square is read for sure. Squares on a die
    already kept are not tried."""
    inner = _inner_boxes(box)
    if not len(inner):
        return None
    centres = (inner[:, :2] + inner[:, 2:]) / 2
    free = ~locate.centred_in(kept_boxes, centres).any(0)
    free &= _covered(inner, kept_boxes) <= MAX_COVERED
    if not free.any():
        return None
    inner = inner[free]
    p, pr, u, d = read.read(inner)
    good = d & ~u & (pr >= INNER_SURE) & (score * pr >= min_confidence)
    if not good.any():
        return None
    j = int(np.argmax(np.where(good, pr, -1)))
    return inner[j], (p[j], pr[j], u[j], d[j])


def _stands_out(frame_bgr: np.ndarray, box: np.ndarray) -> bool:
    """Whether the middle of `box` differs from the table around it by more than LIKE_TABLE: a
    dropped box like the table (speckled stone, felt) holds no die to search for."""
    return bool(contrast_with_table(frame_bgr, box[None])[0] > LIKE_TABLE)


def _inner_boxes(box: np.ndarray) -> np.ndarray:
    """Squares inside `box` (m, 4): a locator box too big for its die (grown onto a neighbour
    in a crowded tray) holds the die's own box near one of its sides or corners. A long box
    (a key, a label, a cable) gets none: dice seen from above are square."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    if max(w, h) > SQUARE_BOX * min(w, h):
        return np.zeros((0, 4), np.float32)
    out = []
    for f in INNER_SCALES:
        side = min(w, h) * f
        for fx in (0.0, 0.5, 1.0):
            for fy in (0.0, 0.5, 1.0):
                ax, ay = x0 + fx * (w - side), y0 + fy * (h - side)
                out.append((ax, ay, ax + side, ay + side))
    return np.array(out, np.float32).reshape(-1, 4)


def _boxes_nearby(
    locator: ort.InferenceSession, frame_bgr: np.ndarray, box: np.ndarray, threshold: float
) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (m, 4) in frame pixels and scores (m,) that a look at a window around `box`
    finds, nearest the box's centre first."""
    h, w = frame_bgr.shape[:2]
    side = float(max(box[2] - box[0], box[3] - box[1], 2.0))
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    reach = side * WINDOW
    x0, y0 = int(max(cx - reach, 0)), int(max(cy - reach, 0))
    x1, y1 = int(min(cx + reach, w)), int(min(cy + reach, h))
    window = frame_bgr[y0:y1, x0:x1]
    if min(window.shape[:2]) < 8:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    found, found_scores = locate.locate_at(locator, window, LOOK_SIDE, threshold)
    found = found + np.array([x0, y0, x0, y0], np.float32)
    centres = (found[:, :2] + found[:, 2:]) / 2
    order = np.argsort(np.hypot(centres[:, 0] - cx, centres[:, 1] - cy), kind="stable")
    return found[order], found_scores[order]


def _no_larger(inner: np.ndarray, box: np.ndarray) -> bool:
    """Whether `inner` is at most SEEN_LARGER times as wide and as tall as `box`: a die seen in
    a dropped box lies in it; a box much larger holds printed cards or table as well."""
    return bool(np.all(inner[2:] - inner[:2] <= SEEN_LARGER * (box[2:] - box[:2])))


def _covered(inner: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The largest share of each inner box (m,) that one of `boxes` (n, 4) covers."""
    if not len(boxes):
        return np.zeros(len(inner), np.float32)
    overlap = locate.shared_areas(inner, boxes)
    area = np.prod(inner[:, 2:] - inner[:, :2], axis=1)
    return (overlap / np.maximum(area[:, None], 1e-6)).max(1)
