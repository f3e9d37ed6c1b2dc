"""Watch a stream of frames: report a roll once the dice settle, and dice that leave the arena."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import cv2
import numpy as np

from vision.detections import Detections


class Phase(Enum):
    """What the arena is doing."""

    EMPTY = "empty"
    MOVING = "moving"
    STILL = "still"


@dataclass(frozen=True)
class RollSettled:
    """Event: the dice came to rest; these are the dice (voted over several still frames).

    `stayed` (n,) marks the dice that already lay there, with the same pips, when the dice
    last settled: not thrown this time, unless a thrown die came to rest just so (a die left
    in the arena, or a printed pattern read as a die). None: no die lay there before.
    """

    dice: Detections
    stayed: np.ndarray | None = None

    def thrown(self) -> np.ndarray:
        """Which dice (n,) did not lie there before."""
        return np.ones(len(self.dice), bool) if self.stayed is None else ~self.stayed


@dataclass(frozen=True)
class DiceLeft:
    """Event: these dice, seen settled before, are gone from the arena."""

    dice: Detections


Event = RollSettled | DiceLeft


def motion_level(prev: np.ndarray | None, frame_bgr: np.ndarray) -> tuple[float, np.ndarray]:
    """Change between two frames at 80x60 in colour (0-255, a high percentile of the absolute
    difference averaged over the three channels), and the new small frame."""
    shrunk = cv2.resize(frame_bgr, (80, 60), interpolation=cv2.INTER_AREA).astype(np.float32)
    small = np.asarray(cv2.GaussianBlur(shrunk, (3, 3), 0))
    if prev is None or prev.shape != small.shape:
        return 255.0, small
    # Colour, not grey: a red die is about as bright as a mid-grey felt, so in grey it barely
    # shows; the channel mean reacts to a change of brightness as grey does. A high percentile
    # (the 99.9th: about five changed cells) catches one small moving die that a mean would
    # dilute.
    change = np.abs(small - prev).mean(axis=2)
    return float(np.percentile(change, 99.9)), small


def vote(readings: list[Detections], min_share: float = 0.5) -> Detections:
    """One reading from several still frames: dice matched by position, majority pips and
    colour, each from the frames that read it for sure where any did. A die stays unsure, or
    its colour in doubt, where no frame was sure of it or the sure frames disagree; its body
    colour is the frames' median."""
    if not readings:
        return Detections.empty()
    ref = max(readings, key=len)
    if len(ref) == 0:
        return ref
    side = np.maximum(ref.boxes[:, 2:] - ref.boxes[:, :2], 1).mean(1)
    votes: list[list[tuple[Detections, int]]] = [[] for _ in range(len(ref))]
    for det in readings:
        if len(det) == 0:
            continue
        d = np.linalg.norm(det.centres[:, None, :] - ref.centres[None, :, :], axis=2)
        for i in range(len(det)):
            j = int(d[i].argmin())
            if d[i, j] < 0.5 * side[j]:
                votes[j].append((det, i))
    keep, pips, colour, conf, unsure, boxes = [], [], [], [], [], []
    colour_doubt, bodies = [], []
    for j, vs in enumerate(votes):
        if len(vs) < min_share * len(readings):
            continue
        # A die no frame reads for sure (cut by the picture's edge, cocked) stays unsure, however
        # alike its guesses; a colour named in doubt in every frame stays in doubt.
        best_pips, agreeing, sure, in_doubt = _majority(
            [int(d.pips[i]) for d, i in vs], [not d.unsure[i] for d, i in vs]
        )
        best_colour, _, _, colour_in_doubt = _majority(
            [str(d.colour[i]) for d, i in vs], [not d.colour_doubt[i] for d, i in vs]
        )
        keep.append(j)
        pips.append(best_pips)
        colour.append(best_colour)
        colour_doubt.append(colour_in_doubt)
        bodies.append(_median_body([d.body[i] for d, i in vs]))
        confidences = [float(d.confidence[i]) for (d, i), s in zip(vs, sure, strict=True) if s]
        conf.append(float(np.mean(confidences)) * agreeing / len(confidences))
        unsure.append(in_doubt)
        boxes.append(np.median([d.boxes[i] for d, i in vs], axis=0))
    if not keep:
        return Detections.empty()
    k = np.array(keep)
    return Detections(
        np.array(boxes),
        np.array(pips),
        np.array(colour, object),
        ref.size[k],
        np.array(conf),
        np.array(unsure),
        ref.zone[k],
        np.array(colour_doubt, bool),
        body=np.array(bodies, np.float32).reshape(-1, 3),
    )


def _majority(values: list[Any], surely: list[bool]) -> tuple[Any, int, list[bool], bool]:
    """The most common of a die's `values` over the frames, among those read surely (all where
    none is): the value, how many of those gave it, which frames it was chosen among, and
    whether it stays in doubt (no frame sure, fewer than three quarters of those agreeing, or
    fewer than half of all the frames sure)."""
    among = surely if any(surely) else [True] * len(values)
    chosen = [v for v, counted in zip(values, among, strict=True) if counted]
    best, agreeing = Counter(chosen).most_common(1)[0]
    in_doubt = not any(surely) or agreeing < 0.75 * len(chosen) or sum(surely) < len(values) / 2
    return best, agreeing, among, in_doubt


def _median_body(bodies: list[np.ndarray]) -> np.ndarray:
    """The median (3,) of a die's body colours (each (3,), NaN where not measured) over the
    frames that measured it; NaN where none did."""
    measured = [b for b in bodies if np.isfinite(b).all()]
    if not measured:
        return np.full(3, np.nan, np.float32)
    return np.median(np.array(measured, np.float32), axis=0)


def _matches(a: Detections, b: Detections) -> np.ndarray:
    """(len(a), len(b)): True where a die of b lies where one of a lay and shows the same pips."""
    d = np.linalg.norm(a.centres[:, None] - b.centres[None], axis=2)
    side = np.maximum(a.boxes[:, 2:] - a.boxes[:, :2], 1).mean(1)
    return (d < 0.5 * side[:, None]) & (a.pips[:, None] == b.pips[None])


def _same_dice(a: Detections, b: Detections) -> bool:
    """Whether two readings show the same dice in the same places with the same pips."""
    if len(a) != len(b):
        return False
    if not len(a):
        return True
    match = _matches(a, b)
    return bool(match.any(1).all() and match.any(0).all())


@dataclass
class RollWatcher:
    """State machine over frames: EMPTY, MOVING, STILL; emits RollSettled and DiceLeft events."""

    read: Callable[[np.ndarray], Detections]
    still_frames: int = 3
    motion_threshold: float = 12.0
    arena_zone: str | None = None
    patience: int = 6
    phase: Phase = Phase.EMPTY
    _prev: np.ndarray | None = field(default=None, repr=False)
    _still: list[Detections] = field(default_factory=list, repr=False)
    _settled: Detections = field(default_factory=Detections.empty, repr=False)
    _reported: bool = field(default=False, repr=False)
    _waited: int = field(default=0, repr=False)

    def agrees(self, det: Detections) -> bool:
        """Whether a reading shows the dice last reported (so reading again would add nothing)."""
        return _same_dice(self._in_arena(det), self._settled)

    @property
    def waiting(self) -> bool:
        """Whether the watcher is waiting for creeping dice to settle before it reports."""
        return self._waited > 0

    def _in_arena(self, det: Detections) -> Detections:
        """Only the dice in the arena zone (all dice when no arena zone is set)."""
        if self.arena_zone is None:
            return det
        return det.select(det.zone == self.arena_zone)

    def update(self, frame_bgr: np.ndarray) -> list[Event]:
        """Feed the next frame; return the events it completes."""
        level, self._prev = motion_level(self._prev, frame_bgr)
        if level > self.motion_threshold:
            self.phase = Phase.MOVING
            self._still.clear()
            self._waited = 0
            self._reported = False
            return []
        self._still.append(self._in_arena(self.read(frame_bgr)))
        if len(self._still) < self.still_frames:
            return []
        settled = vote(self._still[-self.still_frames :])
        self._still = self._still[-self.still_frames :]
        if self._reported and _same_dice(settled, self._settled):
            return []
        if settled.unsure.any() and self._waited < self.patience:
            # Dice still creeping to rest read badly; a few more frames usually settle them.
            self._waited += 1
            return []
        # A change with no motion seen (a small die slipping in) is reported all the same.
        self._reported = True
        self._waited = 0
        events = self._compare(settled)
        self._settled = settled
        self.phase = Phase.STILL if len(settled) else Phase.EMPTY
        return events

    def _compare(self, new: Detections) -> list[Event]:
        """Events that turn the last settled dice into the new ones."""
        old = self._settled
        stayed: np.ndarray | None = None  # which new dice lay there before
        if len(old):
            gone = np.ones(len(old), bool)
            if len(new):
                same = _matches(old, new)
                gone = np.asarray(~same.any(1))
                stayed = np.asarray(same.any(0))
            if gone.any() and (stayed is None or stayed.all()):
                return [DiceLeft(old.select(gone))]
            if not gone.any() and len(new) == len(old):
                return []  # the same dice: the arena was only disturbed
        return [RollSettled(new, stayed)] if len(new) else []
