"""Draw what was read on a frame, so a person can check it at a glance."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detections import Detections

_INK = {"red": (0, 0, 255), "blue": (255, 80, 0), "darkblue": (140, 40, 0), "green": (0, 200, 0),
        "yellow": (0, 230, 255), "white": (255, 255, 255), "black": (40, 40, 40),
        "purple": (200, 0, 160), "grey": (150, 150, 150), "orange": (0, 140, 255),
        "pink": (200, 120, 255)}


def draw_detections(frame_bgr: np.ndarray, det: Detections) -> np.ndarray:
    """A copy of the frame with a box and a short label for each die; unsure dice dashed in red."""
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
        org = (x0, max(y0 - 4, 12))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.45, ink, 1, cv2.LINE_AA)
    return out
