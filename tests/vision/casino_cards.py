"""Casino cards drawn by hand for the row's doubt rules: a card of one colour with rectangles of
die colours on it, and the dice a reader would have read there."""

from __future__ import annotations

import numpy as np

from vision.colour import default_palette
from vision.detections import Detections
from vision.reader import ReaderConfig
from vision.zones import Zones

CARD = (40, 110, 40)  # BGR
SIDE = 30.0  # a regular die's covered side on the drawn card, px
RED = (30, 30, 200)
BLUE = (200, 60, 30)
WHITE = (235, 235, 235)
NO_ZONES = Zones((), ())
COLOURED = ReaderConfig(
    threads=1,
    camera_place="above",
    palette=default_palette().in_play_only(("red", "blue", "white")),
)


def card(*fills: tuple[tuple[int, int, int, int], tuple[int, int, int]]) -> np.ndarray:
    """A card with each fill drawn as a rectangle (box, BGR) with two dark pips in it."""
    frame = np.zeros((200, 400, 3), np.uint8)
    frame[:] = CARD
    for (x0, y0, x1, y1), bgr in fills:
        frame[y0:y1, x0:x1] = bgr
        for px, py in ((x0 + 8, y0 + 8), (x1 - 10, y1 - 10)):
            if x0 <= px < x1 - 3 and y0 <= py < y1 - 3:
                frame[py : py + 3, px : px + 3] = (20, 20, 20)
    return frame


def row_dice(rows, zone: str = "casino2", confidence: float = 0.9) -> Detections:
    """Dice read: rows of (box, colour, pips, size, unsure), each read with `confidence`."""
    n = len(rows)
    return Detections(
        np.array([r[0] for r in rows], np.float32).reshape(-1, 4),
        np.array([r[2] for r in rows], np.int8),
        np.array([r[1] for r in rows], object),
        np.array([r[3] for r in rows], object),
        np.full(n, confidence, np.float32),
        np.array([r[4] for r in rows], bool),
        np.array([zone] * n, object),
        np.zeros(n, bool),
    )
