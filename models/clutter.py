"""Hard negatives for the locator: things on a table that are not dice, drawn without a box.

Round grey things (screw heads, magnets, lenses, bottle caps), coins and casino chips, paper
with print (money notes, cards), grids of keys with a letter on each (keyboards, remotes), a
speckled granite table and salt-and-pepper camera noise: each looks a little like a die to a
small detector, so the scenes that hold them teach it that they are background.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

Placed = list[tuple[np.ndarray, float]]
"""Where things lie in a scene: (centre, size) each; a die keeps half of both sizes away."""

GRANITE_SHARE = 0.3  # of clutter scenes, those on a speckled granite table
SALT_SHARE = 0.2  # of clutter scenes, those with salt-and-pepper camera noise
THINGS = (2, 9)  # a clutter scene holds 2-8 things

_GREYS = [(70, 70, 72), (120, 120, 122), (170, 170, 168), (215, 215, 212), (35, 35, 38)]
_METALS = {
    "gold": (50, 150, 200),
    "silver": (185, 185, 180),
    "copper": (60, 105, 175),
    "steel": (150, 145, 140),
}
_CHIP_COLOURS = [
    (40, 40, 190),
    (60, 140, 40),
    (170, 80, 20),
    (30, 30, 30),
    (230, 230, 230),
    (130, 40, 120),
    (40, 190, 220),
    (30, 110, 230),
]
_PAPERS = [(225, 235, 240), (200, 225, 205), (230, 215, 195), (215, 215, 240), (245, 245, 245)]
_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-#*<>?%&"


@dataclass(frozen=True)
class ClutterPlan:
    """What one scene gets: clutter things, a granite table, a share of noisy pixels (0 none)."""

    things: bool
    granite: bool
    salt: float


NO_CLUTTER = ClutterPlan(False, False, 0.0)


def plan(rng: np.random.Generator, share: float) -> ClutterPlan:
    """Whether this scene is a clutter scene (by `share`), and which extras it gets.

    Draws nothing from `rng` when `share` is 0, so scenes without clutter render as before."""
    if not share or rng.random() >= share:
        return NO_CLUTTER
    granite = bool(rng.random() < GRANITE_SHARE)
    salt = float(rng.uniform(0.002, 0.03)) if rng.random() < SALT_SHARE else 0.0
    return ClutterPlan(True, granite, salt)


def light_grey_tray(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A plain light grey tray (float BGR in [0, 255]), faintly noisy: dice trays of the kind
    whose magnets and screws lie among the dice."""
    level = rng.uniform(170, 215)
    return np.full((h, w, 3), level, np.float32) + rng.normal(0, 3, (h, w, 1)).astype(np.float32)


def granite(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A speckled granite table: dense flecks of 1-3 px in a few colours over a base colour."""
    base = np.array(
        [(55, 55, 58), (30, 30, 34), (150, 150, 155), (120, 135, 160), (180, 185, 190)][
            int(rng.integers(0, 5))
        ],
        np.float32,
    ) * rng.uniform(0.85, 1.15)
    low = cv2.resize(rng.normal(0, 1, (4, 5)).astype(np.float32), (w, h))
    img = np.ones((h, w, 3), np.float32) * base * (1 + 0.06 * low[..., None])
    palette = np.array(
        [(15, 15, 15), (235, 235, 235), base * 0.55, base * 1.5, (90, 110, 160), (60, 60, 70)],
        np.float32,
    )
    palette = palette[rng.permutation(len(palette))[: int(rng.integers(3, 6))]]
    for size in (1, 2, 3):
        gh, gw = h // size + 1, w // size + 1
        pick = rng.integers(0, len(palette), (gh, gw))
        shown = rng.random((gh, gw)) < rng.uniform(0.05, 0.2) / size
        layer = np.repeat(np.repeat(pick, size, 0), size, 1)[:h, :w]
        mask = np.repeat(np.repeat(shown, size, 0), size, 1)[:h, :w]
        img[mask] = palette[layer[mask]] * rng.uniform(0.8, 1.2)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 0.8))
    return np.clip(img, 0, 255).astype(np.uint8)


def salt_and_pepper(rng: np.random.Generator, img: np.ndarray, share: float) -> np.ndarray:
    """The frame with `share` of its pixels set near black or near white."""
    h, w = img.shape[:2]
    hit = rng.random((h, w)) < share
    n = int(hit.sum())
    values = np.where(rng.random(n) < 0.5, rng.integers(0, 40, n), rng.integers(215, 256, n))
    out = img.copy()
    out[hit] = values.astype(np.uint8)[:, None]
    return out


def draw_clutter(
    img: np.ndarray,
    rng: np.random.Generator,
    side: float,
    light: np.ndarray,
    placed: Placed,
    round_only: bool = False,
) -> None:
    """Draw 2-8 things that are not dice (dice `side` px) into the frame, in place, and add
    where they lie to `placed` so that dice are put on free table (often beside them); with
    `round_only`, only round grey and metal things (screw heads, magnets, lenses, caps)."""
    h, w = img.shape[:2]
    toward = np.array(light[:2], np.float64)  # the light's side in the frame, as for shadows
    toward = toward / max(float(np.linalg.norm(toward)), 1e-3)
    for _ in range(int(rng.integers(*THINGS))):
        kind = _KINDS[int(rng.choice(len(_KINDS), p=_KIND_SHARES))]
        if round_only:  # drawn either way, so that the kind's draw does not shift the rest
            kind = _round_thing
        spot = rng.uniform([-0.05 * w, -0.05 * h], [1.05 * w, 1.05 * h])
        placed.append((spot, kind(img, rng, spot, side, toward)))


def _disc_field(
    img: np.ndarray, centre: np.ndarray, radius: float
) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray] | None:
    """The part of the frame a disc may touch (x0, y0, x1, y1), and each pixel's offset from
    its centre there (dx, dy); None if the disc is outside the frame."""
    h, w = img.shape[:2]
    pad = radius * 1.4 + 2
    x0, y0 = max(int(centre[0] - pad), 0), max(int(centre[1] - pad), 0)
    x1, y1 = min(int(centre[0] + pad) + 1, w), min(int(centre[1] + pad) + 1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    return (x0, y0, x1, y1), xx - np.float32(centre[0]), yy - np.float32(centre[1])


def _blend(
    img: np.ndarray, roi: tuple[int, int, int, int], colour: np.ndarray, alpha: np.ndarray
) -> None:
    """Blend a colour field into the frame's `roi` by `alpha` (0-1 per pixel), in place."""
    x0, y0, x1, y1 = roi
    under = img[y0:y1, x0:x1].astype(np.float32)
    a = alpha[..., None]
    img[y0:y1, x0:x1] = np.clip(under * (1 - a) + colour * a, 0, 255).astype(np.uint8)


def _shaded_disc(
    img: np.ndarray,
    rng: np.random.Generator,
    centre: np.ndarray,
    radius: float,
    paint: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    toward: np.ndarray,
    gloss: float,
) -> None:
    """A round flat thing with its soft shadow: `paint(dx, dy, d)` gives its unlit colours,
    which are lit from the side `toward`, darkened at the bevelled edge and given a highlight
    of strength `gloss`."""
    field = _disc_field(img, centre, radius)
    if field is None:
        return
    roi, dx, dy = field
    sx, sy = -toward * radius * rng.uniform(0.05, 0.25)
    ds = np.hypot(dx - sx, dy - sy)
    shadow = np.clip((radius * 1.08 - ds) / (0.3 * radius), 0, 1) * rng.uniform(0.25, 0.5)
    _blend(img, roi, np.zeros(3, np.float32), shadow)
    d = np.hypot(dx, dy)
    colour = paint(dx, dy, d)
    lam = (dx * toward[0] + dy * toward[1]) / radius
    shade = 1 + 0.22 * lam - 0.35 * np.clip((d - 0.88 * radius) / (0.12 * radius), 0, 1)
    hx, hy = toward * radius * 0.45
    spot = np.exp(-((dx - hx) ** 2 + (dy - hy) ** 2) / (2 * (0.22 * radius) ** 2)) * gloss
    lit = np.clip(colour * shade[..., None], 0, 255)
    lit = lit + (255 - lit) * spot[..., None]
    _blend(img, roi, lit, np.clip(radius - d + 0.5, 0, 1))


def _flat(colour: np.ndarray) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """A paint of one colour all over, with a faint brushed sheen."""

    def paint(dx: np.ndarray, dy: np.ndarray, d: np.ndarray) -> np.ndarray:
        sheen = 1 + 0.04 * np.sin(d * 0.9)
        return colour * sheen[..., None]

    return paint


def _round_thing(
    img: np.ndarray, rng: np.random.Generator, spot: np.ndarray, side: float, toward: np.ndarray
) -> float:
    """A screw head, magnet, lens or bottle cap: a shaded grey or metal disc with a highlight,
    a cross or slot, or a concentric rim. Returns its size (diameter)."""
    size = side * rng.uniform(0.5, 2.0)
    r = size / 2
    metal = rng.random() < 0.4
    nominal = (
        list(_METALS.values())[int(rng.integers(0, 4))]
        if metal
        else _GREYS[int(rng.integers(0, len(_GREYS)))]
    )
    base = np.clip(np.array(nominal, np.float32) * rng.uniform(0.85, 1.15), 5, 250)
    _shaded_disc(img, rng, spot, r, _flat(base), toward, rng.uniform(0.2, 0.8))
    centre = (int(round(spot[0] * 16)), int(round(spot[1] * 16)))
    style = rng.choice(["plain", "screw", "rim", "lens", "cap"], p=[0.2, 0.25, 0.2, 0.15, 0.2])
    dark = tuple(float(v) for v in base * 0.35)
    if style == "screw":
        ang = rng.uniform(0, math.pi)
        thick = max(int(round(r * rng.uniform(0.12, 0.22))), 1)
        for turn in (0.0, math.pi / 2)[: int(rng.integers(1, 3))]:
            u = np.array([math.cos(ang + turn), math.sin(ang + turn)]) * r * 0.7
            a, b = spot - u, spot + u
            cv2.line(img, _px(a), _px(b), dark, thick, cv2.LINE_AA, shift=4)
    elif style in ("rim", "cap"):
        ring = tuple(float(v) for v in np.clip(base * rng.choice([0.6, 1.3]), 0, 255))
        radius = int(round(r * rng.uniform(0.6, 0.85) * 16))
        cv2.circle(img, centre, radius, ring, max(int(r * 0.08), 1), cv2.LINE_AA, shift=4)
        if style == "cap":
            for k in range(int(rng.integers(16, 30))):
                t = 2 * math.pi * k / 24
                u = np.array([math.cos(t), math.sin(t)])
                cv2.line(img, _px(spot + u * r * 0.88), _px(spot + u * r), dark, 1, cv2.LINE_AA, 4)
    elif style == "lens":
        inner = r * rng.uniform(0.45, 0.7)
        cv2.circle(img, centre, int(inner * 16), (20, 18, 15), -1, cv2.LINE_AA, shift=4)
        coat = tuple(float(v) for v in rng.uniform(60, 200, 3))
        cv2.circle(img, centre, int(inner * 0.75 * 16), coat, 1, cv2.LINE_AA, shift=4)
        glint = spot + toward * inner * 0.4
        cv2.circle(img, _px(glint), int(inner * 0.15 * 16) + 8, (240, 240, 240), -1, 16, 4)
    return size


def _px(p: np.ndarray) -> tuple[int, int]:
    """A point in 1/16 px, for cv2's drawing with shift=4."""
    return int(round(float(p[0]) * 16)), int(round(float(p[1]) * 16))


def _coin(
    img: np.ndarray, rng: np.random.Generator, spot: np.ndarray, side: float, toward: np.ndarray
) -> float:
    """A gold, silver or copper coin: a shiny disc with a raised rim and a faint relief of a
    number and a ring of lettering. Returns its size."""
    size = side * rng.uniform(0.6, 1.6)
    r = size / 2
    base = np.clip(
        np.array(list(_METALS.values())[int(rng.integers(0, 3))], np.float32)
        * rng.uniform(0.8, 1.15),
        5,
        250,
    )

    def paint(dx: np.ndarray, dy: np.ndarray, d: np.ndarray) -> np.ndarray:
        rim = 1 + 0.18 * ((d > 0.82 * r) & (d < 0.9 * r))
        return base * (rim * (1 + 0.03 * np.sin(d * 1.3)))[..., None]

    _shaded_disc(img, rng, spot, r, paint, toward, rng.uniform(0.3, 0.9))
    relief = tuple(float(v) for v in base * 0.78)
    for k in range(int(rng.integers(8, 20))):
        t = rng.uniform(-0.3, 0.3) + math.pi * (0.8 + 1.4 * k / 20)
        dot = spot + np.array([math.cos(t), math.sin(t)]) * r * 0.7
        cv2.circle(img, _px(dot), max(int(r * 0.05 * 16), 8), relief, -1, cv2.LINE_AA, shift=4)
    _centred_text(img, str(rng.choice(["1", "2", "5", "10", "25", "50"])), spot, r, relief, 1)
    return size


def _chip(
    img: np.ndarray, rng: np.random.Generator, spot: np.ndarray, side: float, toward: np.ndarray
) -> float:
    """A casino chip, sometimes a short stack: a coloured disc with stripes round its edge and
    a light centre inlay with a value. Returns its size."""
    size = side * rng.uniform(0.8, 2.0)
    r = size / 2
    base = np.clip(
        np.array(_CHIP_COLOURS[int(rng.integers(0, len(_CHIP_COLOURS)))], np.float32)
        * rng.uniform(0.85, 1.1),
        5,
        250,
    )
    stripe = np.array((235, 235, 235) if base.mean() < 150 else (40, 40, 180), np.float32)
    inlay = np.array((225, 230, 232), np.float32) * rng.uniform(0.85, 1.05)
    count = int(rng.choice([4, 6, 8]))
    width = rng.uniform(0.2, 0.45)
    turn = rng.uniform(0, 2 * math.pi)
    inner = r * rng.uniform(0.5, 0.65)

    def paint(dx: np.ndarray, dy: np.ndarray, d: np.ndarray) -> np.ndarray:
        ang = (np.arctan2(dy, dx) + turn) * count / (2 * math.pi)
        striped = ((ang % 1.0) < width) & (d > 0.75 * r)
        out = np.where(striped[..., None], stripe, base)
        return np.where((d < inner)[..., None], inlay, out)

    stack = int(rng.integers(1, 4)) if rng.random() < 0.3 else 1
    for level in range(stack - 1, -1, -1):
        _shaded_disc(
            img, rng, spot + [0, level * r * 0.16], r, paint, toward, rng.uniform(0.1, 0.4)
        )
    edge = tuple(float(v) for v in base)
    cv2.circle(img, _px(spot), int(inner * 16), edge, max(int(r * 0.04), 1), cv2.LINE_AA, shift=4)
    value = str(rng.choice(["1", "5", "25", "100", "500", "$5"]))
    _centred_text(img, value, spot, inner * 0.9, edge, max(int(r * 0.06), 1))
    return size


def _centred_text(
    img: np.ndarray, text: str, centre: np.ndarray, half: float, colour: tuple, thick: int
) -> None:
    """Text centred on `centre`, its longer extent about 1.2 `half` (a lone "I" stays short)."""
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 1.0, thick)
    scale = 1.2 * half / max(tw, th, 1)
    x = int(centre[0] - tw * scale / 2)
    y = int(centre[1] + th * scale / 2)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def _paste_rotated(
    img: np.ndarray, patch: np.ndarray, mask: np.ndarray, centre: np.ndarray, angle: float
) -> None:
    """Paste a flat patch (with its 0-1 `mask`) turned by `angle` degrees, centred on
    `centre`, cut by the frame's edges, in place."""
    h, w = img.shape[:2]
    ph, pw = patch.shape[:2]
    c, s = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    ex, ey = (c * pw + s * ph) / 2 + 2, (s * pw + c * ph) / 2 + 2
    x0, y0 = max(int(centre[0] - ex), 0), max(int(centre[1] - ey), 0)
    x1, y1 = min(int(centre[0] + ex) + 1, w), min(int(centre[1] + ey) + 1, h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    m[:, 2] += [centre[0] - x0 - pw / 2, centre[1] - y0 - ph / 2]
    size = (x1 - x0, y1 - y0)
    turned = cv2.warpAffine(patch.astype(np.float32), m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(mask.astype(np.float32), m, size, flags=cv2.INTER_LINEAR)
    _blend(img, (x0, y0, x1, y1), turned, alpha)


def _paper(
    img: np.ndarray, rng: np.random.Generator, spot: np.ndarray, side: float, toward: np.ndarray
) -> float:
    """A money note or a card: a light rectangle, any way turned, with a border, large printed
    digits ("10,000", "$50,000") and lines of small text. Returns its size (longer side)."""
    note = rng.random() < 0.65
    long = side * rng.uniform(3.0, 7.0)
    pw = int(long)
    ph = int(long * (rng.uniform(0.42, 0.55) if note else rng.uniform(0.65, 0.75)))
    paper = np.array(_PAPERS[int(rng.integers(0, len(_PAPERS)))], np.float32)
    patch = np.full((ph, pw, 3), np.clip(paper * rng.uniform(0.85, 1.05), 0, 255), np.uint8)
    ink = tuple(float(v) for v in rng.uniform(20, 140, 3))
    unit = max(ph / 12, 1.0)
    cv2.rectangle(
        patch,
        (int(unit), int(unit)),
        (pw - int(unit), ph - int(unit)),
        ink,
        max(int(unit * 0.4), 1),
        cv2.LINE_AA,
    )
    if note:
        _note_print(patch, rng, ink, unit)
    else:
        _card_print(patch, rng, unit)
    lit = patch * (1 + 0.08 * np.linspace(-1, 1, pw, dtype=np.float32))[None, :, None]
    mask = np.ones((ph, pw), np.float32)
    shadow = np.zeros_like(lit)
    offset = spot - toward * side * rng.uniform(0.02, 0.1)
    angle = rng.uniform(0, 360)
    _paste_rotated(img, shadow, mask * rng.uniform(0.2, 0.4), offset, angle)
    _paste_rotated(img, lit, mask, spot, angle)
    return float(long)


def _note_print(patch: np.ndarray, rng: np.random.Generator, ink: tuple, unit: float) -> None:
    """A bank note's print: its value in large digits, a portrait oval and small text lines."""
    ph, pw = patch.shape[:2]
    value = str(rng.choice(["10,000", "$50,000", "5000", "100", "$20", "1,000,000", "50"]))
    thick = max(int(unit * 0.5), 1)
    (tw, th), _ = cv2.getTextSize(value, cv2.FONT_HERSHEY_DUPLEX, 1.0, thick)
    scale = pw * rng.uniform(0.3, 0.55) / tw
    x = int(rng.uniform(unit * 1.5, max(pw - tw * scale - unit * 1.5, unit * 1.6)))
    y = int(rng.uniform(ph * 0.35, ph * 0.6) + th * scale / 2)
    cv2.putText(patch, value, (x, y), cv2.FONT_HERSHEY_DUPLEX, scale, ink, thick, cv2.LINE_AA)
    if rng.random() < 0.6:
        centre = (int(pw * rng.choice([0.25, 0.75])), ph // 2)
        axes = (int(ph * 0.22), int(ph * 0.3))
        cv2.ellipse(patch, centre, axes, 0, 0, 360, ink, max(int(unit * 0.3), 1), cv2.LINE_AA)
    _small_text(patch, rng, ink, unit, int(rng.integers(2, 5)))


def _card_print(patch: np.ndarray, rng: np.random.Generator, unit: float) -> None:
    """A playing or game card's print: a corner value, a large symbol and small text lines."""
    ph, pw = patch.shape[:2]
    ink = (30, 30, 190) if rng.random() < 0.5 else (25, 25, 25)
    corner = str(rng.choice(["A", "K", "Q", "J", "10", "7", "$"]))
    cv2.putText(
        patch,
        corner,
        (int(unit * 1.6), int(unit * 4)),
        cv2.FONT_HERSHEY_SIMPLEX,
        unit / 12,
        ink,
        max(int(unit / 6), 1),
        cv2.LINE_AA,
    )
    _centred_text(patch, corner, np.array([pw / 2, ph / 2]), ph * 0.3, ink, max(int(unit / 3), 1))
    _small_text(patch, rng, ink, unit, int(rng.integers(1, 3)))


def _small_text(
    patch: np.ndarray, rng: np.random.Generator, ink: tuple, unit: float, lines: int
) -> None:
    """A few lines of small capital letters along the patch's bottom."""
    ph, pw = patch.shape[:2]
    letters = np.array(list("ABCDEFGHIJKLMNOPRSTUVWY  "))
    scale = max(unit / 22, 0.3)
    for k in range(lines):
        text = "".join(rng.choice(letters, int(rng.integers(8, 30))))
        y = int(ph - unit * 1.8 - k * unit * 1.3)
        if y < ph * 0.55:
            break
        cv2.putText(
            patch, text, (int(unit * 2), y), cv2.FONT_HERSHEY_PLAIN, scale, ink, 1, cv2.LINE_AA
        )


def _rounded_square(side: float, corner: float) -> np.ndarray:
    """The outline of a square of `side` px with rounded corners (radius `corner` px) whose
    top-left lies at 0, as points."""
    pts = []
    for cx, cy, start in (
        (side - corner, corner, -90),
        (side - corner, side - corner, 0),
        (corner, side - corner, 90),
        (corner, corner, 180),
    ):
        for t in np.radians(np.linspace(start, start + 90, 6)):
            pts.append((cx + corner * math.cos(t), cy + corner * math.sin(t)))
    return np.array(pts)


def _keys(
    img: np.ndarray, rng: np.random.Generator, spot: np.ndarray, side: float, toward: np.ndarray
) -> float:
    """A keyboard or remote: a few rows of rounded-square keys, dark or light, each with a
    letter or symbol, on a plate, any way turned. Returns its size (longer side)."""
    key = side * rng.uniform(0.5, 1.5)
    pitch = key * rng.uniform(1.1, 1.35)
    rows, cols = int(rng.integers(1, 5)), int(rng.integers(2, 8))
    margin = key * rng.uniform(0.2, 0.6)
    pw, ph = int(cols * pitch + 2 * margin), int(rows * pitch + 2 * margin)
    dark_keys = rng.random() < 0.6
    plate = np.array((40, 40, 42) if dark_keys else (190, 190, 188), np.float32)
    plate = plate * rng.uniform(0.7, 1.2)
    top = np.array((55, 55, 58) if dark_keys else (225, 225, 222), np.float32)
    top = np.clip(top * rng.uniform(0.85, 1.15), 0, 255)
    glyph = (225, 225, 225) if dark_keys else (30, 30, 30)
    patch = np.full((ph, pw, 3), np.clip(plate, 0, 255), np.uint8)
    outline = _rounded_square(key, key * rng.uniform(0.12, 0.3))
    round_keys = rng.random() < 0.25
    for row in range(rows):
        for col in range(cols):
            x, y = margin + col * pitch, margin + row * pitch
            if round_keys:
                c = _px(np.array([x + key / 2, y + key / 2]))
                cv2.circle(patch, c, int(key * 8), tuple(float(v) for v in top * 0.6), -1, 16, 4)
                cv2.circle(patch, c, int(key * 7), tuple(float(v) for v in top), -1, 16, 4)
            else:
                skirt = np.round((outline + [x, y + key * 0.06]) * 16).astype(np.int32)
                face = np.round((outline * 0.86 + [x + key * 0.07, y + key * 0.04]) * 16)
                cv2.fillPoly(patch, [skirt], tuple(float(v) for v in top * 0.6), 16, 4)
                cv2.fillPoly(patch, [face.astype(np.int32)], tuple(float(v) for v in top), 16, 4)
            symbol = str(rng.choice(list(_SYMBOLS)))
            _centred_text(patch, symbol, np.array([x + key / 2, y + key / 2]), key * 0.22, glyph, 1)
    mask = np.ones((ph, pw), np.float32)
    angle = rng.uniform(-25, 25) + (90 if rng.random() < 0.3 else 0)
    _paste_rotated(img, np.zeros_like(patch), mask * 0.3, spot - toward * key * 0.1, angle)
    _paste_rotated(img, patch, mask, spot, angle)
    return float(max(pw, ph))


_KINDS = (_round_thing, _coin, _chip, _paper, _keys)
_KIND_SHARES = (0.3, 0.18, 0.18, 0.17, 0.17)
