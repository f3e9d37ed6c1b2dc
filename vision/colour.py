"""Die colours: measure each die's body colour, name it from a palette, calibrate the palette."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.detections import Detections

# Typical die body colours (BGR) under neutral light; calibration replaces them.
DEFAULT_COLOURS_BGR: dict[str, tuple[int, int, int]] = {
    "red": (45, 40, 195),
    "blue": (175, 90, 30),
    "darkblue": (100, 40, 25),
    "green": (70, 150, 40),
    "yellow": (40, 205, 235),
    "white": (230, 230, 228),
    "black": (35, 32, 30),
    "purple": (125, 40, 105),
    "grey": (140, 140, 138),
    "orange": (30, 120, 240),
    "pink": (180, 130, 245),
}
# The colours whose dice have no pips in every edition that has them: Royale's grey blank dice.
BLANK_ONLY_COLOURS = ("grey",)
L_WEIGHT = 0.6  # lightness swings with the light more than hue does
# A die is named the nearest colour in play within this squared distance, though another lies
# nearer: white dice in a dim room lie nearer grey (see the model card).
IN_PLAY_REACH = 4.0
# A die whose squared distance to the next colour is less than this many times that to the
# colour it is named lies between the two, however far from both: its certainty is then below
# 0.8 (the reader's COLOUR_SURE). Uncalibrated phone photos of coloured dice (the coloured
# set's training part, 501 dice with a game colour) named 59 wrong with no doubt by the margin
# alone and 30 with this too, while 42 of 327 dice named right with no doubt came into doubt.
NEXT_COLOUR_RATIO = 2.0


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """Float Lab (L 0-100, a and b about -128..127) of BGR values in [0, 255], any leading shape."""
    arr = np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0
    return cv2.cvtColor(arr, cv2.COLOR_BGR2Lab).reshape(np.shape(bgr))


BODY_SAMPLES = 24  # each die's body colour comes from a 24 x 24 grid of its pixels
BODY_MARGIN = 0.22  # the grid spans the box less this share of its side on every side
# Where the way down in each die's crop is known (the side faces seen lie that way), the grid
# is moved this share of the box the other way, onto the top face: a die seen obliquely shows
# its side faces, shaded, in the lower part of its box. On the coloured set's training parts
# (650 dice, uncalibrated), named right with no doubt 375 -> 397, wrong with no doubt 35 -> 31
# (model card, "Body colour from the top face").
BODY_SHIFT = 0.1


def body_colours(
    frame_bgr: np.ndarray, boxes: np.ndarray, downs: np.ndarray | None = None
) -> np.ndarray:
    """Median BGR of each die's body (pips and edges left out), shape (n, 3).

    The inner part of each box is die, with pips a minority of it; it is sampled on a grid,
    the samples whose lightness is far from the typical one (pips, glare) are left out, and
    the rest give the median per channel. With `downs` (n, 2), the unit vectors pointing down
    each die's crop (`viewpoint.downs`), the grid is moved BODY_SHIFT of the box up, onto the
    top face. All dice are measured at once.
    """
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if len(boxes) == 0:
        return np.zeros((0, 3), np.float32)
    h, w = frame_bgr.shape[:2]
    sides = boxes[:, 2:] - boxes[:, :2]
    margin = sides * BODY_MARGIN
    up = 0.0 if downs is None else -BODY_SHIFT * sides * np.asarray(downs, np.float32)
    lo = np.clip(boxes[:, :2] + margin + up, 0, [w - 1, h - 1])
    hi = np.maximum(np.minimum(boxes[:, 2:] - margin + up, [w, h]), lo + 1)
    # Pixel centres of an even grid over [lo, hi), per die and axis.
    steps = (np.arange(BODY_SAMPLES) + 0.5) / BODY_SAMPLES
    xs = (lo[:, None, 0] + steps * (hi[:, None, 0] - lo[:, None, 0])).astype(int)
    ys = (lo[:, None, 1] + steps * (hi[:, None, 1] - lo[:, None, 1])).astype(int)
    px = frame_bgr[ys[:, :, None], xs[:, None, :]].reshape(len(boxes), -1, 3).astype(np.float32)
    lum = px @ np.array([0.11, 0.59, 0.3], np.float32)
    typical = np.median(lum, axis=1, keepdims=True)
    body = np.abs(lum - typical) < np.maximum(25.0, 0.25 * typical)
    return _masked_median(px, body)


def bodies_of(frame_bgr: np.ndarray, dice: Detections) -> np.ndarray:
    """The body colours (n, 3) the reader named the dice's colours from, measured anew (from
    the middle of the box) for a die it gave none."""
    bodies = np.array(dice.body, np.float32)
    unmeasured = ~np.isfinite(bodies).all(1)
    if unmeasured.any():
        bodies[unmeasured] = body_colours(frame_bgr, dice.boxes[unmeasured])
    return bodies


def _masked_median(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per-row, per-channel median of values (n, m, c) where mask (n, m) holds, shape (n, c);
    a row with no value in the mask takes the median of all its values."""
    mask = mask | ~mask.any(axis=1, keepdims=True)
    ordered = np.sort(np.where(mask[..., None], values, np.inf), axis=1)
    count = mask.sum(axis=1)
    rows = np.arange(len(values))
    return (ordered[rows, (count - 1) // 2] + ordered[rows, count // 2]) / 2


def background_colour(frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Median BGR of the frame outside the dice: the reference for the light's colour."""
    small = cv2.resize(frame_bgr, (80, 60), interpolation=cv2.INTER_AREA)
    mask = np.ones((60, 80), np.uint8)
    sx, sy = 80 / frame_bgr.shape[1], 60 / frame_bgr.shape[0]
    for x0, y0, x1, y1 in np.asarray(boxes, np.float32):
        mask[int(y0 * sy) : int(np.ceil(y1 * sy)) + 1, int(x0 * sx) : int(np.ceil(x1 * sx)) + 1] = 0
    if mask.sum() <= 50:
        mask[:] = 1
    # The median of each channel from its histogram: one pass in C instead of a sort.
    out = np.zeros(3, np.float32)
    half = mask.sum() / 2
    for c in range(3):
        counts = cv2.calcHist([small], [c], mask, [256], [0, 256]).ravel().cumsum()
        low = int(np.searchsorted(counts, half))  # the lower and upper middle values
        high = int(np.searchsorted(counts, half + 0.5))
        out[c] = (low + high) / 2
    return out


@dataclass(frozen=True)
class Palette:
    """Named colours as Lab means (k, 3) and inverse covariances (k, 3, 3).

    reference_bgr is the table's colour when the palette was calibrated (None for the default);
    a later frame is corrected by the ratio of its table colour to this one. in_play names the
    colours of the dice in play, where known: a die is named the nearest of them when it lies
    within IN_PLAY_REACH of it (see `in_play_only`); blank_only names the colours whose dice
    in play are all blank (Royale's grey), which a die showing pips is never named. light is
    the BGR gain that undoes the light's colour on an uncalibrated palette, judged from dice
    in play (see `vision.light.judged_light`). guessed names the colours of a palette learnt
    in part (`vision.calibrate.partly_learnt`) that were placed where the judged light puts the
    built-in ones, not learnt from the table's dice.
    """

    names: tuple[str, ...]
    means: np.ndarray
    inv_cov: np.ndarray
    reference_bgr: np.ndarray | None = None
    in_play: tuple[str, ...] = ()
    light: np.ndarray | None = None
    blank_only: tuple[str, ...] = ()
    guessed: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        k = len(self.names)
        if np.shape(self.means) != (k, 3):
            raise ValueError(f"means must have shape ({k}, 3), got {np.shape(self.means)}")
        if np.shape(self.inv_cov) != (k, 3, 3):
            raise ValueError(f"inv_cov must have shape ({k}, 3, 3), got {np.shape(self.inv_cov)}")
        if self.light is not None and np.shape(self.light) != (3,):
            raise ValueError(f"light must have shape (3,), got {np.shape(self.light)}")

    def classify(
        self,
        bgr: np.ndarray,
        table_bgr: np.ndarray | None = None,
        shows_pips: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Colour name (n,) and a 0-1 certainty (n,) for body colours (n, 3); with
        `shows_pips` (n,), a die showing pips is named none of the `blank_only` colours.

        The certainty is the lower of two: one from how much nearer the die lies to the colour
        named than to the next (in squared distance), and one from how many times nearer
        (0.8 where the next colour is NEXT_COLOUR_RATIO times as far)."""
        dist = self.distances(bgr, table_bgr)
        if len(dist) == 0:
            return np.zeros(0, object), np.zeros(0, np.float32)
        blank_only = np.isin(self.names, self.blank_only)
        if shows_pips is not None and blank_only.any() and not blank_only.all():
            dist[np.asarray(shows_pips, bool)[:, None] & blank_only[None]] = np.inf
        rows = np.arange(len(bgr))
        best = dist.argmin(1)
        in_play = np.isin(self.names, self.in_play)
        if in_play.any():
            play_dist = np.where(in_play[None], dist, np.inf)
            nearest_in_play = play_dist.argmin(1)
            near = play_dist[rows, nearest_in_play] <= IN_PLAY_REACH
            best = np.where(near, nearest_in_play, best)
        first = dist[rows, best]
        # A die named a colour in play is weighed against the other colours in play only.
        rivals = np.where(in_play[None] & in_play[best][:, None], dist, np.inf)
        rivals = np.where(in_play[best][:, None], rivals, dist)
        rivals[rows, best] = np.inf
        second = rivals.min(1) if len(self.names) > 1 else first + 9
        second = np.where(np.isfinite(second), second, first + 9)
        by_margin = 1.0 / (1.0 + np.exp(-(second - first) / 2.0))
        by_ratio = 1.0 - 0.2 * NEXT_COLOUR_RATIO * first / np.maximum(second, 1e-6)
        certainty = np.minimum(by_margin, by_ratio)
        return np.array([self.names[i] for i in best], object), certainty.astype(np.float32)

    def distances(self, bgr: np.ndarray, table_bgr: np.ndarray | None = None) -> np.ndarray:
        """Squared Mahalanobis distance (n, k) of body colours (n, 3) to each named colour,
        corrected for the light as in classify."""
        lab = self.lab(bgr, table_bgr)
        d = lab[:, None, :] - self.means[None, :, :]
        return np.einsum("nki,kij,nkj->nk", d, self.inv_cov, d)

    def in_play_only(self, names: Sequence[str], blank_only: Sequence[str] = ()) -> Palette:
        """This palette, naming a die by the nearest colour in play (`names`) where it lies
        within IN_PLAY_REACH, though another colour lies nearer; a die showing pips is named
        none of the colours in `blank_only`, whose dice in play are all blank."""
        return replace(self, in_play=tuple(names), blank_only=tuple(blank_only))

    def lightness_between(
        self, bgr: np.ndarray, dark: str, light: str, table_bgr: np.ndarray | None = None
    ) -> np.ndarray:
        """Where the lightness of body colours (n, 3) lies between the palette's `dark` and
        `light` colours, (n,): 0 at dark's, 1 at light's, corrected for the light as in
        classify."""
        lab = self.lab(bgr, table_bgr)
        low, high = (self.means[self.names.index(name), 0] for name in (dark, light))
        return (lab[:, 0] - low) / max(float(high - low), 1e-3)

    def lab(self, bgr: np.ndarray, table_bgr: np.ndarray | None) -> np.ndarray:
        """Lab (n, 3) of body colours (n, 3), scaled first by the light's change since
        calibration where the palette and the frame both know the table's colour."""
        bgr = np.asarray(bgr, np.float32).reshape(-1, 3)
        if len(bgr) == 0:
            return np.zeros((0, 3), np.float32)
        if self.reference_bgr is None and self.light is not None:
            bgr = np.clip(bgr * self.light, 0, 255)
        if self.reference_bgr is not None and table_bgr is not None:
            gain = (self.reference_bgr + 1.0) / (np.asarray(table_bgr, np.float32) + 1.0)
            bgr = np.clip(bgr * np.clip(gain, 0.5, 2.0), 0, 255)
        return to_lab(bgr)


def checked_by_learnt_colours(
    learnt: Palette,
    bgr: np.ndarray,
    table_bgr: np.ndarray | None,
    shows_pips: np.ndarray,
    names: np.ndarray,
    certainty: np.ndarray,
    by_light: np.ndarray,
    sure: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The names (n,), certainties (n,) and named-by-the-light flags (n,) of dice with body
    colours `bgr` (n, 3), as an uncalibrated palette gave them, put to a palette learnt in part
    from the table's own dice (`learnt`, its guessed colours placed by the light judged):
    a die it names a learnt colour with `sure` or more is named so, for sure; a die named a
    learnt colour that it does not name so surely is in doubt (certainty 0). Every other die
    is left as it was named: a colour not learnt yet is named best by the light judged from
    the frame's own dice."""
    if len(names) == 0:
        return names, certainty, by_light
    said, said_surely = learnt.classify(bgr, table_bgr, shows_pips=shows_pips)
    was_learnt = [n for n in learnt.names if n not in learnt.guessed]
    agreed = np.isin(said, was_learnt) & (said_surely >= sure)
    doubted = ~agreed & np.isin(names, was_learnt)
    names = np.where(agreed, said, names)
    certainty = np.where(agreed, 1.0, np.where(doubted, 0.0, certainty)).astype(np.float32)
    return names, certainty, by_light & ~agreed


def _isotropic(sigma: float) -> np.ndarray:
    """Inverse covariance of a round Lab blob, lightness down-weighted."""
    return np.diag([L_WEIGHT**2, 1.0, 1.0]).astype(np.float32) / sigma**2


def default_palette(names: Sequence[str] | None = None) -> Palette:
    """The built-in palette of common die colours (or a subset of them). Until the game's
    colours are known, a die showing pips is never named grey: the game's only grey dice are
    the blank ones (Royale)."""
    names = tuple(names or DEFAULT_COLOURS_BGR)
    means = to_lab(np.array([DEFAULT_COLOURS_BGR[n] for n in names], np.float32))
    blank_only = tuple(n for n in BLANK_ONLY_COLOURS if n in names)
    return Palette(names, means, np.stack([_isotropic(12.0)] * len(names)), blank_only=blank_only)


def calibrate(samples: Mapping[str, np.ndarray], table_bgr: np.ndarray | None = None) -> Palette:
    """A palette learnt from measured body colours: {name: (m, 3) BGR samples}, m >= 1 each."""
    names = tuple(samples)
    means, inv = [], []
    for name in names:
        lab = to_lab(np.asarray(samples[name], np.float32).reshape(-1, 3))
        means.append(lab.mean(0))
        cov = np.cov(lab.T) if len(lab) > 2 else np.zeros((3, 3))
        # A few samples give a poor covariance: shrink it toward a small round blob.
        cov = 0.5 * np.nan_to_num(cov) + np.diag([16.0, 9.0, 9.0])
        inv.append(np.linalg.inv(cov))
    ref = None if table_bgr is None else np.asarray(table_bgr, np.float32)
    return Palette(names, np.array(means, np.float32), np.array(inv, np.float32), ref)


def calibrate_from_frame(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    names: Sequence[str],
    bodies: np.ndarray | None = None,
) -> Palette:
    """Calibrate from one frame where the die in boxes[i] has colour names[i]; with `bodies`
    (n, 3), their body colours as the reader measured them (`Detections.body`), else measured
    from the middle of each box."""
    if len(boxes) != len(names):
        raise ValueError(f"need one colour name per box, got {len(names)} for {len(boxes)}")
    bgr = body_colours(frame_bgr, boxes) if bodies is None else np.asarray(bodies, np.float32)
    samples: dict[str, list[np.ndarray]] = {}
    for name, c in zip(names, bgr, strict=True):
        samples.setdefault(name, []).append(c)
    return calibrate(
        {k: np.array(v) for k, v in samples.items()}, background_colour(frame_bgr, boxes)
    )


def palette_to_json(palette: Palette) -> dict:
    """A JSON-ready dict of a palette."""
    return {
        "names": list(palette.names),
        "means": palette.means.tolist(),
        "inv_cov": palette.inv_cov.tolist(),
        "reference_bgr": None if palette.reference_bgr is None else palette.reference_bgr.tolist(),
    }


def palette_from_json(data: Mapping) -> Palette:
    """The palette saved by palette_to_json."""
    ref = data.get("reference_bgr")
    return Palette(
        tuple(data["names"]),
        np.array(data["means"], np.float32),
        np.array(data["inv_cov"], np.float32),
        None if ref is None else np.array(ref, np.float32),
    )
