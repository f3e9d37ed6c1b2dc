"""Whether a die read weakly is read for sure: the pip readers' vote on it, plain and mirrored.

A die read for sure is applied at the table unseen, so a wrong one costs more than a die
flagged unsure. The reader's confidence (the locator's score times the pips' probability)
decides most dice; a die just above the reader's bar is kept sure only where all three pip
readers, each on its crop and on the crop mirrored, agree on its pips.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from vision import pips, viewpoint
from vision.crops import crop_dice

# Where the camera's place is not given, it is judged from this many of the frame's surest
# boxes (the reader judges it from pips.SAMPLE_DICE): each costs five readings.
PLACE_SAMPLE = 6


def vote_for_pips(
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    read_pips: np.ndarray,
    camera_place: str,
) -> np.ndarray:
    """For each box (n, 4), the probability that every reader, plain and mirrored, gives the
    pips it was read as (n,): the per-class median of those readings, as one distribution
    over the readers' classes. The crops are turned for `camera_place`, as the reader turns
    them."""
    if not len(boxes):
        return np.zeros(0, np.float32)
    down = viewpoint.downs(camera_place, frame_bgr.shape, boxes)
    crops = crop_dice(frame_bgr, boxes, down=down)
    both = np.concatenate([crops, crops[..., ::-1]])  # plain, then mirrored: one run a reader
    readings = [pips.infer(r, both).reshape(2, len(boxes), -1) for r in readers]
    median = np.median(np.concatenate(readings), axis=0)
    median /= np.maximum(median.sum(1, keepdims=True), 1e-6)
    return median[np.arange(len(boxes)), np.asarray(read_pips, int)]


def doubted_by_vote(
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    read_pips: np.ndarray,
    confidence: np.ndarray,
    unsure: np.ndarray,
    sure_alone: float,
    vote_needed: float,
    camera_place: str | None,
) -> np.ndarray:
    """Which dice not flagged unsure, read with less confidence than `sure_alone`, get less
    than `vote_needed` from the readers' vote on their pips (`vote_for_pips`), a bool array
    (n,). Where the camera's place is not given, the dice are put to the vote as the usual
    oblique webcam sees them; those it doubts, once more as seen from the place judged as the
    reader judges it (from the PLACE_SAMPLE surest boxes), and a die either vote backs is sure.
    """
    doubted = np.zeros(len(boxes), bool)
    weak = np.flatnonzero(~unsure & (confidence < sure_alone))
    if not len(weak):
        return doubted
    first_place = camera_place or viewpoint.CAMERA_PLACES[0]
    vote = vote_for_pips(readers, frame_bgr, boxes[weak], read_pips[weak], first_place)
    doubted[weak] = vote < vote_needed
    if camera_place is not None or not doubted.any():
        return doubted
    sample = np.argsort(-confidence, kind="stable")[:PLACE_SAMPLE]
    place = pips.surest_camera_place(readers[0], frame_bgr, boxes[sample], confidence[sample])
    if place != first_place:
        again = np.flatnonzero(doubted)
        vote = vote_for_pips(readers, frame_bgr, boxes[again], read_pips[again], place)
        doubted[again] = vote < vote_needed
    return doubted
