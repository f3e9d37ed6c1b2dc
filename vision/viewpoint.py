"""Where the camera stands, and so which way each die's side faces show.

A webcam at the edge of the table sees the dice obliquely: their side faces show below the top
face. Turn the camera, or put it at another edge, and they show beside or above it; a camera
straight above the table sees the side faces of the dice away from the middle of the frame,
toward that middle. The pip readers learned the first view, so each die's crop is turned until
its side faces are below its top face: "down" is toward the foot of the camera.
"""

from __future__ import annotations

import numpy as np

# "bottom": the camera stands beyond the frame's bottom edge (the usual oblique webcam); "left",
# "top", "right" likewise; "above": straight above the frame's centre.
CAMERA_PLACES = ("bottom", "left", "top", "right", "above")
_TOWARD_FOOT = {"bottom": (0.0, 1.0), "left": (-1.0, 0.0), "top": (0.0, -1.0), "right": (1.0, 0.0)}


def place_setting(value: str, name: str = "camera place") -> str | None:
    """The reader's `camera_place` for a setting's value: None for "auto" (judged in each
    frame), else the place; a ValueError naming the setting and the choices otherwise."""
    if value == "auto":
        return None
    if value not in CAMERA_PLACES:
        raise ValueError(f"{name} must be auto or one of {', '.join(CAMERA_PLACES)}, got {value!r}")
    return value


def downs(place: str, frame_shape: tuple[int, ...], boxes: np.ndarray) -> np.ndarray:
    """Unit vectors (n, 2), one per box: the frame direction that is "down" in the die's crop."""
    if place not in CAMERA_PLACES:
        raise ValueError(f"camera place must be one of {', '.join(CAMERA_PLACES)}, got {place!r}")
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if place != "above":
        return np.tile(np.array(_TOWARD_FOOT[place], np.float32), (len(boxes), 1))
    h, w = frame_shape[:2]
    toward = np.array([w / 2, h / 2], np.float32) - (boxes[:, :2] + boxes[:, 2:]) / 2
    length = np.linalg.norm(toward, axis=1, keepdims=True)
    # A die under the camera shows no side face: any way is down, so keep the frame's.
    return np.where(length > 1e-3, toward / np.maximum(length, 1e-3), np.array([0.0, 1.0]))
