"""Tiny synthetic frames for tests: flat dice with pips on a textured table under a light gain."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detections import Detections
from vision.pip_layout import PIP_LAYOUT

WARM = np.array([0.78, 1.0, 1.18])  # BGR gains of a warm bulb
COOL = np.array([1.18, 1.0, 0.85])  # and of cold daylight


def pip_colour(body: np.ndarray) -> tuple[float, float, float]:
    """Dark pips on light dice, white ones on dark dice."""
    return (20.0, 20.0, 20.0) if body @ np.array([0.11, 0.59, 0.3]) > 120 else (235.0,) * 3


def dice_frame(
    dice: list[tuple[float, float, float, tuple[int, int, int], int]],
    rng: np.random.Generator,
    table=(150, 180, 200),
    gain=(1.0, 1.0, 1.0),
    h: int = 480,
    w: int = 640,
) -> tuple[np.ndarray, np.ndarray]:
    """Frame and boxes (n, 4) for dice given as (cx, cy, side, body BGR, pips)."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = table
    img += rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    boxes = []
    for cx, cy, side, body, pips in dice:
        shade = rng.uniform(0.92, 1.06)
        col = tuple(float(v) * shade for v in body)
        x0, y0 = int(cx - side / 2), int(cy - side / 2)
        x1, y1 = int(cx + side / 2), int(cy + side / 2)
        cv2.rectangle(img, (x0, y0), (x1, y1), col, -1, cv2.LINE_AA)
        for u, v in PIP_LAYOUT.get(pips, []):
            cv2.circle(
                img,
                (int(cx + u * side), int(cy + v * side)),
                max(int(side * 0.09), 2),
                pip_colour(np.array(body, float)),
                -1,
                cv2.LINE_AA,
            )
        boxes.append((x0, y0, x1, y1))
    img = img * np.asarray(gain, np.float32)[None, None, :]
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), np.array(boxes, np.float32).reshape(-1, 4)


def white_dice(
    boxes: list[list[float]],
    pips: list[int],
    unsure: list[bool] | None = None,
    confidence: list[float] | None = None,
) -> Detections:
    """Regular white dice as the reader gives them: boxes (x0, y0, x1, y1), pips, unsure
    flags (none unsure by default) and confidences (0.9 by default)."""
    n = len(boxes)
    return Detections(
        np.array(boxes, np.float32).reshape(-1, 4),
        np.array(pips),
        np.full(n, "white", object),
        np.full(n, "regular", object),
        np.array(confidence or [0.9] * n, np.float32),
        np.array(unsure or [False] * n, bool),
    )


def sim_table_frame(width: int, height: int, colour: str = "red") -> np.ndarray:
    """A frame of the simulated felt table with 12 dice of one colour showing 1-6 in turn."""
    from vision.simtable import SimDie, SimulatedTable

    table = SimulatedTable(seed=0, width=width, height=height, die_side=50.0 * height / 480)
    table.open()
    table.lay([SimDie(colour, 1 + k % 6) for k in range(12)])
    return table.read()


def granite_top(seed: int, height: int = 480, width: int = 640) -> np.ndarray:
    """A bare speckled granite table top as a frame (`models.clutter.granite`)."""
    from models.clutter import granite

    return np.clip(granite(np.random.default_rng(seed), height, width), 0, 255).astype(np.uint8)
