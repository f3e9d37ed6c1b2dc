"""The drawing of what was read: every label shows whole on the frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detections import Detections
from vision.draw import _FONT, _SCALE, draw_detections, label_origin

LABEL = "6 darkblue BIG ?"


@pytest.mark.parametrize(
    "corner",
    [
        (100, 200),  # room above the box: the label starts at its corner
        (630, 200),  # a die at the right edge: the label moves in
        (300, 0),  # a die at the top: the label moves down
    ],
)
def test_a_die_label_shows_whole_on_the_frame(corner) -> None:
    (width, height), _ = cv2.getTextSize(LABEL, _FONT, _SCALE, 3)
    x, y = label_origin(LABEL, corner, (480, 640, 3))
    assert 0 <= x <= 640 - width and height <= y <= 480
    if corner == (100, 200):
        assert (x, y) == (100, 196)


def test_an_unsure_die_at_the_edge_is_drawn_in_red_with_its_label_inside() -> None:
    frame = np.full((480, 640, 3), 200, np.uint8)
    det = Detections(
        np.array([[600.0, 150.0, 639.0, 230.0]]), [2], ["white"], ["regular"], [0.01], [True]
    )
    out = draw_detections(frame, det)
    red = (out[..., 2] > 200) & (out[..., 1] < 60) & (out[..., 0] < 60)
    assert red[150:231, 600:640].any()  # the box
    (width, _), _ = cv2.getTextSize("2 white ?", _FONT, _SCALE, 3)
    assert red[:150, 640 - width - 2 : 600].any()  # the label, moved left of the box's corner
