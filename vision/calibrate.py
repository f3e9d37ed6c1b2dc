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
    return Palette(
        calibrated.names + base.names,
        np.concatenate([calibrated.means, base.means]),
        np.concatenate([_widened(calibrated.inv_cov), base.inv_cov]),
        calibrated.reference_bgr,
    )


def _widened(inv_cov: np.ndarray) -> np.ndarray:
    """Calibrated colours' inverse covariances (k, 3, 3) with CALIBRATION_SPREAD added."""
    return np.array(
        [np.linalg.inv(np.linalg.inv(m) + np.diag(CALIBRATION_SPREAD)) for m in inv_cov],
        np.float32,
    ).reshape(-1, 3, 3)


def partly_learnt(learnt: Palette, judged: Palette) -> Palette:
    """The colours `learnt` from the table's own dice (calibrated, some of the game's only),
    widened as in `merged_palette`, with the other colours of the table's palette `judged`
    (uncalibrated, under the light judged from the rolls) where that light puts them: each
    built-in colour as a die of it looks under the light, its BGR divided by the light's gain.
    Those are `guessed`; of the ones not in play, only those that no learnt colour resembles
    are kept, as in `merged_palette`."""
    gain = np.ones(3, np.float32) if judged.light is None else judged.light
    rest = [n for n in judged.names if n not in learnt.names and n in DEFAULT_COLOURS_BGR]
    bgr = np.array([DEFAULT_COLOURS_BGR[n] for n in rest], np.float32).reshape(-1, 3)
    means = to_lab(np.clip(bgr / gain, 0, 255))
    near = np.linalg.norm(means[:, None] - learnt.means[None], axis=2).min(1, initial=np.inf)
    kept = [i for i, n in enumerate(rest) if n in judged.in_play or near[i] > SEPARATE_LAB]
    guessed = tuple(rest[i] for i in kept)
    return Palette(
        learnt.names + guessed,
        np.concatenate([learnt.means, means[kept]]).astype(np.float32),
        np.concatenate([_widened(learnt.inv_cov), _round_blobs(guessed)]),
        learnt.reference_bgr,
        judged.in_play,
        blank_only=judged.blank_only,
        guessed=guessed,
    )


def _round_blobs(names: tuple[str, ...]) -> np.ndarray:
    """The built-in colours' inverse covariances (k, 3, 3) for `names` (none: (0, 3, 3))."""
    if not names:
        return np.zeros((0, 3, 3), np.float32)
    return default_palette(names).inv_cov


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
