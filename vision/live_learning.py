"""What the live camera learns from the dice it reads: a regular die's side, and the light."""

from __future__ import annotations

import functools
import itertools
import math
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from vision.calibrate import merged_palette, partly_learnt
from vision.colour import L_WEIGHT, Palette, background_colour, bodies_of, calibrate, to_lab
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


# Until the table is calibrated, the rolls the table applied teach the camera their dice's
# colours: a roll is one player's dice (with white ones or kickers in some games), so the game
# knows each die's colour once the roll is applied, read for sure or put right by a person.
# Once every colour rolled in the game has shown PLAY_DICE dice, the camera names colours from
# a palette learnt from the last PLAY_KEPT dice of each, as calibration would.
PLAY_DICE = 2  # one die, as calibration takes, read rendered rolls a little better; two
# keep one misread or glared die from making a colour alone
PLAY_KEPT = 32
SETTLED_KEPT = 4  # the last settled rolls whose body colours wait for the table's word


@dataclass(frozen=True, eq=False)
class _Settled:
    """A settled roll's dice as read, with their body colours and the table's colour."""

    dice: Detections
    bodies: np.ndarray
    table: np.ndarray


def assigned_by_counts(lab: np.ndarray, distances: np.ndarray, counts: Sequence[int]) -> np.ndarray:
    """The colour (index k) of each of n dice, exactly counts[k] of each (summing to n): the
    dice grouped so that each group's bodies, Lab (n, 3), lie closest together (lightness
    counting L_WEIGHT), each group then given the colour its size and `distances` (n, k) to
    the palette's colours fit best (a tenth as much). A roll's dice fall into groups of
    their own whatever the light makes of them: eight pale blue dice and two white ones are
    told apart by their number, though a wrong light names them all white. Beyond
    MOST_GROUPINGS groupings, each die goes to its nearest colour as the counts allow."""
    n, k = distances.shape
    if sum(counts) != n or len(counts) != k:
        raise ValueError(f"counts {list(counts)} do not share out {n} dice among {k} colours")
    cost = np.where(np.isfinite(distances), distances, 1e6)
    if _groupings(counts) > MOST_GROUPINGS:
        return _nearest_by_counts(cost, counts)
    scaled = np.asarray(lab, np.float64) * [L_WEIGHT, 1.0, 1.0] / SCATTER_UNIT
    colours = np.array(list(_labelled(n, tuple(counts))), np.int64)  # (g, n)
    one_hot = colours[:, :, None] == np.arange(k)  # (g, n, k)
    # A group's scatter is its sum of squared lengths less its sum's squared length over its
    # size; the first part is the same for every grouping.
    sums = np.einsum("gnk,nd->gkd", one_hot, scaled)
    scatter = -(np.einsum("gkd,gkd->gk", sums, sums) / np.maximum(counts, 1)).sum(1)
    fit = np.einsum("gnk,nk->g", one_hot, cost)
    return colours[int(np.argmin(scatter + 0.1 * fit))]


# Lab units in which a body's distance from its group's mean counts one (the built-in colours'
# spread), and the most groupings of a roll's dice tried.
SCATTER_UNIT = 12.0
MOST_GROUPINGS = 5000


def _groupings(counts: Sequence[int]) -> int:
    """How many ways n dice share out into groups of `counts`."""
    return math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)


def _labelled(n: int, counts: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way of giving n dice colours 0, 1, ... with counts[0], counts[1], ... each: the
    colour of each die, in order."""
    if not counts:
        yield ()
        return
    for members in itertools.combinations(range(n), counts[0]):
        others = [i for i in range(n) if i not in members]
        for rest in _labelled(len(others), counts[1:]):
            colour = [0] * n
            for i, c in zip(others, rest, strict=True):
                colour[i] = c + 1
            yield tuple(colour)


def _nearest_by_counts(cost: np.ndarray, counts: Sequence[int]) -> np.ndarray:
    """Each die's colour as the counts allow, at the least total `cost` (n, k)."""
    n, k = cost.shape

    @functools.cache
    def best(i: int, left: tuple[int, ...]) -> tuple[float, tuple[int, ...]]:
        if i == n:
            return 0.0, ()
        options = []
        for c in range(k):
            if left[c]:
                rest, tail = best(i + 1, left[:c] + (left[c] - 1,) + left[c + 1 :])
                options.append((float(cost[i, c]) + rest, (c, *tail)))
        return min(options)

    return np.array(best(0, tuple(int(c) for c in counts))[1], np.int64)


class ColoursFromPlay:
    """A palette learnt from the dice of the rolls the table applied, until calibration."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._settled: deque[_Settled] = deque(maxlen=SETTLED_KEPT)
        self._samples: dict[str, np.ndarray] = {}
        self._tables = np.zeros((0, 3), np.float32)
        self._key: tuple[str, ...] | None = None
        # The colours rolled that have PLAY_DICE dice, calibrated (None before any has), and
        # the palette learnt from play once every colour rolled has (None before).
        self._part: Palette | None = None
        self._palette: Palette | None = None

    def learnt(self) -> Palette | None:
        """The palette learnt from play (None before every colour rolled was seen)."""
        with self._lock:
            return self._palette

    def learnt_so_far(self) -> tuple[tuple[str, ...], bool]:
        """The colours learnt from play so far, named from their own dice (none before), and
        whether they are every colour the game rolls: a colour in play that no roll applied
        has shown enough dice of (white neutral dice whose rolls taught nothing) is still named
        by the light judged."""
        with self._lock:
            names = () if self._part is None else self._part.names
            return names, self._palette is not None

    def settings_changed(self, old: Palette, new: Palette) -> None:
        """Forget what was learnt where other colours are in play, or the table was calibrated."""
        if light_key(new) != light_key(old):
            with self._lock:
                self._samples, self._tables = {}, self._tables[:0]
                self._key, self._part, self._palette = None, None, None

    def applied(self, config: ReaderConfig) -> ReaderConfig:
        """The settings with the palette learnt from play, where one is learnt for the colours
        their palette has in play (none on a calibrated table): a die is still named the
        nearest colour in play where one lies near, and a die showing pips none of their
        blank-only colours. Until every colour rolled is learnt, the colours learnt so far
        give a second opinion on the names their palette gives (`learnt_colours`: with the
        others where their palette's light puts them, `partly_learnt`)."""
        palette = config.palette
        with self._lock:
            part, learnt, key = self._part, self._palette, self._key
        if part is None or light_key(palette) != key:
            return config
        if learnt is None:
            return replace(config, learnt_colours=partly_learnt(part, palette))
        in_play, blank_only = palette.in_play, palette.blank_only
        return replace(config, palette=replace(learnt, in_play=in_play, blank_only=blank_only))

    def to_json(self) -> dict[str, Any] | None:
        """What was learnt, JSON-ready, for the game file (None before anything was): the
        colours in play it was learnt for, each colour's body colours and the table's."""
        with self._lock:
            if self._key is None or not self._samples:
                return None
            return {
                "key": list(self._key),
                "samples": {name: _rounded(bgr) for name, bgr in self._samples.items()},
                "tables": _rounded(self._tables),
            }

    def restore(self, data: object, palette: Palette) -> bool:
        """Take up what `to_json` wrote, for the table's `palette` (uncalibrated, the colours
        in play as now), where nothing is learnt yet: after a restart in the middle of a game.
        Whether it was taken: not where it was learnt for other colours in play, is not as
        `to_json` writes it, or something is learnt already."""
        key = light_key(palette)
        learnt = _learnt_from_json(data)
        if key is None or learnt is None or tuple(learnt[0]) != key:
            return False
        _key, samples, tables = learnt
        rolled = [name for name in key if name not in palette.blank_only]
        with self._lock:
            if self._samples:
                return False
            self._samples, self._tables, self._key = samples, tables, key
            self._part, self._palette = _learnt_palettes(samples, rolled, tables)
        return True

    def settled(self, frame: np.ndarray, dice: Detections) -> None:
        """Keep a settled roll's body colours, for when the table applies the roll."""
        bodies = bodies_of(frame, dice)
        record = _Settled(dice, bodies, background_colour(frame, dice.boxes))
        with self._lock:
            self._settled.append(record)

    def roll_applied(
        self, dice: Detections, used: Sequence[bool], colours: Mapping[str, int], palette: Palette
    ) -> bool:
        """Learn from a roll the table applied: the dice of a settled roll (the very object the
        camera reported), those `used` for it, and how many dice of each colour the roll held;
        whether anything was learnt.
        The dice are shared among the colours by `assigned_by_counts`, the palette learnt so
        far (else `palette`, the table's under the light judged) breaking ties. Nothing is
        learnt where the counts do not match the dice used (a person added a die, or left one
        out without striking its box out: which box is which is unknown), nor for a roll the
        camera no longer holds, nor on a calibrated table."""
        key, blank_only = light_key(palette), palette.blank_only
        with self._lock:
            record = next((r for r in self._settled if r.dice is dice), None)
            if self._key == key and self._part is not None:
                palette = self._palette or partly_learnt(self._part, palette)
        used_mask = np.asarray(used, bool)
        if key is None or record is None or len(used_mask) != len(dice):
            return False
        bodies = record.bodies[used_mask]
        bodies = bodies[np.isfinite(bodies).all(1)]
        names = [name for name, count in colours.items() if count > 0]
        counts = [colours[name] for name in names]
        if not names or len(bodies) != sum(counts) or len(bodies) != used_mask.sum():
            return False
        if not set(names) <= set(palette.names):
            return False
        columns = [palette.names.index(name) for name in names]
        distances = palette.distances(bodies, record.table)[:, columns]
        chosen = assigned_by_counts(to_lab(bodies), distances, counts)
        with self._lock:
            if not any(r is record for r in self._settled):
                return False  # taught meanwhile: a roll teaches once, though applied again
            self._settled.remove(record)  # by identity: the records compare by identity
            if key != self._key:
                self._samples, self._tables, self._key = {}, self._tables[:0], key
            for c, name in enumerate(names):
                kept = self._samples.get(name, np.zeros((0, 3), np.float32))
                self._samples[name] = np.concatenate([kept, bodies[chosen == c]])[-PLAY_KEPT:]
            self._tables = np.concatenate([self._tables, record.table[None]])[-PLAY_KEPT:]
            rolled = [name for name in key if name not in blank_only]
            self._part, self._palette = _learnt_palettes(self._samples, rolled, self._tables)
        return True


def _rounded(bgr: np.ndarray) -> list[list[float]]:
    """BGR values (m, 3) as lists, to a tenth: enough for a colour, short in the file."""
    return np.round(np.asarray(bgr, np.float64), 1).tolist()


def _learnt_from_json(
    data: object,
) -> tuple[list[str], dict[str, np.ndarray], np.ndarray] | None:
    """The colours in play, samples and table colours that `ColoursFromPlay.to_json` wrote;
    None where `data` is not that (an older or damaged file)."""
    if not isinstance(data, dict):
        return None
    key, samples, tables = data.get("key"), data.get("samples"), data.get("tables")
    if not isinstance(key, list) or not all(isinstance(name, str) for name in key):
        return None
    if not isinstance(samples, dict) or not all(isinstance(name, str) for name in samples):
        return None
    table = _bgr_rows(tables)
    if table is None or len(table) == 0:
        return None
    read = {}
    for name, rows in samples.items():
        bgr = _bgr_rows(rows)
        if bgr is None:
            return None
        read[name] = bgr
    return key, read, table


def _bgr_rows(rows: object) -> np.ndarray | None:
    """Rows of BGR values in 0-255 as a float32 array (m, 3), at most PLAY_KEPT of them; None
    where they are not."""
    if not isinstance(rows, list) or len(rows) > PLAY_KEPT:
        return None
    if not all(
        isinstance(row, list)
        and len(row) == 3
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in row)
        for row in rows
    ):
        return None
    bgr = np.array(rows, np.float32).reshape(-1, 3)
    return bgr if np.isfinite(bgr).all() and ((bgr >= 0) & (bgr <= 255)).all() else None


def _learnt_palettes(
    samples: Mapping[str, np.ndarray], rolled: Sequence[str], tables: np.ndarray
) -> tuple[Palette | None, Palette | None]:
    """The colours `rolled` that have PLAY_DICE body colours in `samples`, calibrated from them
    under the table's median colour `tables` (m, 3), None where none has; and, once every
    colour rolled has, the palette learnt (with the built-in colours none resembles), else
    None."""
    learnt = [name for name in rolled if len(samples.get(name, ())) >= PLAY_DICE]
    if not learnt:
        return None, None
    table = np.median(tables, axis=0).astype(np.float32)
    part = calibrate({name: samples[name] for name in learnt}, table)
    return part, merged_palette(part) if len(learnt) == len(rolled) else None
