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
# An unsure box read weakly that the checker gives less than this probability of a die is no
# die. Chosen on the real sets' tuning parts and on rendered rows of another seed than the
# model card's (models/MODEL_CARD.md, "Unsure boxes on no die: the die checker").
NO_DIE_BELOW = 0.1
# Only boxes read with less confidence than this are asked: on rendered rows, unsure dice the
# checker doubts are mostly large and grey blank dice read at 0.3-0.65.
WEAK_READING = 0.3
# A die that only the reader's sharper look at an enlarged frame finds (`reader._with_sharp_look`)
# joins where the checker gives it at least this probability: that look also boxes specks and
# tokens. Chosen on the coloured set's tuning part (model card, "A small photo looked at
# sharper").
SHARP_DIE_FROM = 0.5


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
    name = session.get_inputs()[0].name
    logits = session.run(None, {name: np.ascontiguousarray(turned)})[0].reshape(TURNS, -1)
    return (1.0 / (1.0 + np.exp(-logits))).mean(0).astype(np.float32)


def no_die(
    session: ort.InferenceSession,
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    asked: np.ndarray,
    below: float = NO_DIE_BELOW,
) -> np.ndarray:
    """Which boxes (n,), among the `asked` ones, the checker calls no die: a probability of a
    die under `below`. The caller picks the boxes asked (`weak_unsure`)."""
    out = np.zeros(len(boxes), bool)
    idx = np.flatnonzero(asked)
    if len(idx):
        probs = die_probability(session, context_crops(frame_bgr, boxes[idx]))
        out[idx] = probs < below
    return out


def weak_unsure(unsure: np.ndarray, confidence: np.ndarray) -> np.ndarray:
    """The boxes the checker is asked about: flagged unsure and read under WEAK_READING."""
    return np.asarray(unsure, bool) & (np.asarray(confidence) < WEAK_READING)
