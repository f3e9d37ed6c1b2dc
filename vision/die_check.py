"""Whether a box the pip readers doubt holds a die at all, judged from a wider crop.

The pip readers see a tight crop of a box's face. A token, a key, a screw head or a fleck of a
speckled table can look like a face there; seen with the table around it, its outline (round,
long, flat) tells it from a die's square body and shadow. The die checker (`die_check.onnx`,
`models/train_die_check.py`) reads a crop twice as wide as the box and gives the probability
that a die lies in its middle. Only boxes the reader already flags unsure, and reads weakly,
are asked: a die read for sure, or an unsure one whose face reads fairly well (a cocked die, a
grey blank die in a shadow), keeps its reading whatever the checker says.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from vision.crops import crop_dice

CHECK_FILE = "die_check.onnx"
CONTEXT_SIZE = 40  # px: the checker's crop side
CONTEXT_MARGIN = 2.0  # the crop's side, in box sides: the box and half a box around it
# Each crop is read at this many quarter turns and the probabilities averaged: read once, a
# small flat die showing 2 could fall under NO_DIE_BELOW at one turn (6 of 480 drawn dice).
TURNS = 4
# An unsure box read weakly (under WEAK_READING) that the checker gives less than this
# probability of a die is no die. Chosen on the real sets' tuning parts and on rendered rows of
# another seed than the model card's (models/MODEL_CARD.md, "Unsure boxes on no die: the die
# checker").
NO_DIE_BELOW = 0.1
# On rendered rows, unsure dice the checker doubts are mostly large and grey blank dice read at
# 0.3-0.65: an unsure box read at WEAK_READING or more, showing pips, is no die only under
# READ_NO_DIE_BELOW (model card, "Unsure boxes read fairly well, and dice read for sure, put
# to the die checker").
WEAK_READING = 0.3
READ_NO_DIE_BELOW = 0.05
# An unsure box read blank at WEAK_READING or more is no die under this. The checker has learnt
# grey blank dice on a light grey tray beside round grey things (caps, magnets, screws, lenses):
# on rendered scenes of other seeds it gave none of 28 such dice less, and 24 of 72 such boxes
# on no die (model card, "The die checker taught a light grey tray with round things, and
# asked about unsure blanks").
BLANK_NO_DIE_BELOW = 0.05
# A die read for sure that the checker gives less than this would be flagged unsure: coins,
# screw heads and keys read as a blank or a 1 for sure are, but so are 16 % of rendered grey
# blank dice read for sure and 11 % of the simulated table's dice (its grey blanks and black
# 1s), so it is off (0) until the checker knows those faces; `ReaderConfig(doubt_sure_below=)`.
DOUBT_SURE_BELOW = 0.0
# A die read for sure as a 1 whose outline is round (vision/round_body.py) is flagged unsure
# under this (one read blank, whatever the checker says; 0 turns both off): on rendered tables
# among clutter, about half the round things read so are round enough to be asked, and no die
# read blank or 1 for sure, rendered, simulated or in the real sets' training parts, was both
# round and under it (model card, "A die read blank or 1 whose outline is round is doubted").
ROUND_DOUBT_BELOW = 0.5
# An unsure box whose outline is round is no die under this: on rendered clutter, 31 of the 36
# round unsure boxes on no die fall under it; the 3 round unsure dice of the real training parts
# are read 0.39-0.97 (same section).
ROUND_NO_DIE_BELOW = 0.2
# A die that only the reader's sharper look at an enlarged frame finds (`reader._with_sharp_look`)
# joins where the checker gives it at least this probability: that look also boxes specks and
# tokens. Chosen on the coloured set's tuning part (model card, "A small photo looked at
# sharper").
SHARP_DIE_FROM = 0.5
# A die that the finer look at a frame shrunk for its large dice reads for sure, but of another
# size than the frame's sure dice or on a weak box of the first look
# (`reader._with_finer_look`), joins where the checker gives it at least this. On the grey
# photos' fit part: 0.3 and 0.5 find the same dice, 0.8 two fewer (model card, "Large dice
# read again").
FINER_DIE_FROM = 0.5
# A die that the finer look sees but reads weakly, of the frame's dice size and on no die of its
# first look, joins flagged unsure where the checker gives it at least this. On the grey photos'
# training part 0.5 and 0.6 find 4 dice more and 0.85 one; on its tuning part 0.5 and 0.6 one
# and 0.7 none (model card, "Large dice the finer look sees but cannot read, kept unsure").
FINER_SEEN_FROM = 0.6
# A die that only the look at a speckled frame smoothed finds (`reader._with_smooth_look`) joins
# where the checker gives it at least this, as a die of the sharper look does: that look also
# boxes flecks and board print. On the real sets' training parts 0.5, 0.7 and 0.85 join 6, 5
# and 4 more coloured dice, with 8, 5 and 4 more unsure boxes on no die per 100 photos (model
# card, "A speckled frame looked at smoothed").
SMOOTH_DIE_FROM = 0.5


def context_crops(frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Crops (n, 3, CONTEXT_SIZE, CONTEXT_SIZE), float32 BGR in [0, 255], each a square
    CONTEXT_MARGIN box sides wide around its box, the frame's down kept."""
    return crop_dice(frame_bgr, boxes, size=CONTEXT_SIZE, margin=CONTEXT_MARGIN)


def die_probability(session: ort.InferenceSession, crops: np.ndarray) -> np.ndarray:
    """The probability (n,) that each context crop holds a die in its middle: the mean of the
    checker's readings of the crop at its four quarter turns (`TURNS`)."""
    if not len(crops):
        return np.zeros(0, np.float32)
    crops = np.asarray(crops, np.float32)
    turned = np.concatenate([np.rot90(crops, k, (2, 3)) for k in range(TURNS)])
    return _readings(session, turned).reshape(TURNS, -1).mean(0).astype(np.float32)


def under(
    session: ort.InferenceSession, crops: np.ndarray, below: float | np.ndarray
) -> np.ndarray:
    """Which context crops (n,) the checker gives less than `below` (one bar, or one a crop)
    of holding a die: the mean of its readings at the four quarter turns, as
    `die_probability`. A crop whose first reading is TURNS times its bar or more cannot fall
    under it, whatever the other turns read: it is read once."""
    bars = np.broadcast_to(np.asarray(below, np.float32), (len(crops),))
    out = np.zeros(len(crops), bool)
    asked = np.flatnonzero(bars > 0)
    if not len(asked):
        return out
    crops = np.asarray(crops, np.float32)[asked]
    first = _readings(session, crops)
    maybe = np.flatnonzero(first < TURNS * bars[asked])
    if len(maybe):
        turned = np.concatenate([np.rot90(crops[maybe], k, (2, 3)) for k in range(1, TURNS)])
        rest = _readings(session, turned).reshape(TURNS - 1, -1).sum(0)
        out[asked[maybe]] = (first[maybe] + rest) / TURNS < bars[asked[maybe]]
    return out


def _readings(session: ort.InferenceSession, crops: np.ndarray) -> np.ndarray:
    """The checker's probability (n,) of a die for each crop, read as it is."""
    name = session.get_inputs()[0].name
    logits = session.run(None, {name: np.ascontiguousarray(crops)})[0].reshape(-1)
    return (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)


def no_die(
    session: ort.InferenceSession,
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    asked: np.ndarray,
    below: float | np.ndarray = NO_DIE_BELOW,
) -> np.ndarray:
    """Which boxes (n,), among the `asked` ones, the checker gives less than `below` (one bar,
    or one a box; a bar of 0 asks nothing) of holding a die. The caller picks the boxes."""
    bars = np.where(asked, np.broadcast_to(np.asarray(below, np.float32), (len(boxes),)), 0.0)
    out = np.zeros(len(boxes), bool)
    idx = np.flatnonzero(bars > 0)
    if len(idx):
        out[idx] = under(session, context_crops(frame_bgr, boxes[idx]), bars[idx])
    return out


def weak_unsure(unsure: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """The boxes the checker is asked about: flagged unsure and read under WEAK_READING."""
    return np.asarray(unsure, bool) & (np.asarray(confidence) < WEAK_READING)
