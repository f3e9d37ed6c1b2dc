"""A simulated dice table: top-down camera frames of a felt arena where dice are thrown and taken."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import DEFAULT_COLOURS_BGR
from vision.pip_layout import PIP_LAYOUT

FELT_BGR = (110, 100, 60)  # slate-teal felt: apart in colour and lightness from every die
RIM_BGR = (40, 70, 110)  # the arena's wooden rim
SKIN_BGR = (120, 150, 205)
AIR_FRAMES = 6  # frames a throw is in the air before the dice settle
BEVEL_SHADE = 0.85  # the rounded edge of a die catches less light than its flat top face
HAND_PATH = (0.6, 1.0, 0.4)  # how far the hand reaches toward the dice, frame by frame
HAND_FRAMES = len(HAND_PATH)  # frames a hand is over the table when dice are taken
BIG_SCALE = 1.5  # a Biggy's side over a regular die's (vision/size.py expects about 1.5)
NOISE_FRAMES = 6  # precomputed camera-noise images, cycled so that every frame differs
_SUPER = 4.0  # superellipse power of the rounded square outline


@dataclass(frozen=True)
class SimDie:
    """A die to put on the simulated table: colour name, pips 0-6 (0 blank), Biggy or not."""

    colour: str
    pips: int
    big: bool = False

    def __post_init__(self) -> None:
        if self.colour not in DEFAULT_COLOURS_BGR:
            raise ValueError(
                f"colour must be one of {', '.join(DEFAULT_COLOURS_BGR)}, got {self.colour!r}"
            )
        if isinstance(self.pips, bool) or not 0 <= int(self.pips) <= 6:
            raise ValueError(f"pips must be 0-6, got {self.pips!r}")


@dataclass(frozen=True)
class LyingDie:
    """A die at rest on the simulated table: the die, its centre, side (px) and turn (radians)."""

    die: SimDie
    centre: tuple[float, float]
    side: float
    angle: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Axis-aligned box (x0, y0, x1, y1) around the whole die."""
        pts = _outline(self.centre, self.side, self.angle)
        return (
            float(pts[:, 0].min()),
            float(pts[:, 1].min()),
            float(pts[:, 0].max()),
            float(pts[:, 1].max()),
        )


@dataclass(frozen=True)
class _Moving:
    """A die in flight in one frame: where it is drawn, the face up now, and its blur vector."""

    lying: LyingDie
    blur: tuple[float, float]


def _outline(centre: tuple[float, float], side: float, angle: float, n: int = 32) -> np.ndarray:
    """Rounded-square outline (n, 2) of a die of this side, turned by angle, around centre."""
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    u = 0.5 * np.sign(c) * np.abs(c) ** (2 / _SUPER)
    v = 0.5 * np.sign(s) * np.abs(s) ** (2 / _SUPER)
    ca, sa = math.cos(angle), math.sin(angle)
    x = (u * ca - v * sa) * side + centre[0]
    y = (u * sa + v * ca) * side + centre[1]
    return np.stack([x, y], 1)


_CIRCLE = np.stack(
    [
        np.cos(np.linspace(0, 2 * math.pi, 16, endpoint=False)),
        np.sin(np.linspace(0, 2 * math.pi, 16, endpoint=False)),
    ],
    1,
)  # a pip's outline, radius 1


def _fill(img: np.ndarray, pts: np.ndarray, colour: Sequence[float] | np.ndarray) -> None:
    """Fill a polygon with sub-pixel corners and anti-aliased edges."""
    cv2.fillPoly(
        img,
        [np.round(pts * 16).astype(np.int32)],
        tuple(float(c) for c in colour),
        cv2.LINE_AA,
        shift=4,
    )


def pip_colour(body_bgr: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """White pips on dark bodies, dark pips on light ones."""
    lum = float(np.dot(body_bgr, (0.11, 0.59, 0.3)))
    return (28.0, 26.0, 24.0) if lum > 120 else (238.0, 238.0, 236.0)


def draw_die(img: np.ndarray, lying: LyingDie) -> None:
    """Draw one die seen from straight above: a rounded square with a bevel, and its pips."""
    body = np.array(DEFAULT_COLOURS_BGR[lying.die.colour], np.float32)
    x, y = lying.centre
    # The bevel of a rounded die catches less light than its flat top face.
    _fill(img, _outline((x, y), lying.side, lying.angle), body * BEVEL_SHADE)
    _fill(img, _outline((x, y), lying.side * 0.9, lying.angle), body)
    pip = pip_colour(body)
    ca, sa = math.cos(lying.angle), math.sin(lying.angle)
    circle = _CIRCLE * (lying.side * 0.09)
    for u, v in PIP_LAYOUT.get(lying.die.pips, []):
        px = x + (u * ca - v * sa) * lying.side
        py = y + (u * sa + v * ca) * lying.side
        _fill(img, circle + (px, py), pip)


def _rim(h: int, w: int) -> int:
    """Width in pixels of the arena's wooden rim along the frame's edges."""
    return max(6, int(0.025 * min(h, w)))


def _felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """The arena's felt with its fibres and a wooden rim, float32 BGR."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = FELT_BGR
    fibres = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
    img *= (1 + 0.06 * fibres)[..., None]
    rim = _rim(h, w)
    img[:rim], img[-rim:], img[:, :rim], img[:, -rim:] = RIM_BGR, RIM_BGR, RIM_BGR, RIM_BGR
    return img


def _light(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A lamp above the table: a gentle fall-off toward the edges, (h, w, 1) gains near 1."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = w * rng.uniform(0.4, 0.6), h * rng.uniform(0.4, 0.6)
    d2 = ((xx - cx) / w) ** 2 + ((yy - cy) / h) ** 2
    return (1.04 - 0.12 * d2)[..., None]


class SimulatedTable:
    """A camera over a simulated dice arena; each read() is the next frame (the sim's own clock)."""

    name = "simulated table"
    live = False  # its frames may repeat exactly without the camera having frozen

    def __init__(
        self,
        seed: int = 0,
        width: int = 640,
        height: int = 480,
        die_side: float = 50.0,
        lamp_bgr: Sequence[float] = (1.0, 1.0, 1.0),
    ) -> None:
        """A table of `width` x `height` px with dice `die_side` px across, lit by a lamp
        whose colour is a gain on each channel (BGR): (0.8, 1.0, 1.2) is a warm one."""
        self.width, self.height = width, height
        self.die_side = die_side
        self.seed = seed
        # The casino row beside the arena (`vision.sim_row.casino_row_of`), made on first use.
        self.casino_row: object | None = None
        self._rng = np.random.default_rng(seed)
        self._lock = threading.Lock()
        self._felt = _felt(self._rng, height, width)
        self._gain = _light(self._rng, height, width) * np.asarray(lamp_bgr, np.float32)
        self._noise = [
            self._rng.normal(0, 2.0, (height, width, 3)).astype(np.float32)
            for _ in range(NOISE_FRAMES)
        ]
        self._lying: list[LyingDie] = []
        self._queue: list[tuple[list[LyingDie], list[_Moving], list[np.ndarray]]] = []
        self._rest: np.ndarray | None = None
        self._frame = 0
        self.is_open = False

    # --- FrameSource ------------------------------------------------------------------------

    def open(self) -> None:
        """Nothing to open: the table is always there."""
        self.is_open = True

    def close(self) -> None:
        """Nothing to release."""
        self.is_open = False

    def read(self) -> np.ndarray:
        """The next frame: dice in flight while a throw or a hand is under way, else at rest."""
        with self._lock:
            self._frame += 1
            noise = self._noise[self._frame % NOISE_FRAMES]
            if self._queue:
                lying, moving, hands = self._queue.pop(0)
                img = self._render(lying, moving, hands)
            else:
                if self._rest is None:
                    self._rest = self._render(self._lying, [], [])
                img = self._rest
            return np.clip(img + noise, 0, 255).astype(np.uint8)

    # --- what players do --------------------------------------------------------------------

    @property
    def dice(self) -> list[SimDie]:
        """The dice lying on the table now, once the throw under way has settled (for tests)."""
        with self._lock:
            return [d.die for d in self._lying]

    @property
    def lying(self) -> list[LyingDie]:
        """The dice lying on the table with where they lie (the ground truth, for tests)."""
        with self._lock:
            return list(self._lying)

    @property
    def settled(self) -> bool:
        """True when no throw or hand is under way: the next frame shows the dice at rest."""
        with self._lock:
            return not self._queue

    def throw(self, dice: Sequence[SimDie]) -> None:
        """Throw dice into the arena: a few frames in flight, then they lie still."""
        with self._lock:
            before = list(self._lying)
            landed = self._place(list(dice), before)
            if not landed:
                return
            start = self._start_points(len(landed))
            for f in range(AIR_FRAMES):
                t0, t1 = f / AIR_FRAMES, (f + 1) / AIR_FRAMES
                moving = []
                for die, s in zip(landed, start, strict=True):
                    a, b = self._along(s, die.centre, t0), self._along(s, die.centre, t1)
                    up = int(self._rng.integers(1, 7)) if die.die.pips else 0
                    face = SimDie(die.die.colour, up, die.die.big)
                    spin = die.angle + (1 - t1) * self._rng.uniform(2, 6)
                    moving.append(
                        _Moving(LyingDie(face, b, die.side, spin), (b[0] - a[0], b[1] - a[1]))
                    )
                self._queue.append((before, moving, []))
            self._lying = before + landed
            self._rest = None

    def take(self, pips: int | None = None, indices: Sequence[int] | None = None) -> list[SimDie]:
        """Take the dice showing `pips` (or those at `indices` of `dice`) off the table."""
        with self._lock:
            if indices is None:
                indices = [
                    i for i, d in enumerate(self._lying) if pips is None or d.die.pips == pips
                ]
            bad = [i for i in indices if not 0 <= i < len(self._lying)]
            if bad:
                raise IndexError(f"no die at index {bad[0]}: {len(self._lying)} dice lie there")
            chosen = set(indices)
            gone = [d for i, d in enumerate(self._lying) if i in chosen]
            if not gone:
                return []
            keep = [d for i, d in enumerate(self._lying) if i not in chosen]
            self._hand(gone, keep)
            self._lying = keep
            self._rest = None
            return [d.die for d in gone]

    def clear(self) -> None:
        """Sweep every die off the table."""
        self.take(None)

    def lay(self, dice: Sequence[SimDie]) -> None:
        """Put dice down at rest at once (e.g. one die of each colour, to calibrate colours)."""
        with self._lock:
            self._lying = self._lying + self._place(list(dice), self._lying)
            self._rest = None

    # --- inside -----------------------------------------------------------------------------

    def _side(self, die: SimDie) -> float:
        """A die's side in pixels: dice of one set differ by a hair."""
        return self.die_side * (BIG_SCALE if die.big else 1.0) * self._rng.uniform(0.98, 1.02)

    def _place(self, dice: list[SimDie], taken: list[LyingDie]) -> list[LyingDie]:
        """Random resting places in the arena, no die touching another."""
        placed = list(taken)
        out: list[LyingDie] = []
        # Dice keep half a die's side clear of the rim: the reader needs some felt around each.
        margin = _rim(self.height, self.width) + 0.5 * self.die_side
        for die in dice:
            side = self._side(die)
            reach = 0.62 * side  # a little over the rounded square's half-diagonal
            lo, hi = margin + reach, (self.width - margin - reach, self.height - margin - reach)
            for _attempt in range(4000):
                c = (float(self._rng.uniform(lo, hi[0])), float(self._rng.uniform(lo, hi[1])))
                gap = 0.15 * self.die_side
                if all(math.dist(c, p.centre) > reach + 0.62 * p.side + gap for p in placed):
                    break
            else:
                raise ValueError(
                    f"no room on the table for {len(dice)} more dice next to {len(taken)}"
                )
            lying = LyingDie(die, c, side, float(self._rng.uniform(0, math.pi / 2)))
            placed.append(lying)
            out.append(lying)
        return out

    def _start_points(self, n: int) -> list[tuple[float, float]]:
        """Where thrown dice enter the picture: from the bottom edge, as from a player's hand."""
        return [
            (
                float(self._rng.uniform(0.2, 0.8) * self.width),
                float(self.height * self._rng.uniform(1.0, 1.1)),
            )
            for _ in range(n)
        ]

    def _along(
        self, a: tuple[float, float], b: tuple[float, float], t: float
    ) -> tuple[float, float]:
        """A point on a throw's path: fast at first, slowing as the die comes to rest."""
        e = 1 - (1 - t) ** 2
        return (a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e)

    def _hand(self, gone: list[LyingDie], keep: list[LyingDie]) -> None:
        """Queue frames of a hand reaching in from the bottom edge and taking dice away."""
        cx = float(np.mean([d.centre[0] for d in gone]))
        cy = float(np.mean([d.centre[1] for d in gone]))
        for f, reach in enumerate(HAND_PATH):
            tip = (cx, self.height + (cy - self.height) * reach)
            hand = np.array(
                [
                    [tip[0] - 45, tip[1] - 30],
                    [tip[0] + 45, tip[1] - 30],
                    [tip[0] + 55, self.height + 20],
                    [tip[0] - 55, self.height + 20],
                ],
                np.float32,
            )
            # The dice go with the hand once it has reached them.
            self._queue.append((list(self._lying) if f < 2 else keep, [], [hand]))

    def _render(
        self, lying: list[LyingDie], moving: list[_Moving], hands: list[np.ndarray]
    ) -> np.ndarray:
        """One clean frame (float32 BGR) before camera noise."""
        img = self._felt.copy()
        if lying:
            mask = np.zeros(img.shape[:2], np.float32)
            for d in lying:
                c = (d.centre[0] + 0.06 * d.side, d.centre[1] + 0.08 * d.side)
                _fill(mask, _outline(c, d.side * 1.05, d.angle), (1.0,))
            shadow = cv2.GaussianBlur(mask, (0, 0), 0.08 * self.die_side)
            img *= (1 - 0.45 * shadow)[..., None]
        for d in lying:
            draw_die(img, d)
        if moving:
            # Motion blur: the mean of the frame with each flying die a little further along.
            steps, acc = 3, np.zeros_like(img)
            for k in range(steps):
                f = (k + 1) / steps - 1
                layer = img.copy()
                for m in moving:
                    c = (m.lying.centre[0] + f * m.blur[0], m.lying.centre[1] + f * m.blur[1])
                    draw_die(layer, LyingDie(m.lying.die, c, m.lying.side, m.lying.angle + 0.3 * f))
                acc += layer
            img = acc / steps
        for hand in hands:
            _fill(img, hand, SKIN_BGR)
            cv2.ellipse(
                img,
                (int(hand[:2, 0].mean()), int(hand[0, 1])),
                (48, 38),
                0,
                0,
                360,
                SKIN_BGR,
                -1,
                cv2.LINE_AA,
            )
        return img * self._gain
