"""Learning a table's dice colours from one die of each colour lying in the arena."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

from vision.colour import (
    DEFAULT_COLOURS_BGR,
    Palette,
    bodies_of,
    calibrate_from_frame,
    default_palette,
    to_lab,
)
from vision.reader import ReaderConfig, read_dice

SEPARATE_LAB = 30.0
"""Lab distance below which a built-in colour is dropped beside a calibrated one."""

CALIBRATION_SPREAD = (36.0, 16.0, 16.0)
"""Lab variance added to each calibrated colour (L, a, b): shading the samples did not show."""


class CalibrationError(ValueError):
    """The dice in the picture are not one of each colour asked: the message, and `seen`, how
    many dice the camera read."""

    def __init__(self, message: str, seen: int) -> None:
        super().__init__(message)
        self.seen = seen


def merged_palette(calibrated: Palette) -> Palette:
    """The calibrated colours, plus the built-in ones that no calibrated colour resembles.

    A built-in colour close to a calibrated one (dark blue beside this table's blue) would
    only steal that colour's shaded dice; a colour of this game is calibrated if it is near.
    Each calibrated colour is widened a little, as one die per colour shows few shades.
    """
    near = np.linalg.norm(default_palette().means[:, None] - calibrated.means[None], axis=2)
    rest = [
        n
        for n, d in zip(DEFAULT_COLOURS_BGR, near.min(1), strict=True)
        if n not in calibrated.names and d > SEPARATE_LAB
    ]
    base = default_palette(rest)
    widened = np.array(
        [np.linalg.inv(np.linalg.inv(m) + np.diag(CALIBRATION_SPREAD)) for m in calibrated.inv_cov],
        np.float32,
    )
    return Palette(
        calibrated.names + base.names,
        np.concatenate([calibrated.means, base.means]),
        np.concatenate([widened, base.inv_cov]),
        calibrated.reference_bgr,
    )


def match_names(bgr_boxes: np.ndarray, names: list[str]) -> list[str]:
    """Name each measured die colour so that the total distance to the named colours is least."""
    measured = to_lab(bgr_boxes)
    targets = to_lab(np.array([DEFAULT_COLOURS_BGR[n] for n in names], np.float32))
    cost = np.linalg.norm(measured[:, None] - targets[None], axis=2)
    best = min(
        itertools.permutations(range(len(names))),
        key=lambda p: sum(cost[i, j] for i, j in enumerate(p)),
    )
    return [names[j] for j in best]


def learn_palette(frame: np.ndarray, names: list[str], config: ReaderConfig) -> Palette:
    """This table's palette, learnt from one die of each colour of `names` lying in the arena
    of `frame`; a CalibrationError when the camera reads another number of dice."""
    # Calibration reads with the default palette: the table's own is what it is learning.
    det = read_dice(frame, replace(config, palette=default_palette()))
    if len(det) != len(names):
        raise CalibrationError(
            f"put exactly one die of each colour ({', '.join(names)}) in the arena; "
            f"dice the camera sees: {len(det)}",
            seen=len(det),
        )
    bodies = bodies_of(frame, det)
    matched = match_names(bodies, names)
    return merged_palette(calibrate_from_frame(frame, det.boxes, matched, bodies))
