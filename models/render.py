"""Procedural renderer of dice scenes: training data for the detector and the pip reader."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from models.clutter import (
    Placed,
    draw_clutter,
    granite,
    light_grey_tray,
    plan,
    salt_and_pepper,
)
from models.trays import draw_felt_trays
from vision.pip_layout import PIP_LAYOUT

# Nominal die body colours (BGR); the renderer jitters them.
DIE_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (45, 40, 200),
    "blue": (190, 90, 30),
    "darkblue": (110, 40, 25),
    "green": (70, 150, 40),
    "yellow": (40, 205, 235),
    "white": (235, 235, 232),
    "ivory": (200, 225, 235),
    "black": (35, 32, 30),
    "purple": (130, 40, 110),
    "grey": (140, 140, 138),
    "orange": (30, 120, 240),
    "pink": (180, 130, 245),
    "brown": (40, 70, 120),
    "teal": (140, 140, 30),
}

CLASS_BLANK = 0
CLASS_UNSURE = 7


@dataclass(frozen=True)
class RenderedDie:
    """Ground truth for one rendered die: whole-die box, class (0 blank, 1-6, 7 unsure), size."""

    box: tuple[float, float, float, float]
    label: int
    big: bool
    colour: str


@dataclass(frozen=True)
class PipStyle:
    """How one die's pips are made, where it differs from the plain style: how far they lie from
    the face's centre (1.0: a quarter of the side), their radius (in sides), the radius of the
    lone pip of a 1, a colour for the pips of the faces in `accented` (dice made in East Asia
    print the 1, often the 4 too, in red), and how hollow they look (0 flat, 1 deep)."""

    spread: float
    radius: float
    one_radius: float
    accent: np.ndarray | None
    accented: tuple[int, ...]
    hollow: float


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix about a unit axis (Rodrigues)."""
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def _camera(elevation: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forward, right and image-down vectors of an orthographic camera at this elevation."""
    fwd = np.array([0.0, math.cos(elevation), -math.sin(elevation)])
    right = np.array([1.0, 0.0, 0.0])
    down = np.cross(fwd, right)
    return fwd, right, down


def _jitter_colour(rng: np.random.Generator, bgr: tuple[int, ...]) -> np.ndarray:
    """Nominal colour with a random shift in brightness and hue."""
    c: np.ndarray = np.array(bgr, dtype=np.float32)
    c = c * rng.uniform(0.8, 1.15) + rng.normal(0, 10, 3)
    return np.clip(c, 5, 250)


def _superellipse(n_pts: int = 28, power: float = 6.0) -> np.ndarray:
    """Outline of a rounded square of side 1 centred on 0, shape (n_pts, 2)."""
    t = np.linspace(0, 2 * math.pi, n_pts, endpoint=False)
    c, s = np.cos(t), np.sin(t)
    u = 0.5 * np.sign(c) * np.abs(c) ** (2 / power)
    v = 0.5 * np.sign(s) * np.abs(s) ** (2 / power)
    return np.stack([u, v], 1)


_OUTLINE = _superellipse()
_CIRCLE = np.stack(
    [
        np.cos(np.linspace(0, 2 * math.pi, 14, endpoint=False)),
        np.sin(np.linspace(0, 2 * math.pi, 14, endpoint=False)),
    ],
    1,
)


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A random table surface: wood, felt, printed lid or tray, as float BGR in [0, 255]."""
    kind = rng.choice(["wood", "felt", "lid", "tray", "plain"], p=[0.3, 0.25, 0.15, 0.2, 0.1])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(120, 215), rng.uniform(150, 225), rng.uniform(170, 240)])
        if rng.random() < 0.3:
            base = base * rng.uniform(0.35, 0.7)
        ang = rng.uniform(0, math.pi)
        coord = xx * math.cos(ang) + yy * math.sin(ang)
        warp = cv2.resize(
            rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
        ) * rng.uniform(10, 40)
        grain = np.sin((coord + warp) * rng.uniform(0.04, 0.25))
        img = base[None, None, :] * (1 + rng.uniform(0.03, 0.12) * grain[..., None])
    else:
        if kind == "lid":
            base = rng.uniform(20, 240, 3)
        else:
            base = _jitter_colour(
                rng,
                tuple(
                    int(v)
                    for v in rng.choice(
                        [
                            (40, 110, 30),
                            (110, 50, 20),
                            (30, 30, 120),
                            (35, 35, 35),
                            (90, 90, 90),
                            (60, 40, 90),
                            (20, 60, 40),
                            (200, 200, 200),
                            (60, 100, 140),
                        ]
                    )
                ),
            )
        img = np.ones((h, w, 3), np.float32) * base[None, None, :]
    low = cv2.resize(
        rng.normal(0, 1, (4, 5)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    img = img * (1 + 0.08 * low[..., None])
    img = img + rng.normal(0, rng.uniform(2, 8), (h, w, 1)).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if kind == "lid":
        for _ in range(rng.integers(2, 9)):
            col = tuple(int(v) for v in rng.uniform(0, 255, 3))
            x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
            r = int(rng.uniform(10, 120))
            shape = rng.integers(0, 3)
            if shape == 0:
                cv2.circle(img, (x, y), r, col, -1, cv2.LINE_AA)
            elif shape == 1:
                cv2.rectangle(img, (x, y), (x + r, y + int(rng.uniform(10, 90))), col, -1)
            else:
                cv2.putText(
                    img,
                    "LAS VEGAS"[: rng.integers(2, 10)],
                    (x, y),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    rng.uniform(0.8, 2.5),
                    col,
                    3,
                    cv2.LINE_AA,
                )
    if kind == "tray":
        rim = tuple(int(v) for v in rng.uniform(20, 230, 3))
        t = int(rng.uniform(15, 60))
        x0, y0 = int(rng.uniform(-t, 80)), int(rng.uniform(-t, 60))
        x1, y1 = int(w - rng.uniform(-t, 80)), int(h - rng.uniform(-t, 60))
        cv2.rectangle(img, (x0, y0), (x1, y1), rim, t, cv2.LINE_AA)
    for _ in range(rng.integers(0, 3) if rng.random() < 0.4 else 0):
        col = tuple(int(v) for v in rng.uniform(10, 120, 3))
        pts = np.cumsum(rng.normal(0, 60, (5, 2)), 0) + rng.uniform(0, [w, h])
        cv2.polylines(img, [pts.astype(np.int32)], False, col, int(rng.uniform(3, 14)), cv2.LINE_AA)
    return img


def _draw_die(
    img: np.ndarray,
    rng: np.random.Generator,
    centre: np.ndarray,
    side: float,
    rot: np.ndarray,
    elevation: float,
    body: np.ndarray,
    pip: np.ndarray,
    faces: dict[int, int],
    light: np.ndarray,
    pip_radius: float,
    dims: tuple[float, float, float] = (1.0, 1.0, 1.0),
    flat: float = 0.0,
    ray: np.ndarray | None = None,
    shine: float = 0.0,
    veins: np.ndarray | None = None,
    speckles: np.ndarray | None = None,
    style: PipStyle | None = None,
    clear: float = 0.0,
) -> tuple[float, ...]:
    """Draw one die (or a box of other `dims`) and return its box (x0, y0, x1, y1).

    With `ray` (the direction from a camera straight above the table to this die), the die is
    drawn as that camera sees it, its top face pushed away from the frame's centre and the side
    faces toward it show; otherwise as an orthographic camera at `elevation` sees it. `shine`
    (0-1) is how strongly a glossy die's face nearest the camera reflects the light; `veins`
    (a colour) marbles the die's body with swirls of that colour, `speckles` (a colour) dots it
    with flecks smaller than a pip. `style` changes the pips' places, sizes, colours and depth.
    `clear` (0-1) is how much of the table a translucent die lets through its body; the pips of
    its hidden faces then show faintly through it.
    """
    fwd, right, down = _camera(elevation)
    if ray is not None:
        fwd, right, down = ray / np.linalg.norm(ray), np.array([1.0, 0, 0]), np.array([0, -1.0, 0])
    values = _face_values(faces)

    def project(p3: np.ndarray) -> np.ndarray:
        q = (p3 * np.asarray(dims)) @ rot.T * side
        if ray is not None:  # along the ray onto the table's plane, which the image is
            q = q - (q[..., 2:] / fwd[2]) * fwd
        return np.stack([q @ right, q @ down], -1) + centre

    visible = _visible_faces(rot, fwd)
    outlines = [project(_face_outline(key)) for _, key, _ in visible]
    hull = cv2.convexHull(np.concatenate(outlines).astype(np.float32))
    under = img.copy() if clear > 0 else None
    cv2.fillPoly(
        img,
        [np.round(hull * 16).astype(np.int32)],
        tuple(float(v) for v in body * 0.55),
        cv2.LINE_AA,
        shift=4,
    )
    patterns = [
        (draw(rng, hull[:, 0], side), colour)
        for draw, colour in ((_marbling, veins), (_speckling, speckles))
        if colour is not None
    ]
    look = _Look(body, pip, light, rot, flat, pip_radius, style)
    # a translucent die's pips are painted on after its body
    painted = _paint_faces(img, visible, outlines, project, values, look, patterns, under is None)
    if under is not None:
        shown = {key for _, key, _ in visible}
        hidden = [(key, values[key]) for key in _FACE_NORMALS if key not in shown and values[key]]
        _see_through_die(
            img, under, hull[:, 0], project, hidden, body, pip, pip_radius, style, clear
        )
        for face_pips in painted:
            _draw_pips(img, *face_pips)
    if shine > 0 and visible:
        towards_light = np.array([float(light @ right), float(light @ down)])
        _glare(img, rng, outlines[-1], side, towards_light, shine)
    x0, y0 = hull[:, 0, 0].min(), hull[:, 0, 1].min()
    x1, y1 = hull[:, 0, 0].max(), hull[:, 0, 1].max()
    return float(x0), float(y0), float(x1), float(y1)


@dataclass(frozen=True)
class _Look:
    """How a die's faces are painted: colours, light, pose and pips."""

    body: np.ndarray
    pip: np.ndarray
    light: np.ndarray
    rot: np.ndarray
    flat: float
    pip_radius: float
    style: PipStyle | None


def _paint_faces(
    img: np.ndarray,
    visible: list[tuple[float, str, np.ndarray]],
    outlines: list[np.ndarray],
    project: Callable[[np.ndarray], np.ndarray],
    values: dict[str, int],
    look: _Look,
    patterns: list[tuple[Any, np.ndarray]],
    with_pips: bool,
) -> list[tuple]:
    """Paint each visible face, shaded by the light, with its pattern and (`with_pips`) pips.

    Returns the pips left to paint, each as `_draw_pips` arguments.
    """
    left: list[tuple] = []
    for (_, key, nw), outline in zip(visible, outlines, strict=True):
        lit = max(0.0, float(nw @ look.light))
        # `flat` blends toward the even light of a room lit from everywhere: sides as bright
        # as the top, which makes the side faces' pips as clear as the top face's.
        shade = (1 - look.flat) * (0.5 + 0.55 * lit) + look.flat * (0.88 + 0.12 * lit)
        col = np.clip(look.body * shade, 0, 255)
        cv2.fillPoly(
            img,
            [np.round(outline * 16).astype(np.int32)],
            tuple(float(v) for v in col),
            cv2.LINE_AA,
            shift=4,
        )
        for pattern, colour in patterns:
            _pattern_face(img, outline, pattern, np.clip(colour * shade, 0, 255))
        value = values[key]
        if value == 0:
            continue
        a, b = _face_axes(key)
        face_pips = (
            project,
            _FACE_NORMALS[key] * 0.5,
            a,
            b,
            value,
            col,
            look.pip,
            shade,
            look.pip_radius,
            look.style,
            (float(look.light @ (look.rot @ a)), float(look.light @ (look.rot @ b))),
        )
        if with_pips:
            _draw_pips(img, *face_pips)
        else:
            left.append(face_pips)
    return left


_FACE_NORMALS = {
    "+z": np.array([0, 0, 1.0]),
    "-z": np.array([0, 0, -1.0]),
    "+x": np.array([1.0, 0, 0]),
    "-x": np.array([-1.0, 0, 0]),
    "+y": np.array([0, 1.0, 0]),
    "-y": np.array([0, -1.0, 0]),
}
"""The outward normal of each face of a die lying flat, in the die's own frame."""

_FACE_AXES = {
    "+z": ([1, 0, 0], [0, 1, 0]),
    "-z": ([1, 0, 0], [0, -1, 0]),
    "+x": ([0, 1, 0], [0, 0, 1]),
    "-x": ([0, -1, 0], [0, 0, 1]),
    "+y": ([-1, 0, 0], [0, 0, 1]),
    "-y": ([1, 0, 0], [0, 0, 1]),
}
"""Two axes spanning each face, which place its pips."""


def _face_values(faces: dict[int, int]) -> dict[str, int]:
    """Each face's pips from the top and two side values (opposite faces add up to 7; 0 blank)."""
    top, first, second = faces[0], faces[1], faces[2]
    return {
        "+z": top,
        "-z": (7 - top) % 7,
        "+x": first,
        "-x": (7 - first) % 7,
        "+y": second,
        "-y": (7 - second) % 7,
    }


def _face_axes(key: str) -> tuple[np.ndarray, np.ndarray]:
    a, b = _FACE_AXES[key]
    return np.array(a, float), np.array(b, float)


def _face_outline(key: str) -> np.ndarray:
    """A face's rounded outline in the die's own frame."""
    a, b = _face_axes(key)
    return _FACE_NORMALS[key][None, :] * 0.5 + _OUTLINE[:, :1] * a + _OUTLINE[:, 1:] * b


def _visible_faces(rot: np.ndarray, fwd: np.ndarray) -> list[tuple[float, str, np.ndarray]]:
    """(how squarely it faces the camera, face, normal) for each face the camera sees, least first."""
    visible = []
    for key, n in _FACE_NORMALS.items():
        nw = rot @ n
        facing = -float(nw @ fwd)
        if facing > 0.02:
            visible.append((facing, key, nw))
    visible.sort()
    return visible


def _see_through_die(
    img: np.ndarray,
    under: np.ndarray,
    hull: np.ndarray,
    project: Callable[[np.ndarray], np.ndarray],
    hidden: list[tuple[str, int]],
    body: np.ndarray,
    pip: np.ndarray,
    pip_radius: float,
    style: PipStyle | None,
    clear: float,
) -> None:
    """A translucent die: the table shows through its body, and its hidden faces' pips faintly."""
    _see_through(img, under, hull, body, clear)
    ghost = img.copy()
    for key, value in hidden:
        a, b = _face_axes(key)
        _draw_pips(
            ghost,
            project,
            _FACE_NORMALS[key] * 0.5,
            a,
            b,
            value,
            body,
            pip,
            0.8,
            pip_radius,
            style,
            (0.0, 0.0),
        )
    _blend_inside(img, ghost, hull, clear * 0.4)


def _draw_pips(
    img: np.ndarray,
    project,
    face_centre: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    value: int,
    face_colour: np.ndarray,
    pip: np.ndarray,
    shade: float,
    pip_radius: float,
    style: PipStyle | None,
    light_on_face: tuple[float, float],
) -> None:
    """Draw the pips of one face (centre and axes `a`, `b` in die units) in place. A hollow pip
    is a disc of the pip's colour with a smaller disc toward the light's side blended with the
    face's colour: the pit's wall away from the light catches it, the one toward it is shaded."""
    spread, radius, colour = 1.0, pip_radius, pip
    if style is not None:
        spread, radius = style.spread, style.radius
        if style.accent is not None and value in style.accented:
            colour = style.accent
    if style is not None and value == 1:
        radius = style.one_radius
    pcol = np.clip(colour * (0.6 + 0.4 * shade), 0, 255)
    toward = np.array(light_on_face)
    toward = toward / max(float(np.linalg.norm(toward)), 1e-6)
    for u, v in PIP_LAYOUT[value]:
        u, v = u * spread, v * spread
        discs = [((u, v), radius, pcol)]
        if style is not None and style.hollow > 0:
            lit = pcol * (1 - style.hollow * 0.6) + face_colour * style.hollow * 0.6
            du, dv = toward * radius * 0.3
            discs.append(((u + du, v + dv), radius * 0.75, lit))
        for (cu, cv), r, c in discs:
            circ = (
                face_centre[None, :] + (cu + r * _CIRCLE[:, :1]) * a + (cv + r * _CIRCLE[:, 1:]) * b
            )
            cv2.fillPoly(
                img,
                [np.round(project(circ) * 16).astype(np.int32)],
                tuple(float(x) for x in c),
                cv2.LINE_AA,
                shift=4,
            )


def _blend_inside(img: np.ndarray, other: np.ndarray, outline: np.ndarray, amount: float) -> None:
    """Blend `other` (an image the size of `img`) into `img` inside an outline (n, 2), in
    place, by `amount` (0-1)."""
    x0, y0, h, w = _bounds(outline)
    x1, y1 = min(x0 + w, img.shape[1]), min(y0 + h, img.shape[0])
    x0, y0 = max(x0, 0), max(y0, 0)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(
        mask, [np.round((outline - [x0, y0]) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4
    )
    alpha = (mask * amount)[..., None]
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(roi * (1 - alpha) + other[y0:y1, x0:x1] * alpha, 0, 255).astype(
        np.uint8
    )


def _see_through(
    img: np.ndarray, under: np.ndarray, outline: np.ndarray, body: np.ndarray, clear: float
) -> None:
    """Let the table (`under`, the frame before the die was drawn) show through a translucent
    die's body (outline (n, 2)), tinted by the body's colour, in place."""
    tinted = np.clip(under.astype(np.float32) * (0.35 + 0.65 * body / 255.0) * 1.15, 0, 255)
    _blend_inside(img, tinted, outline, clear)


def _pip_style(rng: np.random.Generator, body: np.ndarray) -> PipStyle:
    """A random pip style of the kinds real dice show: pips nearer or farther from the centre,
    smaller or larger, a large 1, red 1s and 4s on light dice, pits that catch the light."""
    spread = rng.uniform(0.8, 1.2)
    radius = rng.uniform(0.065, min(0.13, 0.42 * 0.25 * spread))
    one_radius = rng.uniform(0.14, 0.22) if rng.random() < 0.5 else radius
    accent, accented = None, tuple[int, ...]()
    light_body = float(body @ np.array([0.11, 0.59, 0.3])) > 150
    if rng.random() < 0.4 and light_body:
        accent = _jitter_colour(rng, (40, 40, 190))
        accented = (1, 4) if rng.random() < 0.5 else (1,)
    return PipStyle(spread, radius, one_radius, accent, accented, rng.uniform(0.0, 0.7))


def _bounds(points: np.ndarray) -> tuple[int, int, int, int]:
    """Whole-pixel bounding box of points (n, 2): its corner x, y and its height and width."""
    x0, y0 = np.floor(points.min(0)).astype(int)
    x1, y1 = np.ceil(points.max(0)).astype(int) + 1
    return int(x0), int(y0), max(int(y1 - y0), 1), max(int(x1 - x0), 1)


def _marbling(
    rng: np.random.Generator, hull: np.ndarray, side: float
) -> tuple[int, int, np.ndarray]:
    """Where the veins of a marbled die lie over its outline's bounding box: the box's corner
    and a map of vein strength (0-1) over it."""
    x0, y0, h, w = _bounds(hull)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = (
        cv2.resize(
            rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
        )
        * side
        * rng.uniform(0.1, 0.4)
    )
    ang = rng.uniform(0, math.pi)
    coord = (xx * math.cos(ang) + yy * math.sin(ang) + warp) / side * rng.uniform(6, 16)
    strength = ((np.sin(coord) + 1) / 2) ** rng.uniform(1.5, 6) * rng.uniform(0.4, 0.9)
    return x0, y0, strength.astype(np.float32)


def _speckling(
    rng: np.random.Generator, hull: np.ndarray, side: float
) -> tuple[int, int, np.ndarray]:
    """Where the flecks of a speckled die lie over its outline's bounding box: the box's corner
    and a map of fleck strength (0-1) over it. Flecks are a third of a pip across or less."""
    x0, y0, h, w = _bounds(hull)
    strength = np.zeros((h, w), np.float32)
    count = int(rng.uniform(20, 120) * h * w / side**2)
    radius = max(side * rng.uniform(0.01, 0.03), 0.6)
    for x, y in rng.uniform([0, 0], [w, h], (count, 2)):
        cv2.circle(
            strength, (int(x * 16), int(y * 16)), int(radius * 16), 1.0, -1, cv2.LINE_AA, shift=4
        )
    return x0, y0, strength * rng.uniform(0.5, 1.0)


def _pattern_face(
    img: np.ndarray, face: np.ndarray, pattern: tuple[int, int, np.ndarray], colour: np.ndarray
) -> None:
    """Blend a die's body pattern (marbling or speckling, in that colour) into one of its
    faces (outline `face`, frame px), in place."""
    x0, y0, strength = pattern
    h, w = img.shape[:2]
    mh, mw = strength.shape
    ax0, ay0 = max(x0, 0), max(y0, 0)
    ax1, ay1 = min(x0 + mw, w), min(y0 + mh, h)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    mask = np.zeros((ay1 - ay0, ax1 - ax0), np.float32)
    cv2.fillPoly(
        mask, [np.round((face - [ax0, ay0]) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4
    )
    alpha = (mask * strength[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0])[..., None]
    roi = img[ay0:ay1, ax0:ax1].astype(np.float32)
    img[ay0:ay1, ax0:ax1] = np.clip(roi * (1 - alpha) + colour * alpha, 0, 255).astype(np.uint8)


def _glare(
    img: np.ndarray,
    rng: np.random.Generator,
    face: np.ndarray,
    side: float,
    towards_light: np.ndarray,
    shine: float,
) -> None:
    """Light reflected by a glossy face (outline `face`, frame px), drawn in place: a soft
    bright spot off the face's middle toward the light, and the lit rim of its rounded edge."""
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(face.min(0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(face.max(0)).astype(int) + 3, [w, h])
    if x1 - x0 < 3 or y1 - y0 < 3:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(
        mask, [np.round((face - [x0, y0]) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4
    )
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    length = float(np.linalg.norm(towards_light))
    toward = towards_light / length if length > 1e-3 else np.array([0.0, -1.0])
    spot = face.mean(0) + toward * side * rng.uniform(0.0, 0.3) + rng.normal(0, 0.08 * side, 2)
    ang = rng.uniform(0, math.pi)
    du, dv = xx - spot[0], yy - spot[1]
    along = du * math.cos(ang) + dv * math.sin(ang)
    across = -du * math.sin(ang) + dv * math.cos(ang)
    radius = side * rng.uniform(0.05, 0.2)
    stretch = rng.uniform(1.0, 2.5)
    glow = np.exp(-0.5 * ((along / (radius * stretch)) ** 2 + (across / radius) ** 2))
    glow *= rng.uniform(0.4, 1.0)
    thin = max(int(round(side * 0.06)), 1)
    rim = mask - cv2.erode(mask, np.ones((2 * thin + 1, 2 * thin + 1), np.uint8))
    lit_side = np.clip(
        ((xx - face[:, 0].mean()) * toward[0] + (yy - face[:, 1].mean()) * toward[1])
        / (0.5 * side),
        0,
        1,
    )
    glow = glow + rim * lit_side * rng.uniform(0.3, 0.9)
    glow = np.clip(glow * mask * shine, 0, 1)[..., None]
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(roi + (255 - roi) * glow, 0, 255).astype(np.uint8)


def _distractor(
    img: np.ndarray,
    rng: np.random.Generator,
    pos: np.ndarray,
    size: float,
    elevation: float,
    light: np.ndarray,
) -> None:
    """A non-die object: an elongated or flat box (cable plug, ferrite, phone, card)."""
    long = rng.uniform(1.8, 4.0)
    dims = (long, rng.uniform(0.5, 1.0), rng.uniform(0.2, 1.0))
    body = _jitter_colour(
        rng,
        tuple(
            int(v)
            for v in rng.choice(
                [(30, 30, 30), (60, 60, 60), (200, 200, 200), (150, 150, 160), (40, 40, 120)]
            )
        ),
    )
    rot = _rot(np.array([0, 0, 1.0]), rng.uniform(0, 2 * math.pi))
    _draw_die(
        img,
        rng,
        pos,
        size / long * 1.5,
        rot,
        elevation,
        body,
        body,
        {0: 0, 1: 0, 2: 0},
        light,
        0.1,
        dims,
    )


def _pip_colour(rng: np.random.Generator, body: np.ndarray) -> np.ndarray:
    """Pips contrast with the body: dark on light dice, white (or gold) on dark ones."""
    lum = float(body @ np.array([0.11, 0.59, 0.3]))
    if lum > 120:
        if rng.random() < 0.15:
            return _jitter_colour(rng, ((40, 40, 190), (150, 60, 20))[int(rng.integers(0, 2))])
        return np.full(3, rng.uniform(10, 60))
    if rng.random() < 0.1:
        return _jitter_colour(rng, (60, 190, 220))
    return np.full(3, rng.uniform(200, 250))


def render_scene(
    rng: np.random.Generator,
    h: int = 480,
    w: int = 640,
    n_dice: int | None = None,
    elevation_deg: float | None = None,
    camouflage: float = 0.0,
    camera_height: float | None = None,
    glossy: float = 0.0,
    marbled: float = 0.0,
    speckled: float = 0.0,
    pip_styles: float = 0.0,
    translucent: float = 0.0,
    clutter: float = 0.0,
    round_clutter_on_a_tray: bool = False,
    granite_table: bool = False,
    felt_trays: bool = False,
    things_drawn: Placed | None = None,
) -> tuple[np.ndarray, list[RenderedDie]]:
    """Render one BGR frame of dice on a random surface and return it with its ground truth.

    `camouflage` is the share of dice whose body takes the colour of the table under them
    (a green die on green felt): the hardest dice to see. `camera_height` (in frame widths)
    puts a camera straight above the frame's centre at that height, so that dice away from the
    centre show the side faces that face it, as in a photo taken from above; without it the
    camera is orthographic, at the scene's elevation. `glossy` is the share of dice with a
    shiny finish, which reflects the light as a bright spot and rim on the face nearest the
    camera; `marbled` the share of dice whose body is swirled with veins of another colour;
    `speckled` the share dotted with small flecks of another colour; `pip_styles` the share
    whose pips are made otherwise than the plain style (`PipStyle`); `translucent` the share of
    see-through dice, whose hidden faces' pips show faintly. `clutter` is the share of scenes
    that also hold things which are not dice and get no box (coins, chips, screws, notes, keys;
    `models.clutter`), some on a speckled granite table or with salt-and-pepper noise;
    `round_clutter_on_a_tray` makes those things round ones only (screw heads, magnets, lenses,
    caps), on a light grey tray where the table is not granite. `granite_table` puts every
    scene on a speckled granite table; `felt_trays` puts one felt dice tray or two on it
    (`models.trays`), with every die inside one. Where the scene holds clutter and
    `things_drawn` is a list, each clutter thing's (centre, size) is added to it.
    """
    extras = plan(rng, clutter)
    if extras.granite or granite_table or felt_trays:
        img = granite(rng, h, w)
    elif round_clutter_on_a_tray:
        img = light_grey_tray(rng, h, w)
    else:
        img = _background(rng, h, w)
    table = img.copy() if camouflage else None
    elevation = math.radians(rng.uniform(65, 90) if rng.random() < 0.4 else rng.uniform(30, 65))
    if elevation_deg is not None:
        elevation = math.radians(elevation_deg)
    side = float(np.exp(rng.uniform(math.log(20), math.log(85))))
    floors = draw_felt_trays(rng, img, side) if felt_trays else None
    if n_dice is None:
        n_dice = int(rng.integers(0, 15)) if rng.random() < 0.95 else 0
    light, shadow_dir, flat = _scene_light(rng, side)
    colour_names = list(DIE_COLOURS)
    scene_colours = rng.choice(colour_names, size=int(rng.integers(1, 6)))
    placed = _scatter_distractors(img, rng, side, elevation, light)
    if extras.things:
        first_thing = len(placed)
        draw_clutter(img, rng, side, light, placed, round_only=round_clutter_on_a_tray)
        if things_drawn is not None:
            things_drawn.extend(placed[first_thing:])
    truths: list[RenderedDie] = []
    finishes = (glossy, marbled, speckled, pip_styles, translucent)
    for _ in range(n_dice):
        big = rng.random() < 0.12
        s = side * (rng.uniform(1.3, 1.6) if big else rng.uniform(0.93, 1.07))
        pos = _free_spot(rng, placed, s, w, h, floors)
        if pos is None:
            continue
        placed.append((pos, s))
        cname = str(rng.choice(scene_colours))
        body = _die_body(rng, cname, table, pos, camouflage)
        pip = _pip_colour(rng, body)
        top, cocked, rot, faces = _die_pose(rng, cname)
        el = elevation + rng.normal(0, 0.05)
        img = _cast_shadow(img, rng, pos, shadow_dir, s)
        ray = _camera_ray(pos, w, h, camera_height)
        finish = _die_finish(rng, body, colour_names, finishes)
        pip_radius = rng.uniform(0.075, 0.11)
        box = _draw_die(
            img,
            rng,
            pos,
            s,
            rot,
            el,
            body,
            pip,
            faces,
            light,
            pip_radius,
            flat=flat,
            ray=ray,
            **finish,
        )
        truth = _truth(box, w, h, CLASS_UNSURE if cocked else top, big, cname)
        if truth is not None:
            truths.append(truth)
    frame = _camera_effects(rng, img)
    if extras.salt:
        frame = salt_and_pepper(rng, frame, extras.salt)
    return frame, truths


def _camera_ray(pos: np.ndarray, w: int, h: int, height: float | None) -> np.ndarray | None:
    """The direction from a camera `height` frame widths above the frame's centre to `pos`."""
    if height is None:
        return None  # an orthographic camera
    return np.array([pos[0] - w / 2, h / 2 - pos[1], -height * w])


def _scatter_distractors(
    img: np.ndarray, rng: np.random.Generator, side: float, elevation: float, light: np.ndarray
) -> list[tuple[np.ndarray, float]]:
    """Draw up to three things that are not dice (in half the scenes); returns where they lie."""
    h, w = img.shape[:2]
    placed: list[tuple[np.ndarray, float]] = []
    for _ in range(int(rng.integers(0, 4)) if rng.random() < 0.5 else 0):
        spot = rng.uniform([0, 0], [w, h])
        size = side * rng.uniform(0.8, 2.5)
        placed.append((spot, size * 1.5))
        _distractor(img, rng, spot, size, elevation, light)
    return placed


def _scene_light(rng: np.random.Generator, side: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The light's direction, the shadow's offset, and how even the room light is (0-0.9)."""
    light_el, light_az = rng.uniform(0.45, 1.57), rng.uniform(0, 2 * math.pi)
    light = np.array(
        [
            math.cos(light_el) * math.cos(light_az),
            math.cos(light_el) * math.sin(light_az),
            math.sin(light_el),
        ]
    )
    shadow_dir = -light[:2] * side * rng.uniform(0.05, 0.4)
    flat = rng.uniform(0.0, 0.9) if rng.random() < 0.6 else 0.0
    return light, shadow_dir, flat


def _free_spot(
    rng: np.random.Generator,
    placed: list[tuple[np.ndarray, float]],
    s: float,
    w: int,
    h: int,
    floors: list[tuple[float, float, float, float]] | None = None,
) -> np.ndarray | None:
    """A centre for a die of size `s` touching nothing placed, often beside another; with
    `floors` (x0, y0, x1, y1), wholly on one of them (a tray's floor); None if twenty tries
    find none."""
    for _attempt in range(20):
        if placed and rng.random() < 0.4:
            anchor, ps = placed[int(rng.integers(0, len(placed)))]
            ang = rng.uniform(0, 2 * math.pi)
            dist = (ps + s) * 0.5 * rng.uniform(1.0, 1.25)
            cand = anchor + dist * np.array([math.cos(ang), math.sin(ang)])
        elif floors:
            roomy = [f for f in floors if min(f[2] - f[0], f[3] - f[1]) >= 1.5 * s]
            if not roomy:
                return None  # no floor holds a die this large
            x0, y0, x1, y1 = roomy[int(rng.integers(0, len(roomy)))]
            cand = rng.uniform([x0 + 0.75 * s, y0 + 0.75 * s], [x1 - 0.75 * s, y1 - 0.75 * s])
        else:
            cand = rng.uniform([-0.2 * s, -0.2 * s], [w + 0.2 * s, h + 0.2 * s])
        if floors and not _on_a_floor(cand, s, floors):
            continue
        if all(np.linalg.norm(cand - p) > (ps + s) * 0.5 * 0.98 for p, ps in placed):
            return np.asarray(cand)
    return None


def _on_a_floor(
    centre: np.ndarray, s: float, floors: list[tuple[float, float, float, float]]
) -> bool:
    """Whether a die of size `s` at `centre`, turned any way, lies wholly on one floor."""
    reach = 0.75 * s  # half a die's diagonal, and a little
    return any(
        x0 + reach <= centre[0] <= x1 - reach and y0 + reach <= centre[1] <= y1 - reach
        for x0, y0, x1, y1 in floors
    )


def _die_body(
    rng: np.random.Generator,
    cname: str,
    table: np.ndarray | None,
    pos: np.ndarray,
    camouflage: float,
) -> np.ndarray:
    """A die's body colour: its colour's, or (camouflaged) the colour of the table under it."""
    body = _jitter_colour(rng, DIE_COLOURS[cname])
    if table is not None and rng.random() < camouflage:
        h, w = table.shape[:2]
        x, y = int(np.clip(pos[0], 0, w - 1)), int(np.clip(pos[1], 0, h - 1))
        under = table[y, x].astype(np.float32)
        body = np.clip(under * rng.uniform(0.85, 1.15) + rng.normal(0, 8, 3), 5, 250)
    return body


def _die_pose(rng: np.random.Generator, cname: str) -> tuple[int, bool, np.ndarray, dict[int, int]]:
    """The top value (0 for a blank grey die), whether it lies cocked, its rotation, its faces."""
    blank = cname == "grey" and rng.random() < 0.5
    top = 0 if blank else int(rng.integers(1, 7))
    cocked = rng.random() < 0.06
    yaw = _rot(np.array([0, 0, 1.0]), rng.uniform(0, 2 * math.pi))
    tilt_axis = np.array([rng.normal(), rng.normal(), 0.0])
    tilt = rng.uniform(0.4, 0.75) if cocked else abs(rng.normal(0, 0.05))
    rot = _rot(tilt_axis, tilt) @ yaw
    sides = (
        [0, 0]
        if blank
        else list(rng.choice([v for v in range(1, 7) if v not in (top, 7 - top)], 2, replace=False))
    )
    if not blank and 7 - sides[0] == sides[1]:
        sides[1] = 7 - sides[1]
    return top, cocked, rot, {0: top, 1: int(sides[0]), 2: int(sides[1])}


def _cast_shadow(
    img: np.ndarray, rng: np.random.Generator, pos: np.ndarray, shadow_dir: np.ndarray, s: float
) -> np.ndarray:
    """The frame with a die's soft shadow darkening the table beside it."""
    h, w = img.shape[:2]
    sh = np.array([[pos[0] + shadow_dir[0], pos[1] + shadow_dir[1]]])
    shadow = np.zeros((h, w), np.float32)
    cv2.circle(shadow, (int(sh[0, 0]), int(sh[0, 1])), int(s * 0.62), 1.0, -1)
    k = int(s * 0.4) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0) * rng.uniform(0.15, 0.45)
    return (img * (1 - shadow[..., None])).astype(np.uint8)


def _die_finish(
    rng: np.random.Generator,
    body: np.ndarray,
    colour_names: list[str],
    shares: tuple[float, float, float, float, float],
) -> dict[str, Any]:
    """A die's finish, each with its share of dice: shine, veins, speckles, pip style, clearness."""
    glossy, marbled, speckled, pip_styles, translucent = shares
    shine = rng.uniform(0.3, 1.0) if glossy and rng.random() < glossy else 0.0
    veins = None
    if marbled and rng.random() < marbled:
        veins = _jitter_colour(rng, DIE_COLOURS[str(rng.choice(colour_names))])
    speckles = None
    if speckled and rng.random() < speckled:
        speckles = _jitter_colour(rng, DIE_COLOURS[str(rng.choice(colour_names))])
    style = _pip_style(rng, body) if pip_styles and rng.random() < pip_styles else None
    clear = rng.uniform(0.35, 0.65) if translucent and rng.random() < translucent else 0.0
    return {"shine": shine, "veins": veins, "speckles": speckles, "style": style, "clear": clear}


def _truth(
    box: tuple[float, ...], w: int, h: int, label: int, big: bool, cname: str
) -> RenderedDie | None:
    """A die's ground truth, its box cut to the frame; unsure when mostly outside it."""
    x0, y0, x1, y1 = box
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w - 1), min(y1, h - 1)
    if cx1 - cx0 < 0.6 * (x1 - x0) or cy1 - cy0 < 0.6 * (y1 - y0):
        label = CLASS_UNSURE  # mostly outside the frame: cannot be read
    if cx1 > cx0 and cy1 > cy0:
        return RenderedDie((cx0, cy0, cx1, cy1), label, big, cname)
    return None


def _camera_effects(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Light colour cast, gradient, blur, noise and JPEG artefacts of a cheap webcam."""
    h, w = img.shape[:2]
    out: np.ndarray = img.astype(np.float32)
    cast = np.array([rng.uniform(0.8, 1.2), 1.0, rng.uniform(0.8, 1.2)], np.float32)
    gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :] * rng.normal(0, 0.12)
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None] * rng.normal(0, 0.12)
    out = out * cast[None, None, :] * (1 + gx + gy)[..., None] * rng.uniform(0.7, 1.25)
    if rng.random() < 0.7:
        sigma = rng.uniform(0.3, 1.6)
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < 0.1:
        k = int(rng.integers(3, 9))
        kern: np.ndarray = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kern = cv2.warpAffine(kern, m, (k, k))
        out = cv2.filter2D(out, -1, kern / max(kern.sum(), 1e-6))
    out = out + rng.normal(0, rng.uniform(1, 7), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else np.asarray(decoded)
