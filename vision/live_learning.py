"""What the live camera learns from the dice it reads: a regular die's side, and the light."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from vision.colour import Palette, bodies_of
from vision.detections import Detections
from vision.light import judged_light
from vision.reader import ReaderConfig
from vision.size import die_sides

# Until the table is calibrated, the light's colour is judged from the body colours of the dice
# of the last rolls, this many at most, each counting by its confidence: a roll shows one
# player's colour, the rolls of a round show them all.
LIGHT_SAMPLES = 48


def regular_side(frame: np.ndarray, det: Detections) -> float | None:
    """The side in pixels of a regular die: the median over three or more sure dice.

    Sizes as read are not trusted here: once a wrong side was learnt, every die would be
    called big and no reading would correct it. A player has at most one Biggy, so the
    median of three or more dice is a regular one.
    """
    sure = ~det.unsure
    if sure.sum() < 3:
        return None
    return float(np.median(die_sides(frame, det.boxes[sure])))


def light_key(palette: Palette) -> tuple[str, ...] | None:
    """The colours in play that the light is judged against; None where it is not judged (a
    calibrated table, or no colours in play)."""
    if palette.reference_bgr is not None or not palette.in_play:
        return None
    return palette.in_play


class SideLearner:
    """A regular die's side, as last measured in a reading of several dice."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._side: float | None = None

    @property
    def side(self) -> float | None:
        """The side learnt (None before)."""
        with self._lock:
            return self._side

    def learn(self, frame: np.ndarray, det: Detections) -> None:
        """Measure the side anew where `det` holds three or more sure dice."""
        side = regular_side(frame, det) if len(det) >= 3 else None
        if side is not None:
            with self._lock:
                self._side = side

    def applied(self, config: ReaderConfig) -> ReaderConfig:
        """The settings with the side learnt where they give none. Size is judged against the
        other dice in the frame; a lone die (often a player's last, the Biggy) has none, so the
        size of regular dice seen earlier stands in."""
        side = self.side
        if config.regular_side_px is None and side is not None:
            return replace(config, regular_side_px=side)
        return config


class LightLearner:
    """The light's colour judged from the dice of the last settled rolls, until calibration."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._light: np.ndarray | None = None
        self._dice = 0
        self._forgotten = 0  # counts the times the light was forgotten
        # Used by the camera thread alone.
        self._colours = np.zeros((0, 3), np.float32)
        self._weights = np.zeros(0, np.float32)
        self._key: tuple[str, ...] | None = None

    def judged(self) -> tuple[np.ndarray | None, int]:
        """The light judged so far (None before) and how many dice it was judged from."""
        with self._lock:
            return self._light, self._dice

    def settings_changed(self, old: Palette, new: Palette) -> None:
        """Forget the light judged where other colours are in play, or the table was calibrated."""
        if light_key(new) != light_key(old):
            with self._lock:
                self._light, self._dice = None, 0
                self._forgotten += 1

    def applied(self, config: ReaderConfig) -> ReaderConfig:
        """The settings with the light judged, where it is judged for their palette."""
        light, _dice = self.judged()
        if light is None or light_key(config.palette) is None:
            return config
        return replace(config, palette=replace(config.palette, light=light))

    def learn(self, frame: np.ndarray, dice: Detections, palette: Callable[[], Palette]) -> None:
        """Judge the light anew from a settled roll's dice and those of the rolls before, for
        the palette of the settings now (`palette` tells it); unless other colours come into
        play meanwhile."""
        with self._lock:
            forgotten = self._forgotten
        palette_now = palette()
        key = light_key(palette_now)
        if key is None:
            return
        if key != self._key:
            self._colours, self._weights = self._colours[:0], self._weights[:0]
            self._key = key
        self._colours = np.concatenate([self._colours, bodies_of(frame, dice)])
        self._colours = self._colours[-LIGHT_SAMPLES:]
        self._weights = np.concatenate([self._weights, dice.confidence])[-LIGHT_SAMPLES:]
        light = judged_light(
            palette_now, self._colours, self._weights, thorough=True, exposure=True
        ).light
        with self._lock:
            if self._forgotten == forgotten:  # else other colours came into play meanwhile
                self._light, self._dice = light, len(self._colours)
