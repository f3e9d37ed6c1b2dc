"""A tray's second look where the first doubts: its windows, its boxes and the merge."""

from __future__ import annotations

import numpy as np
from vision_synth import dice_frame

from vision import locate, look_again
from vision.detections import Detections
from vision.onnx_models import LOCATOR_FILE, model_path, open_session


def _dice(boxes, confidence, unsure=None, pips=None) -> Detections:
    """Red dice in `boxes` with these confidences (sure and showing 3 unless told)."""
    n = len(boxes)
    return Detections(
        np.array(boxes, np.float32).reshape(-1, 4),
        [3] * n if pips is None else pips,
        ["red"] * n,
        ["regular"] * n,
        confidence,
        [False] * n if unsure is None else unsure,
    )


def test_windows_reach_around_each_doubtful_box_and_overlapping_ones_are_joined() -> None:
    doubtful = np.array([[100, 100, 120, 120], [125, 100, 145, 120], [400, 300, 420, 320]])
    wins = look_again.windows(doubtful, 20.0, (480, 640, 3))
    # The first two, each grown by a die's side, overlap: one window around both.
    assert wins.tolist() == [[80, 80, 165, 140], [380, 280, 440, 340]]
    at_edge = look_again.windows(np.array([[5, 460, 25, 478]]), 20.0, (480, 640, 3))
    assert at_edge.tolist() == [[0, 440, 45, 480]]
    assert look_again.windows(np.zeros((0, 4)), 20.0, (480, 640, 3)).shape == (0, 4)


def test_windows_joined_into_one_may_then_overlap_a_third() -> None:
    # A and C overlap only once B has joined A: all three end as one window.
    doubtful = np.array([[5, 5, 15, 15], [20, 20, 40, 40], [35, 0, 55, 5]])
    wins = look_again.windows(doubtful, 5.0, (100, 100, 3))
    assert wins.tolist() == [[0, 0, 60, 45]]


def test_a_die_boxed_as_two_is_oversized() -> None:
    boxes = np.array([[0, 0, 20, 20], [0, 0, 26, 26], [0, 0, 40, 20]], np.float32)
    assert look_again.oversized(boxes, 20.0).tolist() == [False, True, True]
    assert not look_again.oversized(boxes, None).any()


def test_the_windows_boxes_are_the_whole_looks_boxes_there() -> None:
    loc = open_session(str(model_path(LOCATOR_FILE)), 1)
    colours = [(40, 40, 200), (200, 200, 200), (40, 160, 220), (160, 60, 40)]
    dice = [
        (70 + 90 * (i % 13), 80 + 110 * (i // 13), 48, colours[i % 4], 1 + i % 6) for i in range(78)
    ]
    frame, _ = dice_frame(dice, np.random.default_rng(8), h=720, w=1280)
    whole, whole_scores = locate.locate_at(loc, frame, 908, 0.2)
    locate._clipped(whole, whole_scores, 1280, 720)
    wins = np.array([[300, 150, 520, 420], [900, 500, 1280, 720]])
    boxes, scores = look_again.located_in(loc, frame, wins, 908, 0.2)
    there = locate.centred_in(wins.astype(np.float32), (whole[:, :2] + whole[:, 2:]) / 2).any(0)
    assert there.sum() >= 10 and len(boxes) == there.sum()
    # Alike, not to the bit: the 8-bit locator scales its activations by what it sees.
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    whole_centres = (whole[there, :2] + whole[there, 2:]) / 2
    nearest = np.linalg.norm(centres[:, None] - whole_centres[None], axis=2).argmin(1)
    assert sorted(nearest.tolist()) == list(range(len(boxes)))
    assert np.abs(boxes - whole[there][nearest]).max() < 1.5
    assert np.abs(scores - whole_scores[there][nearest]).max() < 0.03


def test_the_looks_are_merged_in_the_windows_and_the_first_stands_outside() -> None:
    first = _dice(
        [[0, 0, 20, 20], [100, 100, 140, 120], [200, 200, 220, 220]],
        [0.9, 0.3, 0.9],
        [False, True, False],
    )
    # The larger look reads the wide box as two dice, surely; and reads the die outside the
    # window otherwise, which does not count there.
    larger = _dice(
        [[100, 100, 120, 120], [120, 100, 140, 120], [0, 0, 20, 20]],
        [0.9, 0.9, 0.2],
        pips=[5, 6, 1],
    )
    wins = np.array([[80, 80, 160, 140]])
    got = look_again.merged_in_windows(first, [larger], wins, _surest)
    assert sorted(got.boxes[:, 0].tolist()) == [0, 100, 120, 200]
    assert sorted(got.pips.tolist()) == [3, 3, 5, 6]
    # A die in a window on one die with a die outside it (across the window's edge) is left out.
    across = _dice([[72, 72, 92, 92]], [0.9])
    edge = _dice([[66, 66, 86, 86]], [0.8])
    first = first.joined(edge)
    got = look_again.merged_in_windows(first, [larger.joined(across)], wins, _surest)
    assert sorted(got.boxes[:, 0].tolist()) == [0, 66, 100, 120, 200]


def _surest(looks: list[Detections]) -> Detections:
    """The look whose dice read surest in all, as the reader merges looks."""
    return max(looks, key=lambda look: float(look.confidence.sum()))
