"""A die's side face boxed as a die of its own: find such boxes, so that a die is read once.

A camera sees the side faces of a die that face it: below the top face from a webcam at the
table's edge, toward the frame's middle from a camera straight above. Near the frame's edge a
camera above sees them large, and the locator may box one beside the die's own box; the pip
reader reads its pips as a die. Such a box lies toward the camera's foot from the die's box,
overlaps it, shows the die's colour, and the two boxes together read as that one die.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from vision import pips, viewpoint
from vision.colour import body_colours, to_lab
from vision.locate import box_sides, shared_areas

# A box is a side face of a die's box, read for sure with pips, when at least OVERLAP of the
# smaller of the two lies in both, its centre lies TOWARD[0]-TOWARD[1] of the die's side from
# the die's centre toward the camera's foot and at most ASIDE of it to either side, its colour
# is the die's (their Lab a-b distance at most HUE_SHARE of the stronger chroma plus HUE_SLACK:
# a side face is darker, not of another hue), and the box around both is read as one die, for
# sure (at least SURE), with the die's pips. Measured in the model card ("A side face read as
# a die, read once").
OVERLAP = 0.3
TOWARD = (0.25, 0.9)
ASIDE = 0.2
HUE_SHARE = 0.4
HUE_SLACK = 8.0
SURE = 0.9


def side_faces(
    readers: list[ort.InferenceSession],
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    pip: np.ndarray,
    unsure: np.ndarray,
    keep: np.ndarray,
    camera_place: str,
    min_pip_prob: float = 0.6,
    mirror: bool = True,
) -> np.ndarray:
    """Which of the kept boxes (n, 4) are the side face of another kept die, seen from
    `camera_place`: a bool array (n,). `pip` and `unsure` are the boxes' readings; both boxes
    must show pips, and the die must be read for sure."""
    face = np.zeros(len(boxes), bool)
    # Every face of a die with pips has pips: a blank box is a blank die, not a side face.
    with_pips = keep & (pip > 0)
    pairs = _placed_as_side_faces(
        frame_bgr.shape, boxes, with_pips & ~unsure, with_pips, camera_place
    )
    pairs = [
        pair
        for pair, alike in zip(pairs, _alike_in_colour(frame_bgr, boxes, pairs), strict=True)
        if alike
    ]
    if not pairs:
        return face
    dice, faces = (np.array(column) for column in zip(*pairs, strict=True))
    unions = np.concatenate(
        [
            np.minimum(boxes[dice, :2], boxes[faces, :2]),
            np.maximum(boxes[dice, 2:], boxes[faces, 2:]),
        ],
        1,
    )
    read, prob, doubt, is_die = pips.read_pips(
        readers, frame_bgr, unions, min_pip_prob, mirror, camera_place
    )
    one_die = is_die & ~doubt & (prob >= SURE) & (read == pip[dice])
    face[faces[one_die]] = True
    return face


def _placed_as_side_faces(
    frame_shape: tuple[int, ...],
    boxes: np.ndarray,
    dice: np.ndarray,
    kept: np.ndarray,
    camera_place: str,
) -> list[tuple[int, int]]:
    """Pairs (die, side face) of box indices: a box in `dice` and a box in `kept` that lies
    where that die's side face shows, seen from `camera_place`."""
    if kept.sum() < 2:
        return []
    downs = viewpoint.downs(camera_place, frame_shape, boxes)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    sides = box_sides(boxes)
    shared = shared_areas(boxes, boxes)
    overlapping = shared >= OVERLAP * np.minimum(sides[:, None], sides[None]) ** 2
    # offset[a, b]: b's centre from a's, in sides of a, along a's down and across it.
    offset = (centres[None] - centres[:, None]) / np.maximum(sides, 1e-3)[:, None, None]
    toward = np.einsum("abk,ak->ab", offset, downs)
    aside = np.abs(offset[..., 0] * downs[:, None, 1] - offset[..., 1] * downs[:, None, 0])
    placed = overlapping & (toward >= TOWARD[0]) & (toward <= TOWARD[1]) & (aside <= ASIDE)
    placed &= dice[:, None] & kept[None]
    np.fill_diagonal(placed, False)
    return [(int(a), int(b)) for a, b in zip(*np.nonzero(placed), strict=True)]


def _alike_in_colour(
    frame_bgr: np.ndarray, boxes: np.ndarray, pairs: list[tuple[int, int]]
) -> list[bool]:
    """For each (die, side face) pair of box indices, whether the two show one colour: their
    bodies' Lab a-b distance is at most HUE_SHARE of the stronger chroma plus HUE_SLACK."""
    if not pairs:
        return []
    lab = to_lab(body_colours(frame_bgr, boxes[np.array(pairs).ravel()])).reshape(-1, 2, 3)
    hue = lab[:, :, 1:]
    apart = np.linalg.norm(hue[:, 0] - hue[:, 1], axis=1)
    chroma = np.linalg.norm(hue, axis=2).max(1)
    return (apart <= HUE_SHARE * chroma + HUE_SLACK).tolist()
