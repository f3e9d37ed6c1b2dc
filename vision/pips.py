"""Read the top face of each die: crop, run the pip reader, turn logits into classes."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from vision import viewpoint
from vision.crops import crop_dice, crop_dice_views

CLASS_BLANK = 0  # a face without pips: the grey dice of Royale
CLASS_UNSURE = 7  # cocked on an edge or cut off by the frame
CLASS_NOT_A_DIE = 8
MIRROR_BELOW = 0.9  # a crop read with less than this top probability is read mirrored too
FIRST_READER_SURE = 0.9  # a face the first reader is this sure of is not read by the others
# A crop the first reader calls no die with this probability or more is read by it alone, not
# mirrored: a speckled table's flecks cost one reading, not six. On the real sets' fit part
# (592 photos) no die was lost at 0.5 or more; on the held-out part one die was at 0.5 and none
# at 0.6 (models/MODEL_CARD.md).
FIRST_READER_NO_DIE = 0.6
SAMPLE_DICE = 12  # the camera's place is judged from this many of the surest boxes (a roll)
# Crops read in one run at most: a tray's hundred crops at once would hold all their activations
# at the same time (about 0.3 MB a crop for the wider readers).
INFER_CHUNK = 32

# The readers' verdict on n boxes: pips (0-6), confidence, unsure flag, is-a-die flag, each (n,).
Reading = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
# The first reader's class probabilities (9,) for crops already read in this frame, by box and
# the frame's down in the crop (their bytes): a crop is cut alike each time, and the reader
# reads a crop alike whatever else is read with it.
FirstReads = dict[bytes, np.ndarray]


def infer(session: ort.InferenceSession, crops: np.ndarray) -> np.ndarray:
    """Class probabilities (n, 9) for crops (n, 3, 40, 40), read INFER_CHUNK crops at a time."""
    if len(crops) == 0:
        return np.zeros((0, 9), np.float32)
    name = session.get_inputs()[0].name
    crops = np.ascontiguousarray(crops, np.float32)
    logits = np.concatenate(
        [
            session.run(None, {name: crops[at : at + INFER_CHUNK]})[0]
            for at in range(0, len(crops), INFER_CHUNK)
        ]
    )
    e = np.exp(logits - logits.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def postprocess(probs: np.ndarray, min_prob: float = 0.6) -> Reading:
    """Pips (0-6), probability, unsure flag and is-a-die flag for each crop."""
    face = probs[:, :7]
    pips = face.argmax(1).astype(np.int8)
    best = probs.argmax(1)
    prob = face.max(1) / np.maximum(face.sum(1), 1e-6)
    # Only a box the reader calls "not a die" outright is dropped; a doubtful one stays, unsure.
    is_die = best != CLASS_NOT_A_DIE
    unsure = (best == CLASS_UNSURE) | (probs[np.arange(len(probs)), pips] < min_prob)
    conf = probs[np.arange(len(probs)), pips] * (1 - probs[:, CLASS_NOT_A_DIE])
    return pips, np.where(unsure, np.minimum(conf, prob * 0.5), conf), unsure, is_die


def read_pips(
    sessions: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    min_prob: float = 0.6,
    mirror: bool = True,
    camera_place: str = "bottom",
    known: FirstReads | None = None,
) -> Reading:
    """Pips, confidence, unsure and is-a-die flags for the dice in `boxes` (models combined).

    The first model reads every crop; the others read only the crops it reads neither as a
    face for sure nor as no die with FIRST_READER_NO_DIE, and the readings of those are
    combined. With `mirror`, crops still not all but sure, and not so called no die, are read
    once more mirrored and the two readings averaged. Clear dice, most of
    them, cost one model's reading. Each crop is turned so that the die's side faces, seen from
    `camera_place`, are below its top face, as the readers learned them. The first reader's
    readings `known` from earlier in the frame are not read again; new ones are added to it.
    """
    down = viewpoint.downs(camera_place, frame_bgr.shape, boxes)
    crops = crop_dice(frame_bgr, boxes, down=down)
    probs = _first_read(sessions[0], crops, _keys(boxes, down), known)
    # A sure face skips the vote, and so does a crop the first reader calls no die surely
    # enough (a speckled table's flecks); one it calls no die less surely is put to the vote.
    no_die = probs[:, CLASS_NOT_A_DIE] >= FIRST_READER_NO_DIE
    unclear = (probs.max(1) < FIRST_READER_SURE) | (probs.argmax(1) >= CLASS_UNSURE)
    unclear &= ~no_die
    if len(sessions) > 1 and unclear.any():
        probs[unclear] = _combine(
            [probs[unclear]] + [infer(s, crops[unclear]) for s in sessions[1:]]
        )
    doubt = (probs.max(1) < MIRROR_BELOW) & ~no_die
    if mirror and doubt.any():
        flipped = np.ascontiguousarray(crops[doubt][..., ::-1])
        again = _combine([infer(s, flipped) for s in sessions])
        probs[doubt] = (probs[doubt] + again) / 2
    return postprocess(probs, min_prob)


def surest_camera_place(
    session: ort.InferenceSession,
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    scores: np.ndarray,
    known: FirstReads | None = None,
) -> str:
    """The camera place (`viewpoint.CAMERA_PLACES`) under which one reader reads the dice in
    `boxes` most surely as faces, judged from the boxes the locator is surest of ("bottom"
    where there are none). With `known`, the first reader's readings (`read_pips`): those
    are not read again, and the new ones are added."""
    places = viewpoint.CAMERA_PLACES
    if not len(boxes):
        return places[0]
    sample = np.asarray(boxes[np.argsort(-scores, kind="stable")[:SAMPLE_DICE]], np.float32)
    downs = [viewpoint.downs(p, frame_bgr.shape, sample) for p in places]
    crops = np.concatenate(crop_dice_views(frame_bgr, sample, downs))
    keys = [key for down in downs for key in _keys(sample, down)]
    face = _first_read(session, crops, keys, known)[:, :7].max(1)
    return places[int(np.argmax(face.reshape(len(places), len(sample)).sum(1)))]


def _keys(boxes: np.ndarray, down: np.ndarray) -> list[bytes]:
    """One key a box (n, 4) for `FirstReads`: its box and down (n, 2) as float32 bytes."""
    rows = np.concatenate(
        [np.asarray(boxes, np.float32).reshape(-1, 4), np.asarray(down, np.float32)], 1
    )
    return [row.tobytes() for row in rows]


def _first_read(
    session: ort.InferenceSession,
    crops: np.ndarray,
    keys: list[bytes],
    known: FirstReads | None,
) -> np.ndarray:
    """The first reader's probabilities (n, 9) for crops (n, 3, 40, 40) keyed `keys`: those in
    `known` taken from it, the others read (and added to it)."""
    if known is None:
        return infer(session, crops).reshape(-1, 9)
    todo = [i for i, key in enumerate(keys) if key not in known]
    if todo:
        for i, row in zip(todo, infer(session, crops[todo]), strict=True):
            known.setdefault(keys[i], row)
    return np.array([known[key] for key in keys], np.float32).reshape(-1, 9)


def _combine(readings: list[np.ndarray]) -> np.ndarray:
    """One class distribution per crop from several readers' (n, 9) probabilities: the
    per-class median, so one dissenting reader of three cannot make a clear die doubtful."""
    median = np.median(np.stack(readings), axis=0)
    return median / np.maximum(median.sum(1, keepdims=True), 1e-6)
