"""Draw what was read on a frame, so a person can check it at a glance."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detections import Detections

_INK = {
    "red": (0, 0, 255),
    "blue": (255, 80, 0),
    "darkblue": (140, 40, 0),
    "green": (0, 200, 0),
    "yellow": (0, 230, 255),
    "white": (255, 255, 255),
    "black": (40, 40, 40),
    "purple": (200, 0, 160),
    "grey": (150, 150, 150),
    "orange": (0, 140, 255),
    "pink": (200, 120, 255),
}


_FONT, _SCALE = cv2.FONT_HERSHEY_SIMPLEX, 0.45


def draw_detections(frame_bgr: np.ndarray, det: Detections) -> np.ndarray:
    """A copy of the frame with a box and a short label for each die; unsure dice in red, their
    label ending in a question mark."""
    out = frame_bgr.copy()
    for i in range(len(det)):
        x0, y0, x1, y1 = (int(round(v)) for v in det.boxes[i])
        ink = (0, 0, 255) if det.unsure[i] else _INK.get(str(det.colour[i]), (0, 255, 0))
        cv2.rectangle(out, (x0, y0), (x1, y1), (0, 0, 0), 3)
        cv2.rectangle(out, (x0, y0), (x1, y1), ink, 1)
        pips = "blank" if det.pips[i] == 0 else str(int(det.pips[i]))
        text = f"{pips} {det.colour[i]}{' BIG' if det.size[i] == 'big' else ''}"
        if det.unsure[i]:
            text += " ?"
        org = label_origin(text, (x0, y0), out.shape)
        cv2.putText(out, text, org, _FONT, _SCALE, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, org, _FONT, _SCALE, ink, 1, cv2.LINE_AA)
    return out


def label_origin(
    text: str, corner: tuple[int, int], frame_shape: tuple[int, ...]
) -> tuple[int, int]:
    """Where a die's label starts: above its box's top-left corner, moved in so that all of it
    shows on the frame (a die at the right edge, or at the top)."""
    (width, height), _ = cv2.getTextSize(text, _FONT, _SCALE, 3)
    x = max(min(corner[0], frame_shape[1] - width - 2), 0)
    return x, max(corner[1] - 4, height + 2)
