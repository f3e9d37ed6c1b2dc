"""Regular or big: dice are sized by the area they cover against the others in the frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_synth import dice_frame

from vision.size import sizes

RED = (50, 45, 180)


def _turned(frame: np.ndarray, box: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Turn the die in one box by `angle` degrees and return the frame and its new box."""
    x0, y0, x1, y1 = box.astype(int)
    c = ((x0 + x1) / 2, (y0 + y1) / 2)
    m = cv2.getRotationMatrix2D(c, angle, 1.0)
    pad = int((x1 - x0) * 0.35)
    region = (slice(y0 - pad, y1 + pad), slice(x0 - pad, x1 + pad))
    turned = cv2.warpAffine(
        frame, m, (frame.shape[1], frame.shape[0]), borderMode=cv2.BORDER_REPLICATE
    )
    out = frame.copy()
    out[region] = turned[region]
    half = (x1 - x0) / 2 * (abs(np.cos(np.radians(angle))) + abs(np.sin(np.radians(angle))))
    return out, np.array([c[0] - half, c[1] - half, c[0] + half, c[1] + half], np.float32)


@pytest.mark.parametrize(
    ("sides", "expected"),
    [
        ([40, 40, 40, 60], ["regular"] * 3 + ["big"]),  # one Biggy among regular dice
        ([40, 42, 38, 40], ["regular"] * 4),  # small differences are not a Biggy
        ([40, 60], ["regular", "big"]),  # two dice: the smaller one is the reference
        ([60], ["regular"]),  # one die alone cannot be compared
    ],
)
def test_sizes(sides, expected) -> None:
    dice = [(80 + 110 * k, 200, s, RED, 3) for k, s in enumerate(sides)]
    frame, boxes = dice_frame(dice, np.random.default_rng(0))
    assert list(sizes(frame, boxes)) == expected


def test_turned_regular_die_is_not_big() -> None:
    # A die turned 45 degrees has a box 1.41 times wider; it covers the same area.
    dice = [(80 + 110 * k, 200, 40, RED, 3) for k in range(4)]
    frame, boxes = dice_frame(dice, np.random.default_rng(1))
    frame, boxes[0] = _turned(frame, boxes[0], 45)
    assert list(sizes(frame, boxes)) == ["regular"] * 4
