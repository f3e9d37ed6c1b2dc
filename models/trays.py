"""Felt dice trays drawn on a table for rendered scenes: a rim, a felt floor with its nap and a
stitched seam, one tray or two side by side, and where in them dice may lie."""

from __future__ import annotations

import cv2
import numpy as np

FELT_BGR = (
    (40, 100, 30),  # green
    (110, 50, 20),  # blue
    (30, 30, 120),  # red
    (35, 35, 35),  # black
    (90, 40, 70),  # purple
    (95, 95, 95),  # grey
)
RIM_BGR = ((30, 60, 110), (25, 25, 25), (60, 90, 140), (20, 30, 60))  # wood, black, tan, leather


def draw_felt_trays(
    rng: np.random.Generator, img: np.ndarray, die_side: float
) -> list[tuple[float, float, float, float]]:
    """Draw one felt tray, or two side by side, on the table `img` (uint8 BGR, in place), each
    with a rim and a seam stitched along it, large enough for dice of `die_side` px; return
    each tray's floor (x0, y0, x1, y1) in px, where its dice lie."""
    h, w = img.shape[:2]
    two = rng.random() < 0.5 and w >= 8 * die_side
    margin = rng.uniform(0.03, 0.1) * w
    columns = [(margin, w - margin)]
    if two:
        gap = rng.uniform(0.02, 0.06) * w
        middle = w / 2 + rng.uniform(-0.05, 0.05) * w
        columns = [(margin, middle - gap / 2), (middle + gap / 2, w - margin)]
    floors = []
    for x0, x1 in columns:
        y0, y1 = rng.uniform(0.03, 0.12) * h, h - rng.uniform(0.03, 0.12) * h
        rim = max(4, int(rng.uniform(0.15, 0.45) * die_side))
        _draw_tray(rng, img, (int(x0), int(y0), int(x1), int(y1)), rim)
        floors.append((x0 + rim, y0 + rim, x1 - rim, y1 - rim))
    return floors


def _draw_tray(
    rng: np.random.Generator, img: np.ndarray, outer: tuple[int, int, int, int], rim: int
) -> None:
    """One tray: its rim `rim` px wide around `outer`, and a felt floor inside with its nap,
    a soft shading and a dashed seam a little in from the rim."""
    x0, y0, x1, y1 = outer
    rim_colour = np.array(RIM_BGR[int(rng.integers(0, len(RIM_BGR)))], np.float32)
    rim_colour *= rng.uniform(0.8, 1.25)
    cv2.rectangle(img, (x0, y0), (x1, y1), tuple(float(v) for v in rim_colour), -1, cv2.LINE_AA)
    # The rim's top catches the light along its inner edge.
    light_edge = tuple(float(v) for v in np.clip(rim_colour * 1.4 + 20, 0, 255))
    cv2.rectangle(img, (x0 + rim - 2, y0 + rim - 2), (x1 - rim + 2, y1 - rim + 2), light_edge, 1)
    fx0, fy0, fx1, fy1 = x0 + rim, y0 + rim, x1 - rim, y1 - rim
    fh, fw = fy1 - fy0, fx1 - fx0
    if fh < 8 or fw < 8:
        return
    felt = np.array(FELT_BGR[int(rng.integers(0, len(FELT_BGR)))], np.float32)
    felt = felt * rng.uniform(0.75, 1.3)
    nap = cv2.GaussianBlur(
        rng.normal(0, rng.uniform(4, 9), (fh, fw)).astype(np.float32), (0, 0), 0.8
    )
    low = cv2.resize(rng.normal(0, 1, (3, 4)).astype(np.float32), (fw, fh))
    # The rim's shadow falls on the floor along two of its sides.
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    shade = 1 - 0.25 * np.exp(-np.minimum(xx, yy) / max(rim * 0.6, 2.0))
    floor = (felt[None, None] * (1 + 0.07 * low[..., None]) + nap[..., None]) * shade[..., None]
    img[fy0:fy1, fx0:fx1] = np.clip(floor, 0, 255).astype(np.uint8)
    inset = int(rng.uniform(4, 14))
    seam = tuple(float(v) for v in np.clip(felt * rng.choice([0.55, 1.6]), 0, 255))
    stitch = int(rng.integers(4, 9))
    corners = [(fx0 + inset, fy0 + inset), (fx1 - inset, fy0 + inset), (fx1 - inset, fy1 - inset),
               (fx0 + inset, fy1 - inset)]  # fmt: skip
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        length = max(abs(bx - ax), abs(by - ay))
        for start in range(0, length, 2 * stitch):
            t0, t1 = start / length, min(start + stitch, length) / length
            p0 = (int(ax + (bx - ax) * t0), int(ay + (by - ay) * t0))
            p1 = (int(ax + (bx - ax) * t1), int(ay + (by - ay) * t1))
            cv2.line(img, p0, p1, seam, 1, cv2.LINE_AA)
