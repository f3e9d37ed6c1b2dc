"""The camera's place remembered over the live camera's frames.

Where the settings leave the camera's place to the reader, each frame is read first as the usual
oblique webcam sees it, and where its dice read doubtfully from there, the readers read the
surest boxes turned for every place (vision/viewpoint.py) and the frame is read again from the
best: a frame in doubt is read about three times. A camera on its stand does not move between
frames, so each frame is read first from the place the frame before was read from (the
reader's `likely_place`); the place is searched for only where the dice read doubtfully from
there too, and a frame whose dice read plainly from the remembered place is read once.
"""

from __future__ import annotations

from dataclasses import replace

from vision.detections import Detections
from vision.reader import ReaderConfig

MIN_SURE_DICE = 3  # a place is remembered only from a frame with this many dice read for sure


class PlaceLearner:
    """The camera's place the last frame of several sure dice was read from, for the next
    frame. Used by one thread (the camera's): `applied` before each frame is read, `learn`
    after."""

    def __init__(self) -> None:
        self._place: str | None = None
        self._heard: list[str] = []  # the places the reader told while reading this frame

    @property
    def place(self) -> str | None:
        """The place remembered (None before one is)."""
        return self._place

    def applied(self, config: ReaderConfig) -> ReaderConfig:
        """The settings for the next frame: the remembered place as the likely one, and the
        reader to tell the place it reads from. Settings that name a place, or need no pips
        read, are left as they are."""
        self._heard = []
        if config.camera_place is not None or not config.pips_needed:
            return config
        return replace(config, likely_place=self._place, place_heard=self._heard.append)

    def learn(self, det: Detections) -> None:
        """Remember the place the frame read with the last `applied` settings was read from
        (its first look's), where it holds MIN_SURE_DICE dice read for sure or more."""
        heard, self._heard = self._heard, []
        if heard and int((~det.unsure).sum()) >= MIN_SURE_DICE:
            self._place = heard[0]

    def forget(self) -> None:
        """Read the next frame first as the usual webcam sees it (the camera was opened
        again, perhaps elsewhere)."""
        self._place = None
