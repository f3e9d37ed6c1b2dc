"""Paint the white dice of the real development photos other colours.

The photos hold only white dice with black pips. Painted, each labelled die keeps its real
shape, shading, blur, camera noise and table, and takes one of the game's colours: white pips
on dark bodies, dark pips on light ones, or a blank grey face (the grey dice of Royale, whose
label becomes 0). `vision_eval.py --painted` reads them to measure the reader on coloured dice
in real photos, which no data set at hand holds.

Each die is cut out of its photo with OpenCV's GrabCut, seeded by its label (the label boxes
only the top face's pips), and repainted from its own lightness: where it is lit and where
shaded stays as photographed, and its pips are found as the spots darker than the body around
them.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from models.devdata import Labelled

# name: body BGR, pip BGR (None: no pips, a blank face). No two sets of dice are dyed alike:
# each die's body is made lighter or darker by up to PAINT_LIGHTER on all channels, and each
# channel moved by up to PAINT_TINT more.
PAINTS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int] | None]] = {
    "red": ((45, 40, 200), (245, 245, 245)),
    "blue": ((170, 90, 30), (245, 245, 245)),
    "green": ((60, 150, 40), (245, 245, 245)),
    "yellow": ((40, 205, 235), (30, 30, 30)),
    "black": ((35, 35, 35), (240, 240, 240)),
    "purple": ((120, 40, 100), (245, 245, 245)),
    "orange": ((30, 120, 240), (30, 30, 30)),
    "pink": ((170, 120, 245), (30, 30, 30)),
    "grey": ((140, 140, 138), None),
}
PAINT_LIGHTER, PAINT_TINT = 20, 8
# A die's side (px, its side faces included) from the longer side of its label, the box of
# its top face's pips: a single pip's box is about a fifth of the face, the others' about 0.6.
SIDE_PER_PIP_SPAN, SIDE_PER_PATTERN_SPAN = 6.5, 2.1
SIDE_RANGE = (40, 130)
# A shadow on the wooden table is darker than the table and, like the wood, yellower; a die's
# shaded side is as neutral as its top. (Lab units of OpenCV's 8-bit Lab.)
SHADOW_DARKER, SHADOW_YELLOWER = 20, 5
PIP_DARKER = 25  # a pip is this much darker than the body around it, in grey levels, at least
PIP_RAMP = 50  # ...and wholly a pip this much further


def die_side(span: float, pips: int) -> float:
    """A labelled die's side in px, side faces included, judged from its label's span."""
    per = SIDE_PER_PIP_SPAN if pips == 1 else SIDE_PER_PATTERN_SPAN
    return float(np.clip(span * per, *SIDE_RANGE))


def die_mask(
    frame: np.ndarray, centre: np.ndarray, side: float, span: float, others: np.ndarray
) -> np.ndarray:
    """A (h, w) uint8 mask, 255 on the die whose top face's pips are centred at `centre`.

    GrabCut runs in a window of twice the die's side: the label's middle is the die for sure,
    the square of the die's side around it may be, and the other dice's middles are not."""
    h, w = frame.shape[:2]
    cx, cy = int(centre[0]), int(centre[1])
    x0, y0 = max(cx - int(side * 1.3), 0), max(cy - int(side * 1.3), 0)
    x1, y1 = min(cx + int(side * 1.3), w), min(cy + int(side * 1.3), h)
    window = frame[y0:y1, x0:x1]
    seeds = np.full(window.shape[:2], cv2.GC_BGD, np.uint8)
    half = int(side * 0.65)
    seeds[max(cy - y0 - half, 0) : cy - y0 + half, max(cx - x0 - half, 0) : cx - x0 + half] = (
        cv2.GC_PR_FGD
    )
    for other in others:
        cv2.circle(
            seeds, (int(other[0]) - x0, int(other[1]) - y0), int(side * 0.12), cv2.GC_BGD, -1
        )
    cv2.circle(seeds, (cx - x0, cy - y0), int(max(span * 0.55, side * 0.18)), cv2.GC_FGD, -1)
    background, foreground = np.zeros((1, 65)), np.zeros((1, 65))
    cv2.setRNGSeed(0)  # GrabCut starts its colour models from OpenCV's random numbers
    cv2.grabCut(window, seeds, (0, 0, 0, 0), background, foreground, 5, cv2.GC_INIT_WITH_MASK)
    die: np.ndarray = np.isin(seeds, (cv2.GC_FGD, cv2.GC_PR_FGD)).astype(np.uint8)
    die[_shadow(window, die)] = 0
    die = cv2.morphologyEx(die, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    mask = np.zeros((h, w), np.uint8)
    mask[y0:y1, x0:x1] = _filled_part_at(die, (cx - x0, cy - y0))
    return mask


def _shadow(window: np.ndarray, die: np.ndarray) -> np.ndarray:
    """Where the die's cut-out is the table in its shadow (darker and yellower than the rest
    of the window's table)."""
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(lab[die == 0], axis=0) if (die == 0).any() else lab.reshape(-1, 3).max(0)
    shadow = (
        (lab[..., 0] < table[0] - SHADOW_DARKER) & (lab[..., 2] > table[2] + SHADOW_YELLOWER)
    ).astype(np.uint8)
    return cv2.morphologyEx(shadow, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0


def _filled_part_at(die: np.ndarray, point: tuple[int, int]) -> np.ndarray:
    """The part of `die` (0/1) that holds `point` (all of it where the point is a pip, off the
    cut-out), with its holes (the pips) filled, as 0/255."""
    _count, parts = cv2.connectedComponents(die)
    part = parts == parts[point[1], point[0]] if die[point[1], point[0]] else die > 0
    outlines, _ = cv2.findContours(part.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros(die.shape, np.uint8)
    cv2.drawContours(filled, outlines, -1, 255, -1)
    return filled


def die_masks(frame: np.ndarray, item: Labelled) -> list[np.ndarray]:
    """One mask per labelled die of the photo; a pixel two masks claim goes to the die whose
    label is nearer."""
    assert item.spans is not None, "the labels' spans are needed (load_split gives them)"
    masks = [
        die_mask(frame, c, die_side(s, int(p)), float(s), np.delete(item.centres, i, 0))
        for i, (c, s, p) in enumerate(zip(item.centres, item.spans, item.pips, strict=True))
    ]
    if len(masks) > 1:
        yy, xx = np.mgrid[: frame.shape[0], : frame.shape[1]]
        nearest = np.argmin([(xx - c[0]) ** 2 + (yy - c[1]) ** 2 for c in item.centres], axis=0)
        masks = [np.where(nearest == i, m, 0).astype(np.uint8) for i, m in enumerate(masks)]
    return masks


def paint_die(
    frame: np.ndarray,
    mask: np.ndarray,
    body: tuple[float, float, float],
    pip: tuple[float, float, float] | None,
) -> np.ndarray:
    """The frame with the white die under `mask` painted: its body `body`, its pips `pip`
    (None: no pips), each as lit or shaded as the die was."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inside = mask > 0
    if not inside.any():
        return frame.copy()
    # Closing fills each dark spot smaller than the kernel with the body's lightness around it.
    body_light = cv2.morphologyEx(
        grey, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (21, 21))
    )
    pipness = np.clip((body_light - grey - PIP_DARKER) / PIP_RAMP, 0, 1) * inside
    pips = cv2.dilate((pipness > 0.05).astype(np.uint8), np.ones((5, 5), np.uint8))
    unpipped = cv2.inpaint(grey.clip(0, 255).astype(np.uint8), pips, 5, cv2.INPAINT_TELEA)
    lit = unpipped.astype(np.float32)[..., None] / np.percentile(grey[inside], 90)
    pip_colour = np.asarray(body if pip is None else pip, np.float32)
    colour = (
        np.asarray(body, np.float32) * (1 - pipness[..., None]) + pip_colour * pipness[..., None]
    ) * lit
    alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 1.2)[..., None]
    return (frame * (1 - alpha) + colour * alpha).clip(0, 255).astype(np.uint8)


def painted(
    item: Labelled,
    frame: np.ndarray,
    rng: np.random.Generator,
    paints: tuple[str, ...] = tuple(PAINTS),
) -> tuple[Labelled, np.ndarray]:
    """The photo with each labelled die painted a colour of `paints` (names of PAINTS) drawn
    by `rng`, and its labels with those colours (a blank grey die's pips: 0)."""
    names = list(paints)
    out, colours, pips = frame.copy(), [], item.pips.copy()
    for die, mask in enumerate(die_masks(frame, item)):
        name = names[int(rng.integers(len(names)))]
        body, pip = PAINTS[name]
        shift = rng.uniform(-PAINT_LIGHTER, PAINT_LIGHTER) + rng.uniform(-PAINT_TINT, PAINT_TINT, 3)
        out = paint_die(
            out, mask, tuple(np.clip(np.asarray(body, np.float32) + shift, 0, 255)), pip
        )
        colours.append(name)
        if pip is None:
            pips[die] = 0
    return replace(item, pips=pips, colours=tuple(colours)), out
